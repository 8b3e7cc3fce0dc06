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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CsvFile} on real files: the bytes written, the formula guard, owner-only, and no half files. */
class CsvFileTest {
    @TempDir
    Path dir;

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
            assertThat(dir.resolve("out.csv.part")).exists();
        }
        assertThat(Files.readString(file)).isEqualTo("before");
        assertThat(dir.resolve("out.csv.part")).doesNotExist();

        try (CsvFile csv = CsvFile.create(file, List.of("v"), CsvFile.Guard.NONE)) {
            csv.row(List.of("whole"));
            csv.finish();
        }
        assertThat(read(file)).containsExactly(List.of("v"), List.of("whole"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }
}
