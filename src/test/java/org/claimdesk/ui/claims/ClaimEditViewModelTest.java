package org.claimdesk.ui.claims;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The claim detail pane's edit mode and Evidence tab, on a real database, without the FX thread. */
class ClaimEditViewModelTest {
    @TempDir
    Path dir;
    Database db;
    Queries queries;
    Workflow workflow;
    ClaimsViewModel model;
    ClaimEditViewModel editor;
    DirectTaskRunner runner = new DirectTaskRunner();

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 300);
        queries = TestDatabases.queries(db);
        workflow = TestDatabases.workflow(db);
        model = new ClaimsViewModel(queries, workflow, runner, "tester");
        model.load();
        editor = model.editor();
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private Claim select(ClaimStatus status) {
        Claim claim = queries.claims(ClaimQuery.all().withStatuses(Set.of(status)).withPage(0, 1)).get(0);
        model.select(ClaimRow.of(claim, queries.today()));
        return claim;
    }

    private FieldEditor field(ClaimField<?> field) {
        return editor.field(field);
    }

    /** While the state asks for information its case is about the claim as submitted: those fields are locked, said so. */
    @Test
    void whileTheStateAsksForInformationTheFieldsNamingTheCaseAreLockedAndSaySo() {
        select(ClaimStatus.NEEDS_INFO);
        for (ClaimField<?> f : List.of(ClaimField.HOLDER_ID, ClaimField.AMOUNT_CENTS, ClaimField.JURISDICTION)) {
            assertThat(field(f).lockProperty().get()).as(f.name())
                    .startsWith("cannot be changed while the state asks for information");
        }
        assertThat(field(ClaimField.CLAIMANT_ADDRESS).lockProperty().get()).isNull();
        assertThat(field(ClaimField.CLAIMANT_NAME).lockProperty().get()).isNull();
        assertThat(editor.lockedNoticeProperty().get())
                .startsWith("Greyed fields cannot be changed while the state asks for information").endsWith(".");

        select(ClaimStatus.EVIDENCE_PENDING);
        assertThat(field(ClaimField.HOLDER_ID).lockProperty().get()).isNull();
        assertThat(editor.lockedNoticeProperty().get()).isNull();
    }

    @Test
    void fieldsAreCheckedAsStaffTypeAndSavedWithTheReason() {
        Claim claim = select(ClaimStatus.EVIDENCE_PENDING);
        assertThat(editor.canEditProperty().get()).isTrue();
        assertThat(editor.readOnlyReasonProperty().get()).isNull();
        assertThat(editor.fields()).extracting(f -> f.field().name()).doesNotContain("taxId");

        assertThat(editor.startEdit()).isTrue();
        assertThat(editor.activeProperty().get()).isTrue();
        assertThat(field(ClaimField.STATE_PROPERTY_ID).textProperty().get()).isEqualTo(claim.statePropertyId());
        assertThat(editor.saveHintProperty().get()).isEqualTo("Nothing changed yet");

        field(ClaimField.STATE_PROPERTY_ID).textProperty().set("12");
        assertThat(field(ClaimField.STATE_PROPERTY_ID).errorProperty().get())
                .isEqualTo("State property id must be 7 to 9 digits");
        field(ClaimField.AMOUNT_CENTS).textProperty().set("12.50");
        assertThat(editor.saveHintProperty().get()).isEqualTo("Fix State property id, Amount (cents)");
        assertThat(field(ClaimField.AMOUNT_CENTS).hintProperty().get()).isNull();
        assertThat(editor.canSaveProperty().get()).isFalse();

        field(ClaimField.STATE_PROPERTY_ID).textProperty().set("123456789");
        field(ClaimField.AMOUNT_CENTS).textProperty().set("1250");
        field(ClaimField.CLAIMANT_EMAIL).textProperty().set("maria@example.org");
        assertThat(field(ClaimField.AMOUNT_CENTS).hintProperty().get()).isEqualTo("= $12.50");
        assertThat(field(ClaimField.STATE_PROPERTY_ID).errorProperty().get()).isNull();
        assertThat(editor.saveHintProperty().get()).isEqualTo("Say why you change it");
        editor.reasonProperty().set("holder's corrected report");
        assertThat(editor.canSaveProperty().get()).isTrue();

        editor.save();

        assertThat(editor.activeProperty().get()).isFalse();
        Claim stored = queries.claim(claim.claimId()).orElseThrow();
        assertThat(stored.statePropertyId()).isEqualTo("123456789");
        assertThat(stored.amountCents()).isEqualTo(1250);
        assertThat(stored.claimantEmail()).isEqualTo("maria@example.org");
        assertThat(stored.version()).isEqualTo(claim.version() + 1);
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.SUCCESS);
        assertThat(model.noticeProperty().get().text()).contains("3 fields changed");
        // the detail was read again: the form starts from the new version
        assertThat(model.detailProperty().get().editable().version()).isEqualTo(stored.version());
        assertThat(model.detailProperty().get().audit()).anySatisfy(a ->
                assertThat(a.reason()).isEqualTo("holder's corrected report"));
    }

    @Test
    void cancelDropsWhatWasTyped() {
        Claim claim = select(ClaimStatus.IDENTITY_PENDING);
        editor.startEdit();
        field(ClaimField.HOLDER_ID).textProperty().set("HLD-999");
        editor.cancel();
        assertThat(editor.activeProperty().get()).isFalse();
        assertThat(field(ClaimField.HOLDER_ID).textProperty().get()).isEqualTo(claim.holderId());
        assertThat(queries.claim(claim.claimId()).orElseThrow().version()).isEqualTo(claim.version());
    }

    @Test
    void aClaimTheStateHasIsReadOnlyWithTheReason() {
        Claim claim = select(ClaimStatus.PAID);
        assertThat(editor.canEditProperty().get()).isFalse();
        assertThat(editor.readOnlyReasonProperty().get()).isEqualTo("the claim is paid; its data is final");
        assertThat(editor.startEdit()).isFalse();
        assertThat(editor.activeProperty().get()).isFalse();
        assertThat(model.noticeProperty().get().text()).isEqualTo("Claim " + claim.claimNumber()
                + " is read-only: the claim is paid; its data is final");
    }

    @Test
    void aClaimWhoseSubmissionIsOnItsWayIsReadOnlyUntilTheStateRefusesIt() {
        Claim ready = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.READY_FOR_SUBMISSION))
                .withPage(0, 1)).get(0);
        long row = workflow.submit(ready.claimId(), "tester", null).outboxEventId();
        Claim submitting = queries.claim(ready.claimId()).orElseThrow();
        model.select(ClaimRow.of(submitting, queries.today()));

        assertThat(editor.canEditProperty().get()).isFalse();
        assertThat(editor.readOnlyReasonProperty().get()).isEqualTo(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        assertThat(editor.startEdit()).isFalse();

        db.useTransaction(h -> h.createUpdate("UPDATE outbox_event SET delivery_state = 'failed', last_error = 'x'"
                + " WHERE outbox_event_id = :id").bind("id", row).execute());
        // the live refresh (rows only) reads the detail of a claim whose submission was on its way
        model.refreshRows();
        assertThat(editor.canEditProperty().get()).isTrue();
        assertThat(editor.readOnlyReasonProperty().get()).isNull();
    }

    @Test
    void aClaimChangedMeanwhileIsAConflictNamingWhoAndNothingIsOverwritten() {
        Claim claim = select(ClaimStatus.READY_FOR_SUBMISSION);
        editor.startEdit();
        workflow.editing().edit(claim.claimId(), claim.version(), Map.of("holderId", "HLD-777111"), "r.okafor",
                "holder merged");
        field(ClaimField.HOLDER_ID).textProperty().set("HLD-888888");
        editor.reasonProperty().set("typo");

        editor.save();

        assertThat(editor.conflictProperty().get()).contains("was changed by r.okafor").contains("edited holderId")
                .contains("nothing was saved");
        assertThat(editor.activeProperty().get()).isTrue();
        assertThat(editor.canSaveProperty().get()).isFalse();
        assertThat(queries.claim(claim.claimId()).orElseThrow().holderId()).isEqualTo("HLD-777111");

        editor.reloadAfterConflict();
        // the edit goes on from the new version: the text typed stays, the value it has now is said under it
        assertThat(editor.activeProperty().get()).isTrue();
        assertThat(editor.conflictProperty().get()).isNull();
        assertThat(field(ClaimField.HOLDER_ID).textProperty().get()).isEqualTo("HLD-888888");
        assertThat(field(ClaimField.HOLDER_ID).faultProperty().get()).contains("Changed meanwhile to \u201cHLD-777111\u201d");
        assertThat(editor.reasonProperty().get()).isEqualTo("typo");
        assertThat(model.noticeProperty().get().text()).contains("your changes are kept")
                .contains("also changed meanwhile: Holder id");
        assertThat(editor.canSaveProperty().get()).isTrue();

        editor.save();
        Claim stored = queries.claim(claim.claimId()).orElseThrow();
        assertThat(stored.holderId()).isEqualTo("HLD-888888");
        assertThat(stored.version()).isEqualTo(claim.version() + 2);
    }

    @Test
    void reloadingAfterAConflictKeepsWhatWasTypedOnTheNewVersion() {
        Claim claim = select(ClaimStatus.EVIDENCE_PENDING);
        editor.startEdit();
        field(ClaimField.CLAIMANT_EMAIL).textProperty().set("maria@example.org");
        editor.reasonProperty().set("claimant wrote in");
        workflow.editing().edit(claim.claimId(), claim.version(), Map.of("holderName", "Harbor Savings Bank"),
                "r.okafor", "holder renamed");
        editor.save();
        assertThat(editor.conflictProperty().get()).contains("was changed by r.okafor");

        editor.reloadAfterConflict();

        assertThat(editor.activeProperty().get()).isTrue();
        assertThat(field(ClaimField.CLAIMANT_EMAIL).textProperty().get()).isEqualTo("maria@example.org");
        assertThat(field(ClaimField.HOLDER_NAME).textProperty().get()).isEqualTo("Harbor Savings Bank");
        assertThat(editor.fields()).allSatisfy(f -> assertThat(f.faultProperty().get()).isNull());
        assertThat(model.noticeProperty().get().text()).contains("your changes are kept").doesNotContain("meanwhile");
        editor.save();
        Claim stored = queries.claim(claim.claimId()).orElseThrow();
        assertThat(stored.claimantEmail()).isEqualTo("maria@example.org");
        assertThat(stored.holderName()).isEqualTo("Harbor Savings Bank");
        assertThat(model.detailProperty().get().audit()).anySatisfy(a ->
                assertThat(a.reason()).isEqualTo("claimant wrote in"));
    }

    @Test
    void aClaimMovedMeanwhileWhereItCannotBeEditedEndsTheEditSayingNothingWasSaved() {
        Claim claim = select(ClaimStatus.READY_FOR_SUBMISSION);
        editor.startEdit();
        field(ClaimField.HOLDER_NAME).textProperty().set("Harbor Savings Bank");
        editor.reasonProperty().set("holder renamed");
        workflow.submit(claim.claimId(), "r.okafor", null);
        editor.save();
        assertThat(editor.conflictProperty().get()).contains("was changed by r.okafor");

        editor.reloadAfterConflict();

        assertThat(editor.activeProperty().get()).isFalse();
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
        assertThat(model.noticeProperty().get().text()).contains("can no longer be edited")
                .contains("your changes were not saved");
        assertThat(queries.claim(claim.claimId()).orElseThrow().holderName()).isNotEqualTo("Harbor Savings Bank");
    }

    @Test
    void evidenceIsListedAndAddedInTheBackground() throws Exception {
        Claim claim = select(ClaimStatus.NEEDS_INFO);
        // what the demo claim already carries (an identity document once it was ready)
        int before = editor.evidence().size();
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed");

        editor.addUrl(EvidenceKind.ADDRESS, "https://records.example.gov/u/1", "Utility bill");
        editor.addFile(EvidenceKind.OWNERSHIP, deed, null);

        assertThat(editor.evidence()).hasSize(before + 2);
        assertThat(editor.evidence().subList(before, before + 2)).extracting(e -> e.kind())
                .containsExactly(EvidenceKind.ADDRESS, EvidenceKind.OWNERSHIP);
        assertThat(Files.readString(editor.fileOf(editor.evidence().get(before + 1)))).isEqualTo("deed");
        assertThat(model.noticeProperty().get().text()).contains("Evidence added to claim " + claim.claimNumber());

        assertThat(editor.evidenceErrorProperty().get()).isNull();
        // the form keeps what was typed when the add ends with an error: the error is there when it ends
        List<String> errorAtEnd = new java.util.ArrayList<>();
        editor.evidenceBusyProperty().addListener((obs, was, busy) -> {
            if (was && !busy) {
                errorAtEnd.add(String.valueOf(editor.evidenceErrorProperty().get()));
            }
        });
        editor.addFile(EvidenceKind.IDENTITY, dir.resolve("missing.pdf"), null);
        assertThat(errorAtEnd).singleElement().satisfies(e -> assertThat(e).contains("does not exist"));
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("does not exist");
        assertThat(editor.evidenceErrorProperty().get()).isEqualTo(model.noticeProperty().get().text());
        Path big = dir.resolve("scan.tif");
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(EvidenceRules.MAX_FILE_BYTES + 1);
        }
        editor.addFile(EvidenceKind.IDENTITY, big, null);
        assertThat(editor.evidenceErrorProperty().get()).contains("at most 25 MB");
        assertThat(editor.urlRule("ftp://x.org/id")).startsWith("Address must be an http or https address");
        assertThat(editor.urlRule("https://records.example.gov/id/1")).isNull();
        editor.addUrl(EvidenceKind.IDENTITY, "ftp://x.org/id", null);
        assertThat(model.noticeProperty().get().text()).contains("url must be an http or https address");
        assertThat(editor.evidence()).hasSize(before + 2);
        assertThat(editor.evidenceBusyProperty().get()).isFalse();
        editor.addUrl(EvidenceKind.IDENTITY, "https://records.example.gov/id/1", "Passport");
        assertThat(editor.evidenceErrorProperty().get()).isNull();

        // another claim shows its own (none)
        select(ClaimStatus.EVIDENCE_PENDING);
        assertThat(editor.evidence()).isEmpty();
        assertThat(editor.evidenceErrorProperty().get()).isNull();
    }
    @Test
    void theOutboxOpensTheEditorAtTheFieldTheStateRefused() {
        Claim claim = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.READY_FOR_SUBMISSION)).withPage(0, 1))
                .get(0);
        select(ClaimStatus.PAID);

        model.editAtField(claim.claimId(), "holderId", "holder id HLD-9 is not in the CA holder registry");

        assertThat(model.selectedProperty().get().claimId()).isEqualTo(claim.claimId());
        assertThat(editor.activeProperty().get()).isTrue();
        assertThat(editor.faultProperty().get()).isEqualTo(new ClaimEditViewModel.Fault("holderId", "Holder id",
                "holder id HLD-9 is not in the CA holder registry"));
        assertThat(editor.faultProperty().get().describe())
                .isEqualTo("The state refused Holder id: holder id HLD-9 is not in the CA holder registry");
        assertThat(field(ClaimField.HOLDER_ID).faultProperty().get())
                .isEqualTo("The state: holder id HLD-9 is not in the CA holder registry");
        assertThat(field(ClaimField.AMOUNT_CENTS).faultProperty().get()).isNull();
        assertThat(editor.dirtyProperty().get()).isFalse();

        // staff correct the field: its mark goes, the banner stays until the edit ends
        field(ClaimField.HOLDER_ID).textProperty().set("HLD-100200");
        assertThat(field(ClaimField.HOLDER_ID).faultProperty().get()).isNull();
        assertThat(editor.dirtyProperty().get()).isTrue();

        // another field of the same claim while editing: what was typed stays
        model.editAtField(claim.claimId(), "amountCents", null);
        assertThat(field(ClaimField.HOLDER_ID).textProperty().get()).isEqualTo("HLD-100200");
        assertThat(field(ClaimField.AMOUNT_CENTS).faultProperty().get()).isEqualTo("The state refused this field");

        editor.cancel();
        assertThat(editor.faultProperty().get()).isNull();
        assertThat(field(ClaimField.AMOUNT_CENTS).faultProperty().get()).isNull();
    }

    /**
     * A file reference whose copy is not whole in this workstation's evidence folder is marked with what was found,
     * looked for in the background after the detail is shown.
     */
    @Test
    void aFileWhoseCopyIsNotWholeInThisWorkstationsFolderIsMarked() throws Exception {
        Claim claim = select(ClaimStatus.NEEDS_INFO);
        editor.addFile(EvidenceKind.OWNERSHIP, Files.writeString(dir.resolve("deed.pdf"), "deed"), null);
        editor.addFile(EvidenceKind.IDENTITY, Files.writeString(dir.resolve("id.pdf"), "passport"), null);
        editor.addUrl(EvidenceKind.ADDRESS, "https://records.example.gov/u/1", "Utility bill");
        List<Evidence> files = editor.evidence().stream().filter(Evidence::isFile).toList();
        assertThat(files).hasSize(2).allSatisfy(e -> assertThat(editor.away(e)).isEmpty());

        Files.delete(editor.fileOf(files.get(0)));
        Files.writeString(editor.fileOf(files.get(1)), "pass");
        int looks = runner.ran.size();
        model.select(null);
        model.select(ClaimRow.of(queries.claim(claim.claimId()).orElseThrow(), queries.today()));

        assertThat(runner.ran.subList(looks, runner.ran.size())).contains("look for evidence files");
        assertThat(editor.away(files.get(0))).contains(EvidenceCopy.MISSING);
        assertThat(editor.away(files.get(1))).contains(EvidenceCopy.DAMAGED);
        assertThat(editor.evidence()).filteredOn(e -> !e.isFile())
                .allSatisfy(e -> assertThat(editor.away(e)).isEmpty());
        assertThat(editor.evidenceFolder()).isEqualTo(editor.fileOf(files.get(0)).getParent());
    }

    @Test
    void aResubmitFromTheDeliveriesTabWaitsForTheFixInTheFormToBeSaved() {
        org.claimdesk.domain.OutboxEvent failed = queries.outbox(org.claimdesk.store.OutboxQuery.all()
                .withState(org.claimdesk.domain.DeliveryState.FAILED)).get(0);
        Claim claim = queries.claim(failed.aggregateId()).orElseThrow();
        model.select(ClaimRow.of(claim, queries.today()));
        List<Long> resubmitted = new java.util.ArrayList<>();
        model.setResubmitter(resubmitted::add);
        ClaimDetail.Delivery delivery = model.detailProperty().get().deliveries().stream()
                .filter(d -> d.event().outboxEventId() == failed.outboxEventId()).findFirst().orElseThrow();

        assertThat(editor.startEdit()).isTrue();
        editor.field(ClaimField.HOLDER_NAME).textProperty().set("Harbor Savings Bank");
        model.resubmitDelivery(delivery);

        assertThat(resubmitted).isEmpty();
        assertThat(model.noticeProperty().get().text()).contains("has changes not saved")
                .contains("nothing was resubmitted");

        editor.cancel();
        model.resubmitDelivery(delivery);
        assertThat(resubmitted).containsExactly(failed.outboxEventId());
    }

    @Test
    void theReasonOfATaxIdReplacementThatFailedIsOfferedAgain() {
        Claim claim = select(ClaimStatus.EVIDENCE_PENDING);
        EditableClaim seen = editor.shownClaim();
        workflow.editing().edit(claim.claimId(), claim.version(), Map.of("holderName", "Harbor Savings Bank"),
                "r.okafor", "holder renamed");

        editor.replaceTaxId(seen, "987-65-4321", "W-9 received");

        assertThat(model.noticeProperty().get().text()).contains("changed by r.okafor");
        assertThat(editor.taxIdReasonToRetry(claim.claimId())).isEqualTo("W-9 received");
        model.refresh();
        editor.replaceTaxId(editor.shownClaim(), "987-65-4321", "W-9 received");
        assertThat(queries.claim(claim.claimId()).orElseThrow().taxId()).isEqualTo("987-65-4321");
        assertThat(editor.taxIdReasonToRetry(claim.claimId())).isEmpty();
    }

    @Test
    void anEditThatWouldRepeatAnotherClaimMarksTheFieldsTyped() {
        Claim claim = select(ClaimStatus.EVIDENCE_PENDING);
        // another claim in another state: all three key fields change
        Claim other = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.IDENTITY_PENDING))
                .withPage(0, 100)).stream().filter(c -> !c.jurisdiction().equals(claim.jurisdiction()))
                .findFirst().orElseThrow();
        editor.startEdit();
        field(ClaimField.JURISDICTION).textProperty().set(other.jurisdiction());
        field(ClaimField.STATE_PROPERTY_ID).textProperty().set(other.statePropertyId());
        field(ClaimField.CLAIMANT_NAME).textProperty().set(other.claimantName());
        editor.reasonProperty().set("per the state's letter");

        editor.save();

        assertThat(field(ClaimField.STATE_PROPERTY_ID).faultProperty().get())
                .isEqualTo("State property id would repeat claim " + other.claimNumber()
                        + ", which has this jurisdiction, state property id and claimant");
        assertThat(field(ClaimField.JURISDICTION).faultProperty().get()).contains(other.claimNumber());
        assertThat(editor.activeProperty().get()).isTrue();
        assertThat(queries.claim(claim.claimId()).orElseThrow().version()).isEqualTo(claim.version());

        // another claimant: the claim repeats no other now, the other fields' marks go, and it saves
        field(ClaimField.CLAIMANT_NAME).textProperty().set(claim.claimantName() + " Jr");
        assertThat(field(ClaimField.STATE_PROPERTY_ID).faultProperty().get()).isNull();
        assertThat(field(ClaimField.JURISDICTION).faultProperty().get()).isNull();
        assertThat(editor.canSaveProperty().get()).isTrue();
        editor.save();
        assertThat(queries.claim(claim.claimId()).orElseThrow().statePropertyId()).isEqualTo(other.statePropertyId());
    }

    /** "Fix claim…" on a slow database: the claim shown is edited while the other one is read. */
    @Test
    void aClaimOpenedWhileTheOneShownIsBeingEditedDoesNotDropTheEdit() {
        Claim shown = select(ClaimStatus.EVIDENCE_PENDING);
        Claim other = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.IDENTITY_PENDING))
                .withPage(0, 1)).get(0);
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        ClaimsViewModel slow = new ClaimsViewModel(queries, workflow, queued, "tester");
        slow.load();
        queued.runAll();
        slow.select(ClaimRow.of(shown, queries.today()));
        queued.runAll();

        slow.editAtField(other.claimId(), "holderId", null);
        slow.editor().startEdit();
        slow.editor().field(ClaimField.HOLDER_NAME).textProperty().set("Harbor Savings Bank");
        queued.runAll();

        assertThat(slow.selectedProperty().get().claimId()).isEqualTo(shown.claimId());
        assertThat(slow.editor().activeProperty().get()).isTrue();
        assertThat(slow.editor().field(ClaimField.HOLDER_NAME).textProperty().get()).isEqualTo("Harbor Savings Bank");
        assertThat(slow.noticeProperty().get().text()).contains("Claim " + shown.claimNumber() + " has unsaved changes");
    }

    /** A share that stops answering holds one look, not one per detail read (live refreshes, changes elsewhere). */
    @Test
    void oneLookForTheFilesAtATimeAndTheListShownMeanwhileLookedAtAfter() throws Exception {
        Claim claim = select(ClaimStatus.NEEDS_INFO);
        editor.addFile(EvidenceKind.OWNERSHIP, Files.writeString(dir.resolve("deed.pdf"), "deed"), null);
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        ClaimsViewModel slow = new ClaimsViewModel(queries, workflow, queued, "tester");
        slow.load();
        queued.runAll();
        ClaimRow row = ClaimRow.of(queries.claim(claim.claimId()).orElseThrow(), queries.today());

        for (int i = 0; i < 3; i++) {
            slow.select(null);
            slow.select(row);
            queued.run(queued.names().indexOf("load claim detail"));
        }
        assertThat(queued.names()).containsExactly("look for evidence files");
        queued.run(0);
        assertThat(queued.names()).as("the list shown meanwhile, looked at once").containsExactly("look for evidence files");
        queued.run(0);
        assertThat(queued.names()).isEmpty();
        assertThat(slow.editor().evidence()).filteredOn(Evidence::isFile).hasSize(1);
    }

    @Test
    void evidenceTheStateAskedForIsMarkedUntilItIsAdded() {
        Claim claim = select(ClaimStatus.READY_FOR_SUBMISSION);
        int before = editor.evidence().size();
        assertThat(editor.focusField("evidence.address", "proof of address required above $5,000.00")).isTrue();
        assertThat(editor.faultProperty().get().evidenceKind()).contains(EvidenceKind.ADDRESS);
        assertThat(editor.faultProperty().get().describe())
                .isEqualTo("The state refused Proof of address evidence: proof of address required above $5,000.00");

        editor.addUrl(EvidenceKind.IDENTITY, "https://records.example.gov/id/1", null);
        assertThat(editor.faultProperty().get()).isNotNull();
        editor.addUrl(EvidenceKind.ADDRESS, "https://records.example.gov/u/1", "Utility bill");
        assertThat(editor.faultProperty().get()).isNull();
        assertThat(editor.evidence()).hasSize(before + 2);
        assertThat(queries.claim(claim.claimId()).orElseThrow().version()).isEqualTo(claim.version());
    }

    @Test
    void aReadOnlyClaimOpensReadOnlyWithTheReason() {
        Claim paid = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.PAID)).withPage(0, 1)).get(0);
        model.editAtField(paid.claimId(), "holderId", "holder id not found");
        assertThat(model.selectedProperty().get().claimId()).isEqualTo(paid.claimId());
        assertThat(editor.activeProperty().get()).isFalse();
        assertThat(editor.faultProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).endsWith("is read-only: the claim is paid; its data is final");

        model.editAtField(Long.MAX_VALUE, "holderId", null);
        assertThat(model.noticeProperty().get().text()).isEqualTo("There is no claim with id " + Long.MAX_VALUE);
    }

    @Test
    void anotherClaimIsNotOpenedOverUnsavedChanges() {
        Claim claim = select(ClaimStatus.EVIDENCE_PENDING);
        Claim other = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.NEEDS_INFO)).withPage(0, 1))
                .get(0);
        editor.startEdit();
        field(ClaimField.HOLDER_NAME).textProperty().set("Acme Bank of Ohio");

        model.editAtField(other.claimId(), "holderId", null);

        assertThat(model.selectedProperty().get().claimId()).isEqualTo(claim.claimId());
        assertThat(field(ClaimField.HOLDER_NAME).textProperty().get()).isEqualTo("Acme Bank of Ohio");
        assertThat(model.noticeProperty().get().text()).contains("has unsaved changes");
    }

    @Test
    void theTaxIdIsReplacedWholeAndAuditedMasked() {
        Claim claim = select(ClaimStatus.IDENTITY_PENDING);
        // as the state names it: the submission's last four digits, which staff fix by replacing the tax id
        assertThat(editor.focusField("taxIdLast4", "last four do not match the property record")).isTrue();
        assertThat(editor.activeProperty().get()).isFalse();
        assertThat(editor.faultProperty().get().taxId()).isTrue();
        assertThat(editor.faultProperty().get().describe())
                .isEqualTo("The state refused Tax id: last four do not match the property record");
        assertThat(editor.taxIdRule("12-34")).isEqualTo(
                "Tax id must be an SSN or ITIN written 123-45-6789 or an EIN written 12-3456789");
        assertThat(editor.taxIdRule("987-65-4321")).isNull();

        EditableClaim seen = editor.shownClaim();
        editor.replaceTaxId(seen, "12-34", "from the claimant's W-9");
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
        editor.replaceTaxId(seen, "987-65-4321", " ");
        assertThat(model.noticeProperty().get().text()).contains("needs a reason");
        assertThat(queries.claim(claim.claimId()).orElseThrow().taxId()).isEqualTo(claim.taxId());

        editor.replaceTaxId(seen, "987-65-4321", "from the claimant's W-9");

        assertThat(queries.claim(claim.claimId()).orElseThrow().taxId()).isEqualTo("987-65-4321");
        assertThat(model.noticeProperty().get().text()).contains("replaced (now ***-**-4321)")
                .doesNotContain("987-65");
        assertThat(editor.faultProperty().get()).isNull();
        assertThat(queries.audit(Long.toString(claim.claimId()), null, "claim.replace_tax_id", 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("from the claimant's W-9");
                    assertThat(a.details()).contains("4321").doesNotContain("987-65");
                });
        assertThat(model.detailProperty().get().editable().version()).isEqualTo(claim.version() + 1);
    }

    @Test
    void aTaxIdReplacedAfterAChangeElsewhereRefreshedTheFormBehindTheDialogIsRefusedNamingThatChange() {
        Claim claim = select(ClaimStatus.IDENTITY_PENDING);
        EditableClaim seen = editor.shownClaim();
        assertThat(seen.version()).isEqualTo(claim.version());
        // while staff type the new tax id, another workstation replaces it and the form is refreshed behind the dialog
        workflow.editing().replaceTaxId(claim.claimId(), claim.version(), "987-00-1111", "r.okafor", "SSN card");
        model.refresh();
        assertThat(editor.shownClaim().version()).isEqualTo(claim.version() + 1);

        editor.replaceTaxId(seen, "987-65-4321", "from the claimant's W-9");

        assertThat(queries.claim(claim.claimId()).orElseThrow().taxId()).isEqualTo("987-00-1111");
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("changed by r.okafor at ");
        assertThat(queries.audit(Long.toString(claim.claimId()), "tester", "claim.replace_tax_id", 0, 0)).isEmpty();
    }
}
