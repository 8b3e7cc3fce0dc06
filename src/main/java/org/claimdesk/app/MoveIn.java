package org.claimdesk.app;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
import org.claimdesk.store.Json;
import org.claimdesk.store.WorkerPauseStore;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moving a workstation's database into an empty team database: claims, history, request keys, outbox rows with
 * their attempts, evidence records (the files' names, sizes and SHA-256; the files themselves are copied to the
 * team's evidence folder by IT), the audit trail, the worker's pause and the claim number sequence, ids kept. Then
 * every table is counted and hashed on both sides and must agree, and the team database's planner statistics are
 * gathered. A target holding claims, outbox rows or audit entries is refused untouched. The copy and its check are
 * one transaction of the team database ({@link #run}).
 */
public final class MoveIn {
    private static final Logger LOG = LoggerFactory.getLogger(MoveIn.class);

    /** How far the move is: the table being copied and its rows so far. */
    public interface Progress {
        void copied(String table, long rows, long ofRows);

        /** Every table copied; {@code table}'s rows are being read again on both sides to compare their checksums. */
        default void checking(String table) {
        }

        /** Every table copied and checked; the tables are being vacuumed and their planner's statistics gathered. */
        default void gatheringStatistics() {
        }

        /**
         * The planner's statistics could not be gathered ({@code reason}, the server's message). The move is
         * complete and checked all the same: the server's autovacuum gathers them later.
         */
        default void statisticsNotGathered(String reason) {
        }
    }

    /**
     * What was moved: each table's rows and checksum, the same on both sides; and whether the desk's file was marked
     * moved (its worker paused, saying where its claims went), or why not.
     */
    public record Result(List<DatabaseMove.Digest> tables, String deskNotMarked) {
        public Result {
            tables = List.copyOf(tables);
        }

        public boolean deskMarked() {
            return deskNotMarked == null;
        }
    }

    /** Who pauses the moved desk's worker, in its pause and audit trail. */
    public static final String ACTOR = DatabaseMove.MOVED_BY;

    private final Database from;
    private final Database to;

    public MoveIn(Database from, Database to) {
        this.from = from;
        this.to = to;
    }

    /**
     * Refuses a team database that holds claims, outbox rows or audit entries before it is opened: opening it would
     * first bring an older ClaimDesk's schema up to date, and the move leaves a database in use as it found it.
     * {@link #run} checks again, inside its transaction.
     */
    public static void refuseUnlessEmpty(DatabaseLocation.Postgres target) {
        if (!DatabaseMove.isEmpty(target)) {
            throw notEmpty(target);
        }
    }

    /**
     * Copies and checks every table in one transaction of the team database, which other workstations cannot
     * write meanwhile, while no other program writes the desk's file: a move that stops (the network, the server, a
     * copy that does not match) leaves the team database as empty as it was, and it can be run again.
     */
    public Result run(Progress progress) {
        // the desk's file read as one state: no console or drain writes it between the copy and the check
        try (DatabaseMove.Hold desk = DatabaseMove.holdWriters(from)) {
            List<DatabaseMove.Digest> digests;
            try {
                digests = moveHeld(progress);
            } catch (MadeUnanswered made) {
                // the server has the move though its answer was lost: the desk is marked as after any move
                String notMarked = markMoved(desk);
                throw new ClaimDeskException(made.getMessage() + (notMarked == null
                        ? "; the desk's file is marked moved (its worker paused, saying where its claims went)"
                        : "; the desk's file could not be marked moved (" + notMarked + "): do not work on it any"
                                + " more"), made.getCause());
            }
            return new Result(digests, markMoved(desk));
        }
    }

    /** A move the server committed though the answer to its commit was lost. */
    private static final class MadeUnanswered extends ClaimDeskException {
        MadeUnanswered(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Pauses the desk's worker, in the same hold, once the team database has the move: a console or drain left on
     * the old file would otherwise deliver the rows the team's workers deliver, and staff would go on working on a
     * copy. The pause says where the claims went; its audit entry too. Null when marked, else why not (the move
     * stands either way).
     */
    private String markMoved(DatabaseMove.Hold desk) {
        Instant now = Instant.now();
        // where, not as whom: the move runs as the owner role, staff work there as theirs
        String where = to.location() instanceof DatabaseLocation.Postgres server
                ? "database " + server.database() + " on " + server.address() : to.location().describe();
        String reason = "this desk's claims were moved into " + where + " at " + Conflicts.localMinute(now)
                + ": work there (--db or CLAIMDESK_DB), not on this file";
        try {
            boolean marked = desk.commit(h -> {
                new WorkerPauseStore().put(h, new WorkerPause(ACTOR, now, reason));
                // the pause's row carries the move's mark (no resume ends it); its entry, who ran the move
                new AuditStore().append(h, now, Inputs.actor(Operators.commandLineActor()), AuditActions.WORKER_PAUSE,
                        AuditActions.SUBJECT_WORKER, AuditActions.WORKER_ID, reason, Json.write(java.util.Map.of(
                                "movedTo", where, "pausedAs", ACTOR, "workstation", Operators.workstation())));
            });
            return marked ? null : "the desk's file cannot be written here";
        } catch (RuntimeException e) {
            LOG.warn("the moved desk's file {} could not be marked moved", from.location().describe(), e);
            return e.getMessage();
        }
    }

    private List<DatabaseMove.Digest> moveHeld(Progress progress) {
        List<DatabaseMove.Digest> digests;
        // the move's transaction on the server, once every row is copied and checked: a failure after that is its
        // commit's, which the server may have made
        long[] committing = {0};
        try {
            // a team database in use is refused before its tables are locked, which would wait for the writers at
            // work there and hold up every other workstation's writes meanwhile
            if (!DatabaseMove.isEmpty(to)) {
                throw notEmpty();
            }
            digests = to.inTransaction(target -> {
                DatabaseMove.keepOthersOut(target);
                if (!DatabaseMove.isEmpty(target)) {
                    throw notEmpty();
                }
                long xid = DatabaseMove.transactionId(target);
                for (DatabaseMove.Table table : DatabaseMove.TABLES) {
                    long total = DatabaseMove.count(from, table);
                    DatabaseMove.copy(from, target, table, rows -> progress.copied(table.name(), rows, total));
                }
                List<DatabaseMove.Digest> matched = checked(target, progress);
                recordMoveIn(target, matched);
                committing[0] = xid;
                return matched;
            });
        } catch (DatabaseException e) {
            throw stopped(e, committing[0]);
        } catch (ClaimDeskException refused) {
            throw refused;
        } catch (RuntimeException e) {
            throw stopped(e, committing[0]);
        }
        progress.gatheringStatistics();
        try {
            DatabaseMove.settle(to);
        } catch (RuntimeException e) {
            LOG.warn("the planner's statistics of {} could not be gathered after the move", to.location().describe(), e);
            progress.statisticsNotGathered(e.getMessage());
        }
        return digests;
    }

    private ClaimDeskException notEmpty() {
        return notEmpty(to.location());
    }

    private static ClaimDeskException notEmpty(DatabaseLocation target) {
        return new ClaimDeskException(target.describe() + " already holds claims, outbox rows or audit entries:"
                + " moving in needs an empty team database, one no console has used yet (a console's first start"
                + " audits its operator, and the audit trail is never emptied): create a new database to move into;"
                + " nothing was copied");
    }

    /**
     * Why the move stopped, and what the team database kept: nothing, when it stopped before its commit (its
     * transaction rolled back); when it stopped at the commit ({@code xid}, the move's transaction, non-zero: a
     * connection cut at that moment), what the server says became of that transaction, read on a connection of its
     * own — made (every row, checked before the commit), rolled back, or, when that cannot be read, not known.
     */
    private ClaimDeskException stopped(RuntimeException e, long xid) {
        String target = to.location().describe();
        String status = null;
        if (xid != 0) {
            try {
                status = DatabaseMove.transactionStatus(to, xid);
            } catch (RuntimeException unknown) {
                e.addSuppressed(unknown);
            }
        }
        if ("committed".equals(status)) {
            return new MadeUnanswered("the answer to the move's commit was lost (" + e.getMessage() + "), but "
                    + target + " committed it: every row was copied and its counts and checksums matched before the"
                    + " commit; the move is made: look with claimdesk --db … doctor, and copy the evidence files as"
                    + " docs/operations.md says (moving in)", e);
        }
        if (xid != 0 && !"aborted".equals(status)) {
            return new ClaimDeskException("the move stopped at its commit (" + e.getMessage() + ") and whether "
                    + target + " made it cannot be told now: look with claimdesk --db … doctor before moving in"
                    + " again (a team database that holds the claims has the move)", e);
        }
        String then = switch (DatabaseMove.retry(e)) {
            case AS_IS -> ": move in again";
            case AFTER_THE_DESK_ROW_IS_CORRECTED -> "";
            case AS_THE_OWNER_ROLE -> ": run migrate as the team database's owner role (docs/operations.md: server"
                    + " and database), not a staff role, whose privileges stay as they are";
        };
        return new ClaimDeskException("the move stopped (" + e.getMessage() + "); nothing of it was kept, "
                + target + " is as it was" + then, e);
    }

    /**
     * The team database's own record of the move, in the move's transaction, after the copy is checked (the copied
     * audit trail is the desk's, entry for entry): which file came in, whose account ran the move, and each
     * table's rows.
     */
    private void recordMoveIn(Handle target, List<DatabaseMove.Digest> copied) {
        java.util.Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("from", from.location().describe());
        details.put("systemUser", Operators.osUser());
        details.put("workstation", Operators.workstation());
        java.util.Map<String, Long> rows = new java.util.LinkedHashMap<>();
        copied.forEach(d -> rows.put(d.table(), d.rows()));
        details.put("rows", rows);
        new AuditStore().append(target, to.clock().instant(), Inputs.actor(Operators.commandLineActor()),
                AuditActions.DATABASE_MOVE_IN,
                AuditActions.SUBJECT_DATABASE, "move-in", "a workstation's database moved in", Json.write(details));
    }

    /** Each table's count and checksum, the same on both sides, or a refusal that rolls the move back. */
    private List<DatabaseMove.Digest> checked(Handle target, Progress progress) {
        List<DatabaseMove.Digest> digests = new ArrayList<>();
        List<String> differ = new ArrayList<>();
        for (DatabaseMove.Table table : DatabaseMove.TABLES) {
            progress.checking(table.name());
            DatabaseMove.Digest source = DatabaseMove.digest(from, table);
            DatabaseMove.Digest copy = DatabaseMove.digest(target, table);
            if (!source.equals(copy)) {
                differ.add(table.name() + " (" + source.rows() + " rows here, " + copy.rows() + " there)");
            }
            digests.add(copy);
        }
        if (!differ.isEmpty()) {
            throw new ClaimDeskException("the copy does not match its source in " + String.join(", ", differ)
                    + "; nothing of it was kept, " + to.location().describe() + " is as it was");
        }
        return digests;
    }
}
