package org.claimdesk.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

/** What a read runs: the statements, as SQLite or PostgreSQL gets them, that begin with a given text. */
public final class StatementsRun {
    private StatementsRun() {
    }

    /** A read's result and the statements it ran that begin with the text asked for. */
    public record Seen<T>(T result, List<String> statements) {
    }

    /** Runs {@code read} on {@code handle}, keeping the statements it runs that begin with {@code beginning}. */
    public static <T> Seen<T> of(Handle handle, String beginning, Function<Handle, T> read) {
        List<String> statements = new ArrayList<>();
        handle.setSqlLogger(new SqlLogger() {
            @Override
            public void logBeforeExecution(StatementContext context) {
                if (context.getRenderedSql().startsWith(beginning)) {
                    statements.add(context.getRenderedSql());
                }
            }
        });
        try {
            return new Seen<>(read.apply(handle), List.copyOf(statements));
        } finally {
            handle.setSqlLogger(SqlLogger.NOP_SQL_LOGGER);
        }
    }
}
