package org.claimdesk.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * One SQL statement that takes many rows at once through a {@code VALUES} list: an
 * {@code INSERT … VALUES %s}, or an {@code UPDATE … FROM (VALUES %s) AS v WHERE … = v.column1}.
 * Writing a hundred rows with one statement instead of a hundred executions of a one-row statement
 * saves most of SQLite's per-statement work; the worker's completions are written this way.
 *
 * <p>The template's parameters {@code ?1 … ?k} are the {@code fixed} ones, bound once per execution
 * (they must be numbered explicitly); {@code %s} is replaced by the row tuples, whose parameters are
 * numbered after them. A list of rows runs as the fewest chunks of {@link #CHUNKS} rows, each chunk size
 * prepared once on the connection and reused. Not thread-safe.
 */
final class MultiRowStatement implements AutoCloseable {
    /**
     * Powers of two, so that any list runs in at most eight executions and a batch of a few rows (a state
     * answering in tens of milliseconds) does not run row by row: a one-row
     * {@code UPDATE … FROM (VALUES …) … RETURNING} costs nearly what a sixteen-row one does.
     */
    static final int[] CHUNKS = {128, 64, 32, 16, 8, 4, 2, 1};

    /** Binds the fixed parameters {@code 1 … k}. */
    @FunctionalInterface
    interface Fixed {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Binds one row's {@code columns} parameters, the first at {@code first}. */
    @FunctionalInterface
    interface Row<T> {
        void bind(PreparedStatement ps, int first, T item) throws SQLException;
    }

    private final Connection connection;
    private final String template;
    private final int fixed;
    private final int columns;
    private final Map<Integer, PreparedStatement> prepared = new HashMap<>();

    MultiRowStatement(Connection connection, String template, int fixed, int columns) {
        if (!template.contains("%s") || columns < 1 || fixed < 0) {
            throw new IllegalArgumentException("a multi-row statement needs a %s slot and at least one column");
        }
        this.connection = connection;
        this.template = template;
        this.fixed = fixed;
        this.columns = columns;
    }

    /**
     * Runs the statement over every item; when {@code returned} is not null the statement has a
     * {@code RETURNING} clause and each returned row's first column is handed to it.
     */
    <T> void run(List<T> items, Fixed fixedValues, Row<T> row, LongConsumer returned) throws SQLException {
        int done = 0;
        for (int size : CHUNKS) {
            while (items.size() - done >= size) {
                PreparedStatement ps = statement(size);
                if (fixedValues != null) {
                    fixedValues.bind(ps);
                }
                for (int i = 0; i < size; i++) {
                    row.bind(ps, fixed + 1 + i * columns, items.get(done + i));
                }
                if (returned == null) {
                    ps.executeUpdate();
                } else {
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            returned.accept(rs.getLong(1));
                        }
                    }
                }
                done += size;
            }
        }
    }

    private PreparedStatement statement(int rows) throws SQLException {
        PreparedStatement ps = prepared.get(rows);
        if (ps == null) {
            ps = connection.prepareStatement(sql(rows));
            prepared.put(rows, ps);
        }
        return ps;
    }

    /** The statement text for {@code rows} rows: the template with numbered row tuples in its slot. */
    String sql(int rows) {
        StringBuilder tuples = new StringBuilder(rows * (columns * 6 + 3));
        int parameter = fixed + 1;
        for (int r = 0; r < rows; r++) {
            tuples.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < columns; c++) {
                tuples.append(c == 0 ? "?" : ", ?").append(parameter++);
            }
            tuples.append(')');
        }
        return template.replace("%s", tuples);
    }

    @Override
    public void close() {
        for (PreparedStatement ps : prepared.values()) {
            try {
                ps.close();
            } catch (SQLException e) {
                // closing a statement of a connection that is going away anyway
            }
        }
        prepared.clear();
    }
}
