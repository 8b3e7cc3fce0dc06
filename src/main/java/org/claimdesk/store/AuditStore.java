package org.claimdesk.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.AuditEntry;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/** The append-only audit trail: rows are inserted, never changed (triggers refuse UPDATE and DELETE). */
public final class AuditStore {

    public long append(Handle handle, Instant at, String actor, String action, String subjectType, String subjectId,
            String reason, String details) {
        return handle.createUpdate("""
                INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason, details)
                VALUES (:at, :actor, :action, :subjectType, :subjectId, :reason, :details)
                """)
                .bind("at", at.toEpochMilli())
                .bind("actor", actor)
                .bind("action", action)
                .bind("subjectType", subjectType)
                .bind("subjectId", subjectId)
                .bind("reason", reason)
                .bind("details", details)
                .executeAndReturnGeneratedKeys("audit_id")
                .mapTo(Long.class)
                .one();
    }

    /** The newest entry about one subject with one of {@code actions}, e.g. the last edit of a claim. */
    public java.util.Optional<AuditEntry> latest(Handle handle, String subjectType, String subjectId,
            java.util.Collection<String> actions) {
        return handle.createQuery("""
                SELECT * FROM audit_log WHERE subject_type = :type AND subject_id = :id AND action IN (<actions>)
                ORDER BY audit_id DESC LIMIT 1""")
                .bind("type", subjectType).bind("id", subjectId).bindList("actions", List.copyOf(actions))
                .map(Rows.AUDIT_ENTRY).findOne();
    }

    /**
     * The entries {@link #list} selects that are older than entry {@code beforeId}, newest first, at most {@code limit}:
     * pages read one after the other this way, each a short read of its own, neither skip nor repeat an entry.
     */
    public List<AuditEntry> pageBefore(Handle handle, String subjectId, String actor, String action, long beforeId,
            int limit) {
        return entriesBefore(handle, Subject.any(subjectId), actor, action, beforeId, limit);
    }

    /** As {@link #pageBefore(Handle, String, String, String, long, int)}, by a subject of one type when it names one. */
    public List<AuditEntry> entriesBefore(Handle handle, Subject subject, String actor, String action, long beforeId,
            int limit) {
        return bound(handle.createQuery(listStatement(filled(subject.id()), subject.type() != null, filled(actor),
                filled(action), false, true, through(handle, subject, actor, action)) + " LIMIT :limit"), subject,
                actor, action).bind("before", beforeId).bind("limit", limit).map(Rows.AUDIT_ENTRY).list();
    }

    /**
     * The subject an audit list is filtered by: its id, and its type (claim, outbox row) when the filter names one;
     * a null or blank id: every subject.
     */
    public record Subject(String type, String id) {
        /** Any subject with this id, whatever its type. */
        public static Subject any(String id) {
            return new Subject(null, id);
        }
    }

    private static boolean filled(String value) {
        return value != null && !value.isBlank();
    }

    private static Query bound(Query q, Subject subject, String actor, String action) {
        if (filled(subject.id())) {
            q.bind("subject", subject.id().trim());
            if (subject.type() != null) {
                q.bind("type", subject.type());
            }
        }
        if (filled(actor)) {
            q.bind("actor", actor.trim());
        }
        if (filled(action)) {
            q.bind("action", action.trim());
        }
        return q;
    }

    /**
     * Newest first.
     *
     * @param subjectId null for every subject
     * @param actor null for every actor
     * @param action null for every action
     * @param limit 0 or less for every match
     */
    public List<AuditEntry> list(Handle handle, String subjectId, String actor, String action, int offset, int limit) {
        return list(handle, subjectId, actor, action, null, offset, limit);
    }

    /**
     * As {@link #list(Handle, String, String, String, int, int)}, among the entries up to {@code atMostId} (null:
     * every one): pages counted from an entry pinned when the first was read do not move as entries are added.
     */
    public List<AuditEntry> list(Handle handle, String subjectId, String actor, String action, Long atMostId, int offset,
            int limit) {
        return entries(handle, Subject.any(subjectId), actor, action, atMostId, offset, limit);
    }

    /** As {@link #list(Handle, String, String, String, Long, int, int)}, by a subject of one type when it names one. */
    public List<AuditEntry> entries(Handle handle, Subject subject, String actor, String action, Long atMostId, int offset,
            int limit) {
        Query q = bound(handle.createQuery(listStatement(filled(subject.id()), subject.type() != null, filled(actor),
                filled(action), limit > 0, atMostId != null, through(handle, subject, actor, action))), subject, actor,
                action);
        if (atMostId != null) {
            q.bind("before", atMostId + 1);
        }
        if (limit > 0) {
            q.bind("limit", limit).bind("offset", offset);
        }
        return q.map(Rows.AUDIT_ENTRY).list();
    }

    /**
     * {@link #list}'s statement for the filters given, bound as {@code :subject}, {@code :actor}, {@code :action} and,
     * when paged, {@code :limit} and {@code :offset}. Each filter alone reads through its own index in the log's
     * order (schema version 11).
     */
    static String listStatement(boolean bySubject, boolean byActor, boolean byAction, boolean paged) {
        return listStatement(bySubject, false, byActor, byAction, paged, false);
    }

    /**
     * As {@link #listStatement(boolean, boolean, boolean, boolean)}, with {@code byType}: the subject's type too
     * (bound as {@code :type}; the subject's index still reads it), and {@code before}: older than {@code :before}.
     */
    static String listStatement(boolean bySubject, boolean byType, boolean byActor, boolean byAction, boolean paged,
            boolean before) {
        return listStatement(bySubject, byType, byActor, byAction, paged, before, Through.ANY);
    }

    /**
     * As {@link #listStatement(boolean, boolean, boolean, boolean, boolean, boolean)}, read through {@code through}'s
     * index: the other filters' terms are kept out of the plan (SQLite's unary {@code +}), and tested on each entry.
     */
    static String listStatement(boolean bySubject, boolean byType, boolean byActor, boolean byAction, boolean paged,
            boolean before, Through through) {
        List<String> clauses = new ArrayList<>();
        if (bySubject) {
            clauses.add(through.term(Through.SUBJECT, "subject_id") + " = :subject");
            if (byType) {
                clauses.add("subject_type = :type");
            }
        }
        if (byActor) {
            clauses.add(through.term(Through.ACTOR, "actor") + " = :actor");
        }
        if (byAction) {
            clauses.add(through.term(Through.ACTION, "action") + " = :action");
        }
        if (before) {
            clauses.add("audit_id < :before");
        }
        StringBuilder sql = new StringBuilder("SELECT * FROM audit_log");
        if (!clauses.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", clauses));
        }
        sql.append(" ORDER BY audit_id DESC");
        if (paged) {
            sql.append(" LIMIT :limit OFFSET :offset");
        }
        return sql.toString();
    }

    /**
     * The index a page with several filters is read through on SQLite, which keeps no statistics and reads such a page
     * through the action's index whatever the others: a claim's advances were read from every advance in the log (0.9 s
     * at 3.4 million entries), a new colleague's from every entry of the action. {@link #ANY}: the engine's choice.
     */
    enum Through {
        ANY, SUBJECT, ACTOR, ACTION;

        /** {@code column} as a filter's term: kept out of the index choice when another filter's index is read. */
        String term(Through own, String column) {
            return this == ANY || this == own ? column : "+" + column;
        }
    }

    /** How many entries of an actor or an action {@link #through} counts at most to tell which is rarer. */
    static final int PROBE = 20_000;

    /**
     * On SQLite, the subject's index when a subject is asked for with other filters (a claim's or a row's few
     * entries), else the index of the rarer of an actor and an action asked for together, each counted from its
     * index up to {@value #PROBE} entries (a millisecond or two each, read again for each page of an export);
     * {@link Through#ANY} when both reach it, for one filter, and on PostgreSQL, whose planner weighs them by their
     * statistics.
     */
    static Through through(Handle handle, Subject subject, String actor, String action) {
        boolean bySubject = filled(subject.id());
        if (Dialect.of(handle) != Dialect.SQLITE || (bySubject ? !filled(actor) && !filled(action)
                : !filled(actor) || !filled(action))) {
            return Through.ANY;
        }
        if (bySubject) {
            return Through.SUBJECT;
        }
        int actors = entriesUpToProbe(handle, "actor", actor.trim());
        int actions = entriesUpToProbe(handle, "action", action.trim());
        if (actors == PROBE && actions == PROBE) {
            // neither is known to be the rarer
            return Through.ANY;
        }
        return actors <= actions ? Through.ACTOR : Through.ACTION;
    }

    private static int entriesUpToProbe(Handle handle, String column, String value) {
        return handle.createQuery("SELECT count(*) FROM (SELECT 1 FROM audit_log WHERE " + column + " = :value LIMIT "
                + PROBE + ")").bind("value", value).mapTo(Integer.class).one();
    }

    /** {@link #ofSubject}'s statement: read through the subject's index, {@code audit_subject_idx}. */
    static final String OF_SUBJECT = "SELECT * FROM audit_log WHERE subject_type = :type AND subject_id = :subject"
            + " ORDER BY audit_id DESC LIMIT :limit";

    /**
     * The newest {@code limit} entries about one subject, newest first (a claim's detail). Unlike {@link #list} by
     * subject id, it names the subject's type too: a claim's entries, not those of an outbox row with the same id.
     */
    public List<AuditEntry> ofSubject(Handle handle, String subjectType, String subjectId, int limit) {
        return handle.createQuery(OF_SUBJECT).bind("type", subjectType).bind("subject", subjectId)
                .bind("limit", limit).map(Rows.AUDIT_ENTRY).list();
    }
}
