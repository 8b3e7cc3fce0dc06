package org.claimdesk.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.Sha256;

/** The file, streamed: its bytes hashed, decoded strictly, a byte order mark skipped, read as CSV records. */
final class CsvRows implements AutoCloseable {
    /**
     * One record of the file: its line (numbered as a spreadsheet numbers rows: the header is 1, a line break inside
     * quotes starts no new line) and its values as written.
     */
    record Row(long line, String[] values) {
    }

    private static final ObjectReader READER = new CsvMapper().readerFor(String[].class)
            .with(CsvSchema.emptySchema())
            .with(CsvParser.Feature.WRAP_AS_ARRAY)
            .with(CsvParser.Feature.SKIP_EMPTY_LINES);

    private final Path file;
    private final Charset charset;
    private final InputStream in;
    private final MessageDigest digest;
    private final MappingIterator<String[]> rows;
    private final long size;
    private long bytesRead;
    private long lastLine = 1;

    /** Whether a UTF-8 file read as another encoding is refused at its end (the check pass; not the import pass). */
    private final boolean refuseUtf8;

    CsvRows(Path file, Charset charset) {
        this(file, charset, true);
    }

    /**
     * @param refuseUtf8 refuse at the end a file whose letters beyond ASCII are UTF-8 read as another encoding: the
     *        check pass does; the import pass after it does not (a file re-saved between the passes is told by its
     *        changed hash, not as a file nothing of which was imported)
     */
    CsvRows(Path file, Charset charset, boolean refuseUtf8) {
        this.file = file;
        this.charset = charset;
        this.refuseUtf8 = refuseUtf8;
        digest = Sha256.digest();
        try {
            size = Files.size(file);
            in = new DigestInputStream(new BufferedInputStream(counting(Files.newInputStream(file)), 1 << 16), digest);
        } catch (NoSuchFileException e) {
            throw new ClaimDeskException("no file " + file);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            // a UTF-8 byte order mark says what the file is (ClaimDesk's own errors files start with one); read in
            // another encoding it would become the first column's name
            byte[] head = in.readNBytes(3);
            if (head.length == 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB && (head[2] & 0xFF) == 0xBF
                    && !charset.equals(StandardCharsets.UTF_8)) {
                throw new ClaimImport.Utf8Text(file.getFileName().toString(), "it starts with UTF-8's byte order mark",
                        charset.name());
            }
            Reader decoded = new InputStreamReader(new SequenceInputStream(new ByteArrayInputStream(head), in),
                    charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT));
            PushbackReader reader = new PushbackReader(new BufferedReader(decoded, 1 << 16));
            int first = reader.read();
            if (first != -1 && first != '\uFEFF') {
                reader.unread(first);
            }
            rows = READER.readValues(reader);
        } catch (IOException e) {
            close();
            throw problem(e);
        } catch (ClaimDeskException e) {
            close();
            throw e;
        }
    }

    /**
     * The next record, or null at the end of the file. A record of blank values only (",,,,", what a spreadsheet
     * saves for a row it cleared) is skipped as an empty line is.
     */
    Row next() {
        try {
            while (rows.hasNextValue()) {
                // the parser counts rows from 0, a line break inside quotes not starting a new one
                long line = rows.getParser().currentTokenLocation().getLineNr() + 1;
                lastLine = line;
                String[] values = rows.nextValue();
                if (!allBlank(values)) {
                    return new Row(line, values);
                }
            }
            if (refuseUtf8 && !charset.equals(StandardCharsets.UTF_8) && utf8.wrote()) {
                // UTF-8 without a byte order mark read as Windows-1252 decodes without an error, every accented
                // letter as two wrong ones ("MarÃ­a"), which would be imported as such
                throw new ClaimImport.Utf8Text(file.getFileName().toString(), "its letters beyond ASCII are"
                        + " written as UTF-8", charset.name());
            }
            return null;
        } catch (IOException e) {
            throw problem(e);
        }
    }

    private static boolean allBlank(String[] values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return false;
            }
        }
        return true;
    }

    /** The bytes of the file read so far (the decoder reads ahead, so a little past the last row returned). */
    long bytesRead() {
        return bytesRead;
    }

    /** The file's size when it was opened. */
    long size() {
        return size;
    }

    private InputStream counting(InputStream raw) {
        return new FilterInputStream(raw) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    bytesRead++;
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    bytesRead += n;
                    utf8.feed(buffer, offset, n);
                }
                return n;
            }
        };
    }

    /** Whether the bytes read are UTF-8 with at least one letter beyond ASCII (read only to be told apart). */
    private static final class Utf8Bytes {
        private int continuations;
        private boolean valid = true;
        private boolean multibyte;

        void feed(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length && valid; i++) {
                int b = bytes[i] & 0xFF;
                if (continuations > 0) {
                    if (b < 0x80 || b > 0xBF) {
                        valid = false;
                    } else if (--continuations == 0) {
                        multibyte = true;
                    }
                } else if (b >= 0xC2 && b <= 0xDF) {
                    continuations = 1;
                } else if (b >= 0xE0 && b <= 0xEF) {
                    continuations = 2;
                } else if (b >= 0xF0 && b <= 0xF4) {
                    continuations = 3;
                } else if (b >= 0x80) {
                    valid = false;
                }
            }
        }

        boolean wrote() {
            return valid && multibyte && continuations == 0;
        }
    }

    private final Utf8Bytes utf8 = new Utf8Bytes();

    /** The SHA-256 of the bytes read: the file's, once {@link #next} has returned null. */
    String sha256() {
        return HexFormat.of().formatHex(digest.digest());
    }

    private ClaimDeskException problem(IOException e) {
        String name = file.getFileName().toString();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CharacterCodingException) {
                boolean utf8 = charset.equals(StandardCharsets.UTF_8);
                return new ClaimDeskException(name + " was not imported: it is not " + charset.name()
                        + " text (near line " + lastLine + ")" + (utf8
                        ? "; a file Excel saved as plain \"CSV\" on Windows is Windows-1252: import it with"
                                + " --encoding " + ClaimImport.WINDOWS_1252 + ", or save it as \"CSV UTF-8\""
                        : "; give the file's encoding with --encoding (UTF-8 is the default)"), e);
            }
        }
        if (e instanceof JsonProcessingException json) {
            long line = json.getLocation() == null ? lastLine : json.getLocation().getLineNr() + 1;
            return new ClaimDeskException(name + " was not imported: it is not a CSV file that can be read ("
                    + json.getOriginalMessage() + ", near line " + line + ")", e);
        }
        return new ClaimDeskException("cannot read " + file + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file, e);
        }
    }
}
