package org.claimdesk.app;

import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
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

    /** What was moved: each table's rows and checksum, the same on both sides. */
    public record Result(List<DatabaseMove.Digest> tables) {
        public Result {
            tables = List.copyOf(tables);
        }
    }

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
            return moveHeld(progress);
        }
    }

    private Result moveHeld(Progress progress) {
        List<DatabaseMove.Digest> digests;
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
                for (DatabaseMove.Table table : DatabaseMove.TABLES) {
                    long total = DatabaseMove.count(from, table);
                    DatabaseMove.copy(from, target, table, rows -> progress.copied(table.name(), rows, total));
                }
                return checked(target, progress);
            });
        } catch (DatabaseException e) {
            throw stopped(e);
        } catch (ClaimDeskException refused) {
            throw refused;
        } catch (RuntimeException e) {
            throw stopped(e);
        }
        progress.gatheringStatistics();
        try {
            DatabaseMove.settle(to);
        } catch (RuntimeException e) {
            LOG.warn("the planner's statistics of {} could not be gathered after the move", to.location().describe(), e);
            progress.statisticsNotGathered(e.getMessage());
        }
        return new Result(digests);
    }

    private ClaimDeskException notEmpty() {
        return notEmpty(to.location());
    }

    private static ClaimDeskException notEmpty(DatabaseLocation target) {
        return new ClaimDeskException(target.describe() + " already holds claims, outbox rows or audit entries:"
                + " moving in needs an empty team database; nothing was copied");
    }

    /**
     * Why the move stopped, and what the team database kept: nothing (the move's transaction rolled back), or, when
     * the failure was the answer to its commit (a connection cut at that moment), every row, checked before the
     * commit. Looked at on a connection of its own; when that cannot be done either, it says so.
     */
    private ClaimDeskException stopped(RuntimeException e) {
        String target = to.location().describe();
        boolean empty;
        try {
            empty = DatabaseMove.isEmpty(to);
        } catch (RuntimeException unknown) {
            e.addSuppressed(unknown);
            return new ClaimDeskException("the move stopped (" + e.getMessage() + ") and whether " + target
                    + " kept it cannot be told now (" + unknown.getMessage() + "): look with claimdesk --db … doctor"
                    + " before moving in again", e);
        }
        if (!empty) {
            return new ClaimDeskException("the answer to the move's commit was lost (" + e.getMessage() + "), but "
                    + target + " holds the moved rows, whose counts and checksums matched before the commit: the move"
                    + " is made; look with claimdesk --db … doctor, and copy the evidence files as docs/operations.md"
                    + " says (moving in)", e);
        }
        return new ClaimDeskException("the move stopped (" + e.getMessage() + "); nothing of it was kept, "
                + target + " is as it was: move in again", e);
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
