package org.claimdesk.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One SQL statement that takes many rows at once through a {@code VALUES} list: an
 * {@code INSERT … VALUES %s}, or an {@code UPDATE … FROM (VALUES %s) AS v WHERE … = v.column1}.
 * Writing a hundred rows with one statement instead of a hundred executions of a one-row statement
 * saves most of SQLite's per-statement work; the worker's completions are written this way.
 *
 * <p>The template names its fixed parameters {@code ?1 … ?k} (a value used twice is named twice); they are
 * bound once per execution. {@code %s} is replaced by the row tuples. The statement sent is written with plain
 * {@code ?} markers only, which both SQLite and PostgreSQL accept, each fixed value bound at every place the
 * template names it. A list of rows runs as the fewest chunks of {@link #CHUNKS} rows, each chunk size prepared
 * once on the connection and reused. Not thread-safe.
 */
final class MultiRowStatement implements AutoCloseable {
    /**
     * Powers of two, so that any list runs in at most eight executions and a batch of a few rows (a state
     * answering in tens of milliseconds) does not run row by row: a one-row
     * {@code UPDATE … FROM (VALUES …) … RETURNING} costs nearly what a sixteen-row one does.
     */
    static final int[] CHUNKS = {128, 64, 32, 16, 8, 4, 2, 1};

    /** Binds one row's {@code columns} parameters, the first at {@code first}. */
    @FunctionalInterface
    interface Row<T> {
        void bind(PreparedStatement ps, int first, T item) throws SQLException;
    }

    private static final Pattern NAMED = Pattern.compile("\\?(\\d+)");

    private final Connection connection;
    /** The template's text around the rows' slot, each {@code ?N} written as {@code ?}. */
    private final String before;
    private final String after;
    /** The fixed value each {@code ?} before and after the slot stands for (0-based). */
    private final int[] fixedBefore;
    private final int[] fixedAfter;
    private final int fixed;
    private final int columns;
    private final Map<Integer, PreparedStatement> prepared = new HashMap<>();

    MultiRowStatement(Connection connection, String template, int fixed, int columns) {
        int slot = template.indexOf("%s");
        if (slot < 0 || columns < 1 || fixed < 0) {
            throw new IllegalArgumentException("a multi-row statement needs a %s slot and at least one column");
        }
        this.connection = connection;
        List<Integer> namedBefore = new ArrayList<>();
        List<Integer> namedAfter = new ArrayList<>();
        this.before = plain(template.substring(0, slot), namedBefore, fixed);
        this.after = plain(template.substring(slot + 2), namedAfter, fixed);
        this.fixedBefore = namedBefore.stream().mapToInt(Integer::intValue).toArray();
        this.fixedAfter = namedAfter.stream().mapToInt(Integer::intValue).toArray();
        this.fixed = fixed;
        this.columns = columns;
    }

    /** {@code text} with each {@code ?N} written as {@code ?}, the N-1 of each added to {@code named}. */
    private static String plain(String text, List<Integer> named, int fixed) {
        Matcher m = NAMED.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int n = Integer.parseInt(m.group(1));
            if (n < 1 || n > fixed) {
                throw new IllegalArgumentException("?" + n + " names no fixed parameter (there are " + fixed + ")");
            }
            named.add(n - 1);
            m.appendReplacement(out, "?");
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * Runs the statement over every item; when {@code returned} is not null the statement has a
     * {@code RETURNING} clause and each returned row's first column is handed to it.
     */
    <T> void run(List<T> items, Object[] fixedValues, Row<T> row, LongConsumer returned) throws SQLException {
        fixedValues = fixedValues == null ? new Object[0] : fixedValues;
        if (fixedValues.length != fixed) {
            throw new IllegalArgumentException("this statement takes " + fixed + " fixed value(s), not "
                    + fixedValues.length);
        }
        int done = 0;
        for (int size : CHUNKS) {
            while (items.size() - done >= size) {
                PreparedStatement ps = statement(size);
                int p = 1;
                for (int named : fixedBefore) {
                    ps.setObject(p++, fixedValues[named]);
                }
                for (int i = 0; i < size; i++) {
                    row.bind(ps, p + i * columns, items.get(done + i));
                }
                p += size * columns;
                for (int named : fixedAfter) {
                    ps.setObject(p++, fixedValues[named]);
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

    /** The statement text for {@code rows} rows: the template with the row tuples in its slot. */
    String sql(int rows) {
        StringBuilder sql = new StringBuilder(before.length() + after.length() + rows * (columns * 3 + 4));
        sql.append(before);
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < columns; c++) {
                sql.append(c == 0 ? "?" : ", ?");
            }
            sql.append(')');
        }
        return sql.append(after).toString();
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
