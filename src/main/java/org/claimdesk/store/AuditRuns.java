package org.claimdesk.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Audit entries of a bulk load, added in any order and given back in time order without holding them all in memory
 * (an external merge sort): each run of entries is sorted and appended to a temporary file of this process, and
 * {@link #merged} reads the runs back side by side, the earliest entry first (entries at the same moment in the order
 * they were added). The file is owner-only, in the folder the caller names (a desk's file's own folder, where SQLite
 * writes its journal, rather than a system temporary folder, which may be kept in memory); where the system allows,
 * its name is removed as soon as it is open, so that nothing is left behind if the process dies; otherwise {@link
 * #close} deletes it. Not thread-safe.
 */
final class AuditRuns implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuditRuns.class);
    /** The read buffers of all runs together, at most; each run has at least {@link #MIN_BUFFER}. */
    static final int READ_BUFFERS = 32 * 1024 * 1024;
    private static final int MIN_BUFFER = 8 * 1024;
    private static final int MAX_BUFFER = 256 * 1024;
    private static final Comparator<Entry> TIME_ORDER = Comparator.comparingLong(Entry::at).thenComparingLong(Entry::seq);

    /** An audit entry as a load adds it: {@code seq} is the order it was added in, {@code at} in epoch milliseconds. */
    record Entry(long seq, long at, String actor, String action, String subjectType, String subjectId, String reason,
            String details) {
    }

    private final Path file;
    private final boolean named;
    private final FileChannel channel;
    /** Each run's start and end in the file. */
    private final List<long[]> runs = new ArrayList<>();
    private long end;
    private ByteBuffer out = ByteBuffer.allocate(64 * 1024);

    private AuditRuns(Path file, boolean named, FileChannel channel) {
        this.file = file;
        this.named = named;
        this.channel = channel;
    }

    /** A new temporary file in {@code folder}. */
    static AuditRuns create(Path folder) {
        Path file = folder.resolve("claimdesk-audit-" + Long.toHexString(System.nanoTime()) + ".runs");
        FileChannel channel;
        try {
            channel = OwnerOnly.createNew(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new DatabaseException("cannot create the bulk load's temporary file " + file + ": " + reason(e), e);
        }
        boolean named;
        try {
            Files.delete(file);
            named = false;
        } catch (IOException e) {
            // a system that does not remove an open file's name: close deletes it
            named = true;
        }
        return new AuditRuns(file, named, channel);
    }

    /** Sorts {@code entries} in time order and appends them as one run. */
    void add(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(TIME_ORDER);
        out.clear();
        for (Entry e : sorted) {
            encode(e);
        }
        out.flip();
        long start = end;
        try {
            while (out.hasRemaining()) {
                end += channel.write(out, end);
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot write the bulk load's temporary file " + file + ": " + reason(e), e);
        }
        runs.add(new long[] {start, end});
    }

    /** The runs' entries in time order; each call reads them again from the start. */
    Merge merged() {
        return merged(runs.isEmpty() ? MIN_BUFFER : Math.max(MIN_BUFFER, Math.min(MAX_BUFFER, READ_BUFFERS / runs.size())));
    }

    /** As {@link #merged()}, each run read through a buffer of {@code bufferBytes}. */
    Merge merged(int bufferBytes) {
        return new Merge(bufferBytes);
    }

    /** The entries of every run, earliest first. */
    final class Merge {
        private final PriorityQueue<RunReader> heads = new PriorityQueue<>(
                Comparator.comparing(RunReader::head, TIME_ORDER));

        private Merge(int buffer) {
            for (long[] run : runs) {
                RunReader reader = new RunReader(run[0], run[1], buffer);
                if (reader.advance()) {
                    heads.add(reader);
                }
            }
        }

        /** The next entry in time order, or null after the last. */
        Entry next() {
            RunReader earliest = heads.poll();
            if (earliest == null) {
                return null;
            }
            Entry entry = earliest.head();
            if (earliest.advance()) {
                heads.add(earliest);
            }
            return entry;
        }
    }

    /** Reads one run's entries in order. */
    private final class RunReader {
        private long position;
        private final long runEnd;
        private ByteBuffer in;
        private Entry head;

        RunReader(long start, long runEnd, int buffer) {
            this.position = start;
            this.runEnd = runEnd;
            this.in = ByteBuffer.allocate(buffer);
            in.flip();
        }

        Entry head() {
            return head;
        }

        /** Reads the run's next entry into {@link #head}; false at the run's end. */
        boolean advance() {
            if (in.remaining() == 0 && position == runEnd) {
                head = null;
                return false;
            }
            fill(Integer.BYTES);
            int length = in.getInt();
            fill(length);
            head = decode(in);
            return true;
        }

        /** Makes {@code bytes} bytes available in the buffer, reading from the file (growing it for a long entry). */
        private void fill(int bytes) {
            if (in.remaining() >= bytes) {
                return;
            }
            if (in.capacity() < bytes) {
                ByteBuffer larger = ByteBuffer.allocate(bytes);
                larger.put(in);
                in = larger;
            } else {
                in.compact();
            }
            try {
                while (in.position() < bytes) {
                    int wanted = (int) Math.min(in.remaining(), runEnd - position);
                    if (wanted <= 0) {
                        throw new DatabaseException("the bulk load's temporary file " + file + " ends mid-entry");
                    }
                    ByteBuffer slice = in.slice().limit(wanted);
                    int read = channel.read(slice, position);
                    if (read < 0) {
                        throw new DatabaseException("the bulk load's temporary file " + file + " is shorter than written");
                    }
                    in.position(in.position() + read);
                    position += read;
                }
            } catch (IOException e) {
                throw new DatabaseException("cannot read the bulk load's temporary file " + file + ": " + reason(e), e);
            }
            in.flip();
        }
    }

    private void encode(Entry e) {
        byte[][] texts = {bytes(e.actor()), bytes(e.action()), bytes(e.subjectType()), bytes(e.subjectId()),
            bytes(e.reason()), bytes(e.details())};
        int length = 2 * Long.BYTES;
        for (byte[] text : texts) {
            length += Integer.BYTES + (text == null ? 0 : text.length);
        }
        if (out.remaining() < Integer.BYTES + length) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(2 * out.capacity(), out.position() + Integer.BYTES + length));
            out.flip();
            larger.put(out);
            out = larger;
        }
        out.putInt(length).putLong(e.seq()).putLong(e.at());
        for (byte[] text : texts) {
            if (text == null) {
                out.putInt(-1);
            } else {
                out.putInt(text.length).put(text);
            }
        }
    }

    private static Entry decode(ByteBuffer in) {
        long seq = in.getLong();
        long at = in.getLong();
        return new Entry(seq, at, text(in), text(in), text(in), text(in), text(in), text(in));
    }

    /** What went wrong with the temporary file, in words (some exceptions' messages are only the path). */
    private static String reason(IOException e) {
        if (e instanceof ClosedByInterruptException) {
            return "the load was interrupted";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "the folder does not exist";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0) {
            return null;
        }
        String text = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return text;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("could not close the bulk load's temporary file {}", file, e);
        }
        if (named) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("could not delete the bulk load's temporary file {}", file, e);
            }
        }
    }
}
