package org.claimdesk.store;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads a custom-format archive ({@code pg_dump -Fc}) in Java, as pg_restore does (PostgreSQL's
 * {@code pg_backup_archiver.c} ReadHead and ReadToc, {@code pg_backup_custom.c}): the header, the table of contents,
 * then every data block in turn, each inflated (zlib) or copied as it is and read to its end marker. Archive
 * versions 1.12 (pg_dump 9.0) to 1.16 (pg_dump 17); data compressed with gzip or not at all.
 */
final class CustomArchive {
    static final byte[] MAGIC = "PGDMP".getBytes(StandardCharsets.US_ASCII);
    private static final int FORMAT_CUSTOM = 1;
    private static final int FORMAT_DIRECTORY = 5;
    private static final int OLDEST = version(1, 12);
    private static final int NEWEST = version(1, 16);
    private static final int BLOCK_DATA = 1;
    private static final int BLOCK_BLOBS = 3;
    private static final int OFFSET_NO_DATA = 3;
    private static final int OFFSET_SET = 2;
    private static final String[] ALGORITHMS = {"none", "gzip", "lz4", "zstd"};
    /** Longer than any text an archive holds (a table's definition, a function's body). */
    private static final int LONGEST_TEXT = 256 << 20;

    private final Path file;
    private final Input in;
    private int version;
    private int intSize;
    private int offSize;
    private String compression;

    private CustomArchive(Path file, InputStream stream) {
        this.file = file;
        this.in = new Input(stream);
    }

    /** One entry of the table of contents, as far as a check needs it. */
    private record Entry(int dumpId, boolean hadData, String tag, String desc, String copyStatement, int dataState,
            long dataPos) {
    }

    /**
     * Reads the archive {@code file}; the data of the tables {@code keepLines} accepts is kept line by line.
     *
     * @throws DatabaseException with one sentence when the file is not such an archive, is truncated or damaged, or
     *     uses what this reader does not read
     */
    static DumpContents read(Path file, Predicate<String> keepLines) {
        try (InputStream stream = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return new CustomArchive(file, stream).read(keepLines);
        } catch (IOException e) {
            throw new DatabaseException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private DumpContents read(Predicate<String> keepLines) throws IOException {
        String database;
        String serverVersion;
        String pgDumpVersion;
        LocalDateTime dumpedAt;
        Map<Integer, Entry> withData = new LinkedHashMap<>();
        Set<String> tables = new LinkedHashSet<>();
        Set<String> triggers = new LinkedHashSet<>();
        try {
            in.skip(MAGIC.length);
            int major = in.readByte();
            int minor = in.readByte();
            in.readByte(); // revision
            version = version(major, minor);
            if (version < OLDEST || version > NEWEST) {
                throw refused("was written by a pg_dump whose archive version " + major + "." + minor
                        + " this ClaimDesk does not read (it reads 1.12 to 1.16, pg_dump 9.0 to 17)");
            }
            intSize = in.readByte();
            offSize = in.readByte();
            if (intSize < 1 || intSize > 8 || offSize < 1 || offSize > 8) {
                throw damaged("its header gives integers of " + intSize + " and offsets of " + offSize + " bytes");
            }
            int format = in.readByte();
            if (format == FORMAT_DIRECTORY) {
                throw refused("is the table of contents of a directory-format dump (-Fd); check a dump made with"
                        + " pg_dump -Fc");
            }
            if (format != FORMAT_CUSTOM) {
                throw damaged("its header names format " + format + ", not the custom format");
            }
            compression = readCompression();
            int sec = readInt();
            int min = readInt();
            int hour = readInt();
            int day = readInt();
            int month = readInt();
            int year = readInt();
            readInt(); // daylight saving flag
            dumpedAt = date(year, month, day, hour, min, sec);
            database = readString();
            serverVersion = readString();
            pgDumpVersion = readString();

            int count = readInt();
            if (count < 0) {
                throw damaged("its table of contents counts " + count + " entries");
            }
            for (int i = 0; i < count; i++) {
                Entry entry = readEntry();
                if (entry.desc().equals("TABLE")) {
                    tables.add(entry.tag());
                } else if (entry.desc().equals("TRIGGER")) {
                    // the tag is the table's name and the trigger's (ClaimDesk's names hold no space)
                    triggers.add(entry.tag().substring(entry.tag().indexOf(' ') + 1));
                }
                if (entry.hadData() && entry.dataState() != OFFSET_NO_DATA) {
                    withData.put(entry.dumpId(), entry);
                }
            }
        } catch (EOFException e) {
            throw truncated("within its header or table of contents", e);
        }
        if (!compression.equals("none") && !compression.equals("gzip")) {
            throw refused("is compressed with " + compression + ", which this check does not read: run pg_dump -Fc"
                    + " with -Z gzip (or -Z none)");
        }
        Map<String, DumpContents.TableData> data = readData(withData, keepLines);
        return new DumpContents("custom archive " + major(version) + "." + minor(version), compression, database,
                dumpedAt, serverVersion, pgDumpVersion, tables, triggers, data);
    }

    private String readCompression() throws IOException {
        if (version >= version(1, 15)) {
            int algorithm = in.readByte();
            return algorithm < ALGORITHMS.length ? ALGORITHMS[algorithm] : "an unknown method (" + algorithm + ")";
        }
        int level = readInt();
        return level == 0 ? "none" : "gzip";
    }

    private Entry readEntry() throws IOException {
        int dumpId = readInt();
        if (dumpId <= 0) {
            throw damaged("its table of contents holds an entry numbered " + dumpId);
        }
        boolean hadData = readInt() != 0;
        readString(); // catalog table oid
        readString(); // oid
        String tag = readString();
        String desc = readString();
        readInt(); // section
        readString(); // definition
        readString(); // drop statement
        String copyStatement = readString();
        readString(); // namespace
        readString(); // tablespace
        if (version >= version(1, 14)) {
            readString(); // table access method
        }
        if (version >= version(1, 16)) {
            readInt(); // relkind
        }
        readString(); // owner
        readString(); // "false": tables WITH OIDS are gone
        while (readString() != null) {
            // dependencies, up to an empty one
        }
        int dataState = in.readByte();
        long dataPos = readOffset();
        return new Entry(dumpId, hadData, tag == null ? "" : tag, desc == null ? "" : desc, copyStatement,
                dataState, dataPos);
    }

    /** Every data block after the table of contents, in turn, to the end of the file. */
    private Map<String, DumpContents.TableData> readData(Map<Integer, Entry> withData, Predicate<String> keepLines)
            throws IOException {
        Map<String, DumpContents.TableData> data = new LinkedHashMap<>();
        Map<Integer, Entry> missing = new HashMap<>(withData);
        while (true) {
            long at = in.position();
            int type = in.readByteOrEnd();
            if (type < 0) {
                break;
            }
            Entry entry;
            try {
                int dumpId = readInt();
                entry = missing.remove(dumpId);
                if (entry == null || (type != BLOCK_DATA && type != BLOCK_BLOBS)) {
                    throw damaged("a data block at byte " + at + " belongs to no entry of its table of contents");
                }
                if (entry.dataState() == OFFSET_SET && entry.dataPos() != at) {
                    throw damaged("the data of " + entry.tag() + " is not where its table of contents says");
                }
            } catch (EOFException e) {
                throw truncated("after the data of " + data.size() + " table(s)", e);
            }
            if (type == BLOCK_BLOBS) {
                skipLargeObjects(entry);
                continue;
            }
            CopyRows rows = new CopyRows(keepLines.test(entry.tag()));
            readBlock(entry, rows);
            rows.finish();
            if (entry.desc().equals("TABLE DATA")) {
                data.put(entry.tag(), new DumpContents.TableData(entry.tag(), entry.copyStatement(), rows));
            }
        }
        if (!missing.isEmpty()) {
            Entry first = missing.values().stream().min((a, b) -> Integer.compare(a.dumpId(), b.dumpId())).get();
            throw truncated("before the data of " + first.tag() + " (" + missing.size() + " data block(s) missing)",
                    null);
        }
        return data;
    }

    /** One table's chunks up to the empty one that ends them, inflated when compressed, into {@code rows}. */
    private void readBlock(Entry entry, CopyRows rows) throws IOException {
        Inflater inflater = compression.equals("gzip") ? new Inflater() : null;
        byte[] chunk = new byte[1 << 16];
        byte[] out = new byte[1 << 16];
        boolean anyInput = false;
        try {
            while (true) {
                int length = readInt();
                if (length == 0) {
                    break;
                }
                if (length < 0) {
                    throw damaged("the data of " + entry.tag() + " holds a chunk of " + length + " bytes");
                }
                if (chunk.length < length) {
                    chunk = new byte[length];
                }
                in.readFully(chunk, length);
                anyInput = true;
                if (inflater == null) {
                    rows.accept(chunk, 0, length);
                    continue;
                }
                inflater.setInput(chunk, 0, length);
                while (!inflater.needsInput() && !inflater.finished()) {
                    int n = inflater.inflate(out);
                    rows.accept(out, 0, n);
                    if (n == 0 && inflater.needsDictionary()) {
                        throw damaged("the compressed data of " + entry.tag() + " asks for a zlib dictionary");
                    }
                }
            }
            if (inflater != null && anyInput && !inflater.finished()) {
                throw damaged("the compressed data of " + entry.tag() + " stops before its end");
            }
        } catch (EOFException e) {
            throw truncated("in the middle of the data of " + entry.tag(), e);
        } catch (DataFormatException e) {
            throw damaged("the compressed data of " + entry.tag() + " does not inflate (" + e.getMessage() + ")");
        } finally {
            if (inflater != null) {
                inflater.end();
            }
        }
    }

    /** Large objects (ClaimDesk has none): each one's chunks skipped to their end. */
    private void skipLargeObjects(Entry entry) throws IOException {
        try {
            while (readInt() != 0) {
                int length;
                while ((length = readInt()) != 0) {
                    if (length < 0) {
                        throw damaged("the large objects of " + entry.tag() + " hold a chunk of " + length + " bytes");
                    }
                    in.skip(length);
                }
            }
        } catch (EOFException e) {
            throw truncated("in the middle of its large objects", e);
        }
    }

    /** pg_dump's integer: a sign byte, then {@code intSize} bytes, least significant first. */
    private int readInt() throws IOException {
        boolean negative = in.readByte() != 0;
        long value = 0;
        for (int i = 0; i < intSize; i++) {
            value |= (long) in.readByte() << (8 * i);
        }
        if (value > Integer.MAX_VALUE) {
            throw damaged("it holds a number too large for an archive (at byte " + in.position() + ")");
        }
        return negative ? (int) -value : (int) value;
    }

    /** A length, then that many bytes of UTF-8; a negative length for none (null). */
    private String readString() throws IOException {
        int length = readInt();
        if (length < 0) {
            return null;
        }
        if (length > LONGEST_TEXT) {
            throw damaged("it holds a text of " + length + " bytes at byte " + in.position()
                    + ", longer than any in an archive");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes, length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A data position: {@code offSize} bytes, least significant first (its state byte is read before). */
    private long readOffset() throws IOException {
        long value = 0;
        for (int i = 0; i < offSize; i++) {
            value |= (long) in.readByte() << (8 * i);
        }
        return value;
    }

    private static LocalDateTime date(int year, int month, int day, int hour, int min, int sec) {
        try {
            return LocalDateTime.of(1900 + year, month + 1, day, hour, min, Math.min(sec, 59));
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static int version(int major, int minor) {
        return major * 256 + minor;
    }

    private static int major(int version) {
        return version / 256;
    }

    private static int minor(int version) {
        return version % 256;
    }

    private DatabaseException refused(String why) {
        return new DatabaseException(file + " " + why);
    }

    private DatabaseException damaged(String why) {
        return new DatabaseException(file + " is damaged: " + why + "; make the dump again");
    }

    private DatabaseException truncated(String where, EOFException cause) {
        return new DatabaseException(file + " is truncated: it ends " + where + "; make the dump again", cause);
    }

    /** The file's bytes with their position; the end of the file within a value is an {@link EOFException}. */
    private static final class Input {
        private final InputStream stream;
        private long position;

        Input(InputStream stream) {
            this.stream = stream;
        }

        long position() {
            return position;
        }

        int readByte() throws IOException {
            int b = readByteOrEnd();
            if (b < 0) {
                throw new EOFException();
            }
            return b;
        }

        int readByteOrEnd() throws IOException {
            int b = stream.read();
            if (b >= 0) {
                position++;
            }
            return b;
        }

        void readFully(byte[] into, int length) throws IOException {
            int read = stream.readNBytes(into, 0, length);
            position += read;
            if (read < length) {
                throw new EOFException();
            }
        }

        void skip(long length) throws IOException {
            stream.skipNBytes(length);
            position += length;
        }
    }
}
