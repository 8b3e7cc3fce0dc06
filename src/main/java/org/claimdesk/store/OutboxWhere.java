package org.claimdesk.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.ErrorSignature;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The one translation of an {@link OutboxQuery} into SQL: the {@code FROM} (the claim joined only when the
 * jurisdiction is asked for, {@link Dialect#outboxOfJurisdiction}), the {@code WHERE} and their bindings. The outbox row is {@code o}.
 *
 * <p>Error text: {@code LIKE '%text%' ESCAPE '!'} ({@code ILIKE} on PostgreSQL) with the text's {@code %},
 * {@code _} and {@code !} escaped, so it is found as typed, ignoring case. Signature: SQLite cannot compute an
 * {@link ErrorSignature}, so the distinct error texts of the rows matching the other criteria are read
 * first, and the rows whose text has the signature are kept ({@code null} and blank texts share one).
 */
final class OutboxWhere {
    final String from;
    final String where;
    /** Whether SQLite reads the rows from the index of error texts ({@link #readByErrorText}). */
    final boolean byErrorText;
    private final Map<String, Object> bindings;

    private OutboxWhere(String from, String where, boolean byErrorText, Map<String, Object> bindings) {
        this.from = from;
        this.where = where;
        this.byErrorText = byErrorText;
        this.bindings = bindings;
    }

    /**
     * The rows' order by id in a statement: read by their error text, {@code +o.outbox_event_id}, which keeps SQLite
     * from reading the outbox in id order to spare the sort (every row, for a text found nowhere).
     */
    String idOrder() {
        return byErrorText ? "+o.outbox_event_id" : "o.outbox_event_id";
    }

    static OutboxWhere of(Handle handle, OutboxQuery query) {
        return of(handle, query, false);
    }

    /**
     * The same rows, for SQLite to read in id order from the outbox itself (its rowid), each row tested as it comes:
     * the claim looked up by the row's, the delivery state's index kept out of the plan. A read in this order that
     * stops at its page's end is short where the rows match densely ({@link OutboxStore#list}).
     */
    static OutboxWhere inIdOrder(Handle handle, OutboxQuery query) {
        return of(handle, query, true);
    }

    private static OutboxWhere of(Handle handle, OutboxQuery query, boolean inIdOrder) {
        List<String> clauses = new ArrayList<>();
        Map<String, Object> bindings = new LinkedHashMap<>();
        String from = "outbox_event o";
        boolean byErrorText = !inIdOrder && readByErrorText(handle, query);
        // read in id order or by error text, the outbox is SQLite's outer loop, the state's and claims' indexes kept out
        boolean outboxFirst = inIdOrder || byErrorText;
        // on PostgreSQL the planner weighs the failed rows' index itself: no tally read, the state bound as any other
        boolean failedOfJurisdiction = !inIdOrder && query.jurisdiction() != null
                && query.state() == DeliveryState.FAILED && Dialect.of(handle) == Dialect.SQLITE && fewFailedRows(handle);
        if (query.jurisdiction() != null) {
            from = outboxFirst ? "outbox_event o CROSS JOIN claim c ON c.claim_id = o.aggregate_id"
                    : Dialect.of(handle).outboxOfJurisdiction(failedOfJurisdiction);
            clauses.add("c.jurisdiction = :jurisdiction");
            bindings.put("jurisdiction", query.jurisdiction());
        }
        if (failedOfJurisdiction) {
            // a constant of the product's, not staff's input: the failed rows' index applies to this state alone
            clauses.add("o.delivery_state = '" + DeliveryState.FAILED.dbValue() + "'");
        } else if (query.state() != null) {
            clauses.add(outboxFirst ? "o.delivery_state || '' = :state" : "o.delivery_state = :state");
            bindings.put("state", query.state().dbValue());
        }
        if (query.errorText() != null) {
            if (byErrorText) {
                // names the partial index's condition, which SQLite does not infer from the LIKE
                clauses.add("o.last_error IS NOT NULL");
            }
            clauses.add(Dialect.of(handle).like("o.last_error", "errorText"));
            bindings.put("errorText", Like.contains(query.errorText()));
        }
        if (query.changedBefore() != null) {
            clauses.add("o.updated_at < :changedBefore");
            bindings.put("changedBefore", query.changedBefore().toEpochMilli());
        }
        if (query.claimId() != null) {
            clauses.add("o.aggregate_id = :claimId");
            bindings.put("claimId", query.claimId());
        }
        if (!query.ids().isEmpty()) {
            clauses.add(Dialect.of(handle).inList("o.outbox_event_id", "ids", true));
            bindings.put("ids", Json.write(query.ids()));
        }
        OutboxWhere others = new OutboxWhere(from, whereOf(clauses), byErrorText, Map.copyOf(bindings));
        if (query.signature() == null) {
            return others;
        }
        // the signature's texts are gathered through the indexes (the failed rows' own) whatever order the rows are
        // then read in: in id order, the state kept out of the indexes, every row would be read for them
        OutboxWhere forTexts = inIdOrder ? of(handle, query.withSignature(null), false) : others;
        clauses.add(Dialect.of(handle).inList("coalesce(o.last_error, '')", "errorsOfSignature", false));
        bindings.put("errorsOfSignature", Json.write(errorsOfSignature(handle, forTexts, query.signature())));
        return new OutboxWhere(from, whereOf(clauses), byErrorText, bindings);
    }

    /**
     * Whether SQLite reads the rows from the index of those with an error text (schema version 21), the other
     * conditions tested on each index entry: a search of error texts in any state but failed. Only rows whose last
     * attempt failed carry a text, a few percent of a large outbox, where the delivery state's index reads every row
     * of a state (the sent rows' total: 1.0 s on a 1,000,000-claim demo file, 564,000 outbox rows) and a read in id
     * order the whole outbox for a text found nowhere. A jurisdiction's search tests each row with a matching text
     * against its claim (by the claim's key), however small the jurisdiction: bounded by the rows with a text. The
     * failed rows have an index of their texts of their own (schema version 14), and every failed row has a text:
     * they are read from it as before.
     */
    static boolean readByErrorText(Handle handle, OutboxQuery query) {
        return query.errorText() != null && query.state() != DeliveryState.FAILED
                && Dialect.of(handle) == Dialect.SQLITE;
    }

    /**
     * The failed rows a jurisdiction's are read from (all of them, whatever the jurisdiction) at most: past it, as in a
     * long outage, the jurisdiction's claims are read instead, their number bounded by the claims'.
     */
    static final int FAILED_FIRST_AT_MOST = 50_000;

    /** Whether the outbox holds at most {@value #FAILED_FIRST_AT_MOST} failed rows, by the tally. */
    private static boolean fewFailedRows(Handle handle) {
        return new OutboxStore().countByState(handle).get(DeliveryState.FAILED) <= FAILED_FIRST_AT_MOST;
    }

    /** {@link #where} with {@code clause} added to its conditions. */
    String whereAnd(String clause) {
        return where + (where.isEmpty() ? " WHERE " : " AND ") + clause;
    }

    private static String whereOf(List<String> clauses) {
        return clauses.isEmpty() ? "" : " WHERE " + String.join(" AND ", clauses);
    }

    /** The distinct error texts of the rows {@code others} selects whose signature is {@code signature}. */
    private static List<String> errorsOfSignature(Handle handle, OutboxWhere others, String signature) {
        Set<String> texts = new LinkedHashSet<>();
        others.bind(handle.createQuery("SELECT DISTINCT o.last_error FROM " + others.from + others.where))
                .mapTo(String.class)
                .forEach(text -> {
                    if (ErrorSignature.of(text).equals(signature)) {
                        texts.add(text == null ? "" : text);
                    }
                });
        return List.copyOf(texts);
    }

    <S extends SqlStatement<S>> S bind(S statement) {
        bindings.forEach(statement::bind);
        return statement;
    }
}
