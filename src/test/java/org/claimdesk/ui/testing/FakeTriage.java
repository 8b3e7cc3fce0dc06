package org.claimdesk.ui.testing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.TaskRunner;
import org.claimdesk.ui.outbox.OutboxTriage;

/** Triage with canned answers: records what the ViewModel asked for. */
public final class FakeTriage implements OutboxTriage {
    public List<ErrorGroup> groups = List.of(
            new ErrorGroup("422 invalid_claim: holder id # not found", 3, Instant.parse("2026-11-01T10:00:00Z"),
                    Instant.parse("2026-11-02T10:00:00Z"), "422 invalid_claim: holder id HLD-1 not found"),
            new ErrorGroup("503 service unavailable", 2, Instant.parse("2026-11-01T11:00:00Z"),
                    Instant.parse("2026-11-02T11:00:00Z"), "503 Service Unavailable"));
    public List<Long> groupIds = List.of(1L, 2L, 3L);
    public List<Long> filterIds = List.of(1L, 2L, 3L, 4L, 5L);
    public Set<Long> changedSincePreview = Set.of();
    public final List<String> calls = new ArrayList<>();
    public OutboxQuery lastFilter;

    @Override
    public List<ErrorGroup> errorGroups(OutboxQuery filter) {
        calls.add("groups");
        lastFilter = filter;
        return groups;
    }

    @Override
    public List<Long> idsInGroup(OutboxQuery filter, String signature) {
        calls.add("group:" + signature);
        return groupIds;
    }

    @Override
    public List<Long> ids(OutboxQuery filter) {
        calls.add("ids");
        lastFilter = filter;
        return filterIds;
    }

    @Override
    public Preview preview(Action action, List<Long> ids) {
        calls.add("preview:" + action + ":" + ids);
        int skipped = (int) ids.stream().filter(changedSincePreview::contains).count();
        return new Preview(action, ids.size() - skipped, skipped, "their state changed", ids);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Result apply(Preview preview, String actor, String reason, boolean reconcile, TaskRunner.Progress progress) {
        Action action = preview.action();
        List<Long> ids = (List<Long>) preview.basis();
        calls.add("apply:" + action + ":" + ids + ":" + actor + ":" + reason + ":" + reconcile);
        for (int i = 1; i <= ids.size(); i++) {
            progress.update(i, ids.size(), action.past());
        }
        int skipped = (int) ids.stream().filter(changedSincePreview::contains).count();
        return new Result(action, ids.size() - skipped, skipped, 0, List.of());
    }
}
