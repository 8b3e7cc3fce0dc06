package org.claimdesk.ui.outbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.OutboxOperations;
import org.claimdesk.app.Queries;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.TaskRunner;

/**
 * {@link OutboxTriage} on the application's {@link OutboxOperations}: previews by row id (so a preview
 * names exactly the rows on which it will act), re-queue with optional reconcile against the configured
 * state, and abandon in chunks with progress.
 */
public final class OperationsTriage implements OutboxTriage {
    static final int CHUNK = 200;
    static final int ID_PAGE = 5_000;

    private final OutboxOperations operations;
    private final Queries queries;
    private final StateAdapter state;

    public OperationsTriage(OutboxOperations operations, Queries queries, StateAdapter state) {
        this.operations = operations;
        this.queries = queries;
        this.state = state;
    }

    private static OutboxOperations.RequeueFilter failed(OutboxQuery filter) {
        return OutboxOperations.RequeueFilter.allFailed()
                .withJurisdiction(filter.jurisdiction())
                .withErrorText(filter.errorText())
                .withFailedBefore(filter.createdBefore());
    }

    private static boolean unfiltered(OutboxQuery filter) {
        return (filter.jurisdiction() == null || filter.jurisdiction().isBlank())
                && (filter.errorText() == null || filter.errorText().isBlank())
                && filter.createdBefore() == null;
    }

    @Override
    public List<ErrorGroup> errorGroups(OutboxQuery filter) {
        if (unfiltered(filter)) {
            return queries.failureGroups().stream().map(OperationsTriage::group).toList();
        }
        Map<String, ErrorGroup> groups = new LinkedHashMap<>();
        for (OutboxOperations.Target t : operations.preview(failed(filter)).targets()) {
            Instant at = Instant.ofEpochMilli(t.updatedAt());
            ErrorGroup one = new ErrorGroup(ErrorSignature.of(t.lastError()), 1, at, at, t.lastError());
            groups.merge(one.signature(), one, (a, b) -> new ErrorGroup(a.signature(), a.count() + b.count(),
                    a.firstSeen().isBefore(b.firstSeen()) ? a.firstSeen() : b.firstSeen(),
                    a.lastSeen().isAfter(b.lastSeen()) ? a.lastSeen() : b.lastSeen(),
                    a.lastSeen().isAfter(b.lastSeen()) ? a.sampleError() : b.sampleError()));
        }
        List<ErrorGroup> sorted = new ArrayList<>(groups.values());
        sorted.sort((a, b) -> a.count() != b.count() ? Integer.compare(b.count(), a.count())
                : b.lastSeen().compareTo(a.lastSeen()));
        return sorted;
    }

    private static ErrorGroup group(FailureGroup g) {
        return new ErrorGroup(g.signature(), g.count(), g.firstSeen(), g.lastSeen(), g.sampleError());
    }

    @Override
    public List<Long> idsInGroup(OutboxQuery filter, String signature) {
        return operations.preview(failed(filter).withSignature(signature)).targets().stream()
                .map(OutboxOperations.Target::outboxEventId).toList();
    }

    @Override
    public List<Long> ids(OutboxQuery filter) {
        List<Long> ids = new ArrayList<>();
        for (int offset = 0; ; offset += ID_PAGE) {
            List<OutboxEvent> page = queries.outbox(filter.withPage(offset, ID_PAGE));
            page.forEach(e -> ids.add(e.outboxEventId()));
            if (page.size() < ID_PAGE) {
                return ids;
            }
        }
    }

    @Override
    public Preview preview(Action action, List<Long> ids) {
        OutboxOperations.Preview p = operations.preview(OutboxOperations.RequeueFilter.byIds(ids));
        return new Preview(action, p.count(), p.notFailed().size(),
                "they are no longer failed (pending, sent or abandoned)", p);
    }

    @Override
    public Result apply(Preview preview, String actor, String reason, boolean reconcile, TaskRunner.Progress progress) {
        OutboxOperations.Preview basis = (OutboxOperations.Preview) preview.basis();
        int total = basis.count();
        return switch (preview.action()) {
            case REQUEUE -> {
                OutboxOperations.RequeueResult r = operations.requeue(basis, actor, reason, reconcile ? state : null,
                        done -> progress.update(done, total, reconcile ? "reconciled and re-queued" : "re-queued"));
                List<String> notes = new ArrayList<>();
                if (r.unconfirmed() > 0) {
                    notes.add(r.unconfirmed() + " re-queued without an answer from the state (resending is safe:"
                            + " same idempotency key)");
                }
                yield new Result(Action.REQUEUE, r.requeued(), r.skipped() + preview.skipped(), r.reconciled(), notes);
            }
            case ABANDON -> {
                List<Long> ids = basis.targets().stream().map(OutboxOperations.Target::outboxEventId).toList();
                int abandoned = 0;
                int skipped = preview.skipped();
                for (int from = 0; from < ids.size(); from += CHUNK) {
                    OutboxOperations.AbandonResult r = operations.abandon(
                            ids.subList(from, Math.min(ids.size(), from + CHUNK)), actor, reason);
                    abandoned += r.abandoned();
                    skipped += r.skipped();
                    progress.update(Math.min(ids.size(), from + CHUNK), total, "abandoned");
                }
                yield new Result(Action.ABANDON, abandoned, skipped, 0, List.of());
            }
        };
    }
}
