package org.claimdesk.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The tests' log files ({@code target/test-logs}), which every test run appends to until the next clean: what a test
 * wrote to them since it began, not every earlier run's lines (hundreds of megabytes in a working tree).
 */
public final class TestLogs {
    public static final Path DIR = Path.of("target", "test-logs");

    /** Each log file's size at a moment. */
    public record Mark(Map<Path, Long> sizes) {
    }

    private TestLogs() {
    }

    /** The log files' sizes now. */
    public static Mark mark() throws IOException {
        Map<Path, Long> sizes = new LinkedHashMap<>();
        for (Path file : files()) {
            sizes.put(file, Files.size(file));
        }
        return new Mark(sizes);
    }

    /**
     * Each log file's text written since {@code mark} (ISO-8859-1, so that any byte reads): a file made since, or
     * shorter than it was (made anew), whole.
     */
    public static Map<Path, String> since(Mark mark) throws IOException {
        Map<Path, String> texts = new LinkedHashMap<>();
        for (Path file : files()) {
            try (SeekableByteChannel channel = Files.newByteChannel(file)) {
                long size = channel.size();
                long start = mark.sizes().getOrDefault(file, 0L);
                start = size < start ? 0 : start;
                ByteBuffer written = ByteBuffer.allocate(Math.toIntExact(size - start));
                channel.position(start);
                while (written.hasRemaining() && channel.read(written) > 0) {
                    // reads on until the buffer is full
                }
                texts.put(file, new String(written.array(), 0, written.position(), StandardCharsets.ISO_8859_1));
            }
        }
        return texts;
    }

    private static java.util.List<Path> files() throws IOException {
        if (!Files.isDirectory(DIR)) {
            return java.util.List.of();
        }
        try (Stream<Path> walk = Files.walk(DIR)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
