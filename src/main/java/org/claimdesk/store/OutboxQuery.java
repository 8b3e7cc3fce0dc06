package org.claimdesk.store;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.ErrorSignature;

/**
 * Which outbox rows, and optionally a page of them. This one description serves the Outbox table, its error
 * groups, the CSV export, the command line and every bulk action's preview; {@link OutboxStore} turns it
 * into SQL in one place. Every criterion is optional (null, or a blank text, means any) and the given ones
 * must all hold. Texts are stripped; a blank one is kept as null.
 *
 * @param state the row's delivery state
 * @param jurisdiction the claim's jurisdiction, in any case
 * @param errorText text contained in the last error, ignoring case (ASCII letters); {@code %}, {@code _} and
 *     quotes are plain characters
 * @param changedBefore only rows that last changed before this instant: the row's age. A row changes when it
 *     is queued, taken by the worker, retried, failed, sent, re-queued or abandoned, so for a failed row this
 *     is when it failed
 * @param claimId only this claim's rows
 * @param signature only rows whose last error has this {@link ErrorSignature}
 * @param ids only these rows; empty for no such limit ({@link #byIds} refuses an empty list)
 * @param limit at most this many rows from {@code offset}; 0 or less for every match
 */
public record OutboxQuery(
        DeliveryState state,
        String jurisdiction,
        String errorText,
        Instant changedBefore,
        Long claimId,
        String signature,
        List<Long> ids,
        int offset,
        int limit) {

    public OutboxQuery {
        jurisdiction = text(jurisdiction);
        jurisdiction = jurisdiction == null ? null : jurisdiction.toUpperCase(Locale.ROOT);
        errorText = text(errorText);
        // signatures are lower case (ErrorSignature): one copied from the console's group, shown as written, matches
        signature = text(signature);
        signature = signature == null ? null : signature.toLowerCase(Locale.ROOT);
        ids = ids == null ? List.of() : List.copyOf(new LinkedHashSet<>(ids));
        offset = Math.max(0, offset);
    }

    private static String text(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** Every row. */
    public static OutboxQuery all() {
        return new OutboxQuery(null, null, null, null, null, null, List.of(), 0, 0);
    }

    /** Exactly the rows {@code ids} (those that exist), whatever their state; at least one id. */
    public static OutboxQuery byIds(Collection<Long> ids) {
        if (ids == null || ids.isEmpty()) {
            throw new ClaimDeskException("name at least one outbox row");
        }
        return all().withIds(ids);
    }

    public OutboxQuery withState(DeliveryState value) {
        return new OutboxQuery(value, jurisdiction, errorText, changedBefore, claimId, signature, ids, offset, limit);
    }

    public OutboxQuery withJurisdiction(String value) {
        return new OutboxQuery(state, value, errorText, changedBefore, claimId, signature, ids, offset, limit);
    }

    public OutboxQuery withErrorText(String value) {
        return new OutboxQuery(state, jurisdiction, value, changedBefore, claimId, signature, ids, offset, limit);
    }

    public OutboxQuery withChangedBefore(Instant value) {
        return new OutboxQuery(state, jurisdiction, errorText, value, claimId, signature, ids, offset, limit);
    }

    public OutboxQuery withClaimId(Long value) {
        return new OutboxQuery(state, jurisdiction, errorText, changedBefore, value, signature, ids, offset, limit);
    }

    public OutboxQuery withSignature(String value) {
        return new OutboxQuery(state, jurisdiction, errorText, changedBefore, claimId, value, ids, offset, limit);
    }

    public OutboxQuery withIds(Collection<Long> value) {
        return new OutboxQuery(state, jurisdiction, errorText, changedBefore, claimId, signature,
                value == null ? List.of() : List.copyOf(value), offset, limit);
    }

    public OutboxQuery withPage(int newOffset, int newLimit) {
        return new OutboxQuery(state, jurisdiction, errorText, changedBefore, claimId, signature, ids, newOffset, newLimit);
    }

    /**
     * The failed rows among those this query selects, unpaged: what a bulk action over a filter, a group or a
     * selection acts on. A query of every state reads only its failed rows (not a million sent ones to set them
     * aside); one of another state has none.
     */
    public java.util.Optional<OutboxQuery> failedAmong() {
        if (state != null && state != DeliveryState.FAILED) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(withState(DeliveryState.FAILED).unpaged());
    }

    /**
     * The rows a re-queue, abandon or resubmission previews, unpaged: those named by id, each of them (one not failed
     * is reported), or else the failed ones among the filter's ({@link #failedAmong}).
     */
    public java.util.Optional<OutboxQuery> previewed() {
        return ids.isEmpty() ? failedAmong() : java.util.Optional.of(unpaged());
    }

    /**
     * Whether the rows are named by id alone (a selection, the command line's {@code --id}): an id that selects no row
     * then names a row that does not exist. With other criteria beside them (a search for "row 123" within the
     * failed rows) an id may just not match them.
     */
    public boolean idsOnly() {
        return !ids.isEmpty() && state == null && jurisdiction == null && errorText == null && changedBefore == null
                && claimId == null && signature == null;
    }

    /** The same rows, without a page. */
    public OutboxQuery unpaged() {
        return withPage(0, 0);
    }
}
