package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.Json;
import org.claimdesk.testing.CommitFault;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Triggers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimEvidenceTest {
    private static final Instant NOW = Instant.parse("2026-11-02T15:00:00Z");

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    ClaimEvidence evidence;
    Path folder;
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

    /**
     * A database file keeps its files in {@code evidence} beside it; a team database in the shared folder staff name,
     * here one of the test's own (the folder {@code claims evidence add --evidence-dir} hands in).
     */
    @BeforeEach
    void open() throws Exception {
        db = Database.open(TestDatabase.location(engine, Files.createDirectories(dir.resolve("office")), "claims"));
        folder = dir.resolve("office").resolve("evidence");
        if (db.onServer()) {
            // IT's share, there before staff add anything
            Files.createDirectories(folder);
        }
        evidence = new ClaimEvidence(db, clock, DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null));
    }

    @AfterEach
    void close() {
        db.close();
    }

    /**
     * A claim created with evidence is written with it in one transaction: no other workstation sees it (and may
     * submit it, when it starts ready for submission) without the references staff entered. A reference that cannot
     * be written leaves no claim; one refused before writing (a file gone) is left out and named.
     */
    @Test
    void aClaimCreatedWithEvidenceIsWrittenWithItOrNotAtAll() throws Exception {
        ClaimIntake intake = new ClaimIntake(db, clock);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed of the property");
        List<ClaimEvidence.Draft> drafts = List.of(
                new ClaimEvidence.Draft("address", "https://records.example.gov/u/1", null, "Utility bill"),
                new ClaimEvidence.Draft("ownership", null, deed, null),
                new ClaimEvidence.Draft("identity", null, dir.resolve("gone.pdf"), null));
        // a claim the create would refuse copies no file in (a team's shared folder would keep it)
        Map<String, String> broken = new java.util.LinkedHashMap<>(ClaimIntakeTest.fields());
        broken.put("holderId", "ACME-7");
        assertThatThrownBy(() -> evidence.createWith(intake, broken, ClaimStatus.READY_FOR_SUBMISSION, "j.chen",
                "documents checked at the counter", null, drafts)).isInstanceOf(InvalidFieldsException.class);
        assertThatThrownBy(() -> evidence.createWith(intake, ClaimIntakeTest.fields(), ClaimStatus.READY_FOR_SUBMISSION,
                "j.chen", null, null, drafts)).hasMessageContaining("needs a reason");
        assertThat(filesIn(folder)).isEmpty();
        Triggers.failing(db, "no_evidence", "evidence", "INSERT", "evidence cannot be written");

        assertThatThrownBy(() -> evidence.createWith(intake, ClaimIntakeTest.fields(), ClaimStatus.READY_FOR_SUBMISSION,
                "j.chen", "documents checked at the counter", null, drafts))
                .hasStackTraceContaining("evidence cannot be written");
        assertThat(Sql.count(db, "claim")).as("no claim without its evidence").isZero();
        assertThat(Sql.count(db, "audit_log")).isZero();

        Triggers.drop(db, "no_evidence", "evidence");
        ClaimEvidence.Created made = evidence.createWith(intake, ClaimIntakeTest.fields(),
                ClaimStatus.READY_FOR_SUBMISSION, "j.chen", "documents checked at the counter", null, drafts);

        assertThat(made.claim().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(made.added()).extracting(Evidence::kind).containsExactly(EvidenceKind.ADDRESS, EvidenceKind.OWNERSHIP);
        assertThat(evidence.list(made.claim().claimId())).hasSize(2);
        assertThat(made.refused()).containsOnlyKeys(2);
        assertThat(made.refused().get(2)).hasMessageContaining("does not exist");
        assertThat(Sql.count(db, "audit_log")).isEqualTo(3);

        // the same claim again, seen by nobody: refused before any copy
        Path other = Files.writeString(dir.resolve("lease.pdf"), "a lease, another content");
        assertThatThrownBy(() -> evidence.createWith(intake, ClaimIntakeTest.fields(), null, "j.chen", null, null,
                List.of(new ClaimEvidence.Draft("address", null, other, null))))
                .isInstanceOf(org.claimdesk.domain.DuplicateClaimException.class);
        assertThat(filesIn(folder)).hasSize(1);
    }

    @Test
    void anAddressIsRecordedAndAudited() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);

        Evidence added = evidence.addUrl(id, "Address", " https://records.example.gov/utility/2024-03 ", null, "j.chen");

        assertThat(added.kind()).isEqualTo(EvidenceKind.ADDRESS);
        assertThat(added.url()).isEqualTo("https://records.example.gov/utility/2024-03");
        assertThat(added.title()).isEqualTo(added.url());
        assertThat(added.isFile()).isFalse();
        assertThat(added.addedBy()).isEqualTo("j.chen");
        assertThat(added.addedAt()).isEqualTo(NOW);
        assertThat(evidence.list(id)).containsExactly(added);
        assertThat(new Queries(db, clock).audit(Long.toString(id), null, AuditActions.EVIDENCE_ADD, 0, 0))
                .singleElement().satisfies(a -> assertThat(a.details()).contains("records.example.gov").contains("address"));
        assertThat(filesIn(folder)).isEmpty();
    }

    @Test
    void aBadAddressOrKindIsRefusedWithItsRule() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        assertThatThrownBy(() -> evidence.addUrl(id, "address", "file:///etc/passwd", null, "j.chen"))
                .isInstanceOf(InvalidFieldsException.class).hasMessageStartingWith("url must be an http or https address");
        assertThatThrownBy(() -> evidence.addUrl(id, "selfie", "https://e.org", null, "j.chen"))
                .hasMessage("kind must be one of identity, address, ownership, heirship, business");
        assertThat(evidence.list(id)).isEmpty();
    }

    @Test
    void aFileIsCopiedOwnerOnlyOrForTheSharesGroupAndRecordedByNameSizeAndSha256() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.NEEDS_INFO);
        byte[] content = "Lease agreement, 1200 Capitol Mall, Sacramento".getBytes(StandardCharsets.UTF_8);
        Path lease = Files.write(dir.resolve("lease 2024.pdf"), content);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));

        Evidence added = evidence.addFile(id, "address", lease, "Lease", "j.chen");

        assertThat(added.isFile()).isTrue();
        assertThat(added.fileName()).isEqualTo("lease 2024.pdf");
        assertThat(added.title()).isEqualTo("Lease");
        assertThat(added.sizeBytes()).isEqualTo(content.length);
        assertThat(added.sha256()).isEqualTo(sha);
        Path copy = evidence.fileOf(added);
        assertThat(copy.getParent()).isEqualTo(folder);
        assertThat(Files.readAllBytes(copy)).isEqualTo(content);
        if (copy.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            // a desk's own folder is its owner's; the office's shared folder is IT's, read by the staff group
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)))
                    .isEqualTo(db.onServer() ? "rw-r-----" : "rw-------");
            if (!db.onServer()) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
            }
        }
        assertThat(new Queries(db, clock).audit(Long.toString(id), null, AuditActions.EVIDENCE_ADD, 0, 0))
                .singleElement().satisfies(a -> assertThat(a.details()).contains(sha).contains("lease 2024.pdf"));

        // the same document again is kept once and referenced twice
        Evidence again = evidence.addFile(id, "ownership", lease, null, "r.okafor");
        assertThat(again.title()).isEqualTo("lease 2024.pdf");
        assertThat(evidence.fileOf(again)).isEqualTo(copy);
        assertThat(filesIn(folder)).containsExactly(copy);
        assertThat(evidence.list(id)).hasSize(2);
    }

    @Test
    void aFileOfExactly25MbIsTakenAndOneByteMoreIsRefusedWithNothingWritten() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path limit = sized("scan.tif", EvidenceRules.MAX_FILE_BYTES);
        Path over = sized("video.mp4", EvidenceRules.MAX_FILE_BYTES + 1);

        assertThatThrownBy(() -> evidence.addFile(id, "ownership", over, null, "j.chen"))
                .isInstanceOf(InvalidFieldsException.class)
                .hasMessage("file must be at most 25 MB (this one is 25.0 MB)");
        assertThat(evidence.list(id)).isEmpty();
        assertThat(filesIn(folder)).isEmpty();

        Evidence taken = evidence.addFile(id, "ownership", limit, null, "j.chen");
        assertThat(taken.sizeBytes()).isEqualTo(EvidenceRules.MAX_FILE_BYTES);
    }

    @Test
    void aMissingFileOrAFolderIsRefusedWithAClearMessage() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path missing = dir.resolve("nowhere.pdf");
        assertThatThrownBy(() -> evidence.addFile(id, "identity", missing, null, "j.chen"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("the evidence file " + missing + " does not exist");
        assertThatThrownBy(() -> evidence.addFile(id, "identity", dir, null, "j.chen"))
                .hasMessage("the evidence file " + dir + " is a folder or a device, not a file");
        // said to staff with its name, logged without it: a file's name says whose document it is
        assertThatThrownBy(() -> evidence.addFile(id, "identity", missing, null, "j.chen"))
                .isInstanceOfSatisfying(ClaimDeskException.class, e -> assertThat(e.forLog())
                        .isEqualTo("an evidence file (its name is not logged) does not exist"));
        // an empty file (a failed download, a cloud folder's placeholder) proves nothing
        Path empty = Files.createFile(dir.resolve("placeholder.pdf"));
        assertThatThrownBy(() -> evidence.addFile(id, "identity", empty, null, "j.chen"))
                .isInstanceOf(InvalidFieldsException.class)
                .hasMessage("file is empty (0 bytes): choose the scanned document itself");
        assertThat(evidence.list(id)).isEmpty();
        assertThat(filesIn(folder)).isEmpty();
    }

    /** A file's name shown as it is: a right-to-left override in it shows as '?'; typed in a title, it is refused. */
    @Test
    void aFileNameWithAHiddenCharacterIsShownPlainAndATitleWithOneIsRefused() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path disguised = Files.writeString(dir.resolve("invoice\u202Efdp.exe"), "not a pdf");

        Evidence added = evidence.addFile(id, "ownership", disguised, null, "j.chen");

        assertThat(added.title()).isEqualTo("invoice?fdp.exe");
        assertThatThrownBy(() -> evidence.addFile(id, "ownership", disguised, "deed\u202Efdp.exe", "j.chen"))
                .isInstanceOf(InvalidFieldsException.class).hasMessageContaining("must be one line");
        assertThatThrownBy(() -> evidence.addUrl(id, "address", "https://records.example.gov/u/1", "bill\u2028two",
                "j.chen")).isInstanceOf(InvalidFieldsException.class).hasMessageContaining("must be one line");
    }

    @Test
    void aFileThatCannotBeReadIsRefusedAsTheFilesFaultAndLeavesNoCopyBehind() throws Exception {
        // a regular file whose every read fails, for any user (root reads files whatever their permissions)
        Path unreadable = Path.of("/proc/self/mem");
        assumeTrue(Files.isRegularFile(unreadable), "needs Linux's /proc");
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);

        assertThatThrownBy(() -> evidence.addFile(id, "identity", unreadable, null, "j.chen"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageStartingWith("the evidence file " + unreadable + " cannot be read: ");

        assertThat(filesIn(folder)).as("the partial copy is removed").isEmpty();
        assertThat(evidence.list(id)).isEmpty();
        assertThat(Sql.scalar(db, "SELECT count(*) FROM audit_log", Integer.class)).isZero();
    }

    @Test
    void aRowThatCannotBeWrittenLeavesNoFileBehindInAFolderOfOnesOwn() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        Triggers.failing(db, "evidence_full", "evidence", "INSERT", "database or disk is full");

        assertThatThrownBy(() -> evidence.addFile(id, "ownership", deed, null, "j.chen"))
                .hasMessageContaining("full");

        // the office's shared folder keeps it: another workstation may be adding the same content, its row unseen
        assertThat(filesIn(folder)).hasSize(db.onServer() ? 1 : 0);
        assertThat(Sql.count(db, "evidence")).isZero();
        assertThat(Sql.scalar(db, "SELECT count(*) FROM audit_log", Integer.class)).isZero();
    }

    @Test
    void aFileWhoseRowWasCommittedThoughTheAnswerWasLostStaysInTheFolder() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        // the commit that writes the evidence row goes through, and its answer is lost
        CommitFault<Long> fault = CommitFault.install(db, Thread.currentThread().getName(), true,
                h -> h.createQuery("SELECT count(*) FROM evidence").mapTo(Long.class).one(), (start, commit) -> commit > start);

        assertThatThrownBy(() -> evidence.addFile(id, "ownership", deed, null, "j.chen"))
                .hasMessageContaining(CommitFault.MESSAGE);

        assertThat(fault.struck()).isTrue();
        List<Evidence> recorded = evidence.list(id);
        assertThat(recorded).singleElement().satisfies(e -> assertThat(evidence.fileOf(e)).hasContent("deed"));
        assertThat(filesIn(folder)).hasSize(1);
    }

    @Test
    void aFileWhoseCommitFailedStaysInTheFolderForItMayHaveGoneThrough() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        // the commit fails and does not go through: from here, not knowable from a lost answer
        CommitFault.install(db, Thread.currentThread().getName(), false,
                h -> h.createQuery("SELECT count(*) FROM evidence").mapTo(Long.class).one(), (start, commit) -> commit > start);

        assertThatThrownBy(() -> evidence.addFile(id, "ownership", deed, null, "j.chen"))
                .hasMessageContaining(CommitFault.MESSAGE);

        assertThat(evidence.list(id)).isEmpty();
        assertThat(filesIn(folder)).as("left: only space, and the next add of the same content uses it").hasSize(1);
        Evidence again = evidence.addFile(id, "ownership", deed, null, "j.chen");
        assertThat(evidence.fileOf(again)).hasContent("deed");
    }

    /**
     * Two adds of one content on a desk (a folder of its own): the first copied the file, the second found it, and
     * the first failed and removed its copy before the second's row was written. The second copies the file again in
     * its transaction: its row never names a file that is not there.
     */
    @Test
    void anAddWhoseFoundCopyWasRemovedMeanwhileCopiesTheFileAgain() throws Exception {
        EvidenceFiles own = EvidenceFiles.own(dir.resolve("own"));
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        EvidenceFiles.Stored firstCopy = own.copyIn(deed);
        assertThat(firstCopy.created()).isTrue();
        // the first add's removal lands between the second's copy (which found the file) and its transaction
        Runnable[] onNow = {() -> {
            try {
                Files.delete(own.path(firstCopy.storedName()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }};
        Clock removingOnce = new Clock() {
            @Override
            public Instant instant() {
                Runnable run = onNow[0];
                onNow[0] = null;
                if (run != null) {
                    run.run();
                }
                return NOW;
            }

            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }
        };

        Evidence added = new ClaimEvidence(db, removingOnce, own).addFile(id, "ownership", deed, null, "j.chen");

        assertThat(onNow[0]).as("the copy was removed while the add was under way").isNull();
        assertThat(own.path(added.storedName())).hasContent("deed");
        assertThat(own.presence(added)).isEqualTo(EvidenceCopy.WHOLE);
    }

    /**
     * A failed add removing the copy it made waits for an add of the same content whose transaction is under way,
     * then finds the file named by that add's row and keeps it (both engines: SQLite's write lock, the server's
     * advisory lock).
     */
    @Test
    void aFailedAddKeepsItsCopyWhenAnAddUnderWayNamesIt() throws Exception {
        EvidenceFiles own = EvidenceFiles.own(dir.resolve("own"));
        ClaimEvidence onDesk = new ClaimEvidence(db, clock, own);
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        EvidenceFiles.Stored copy = own.copyIn(deed);
        java.util.concurrent.CountDownLatch rowWritten = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch commit = new java.util.concurrent.CountDownLatch(1);
        var store = new org.claimdesk.store.EvidenceStore();
        var adding = java.util.concurrent.CompletableFuture.runAsync(() -> db.useTransaction(h -> {
            store.lockFiles(h);
            store.insertFile(h, id, EvidenceKind.OWNERSHIP, "deed", copy, "r.okafor", NOW);
            rowWritten.countDown();
            try {
                commit.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        try {
            assertThat(rowWritten.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            var removing = java.util.concurrent.CompletableFuture.runAsync(() -> onDesk.discardUnlessNamed(copy));
            org.awaitility.Awaitility.await().during(java.time.Duration.ofMillis(400))
                    .atMost(java.time.Duration.ofSeconds(5)).until(() -> !removing.isDone());
            commit.countDown();
            removing.get(30, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            commit.countDown();
            adding.get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(own.path(copy.storedName())).hasContent("deed");
        assertThat(onDesk.list(id)).singleElement().satisfies(e -> assertThat(onDesk.fileOf(e)).hasContent("deed"));
    }

    @Test
    void aSharedFolderThatIsNotThereIsRefusedAndNotCreated() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        Path unmounted = dir.resolve("mnt").resolve("claims-evidence");
        ClaimEvidence onShare = new ClaimEvidence(db, clock, EvidenceFiles.shared(unmounted));

        assertThatThrownBy(() -> onShare.addFile(id, "ownership", deed, null, "j.chen"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("the shared evidence folder " + unmounted + " is not there: is the office's share mounted"
                        + " on this workstation? (docs/operations.md: evidence files)");
        assertThat(unmounted).doesNotExist();
        assertThat(evidence.list(id)).isEmpty();
        assertThat(EvidenceFiles.shared(unmounted).writeProblem()).hasValueSatisfying(
                p -> assertThat(p).startsWith("the shared evidence folder " + unmounted + " is not there"));
    }

    @Test
    void aDamagedCopyInTheFolderIsReplacedByTheWholeOneAddedAgain() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed of trust, 12 pages");
        Evidence first = evidence.addFile(id, "ownership", deed, null, "j.chen");
        EvidenceFiles files = DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null);
        assertThat(files.presence(first, true))
                .isEqualTo(EvidenceCopy.WHOLE);

        // cut short (an interrupted copy of the folder), then the same size with other bytes
        Files.writeString(evidence.fileOf(first), "deed of");
        assertThat(files.presence(first, true))
                .isEqualTo(EvidenceCopy.DAMAGED);
        Evidence again = evidence.addFile(id, "ownership", deed, null, "j.chen");
        assertThat(evidence.fileOf(again)).hasContent("deed of trust, 12 pages");
        Files.writeString(evidence.fileOf(first), "DEED OF TRUST, 12 PAGES");
        assertThat(files.presence(first, true))
                .isEqualTo(EvidenceCopy.DAMAGED);
        assertThat(files.presence(first))
                .as("size only").isEqualTo(EvidenceCopy.WHOLE);
        evidence.addFile(id, "ownership", deed, null, "j.chen");
        assertThat(evidence.fileOf(first)).hasContent("deed of trust, 12 pages");

        Files.delete(evidence.fileOf(first));
        assertThat(files.presence(first, true))
                .isEqualTo(EvidenceCopy.MISSING);
        assertThat(filesIn(folder)).isEmpty();
    }

    @Test
    void evidenceIsRefusedWhereEditingIsWithTheReasonAndNothingCopied() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.PAID);
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");
        assertThatThrownBy(() -> evidence.addFile(id, "ownership", deed, null, "j.chen"))
                .hasMessageContaining("cannot be edited in PAID: the claim is paid");
        assertThatThrownBy(() -> evidence.addUrl(id, "ownership", "https://e.org/deed", null, "j.chen"))
                .hasMessageContaining("cannot be edited in PAID");
        assertThat(filesIn(folder)).isEmpty();
        assertThat(evidence.list(id)).isEmpty();
    }

    /**
     * A reference added by mistake is withdrawn with a reason: it stays on the record, marked, its file kept, audited;
     * it is not sent to the state and its file is not looked for at the submission. Withdrawn once; the reason is
     * required; the reference must be the claim's.
     */
    @Test
    void aReferenceAddedByMistakeIsWithdrawnKeptOnTheRecordAndNotSent() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        long other = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Evidence wrong = evidence.addFile(id, "identity", Files.writeString(dir.resolve("Ana Ruiz license.pdf"),
                "another claimant's license"), null, "j.chen");
        Evidence right = evidence.addUrl(id, "identity", "https://ids.example.gov/maria-garcia", null, "j.chen");
        Evidence elsewhere = evidence.addUrl(other, "address", "https://records.example.gov/u/9", null, "j.chen");
        Clock later = Clock.fixed(NOW.plusSeconds(600), ZoneOffset.UTC);
        ClaimEvidence staff = new ClaimEvidence(db, later,
                DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null));

        assertThatThrownBy(() -> staff.withdraw(id, wrong.evidenceId(), "  ", "kim"))
                .hasMessage("a reason is required for this action");
        assertThatThrownBy(() -> staff.withdraw(id, elsewhere.evidenceId(), "wrong claim", "kim"))
                .isInstanceOf(org.claimdesk.domain.NotFoundException.class)
                .hasMessageEndingWith(" has no evidence with id " + elsewhere.evidenceId());
        ClaimEvidence.Withdrawn done = staff.withdraw(id, wrong.evidenceId(), " another claimant's license ", "kim");
        Evidence withdrawn = done.evidence();
        assertThat(done.sentWith()).as("no submission carried it").isNull();
        assertThat(done.stateNotice()).isEmpty();

        assertThat(withdrawn.withdrawal()).isEqualTo(new Evidence.Withdrawal("kim", NOW.plusSeconds(600),
                "another claimant's license"));
        assertThat(evidence.list(id)).containsExactly(withdrawn, right);
        assertThat(evidence.list(other)).containsExactly(elsewhere);
        assertThat(Files.exists(evidence.fileOf(withdrawn))).as("its file is kept").isTrue();
        assertThat(new Queries(db, clock).audit(Long.toString(id), null, AuditActions.EVIDENCE_WITHDRAW, 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.actor()).isEqualTo("kim");
                    assertThat(a.reason()).isEqualTo("another claimant's license");
                    assertThat(a.details()).contains("\"evidenceId\":" + wrong.evidenceId())
                            .contains("Ana Ruiz license.pdf");
                });
        assertThatThrownBy(() -> staff.withdraw(id, wrong.evidenceId(), "again", "lee"))
                .hasMessageContaining("was withdrawn already, by kim at ").hasMessageEndingWith("; nothing was changed");
        assertThat(new Queries(db, clock).audit(Long.toString(id), null, AuditActions.EVIDENCE_WITHDRAW, 0, 0))
                .hasSize(1);
        // the database keeps a withdrawal whole: who, when and why together
        Throwable half = org.assertj.core.api.Assertions.catchThrowable(() -> db.inTransaction(h -> h.execute(
                "UPDATE evidence SET withdrawn_by = 'x', withdrawn_at = 1 WHERE evidence_id = " + right.evidenceId())));
        assertThat(half).isNotNull();
        java.io.StringWriter trace = new java.io.StringWriter();
        half.printStackTrace(new java.io.PrintWriter(trace));
        assertThat(trace.toString().toLowerCase(java.util.Locale.ROOT)).contains("check constraint");

        // nothing else of a reference changes, whoever asks, and a withdrawal stands
        for (String change : List.of("UPDATE evidence SET title = 'Maria Garcia license' WHERE evidence_id = "
                + wrong.evidenceId(), "UPDATE evidence SET withdrawn_by = NULL, withdrawn_at = NULL, withdrawn_reason"
                + " = NULL WHERE evidence_id = " + wrong.evidenceId(), "UPDATE evidence SET claim_id = " + other
                + " WHERE evidence_id = " + right.evidenceId())) {
            assertThatThrownBy(() -> db.inTransaction(h -> h.execute(change))).as(change)
                    .hasStackTraceContaining("an evidence reference is never changed, only withdrawn once");
        }
        assertThat(evidence.list(id)).containsExactly(withdrawn, right);

        // its copy gone from the folder holds nothing back: it is not sent
        Files.delete(evidence.fileOf(withdrawn));
        SubmitResult submitted = new Workflow(db, clock, Deadlines.statutory(),
                DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null))
                .submit(id, "supervisor.kim", null, null, java.util.Set.of(right.evidenceId()));
        JsonNode sent = Json.mapper().readTree(new Queries(db, clock).outboxEvent(submitted.outboxEventId())
                .orElseThrow().payload()).get("evidence");
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).get("source").asText()).isEqualTo("url");
        assertThat(sent.get(0).get("sha256").isNull()).isTrue();
        // the submission is on its way with what was sent: nothing more is withdrawn meanwhile
        assertThatThrownBy(() -> staff.withdraw(id, right.evidenceId(), "wrong after all", "kim"))
                .hasMessageContaining("cannot be edited in SUBMITTING: " + ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        assertThat(evidence.list(id).get(1).isWithdrawn()).isFalse();

        // delivered, and the state asks for more: a reference withdrawn now was in what the state got, and staff are
        // told to tell the state
        db.inTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent', sent_at = " + NOW.toEpochMilli()
                + ", state_case_id = 'CA-2026-1' WHERE outbox_event_id = " + submitted.outboxEventId()));
        db.inTransaction(h -> h.execute("UPDATE claim SET status = 'NEEDS_INFO' WHERE claim_id = " + id));
        ClaimEvidence.Withdrawn late = staff.withdraw(id, right.evidenceId(), "wrong after all", "kim");
        assertThat(late.sentWith().outboxEventId()).isEqualTo(submitted.outboxEventId());
        assertThat(late.stateNotice()).hasValueSatisfying(n -> assertThat(n).startsWith("the state received it with"
                + " the submission of outbox row " + submitted.outboxEventId() + ", sent ")
                .endsWith(": tell the state by its own channel that it is withdrawn"));
        assertThat(new Queries(db, clock).audit(Long.toString(id), null, AuditActions.EVIDENCE_WITHDRAW, 0, 0))
                .first().satisfies(a -> assertThat(a.details())
                        .contains("\"sentToStateWithRow\":" + submitted.outboxEventId()));
    }

    /**
     * The database keeps every column of a reference as added, whatever else the statement does: a withdrawal that
     * also retitles it, or moves it to another claim, is refused. Each column of the table is tried, so that a column
     * added later and not kept by the trigger fails here.
     */
    @Test
    void theDatabaseRefusesAWithdrawalThatChangesAnythingElseOfTheReference() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Evidence file = evidence.addFile(id, "ownership", Files.writeString(dir.resolve("deed.pdf"), "deed"), null,
                "j.chen");
        Evidence url = evidence.addUrl(id, "identity", "https://ids.example.gov/1", null, "j.chen");
        java.util.Map<String, Boolean> columns = new java.util.LinkedHashMap<>();
        db.read(h -> h.createQuery("SELECT * FROM evidence WHERE 1 = 0").scanResultSet((rs, ctx) -> {
            java.sql.ResultSetMetaData meta = rs.get().getMetaData();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                int type = meta.getColumnType(c);
                columns.put(meta.getColumnName(c).toLowerCase(java.util.Locale.ROOT), type == java.sql.Types.INTEGER
                        || type == java.sql.Types.BIGINT || type == java.sql.Types.NUMERIC);
            }
            return null;
        }));
        assertThat(columns).containsKeys("evidence_id", "claim_id", "title", "withdrawn_reason");
        for (Evidence reference : List.of(file, url)) {
            for (var column : columns.entrySet()) {
                if (column.getKey().startsWith("withdrawn_")) {
                    continue;
                }
                String changed = column.getValue() ? "coalesce(" + column.getKey() + ", 0) + 1000"
                        : "coalesce(" + column.getKey() + " || 'x', 'x')";
                String sql = "UPDATE evidence SET " + column.getKey() + " = " + changed + ", withdrawn_by = 'kim',"
                        + " withdrawn_at = 1, withdrawn_reason = 'wrong' WHERE evidence_id = " + reference.evidenceId();
                assertThatThrownBy(() -> db.inTransaction(h -> h.execute(sql))).as(sql)
                        .hasStackTraceContaining("an evidence reference is never changed, only withdrawn once");
            }
        }
        assertThat(evidence.list(id)).containsExactly(file, url);
    }

    /**
     * Staff submit the evidence they saw: a reference withdrawn on another workstation after they opened the claim
     * refuses the submission, naming who withdrew what and when; one they saw withdrawn does not count.
     */
    @Test
    void aSubmissionIsRefusedWhenEvidenceStaffSawWasWithdrawnMeanwhile() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Evidence first = evidence.addUrl(id, "identity", "https://ids.example.gov/1", "License", "j.chen");
        Evidence second = evidence.addUrl(id, "ownership", "https://records.example.gov/deed/2", "Deed", "j.chen");
        Workflow workflow = new Workflow(db, clock, Deadlines.statutory(),
                DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null));
        java.util.Set<Long> seen = Evidence.currentIds(evidence.list(id));
        evidence.withdraw(id, second.evidenceId(), "deed of the neighbour's house", "lee").evidence();

        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", null, null, seen))
                .isInstanceOf(org.claimdesk.domain.ConflictException.class)
                .hasMessageContaining("evidence changed after you opened it: " + EvidenceKind.OWNERSHIP.label()
                        + " \"Deed\" withdrawn by lee at ")
                .hasMessageEndingWith("; nothing was queued: look at its evidence and submit again");
        assertThat(workflow.submit(id, "supervisor.kim", null, null, Evidence.currentIds(evidence.list(id)))
                .claimStatus()).isEqualTo(ClaimStatus.SUBMITTING);
        assertThat(Evidence.currentIds(evidence.list(id))).containsExactly(first.evidenceId());
    }

    /**
     * A claim whose evidence file is gone from the folder, or altered, is not sent: the payload would name a document
     * the office cannot produce. Put back, it is.
     */
    @Test
    void aClaimWhoseEvidenceFileIsMissingOrAlteredIsNotSubmitted() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Evidence deed = evidence.addFile(id, "ownership", Files.writeString(dir.resolve("Maria Garcia deed.pdf"),
                "deed of trust"), "Deed for Maria Garcia", "j.chen");
        Path copy = evidence.fileOf(deed);
        Path kept = Files.copy(copy, dir.resolve("kept"));
        Workflow workflow = new Workflow(db, clock, Deadlines.statutory(),
                DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null));
        String claimNumber = new Queries(db, clock).claim(id).orElseThrow().claimNumber();

        Files.delete(copy);
        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", null))
                .isInstanceOfSatisfying(ClaimDeskException.class, e -> {
                    assertThat(e).hasMessage("claim " + claimNumber + " is not submitted: its evidence file \"Deed for"
                            + " Maria Garcia\" (" + EvidenceKind.OWNERSHIP.label() + ", evidence " + deed.evidenceId()
                            + ", missing) is not whole in " + folder + "; put it back from the backup of the evidence"
                            + " folder, or add the document again, then try again; nothing was queued");
                    assertThat(e.forLog()).doesNotContain("Maria");
                });
        Files.writeString(copy, "deed of trusT");
        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", null)).hasMessageContaining("damaged");
        assertThat(new Queries(db, clock).claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);

        Files.copy(kept, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(workflow.submit(id, "supervisor.kim", null).claimStatus()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    @Test
    void theSubmissionPayloadListsEvidenceKindsAndHashesOnly() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Path bill = Files.writeString(dir.resolve("Maria Garcia utility bill.pdf"), "bill");
        Evidence file = evidence.addFile(id, "address", bill, "Utility bill for Maria Garcia", "j.chen");
        evidence.addUrl(id, "identity", "https://ids.example.gov/maria-garcia", null, "j.chen");

        SubmitResult submitted = new Workflow(db, clock, Deadlines.statutory(),
                DataDirectory.evidenceFiles(db, db.onServer() ? folder.toString() : null)).submit(id, "supervisor.kim", null);

        String payload = new Queries(db, clock).outboxEvent(submitted.outboxEventId()).orElseThrow().payload();
        JsonNode json = Json.mapper().readTree(payload);
        assertThat(json.get("evidence")).hasSize(2);
        assertThat(json.get("evidence").get(0).get("kind").asText()).isEqualTo("address");
        assertThat(json.get("evidence").get(0).get("source").asText()).isEqualTo("file");
        assertThat(json.get("evidence").get(0).get("sha256").asText()).isEqualTo(file.sha256());
        assertThat(json.get("evidence").get(1).get("kind").asText()).isEqualTo("identity");
        assertThat(json.get("evidence").get(1).get("sha256").isNull()).isTrue();
        assertThat(payload).doesNotContain("utility bill").doesNotContain("ids.example.gov")
                .doesNotContain(new Queries(db, clock).claim(id).orElseThrow().taxId());
        // the worker reads it back, and reads rows queued before payloads carried evidence
        assertThat(Json.mapper().readValue(payload, SubmissionPayload.class).evidence())
                .extracting(SubmissionPayload.EvidenceRef::kind).containsExactly("address", "identity");
        SubmissionPayload old = Json.mapper().readValue("""
                {"claimId":1,"idempotencyKey":"k","claimNumber":"UPC-1","jurisdiction":"CA","statePropertyId":"1234567",
                 "holderName":"H","holderId":"HLD","propertyType":"AC01","claimType":"OWNER","claimantName":"M",
                 "taxIdLast4":"4567","amountCents":1,"filedOn":"2026-01-01"}""", SubmissionPayload.class);
        assertThat(old.evidence()).isEmpty();
        assertThat(old.claimantEmail()).isNull();
    }

    @Test
    void theEvidenceFolderOfATeamDatabaseIsTheOneNamedElseTheSharedOneElseOneNamedAfterTheServer() {
        if (!db.onServer()) {
            assertThat(DataDirectory.evidence(db)).isEqualTo(folder);
            assertThat(DataDirectory.evidenceFiles(db, null).isShared()).isFalse();
            assertThatThrownBy(() -> DataDirectory.evidence(db, dir.resolve("share").toString()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("an evidence folder is given for a team database only; the database file "
                            + db.path() + " keeps its evidence beside it, in " + folder);
            return;
        }
        DatabaseLocation.Postgres server = (DatabaseLocation.Postgres) db.location();
        Map<String, String> shared = Map.of(DataDirectory.EVIDENCE_ENV, dir.resolve("share").toString(),
                DataDirectory.HOME_ENV, dir.resolve("home").toString());
        assertThat(DataDirectory.evidence(db, folder.toString(), shared)).isEqualTo(folder);
        assertThat(DataDirectory.evidence(db, null, shared)).isEqualTo(dir.resolve("share"));
        assertThat(DataDirectory.evidenceFiles(db, folder.toString(), Map.of()).isShared()).isTrue();
        assertThat(DataDirectory.evidenceFiles(db, null, shared).isShared()).isTrue();
        assertThat(DataDirectory.evidenceFiles(db, null, Map.of(DataDirectory.HOME_ENV, dir.resolve("home").toString()))
                .isShared()).as("this workstation's own folder").isFalse();
        assertThat(DataDirectory.evidence(db, " ", Map.of(DataDirectory.HOME_ENV, dir.resolve("home").toString())))
                .isEqualTo(dir.resolve("home").resolve("evidence")
                        .resolve(server.database() + "@" + server.host() + "_" + server.port()));
    }

    private Path sized(String name, long bytes) throws Exception {
        Path file = dir.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(bytes);
        }
        return file;
    }

    private static List<Path> filesIn(Path folder) throws Exception {
        if (!Files.exists(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.toList();
        }
    }
}
