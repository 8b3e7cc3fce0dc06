package org.claimdesk.app;

import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseMove;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moving a workstation's database into an empty team database: claims, history, request keys, outbox rows with
 * their attempts, evidence records (the files' names, sizes and SHA-256; the files themselves are copied to the
 * team's evidence folder by IT), the audit trail, the worker's pause and the claim number sequence, ids kept. Then
 * every table is counted and hashed on both sides and must agree, and the team database's planner statistics are
 * gathered. A target holding claims, outbox rows or audit entries is refused untouched.
 */
public final class MoveIn {
    private static final Logger LOG = LoggerFactory.getLogger(MoveIn.class);

    /** How far the move is: the table being copied and its rows so far. */
    public interface Progress {
        void copied(String table, long rows, long ofRows);

        /** Every table copied and checked; the planner's statistics are being gathered. */
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

    public Result run(Progress progress) {
        if (!DatabaseMove.isEmpty(to)) {
            throw new ClaimDeskException(to.location().describe() + " already holds claims, outbox rows or audit"
                    + " entries: moving in needs an empty team database; nothing was copied");
        }
        for (DatabaseMove.Table table : DatabaseMove.TABLES) {
            long total = DatabaseMove.count(from, table);
            DatabaseMove.copy(from, to, table, rows -> progress.copied(table.name(), rows, total));
        }
        List<DatabaseMove.Digest> digests = new ArrayList<>();
        List<String> differ = new ArrayList<>();
        for (DatabaseMove.Table table : DatabaseMove.TABLES) {
            DatabaseMove.Digest source = DatabaseMove.digest(from, table);
            DatabaseMove.Digest target = DatabaseMove.digest(to, table);
            if (!source.equals(target)) {
                differ.add(table.name() + " (" + source.rows() + " rows here, " + target.rows() + " there)");
            }
            digests.add(target);
        }
        if (!differ.isEmpty()) {
            throw new ClaimDeskException("the copy does not match its source in " + String.join(", ", differ)
                    + ": do not use the team database; drop and recreate it, then move in again");
        }
        progress.gatheringStatistics();
        try {
            DatabaseMove.gatherStatistics(to);
        } catch (RuntimeException e) {
            LOG.warn("the planner's statistics of {} could not be gathered after the move", to.location().describe(), e);
            progress.statisticsNotGathered(e.getMessage());
        }
        return new Result(digests);
    }
}
