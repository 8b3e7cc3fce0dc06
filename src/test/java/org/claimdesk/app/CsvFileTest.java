package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.claimdesk.testing.FileLockHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CsvFile} on real files: the bytes written, the formula guard, owner-only, and no half files. */
class CsvFileTest {
    @TempDir
    Path dir;

    /** The partial files of {@code target} in its folder: {@code NAME.part} and {@code NAME.<hex>.part}. */
    static List<Path> parts(Path target) throws IOException {
        String name = target.getFileName().toString();
        try (Stream<Path> files = Files.list(target.toAbsolutePath().getParent())) {
            return files.filter(p -> p.getFileName().toString().matches(Pattern.quote(name) + "(\\.[0-9a-f]{16})?\\.part"))
                    .sorted().toList();
        }
    }

    static List<List<String>> read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).startsWith("\uFEFF");
        List<List<String>> rows = new ArrayList<>();
        try (MappingIterator<String[]> it = new CsvMapper().readerFor(String[].class)
                .with(CsvParser.Feature.WRAP_AS_ARRAY).readValues(text.substring(1))) {
            it.forEachRemaining(r -> rows.add(Arrays.asList(r)));
        }
        return rows;
    }

    @Test
    void awkwardValuesComeBackExactlyWithCrlfLineEndsAndAByteOrderMark() throws Exception {
        Path file = dir.resolve("plain.csv");
        List<String> awkward = List.of("a,b", "say \"hi\"", "two\r\nlines", "Žofie Nováková", "山田 太郎", "", "+1 555");
        try (CsvFile csv = CsvFile.create(file, List.of("a", "b", "c", "d", "e", "f", "g"), CsvFile.Guard.NONE)) {
            csv.row(awkward);
            csv.row(Arrays.asList(1, null, 2.5, "x", "y", "z", "-3"));
            csv.finish();
            assertThat(csv.rows()).isEqualTo(2);
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).startsWith("\uFEFFa,b,c,d,e,f,g\r\n").endsWith("\r\n");
        List<List<String>> rows = read(file);
        assertThat(rows.get(1)).containsExactlyElementsOf(awkward);
        assertThat(rows.get(2)).containsExactly("1", "", "2.5", "x", "y", "z", "-3");
    }

    @Test
    void theFormulaGuardNeutralisesWhatASpreadsheetWouldRunAndLeavesNumbersAlone() throws Exception {
        Path file = dir.resolve("guarded.csv");
        try (CsvFile csv = CsvFile.create(file, List.of("v"), CsvFile.Guard.FORMULAS)) {
            for (String v : List.of("=SUM(A1)", "+1 555", "@cmd", "-12.5", "-x", "\tTAB", "plain", "12")) {
                csv.row(List.of(v));
            }
            csv.finish();
        }
        assertThat(read(file).stream().skip(1).map(r -> r.get(0)))
                .containsExactly("'=SUM(A1)", "'+1 555", "'@cmd", "-12.5", "'-x", "'\tTAB", "plain", "12");
    }

    @Test
    void theFileIsOwnerOnlyAndAnAbortedWriteLeavesTheTargetAsItWas() throws Exception {
        Path file = dir.resolve("out.csv");
        Files.writeString(file, "before");
        try (CsvFile csv = CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE)) {
            csv.row(List.of("half"));
            assertThat(parts(file)).singleElement().satisfies(part ->
                    assertThat(Files.getPosixFilePermissions(part)).isEqualTo(PosixFilePermissions.fromString("rw-------")));
        }
        assertThat(Files.readString(file)).isEqualTo("before");
        assertThat(parts(file)).isEmpty();

        try (CsvFile csv = CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE)) {
            csv.row(List.of("whole"));
            csv.finish();
        }
        assertThat(read(file)).containsExactly(List.of("v"), List.of("whole"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void twoWritersOfOneTargetWriteFilesOfTheirOwnAndTheLastToFinishIsInPlace() throws Exception {
        Path file = dir.resolve("shared.errors.csv");
        try (CsvFile first = CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE)) {
            Path firstPart = parts(file).get(0);
            try (CsvFile second = CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE)) {
                first.row(List.of("first 1"));
                second.row(List.of("second 1"));
                assertThat(parts(file)).hasSize(2);
                // the second's look for dead writers' files left the first's locked, as other workstations must see it
                assertThat(FileLockHolder.lockedElsewhere(firstPart)).isTrue();
                second.row(List.of("second 2"));
                second.finish();
            }
            assertThat(read(file)).containsExactly(List.of("v"), List.of("second 1"), List.of("second 2"));
            first.row(List.of("first 2"));
            first.finish();
        }
        assertThat(read(file)).containsExactly(List.of("v"), List.of("first 1"), List.of("first 2"));
        assertThat(parts(file)).isEmpty();
    }

    @Test
    void partialFilesLeftByWritersThatDiedAreRemovedAndALiveWritersFileIsLeftAlone() throws Exception {
        Path file = dir.resolve("out.csv");
        Path died = Files.writeString(dir.resolve("out.csv.0123456789abcdef.part"), "123-45-6789");
        Path older = Files.writeString(dir.resolve("out.csv.part"), "987-65-4321");
        Path unrelated = Files.writeString(dir.resolve("other.csv.0123456789abcdef.part"), "kept");
        Path alive = dir.resolve("out.csv.fedcba9876543210.part");
        Process writer = FileLockHolder.hold(alive, 60);
        try {
            try (CsvFile csv = CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE)) {
                csv.row(List.of("whole"));
                csv.finish();
            }
            assertThat(died).doesNotExist();
            assertThat(older).doesNotExist();
            assertThat(alive).exists();
            assertThat(unrelated).exists();
        } finally {
            writer.destroyForcibly();
            writer.waitFor();
        }
        assertThat(read(file)).containsExactly(List.of("v"), List.of("whole"));
        // once its writer is gone, the next writer of the target removes it
        CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE).close();
        assertThat(parts(file)).isEmpty();
    }
}
