package org.claimdesk.store;

import java.time.LocalDateTime;
import java.util.Map;
import java.util.Set;

/**
 * What a reader of one dump format found: where the dump came from, the tables and triggers it defines (by name), and
 * for each table whose
 * data it holds, the {@code COPY} statement and the rows, every data block read to its end.
 *
 * @param dumpedAt when pg_dump started, on the clock of the machine that ran it; null when the dump does not say
 * @param database the database dumped; null when the dump does not say (a plain dump made without {@code -C})
 */
record DumpContents(String format, String compression, String database, LocalDateTime dumpedAt,
        String serverVersion, String pgDumpVersion, Set<String> tables, Set<String> triggers,
        Map<String, TableData> data) {

    /** One table's data: its {@code COPY … FROM stdin} statement and its rows. */
    record TableData(String table, String copyStatement, CopyRows rows) {
    }
}
