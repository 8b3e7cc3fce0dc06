package org.claimdesk.app;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.claimdesk.store.IoErrors;
import org.claimdesk.store.OwnerOnly;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every CSV file ClaimDesk writes (exports, the claims export, an import's errors file): RFC 4180 through
 * jackson-dataformat-csv, UTF-8 with a byte order mark (so spreadsheets read accents and other scripts), CRLF line
 * ends, owner-only, written next to its target as {@code NAME.<16 hex digits>.part} and moved into place by {@link
 * #finish}, so a failed write leaves no half file.
 *
 * <p>Each writer has a partial file of its own and holds it locked while it writes: two writers of one target (two
 * staff importing one shared file, whose errors file goes beside it) never write into each other's file, and the
 * one that finishes last puts its complete file in place. A partial file nobody holds locked was left by a writer
 * that died (killed, or its machine lost); it may hold tax ids, so the next writer of that target removes it.
 *
 * <p>{@link Guard#FORMULAS} puts an apostrophe before a value a spreadsheet would run as a formula (starting with
 * {@code = + - @}, a tab or a carriage return, numbers excepted): right for files staff open in a spreadsheet, wrong
 * for a file meant to be imported again, whose values must come back exactly ({@link Guard#NONE}).
 */
public final class CsvFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CsvFile.class);
    private static final CsvMapper MAPPER = new CsvMapper();
    private static final Pattern NUMBER = Pattern.compile("-?[0-9.]+");

    /** Whether values that look like spreadsheet formulas are neutralised. */
    public enum Guard { FORMULAS, NONE }

    private static final SecureRandom RANDOM = new SecureRandom();
    /**
     * The partial files this process is writing. A clean-up never opens them: closing any channel of a file releases
     * every lock the process holds on it (POSIX), which would leave the writer's file to other workstations' clean-up.
     */
    private static final Set<Path> WRITING = ConcurrentHashMap.newKeySet();

    private final Path target;
    private final Path temp;
    private final Guard guard;
    private final FileChannel channel;
    private final Writer writer;
    private final SequenceWriter csv;
    private long rows;
    private boolean closed;

    private CsvFile(Path target, Guard guard) throws IOException {
        this.target = target;
        this.guard = guard;
        removeLeftovers(target);
        Path part;
        FileChannel open;
        while (true) {
            part = target.resolveSibling(target.getFileName() + "." + HexFormat.of().toHexDigits(RANDOM.nextLong())
                    + ".part").toAbsolutePath();
            WRITING.add(part);
            try {
                open = OwnerOnly.createForWriting(part);
            } catch (IOException | RuntimeException e) {
                WRITING.remove(part);
                throw e;
            }
            lock(open, part);
            if (Files.exists(part)) {
                break;
            }
            // another process's clean-up took the file between its creation and the lock: start again
            open.close();
            WRITING.remove(part);
        }
        this.temp = part;
        this.channel = open;
        try {
            this.writer = new BufferedWriter(Channels.newWriter(channel, StandardCharsets.UTF_8));
            writer.write('\uFEFF');
            this.csv = MAPPER.writerFor(String[].class).with(CsvSchema.emptySchema().withLineSeparator("\r\n"))
                    .writeValues(writer);
        } catch (IOException | RuntimeException e) {
            channel.close();
            Files.deleteIfExists(part);
            WRITING.remove(part);
            throw e;
        }
    }

    /**
     * Locks the new partial file for as long as it is written. A file system that keeps no locks gets the file
     * unlocked: writers of that folder then leave each other's partial files alone, as they cannot tell them from
     * dead ones.
     */
    private static void lock(FileChannel channel, Path part) {
        try {
            channel.lock();
        } catch (IOException e) {
            LOG.debug("{} is written without a lock: {}", part.getFileName(), e.getMessage());
        }
    }

    /**
     * Starts {@code target} with its header row.
     *
     * @throws UncheckedIOException when the file cannot be created
     */
    public static CsvFile create(Path target, List<String> header, Guard guard) {
        try {
            CsvFile file = new CsvFile(target, guard);
            file.csv.write(header.toArray(String[]::new));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + IoErrors.describe(e), e);
        }
    }

    /** Writes one row; a null cell is empty, any other value its {@code toString()}. */
    public void row(List<?> cells) {
        String[] values = new String[cells.size()];
        for (int i = 0; i < values.length; i++) {
            Object cell = cells.get(i);
            values[i] = cell == null ? "" : cell.toString();
        }
        row(values);
    }

    /** Writes one row of values (the array is not kept). */
    public void row(String[] values) {
        if (guard == Guard.FORMULAS) {
            for (int i = 0; i < values.length; i++) {
                values[i] = neutralised(values[i]);
            }
        }
        try {
            csv.write(values);
            rows++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + IoErrors.describe(e), e);
        }
    }

    /** The data rows written, header excluded. */
    public long rows() {
        return rows;
    }

    public Path target() {
        return target;
    }

    /** The value with an apostrophe in front when a spreadsheet would run it as a formula. */
    static String neutralised(String value) {
        if (value == null || value.isEmpty() || "=+-@\t\r".indexOf(value.charAt(0)) < 0
                || NUMBER.matcher(value).matches()) {
            return value;
        }
        return "'" + value;
    }

    /** Completes the file and moves it into place over {@code target}; the lock is held until it is there. */
    public void finish() {
        try {
            csv.flush();
            writer.flush();
            // on disk before it takes the name: a crash right after never leaves an empty file under it
            channel.force(true);
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            Path folder = target.toAbsolutePath().getParent();
            if (folder != null) {
                Backup.syncFolder(folder);
            }
            closeWriters();
        } catch (IOException e) {
            abort();
            throw new UncheckedIOException("cannot finish " + target + ": " + IoErrors.describe(e), e);
        }
    }

    /** Drops the partial file; the target is left as it was. Does nothing once finished. */
    public void abort() {
        // removed while still locked, so that no other writer's clean-up ever finds it unlocked and half written
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            LOG.warn("cannot remove the partial file {}: {}", temp, e.getMessage());
        }
        try {
            closeWriters();
        } catch (IOException e) {
            LOG.debug("closing the partial {} failed: {}", temp.getFileName(), e.getMessage());
        }
    }

    /** Drops the partial file unless {@link #finish} was called: use in try-with-resources. */
    @Override
    public void close() {
        abort();
    }

    private void closeWriters() throws IOException {
        if (!closed) {
            closed = true;
            try {
                csv.close();
            } finally {
                try {
                    writer.close();
                } finally {
                    channel.close();
                    WRITING.remove(temp);
                }
            }
        }
    }

    /**
     * Removes the partial files of {@code target} no writer holds locked ({@code NAME.part}, {@code NAME.<hex>.part});
     * one it cannot open (another user's, in a shared folder) is left, as is everything when the folder cannot be
     * listed: the write itself goes on.
     */
    private static void removeLeftovers(Path target) {
        Pattern leftover = Pattern.compile(Pattern.quote(target.getFileName().toString())
                + "(\\.[0-9a-f]{16})?\\.part");
        Path folder = target.toAbsolutePath().getParent();
        try (DirectoryStream<Path> parts = Files.newDirectoryStream(folder,
                p -> leftover.matcher(p.getFileName().toString()).matches())) {
            for (Path part : parts) {
                removeUnlocked(part, target);
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            LOG.info("cannot look for partial files of {} left by writers that did not finish: {}",
                    target.getFileName(), e.getMessage());
        }
    }

    private static void removeUnlocked(Path part, Path target) {
        if (WRITING.contains(part.toAbsolutePath())) {
            return;
        }
        try (FileChannel other = FileChannel.open(part, StandardOpenOption.WRITE)) {
            if (other.tryLock() != null) {
                Files.deleteIfExists(part);
                LOG.info("removed {}, left by a writer of {} that did not finish", part.getFileName(),
                        target.getFileName());
            }
        } catch (OverlappingFileLockException e) {
            // locked by this process, through a channel it keeps
        } catch (NoSuchFileException e) {
            // finished or removed meanwhile
        } catch (IOException e) {
            // another user's file in a shared folder: whether its writer still runs cannot be told
            LOG.info("left {} in place: {}", part.getFileName(), e.getMessage());
        }
    }
}
