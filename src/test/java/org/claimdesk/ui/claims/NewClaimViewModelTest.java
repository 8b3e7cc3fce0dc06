package org.claimdesk.ui.claims;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.app.ClaimIntake;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.TaskRunner;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.QueuedTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The new-claim form on a real database, without the FX thread. */
class NewClaimViewModelTest {
    @TempDir
    Path dir;
    Database db;
    Queries queries;
    Workflow workflow;
    /** What the form asked the Claims page to show: "id number message". */
    final List<String> opened = new ArrayList<>();

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 200);
        queries = TestDatabases.queries(db);
        workflow = TestDatabases.workflow(db);
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private NewClaimViewModel form(TaskRunner tasks) {
        return new NewClaimViewModel(workflow.intake(), workflow.evidence(), tasks, "j.chen", queries::today,
                (id, number, message) -> opened.add(id + " " + number + " " + message));
    }

    private NewClaimViewModel form() {
        return form(new DirectTaskRunner());
    }

    static Map<String, String> valid() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("claimantName", "Nguyễn Văn An");
        f.put("taxId", "512-00-4471");
        f.put("jurisdiction", "ca");
        f.put("statePropertyId", "44011870");
        f.put("propertyType", "UT01");
        f.put("holderName", "Pacific Gas and Electric Co");
        f.put("holderId", "HLD-351016");
        f.put("amountCents", "18250");
        return f;
    }

    private static void type(NewClaimViewModel form, Map<String, String> fields) {
        fields.forEach((name, text) -> form.field(ClaimField.byName(name).orElseThrow()).textProperty().set(text));
    }

    private Claim demoClaim() {
        return queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.EVIDENCE_PENDING)).withPage(0, 1)).get(0);
    }

    /**
     * The claim and its evidence are written together: with the evidence refused by the database, no claim is left
     * that another workstation could see, and submit, without it; the form keeps what was typed.
     */
    /**
     * A form opened late and left open overnight files the claim on the day it is created when staff did not touch
     * the filing date; a date they typed stays.
     */
    @Test
    void anUntouchedFilingDateFollowsTheDayAndATypedOneStays() {
        java.util.concurrent.atomic.AtomicReference<java.time.LocalDate> day = new java.util.concurrent.atomic
                .AtomicReference<>(java.time.LocalDate.of(2026, 12, 7));
        NewClaimViewModel late = new NewClaimViewModel(workflow.intake(), workflow.evidence(), new DirectTaskRunner(),
                "j.chen", day::get, (id, number, message) -> { });
        assertThat(late.field(ClaimField.FILED_ON).textProperty().get()).isEqualTo("2026-12-07");

        day.set(java.time.LocalDate.of(2026, 12, 8));
        late.keepFilingDateToday();
        assertThat(late.field(ClaimField.FILED_ON).textProperty().get()).isEqualTo("2026-12-08");
        assertThat(late.dirty()).as("a default is not typed work").isFalse();

        late.field(ClaimField.FILED_ON).textProperty().set("2026-12-01");
        day.set(java.time.LocalDate.of(2026, 12, 9));
        late.keepFilingDateToday();
        assertThat(late.field(ClaimField.FILED_ON).textProperty().get()).isEqualTo("2026-12-01");
    }

    @Test
    void aClaimWhoseEvidenceCannotBeWrittenIsNotCreated() {
        long before = queries.countClaims(ClaimQuery.all());
        NewClaimViewModel form = form();
        type(form, valid());
        NewClaimViewModel.EvidenceDraft address = form.addEvidence();
        address.kindProperty().set(EvidenceKind.ADDRESS);
        address.urlProperty().set("https://records.example.gov/u/1");
        org.claimdesk.testing.Triggers.failing(db, "no_evidence", "evidence", "INSERT", "evidence cannot be written");

        form.create();

        assertThat(form.createdProperty().get()).isNull();
        assertThat(queries.countClaims(ClaimQuery.all())).isEqualTo(before);
        assertThat(form.doneProperty().get()).isFalse();
        assertThat(form.field(ClaimField.HOLDER_ID).textProperty().get()).isEqualTo("HLD-351016");
    }

    @Test
    void aValidClaimIsCreatedWithItsEvidenceThenOpened() throws Exception {
        NewClaimViewModel form = form();
        assertThat(form.fields().stream().map(f -> (Object) f.field()).toList()).isEqualTo(List.copyOf(ClaimField.all()));
        assertThat(form.field(ClaimField.FILED_ON).textProperty().get()).isEqualTo(queries.today().toString());
        assertThat(form.field(ClaimField.CLAIM_TYPE).textProperty().get()).isEqualTo("OWNER");
        // nothing is marked red before staff type, but Create says what it waits for
        assertThat(form.fields()).allSatisfy(f -> assertThat(f.errorProperty().get()).isNull());
        assertThat(form.canCreateProperty().get()).isFalse();
        assertThat(form.createHintProperty().get()).isEqualTo("Fill in Claimant name, Holder name, Holder id,"
                + " State property id, Property type, Amount (cents), Jurisdiction, Tax id");
        assertThat(form.dirty()).isFalse();

        type(form, valid());
        assertThat(form.duplicateProperty().get()).isNull();
        assertThat(form.field(ClaimField.AMOUNT_CENTS).hintProperty().get()).isEqualTo("= $182.50");
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "grant deed");
        NewClaimViewModel.EvidenceDraft address = form.addEvidence();
        assertThat(form.createHintProperty().get()).isEqualTo("Complete or remove evidence reference 1");
        address.kindProperty().set(EvidenceKind.ADDRESS);
        address.urlProperty().set("https://records.example.gov/u/1");
        address.titleProperty().set("Utility bill");
        NewClaimViewModel.EvidenceDraft ownership = form.addEvidence();
        ownership.kindProperty().set(EvidenceKind.OWNERSHIP);
        form.chooseFile(ownership, deed);
        assertThat(ownership.fileBytes()).isEqualTo(Files.size(deed));
        assertThat(form.canCreateProperty().get()).isTrue();
        assertThat(form.reasonRequiredProperty().get()).isFalse();
        assertThat(form.dirty()).isTrue();

        form.create();

        Claim claim = form.createdProperty().get();
        assertThat(form.doneProperty().get()).isTrue();
        assertThat(form.problemProperty().get()).isNull();
        assertThat(claim.claimNumber()).matches("UPC-" + queries.today().getYear() + "-\\d{6}");
        assertThat(opened).containsExactly(claim.claimId() + " " + claim.claimNumber() + " Claim "
                + claim.claimNumber() + " created in Identity pending");
        Claim stored = queries.claim(claim.claimId()).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(stored.jurisdiction()).isEqualTo("CA");
        assertThat(stored.claimantName()).isEqualTo("Nguyễn Văn An");
        assertThat(queries.history(claim.claimId())).hasSize(1);
        assertThat(queries.audit(Long.toString(claim.claimId()), null, AuditActions.CLAIM_CREATE, 0, 0))
                .singleElement().satisfies(a -> assertThat(a.actor()).isEqualTo("j.chen"));
        List<Evidence> evidence = workflow.evidence().list(claim.claimId());
        assertThat(evidence).extracting(Evidence::kind).containsExactly(EvidenceKind.ADDRESS, EvidenceKind.OWNERSHIP);
        assertThat(evidence.get(0).title()).isEqualTo("Utility bill");
        assertThat(evidence.get(1).title()).isEqualTo("deed.pdf");
        assertThat(Files.readString(workflow.evidence().fileOf(evidence.get(1)))).isEqualTo("grant deed");
    }

    @Test
    void eachFieldShowsItsOwnRulesMessageAndCreateWaitsUntilItIsKept() {
        NewClaimViewModel form = form();
        type(form, valid());
        FieldEditor propertyId = form.field(ClaimField.STATE_PROPERTY_ID);
        propertyId.textProperty().set("12AB");
        assertThat(propertyId.errorProperty().get()).isEqualTo("State property id must be 7 to 9 digits");
        form.field(ClaimField.TAX_ID).textProperty().set("12-34");
        assertThat(form.field(ClaimField.TAX_ID).errorProperty().get())
                .isEqualTo(ClaimField.TAX_ID.check("12-34", queries.today()).violations().get(0).message());
        form.field(ClaimField.HOLDER_NAME).textProperty().set("");
        assertThat(form.field(ClaimField.HOLDER_NAME).errorProperty().get()).isEqualTo("Holder name must not be blank");
        assertThat(form.canCreateProperty().get()).isFalse();
        assertThat(form.createHintProperty().get()).isEqualTo("Fix Holder name, State property id, Tax id");

        NewClaimViewModel.EvidenceDraft row = form.addEvidence();
        assertThat(row.errorProperty().get()).as("an empty row is not yet wrong").isNull();
        row.urlProperty().set("ftp://records.example.gov/u/1");
        assertThat(row.errorProperty().get()).startsWith("Kind must be one of");
        row.kindProperty().set(EvidenceKind.IDENTITY);
        assertThat(row.errorProperty().get()).startsWith("Address must be an http or https address");
        row.chooseFile(dir.resolve("scan.tif"), EvidenceRules.MAX_FILE_BYTES + 1);
        assertThat(row.errorProperty().get()).startsWith("File must be at most 25 MB");
        form.removeEvidence(row);

        propertyId.textProperty().set("1234567");
        form.field(ClaimField.TAX_ID).textProperty().set("512-00-4471");
        form.field(ClaimField.HOLDER_NAME).textProperty().set("PG&E");
        assertThat(form.fields()).allSatisfy(f -> assertThat(f.errorProperty().get()).isNull());
        assertThat(form.createHintProperty().get()).isEmpty();
        assertThat(form.canCreateProperty().get()).isTrue();
    }

    @Test
    void aClaimAlreadyOpenIsShownAsSoonAsItsKeyIsTypedAndCreatingAnotherNeedsAReason() {
        Claim present = demoClaim();
        NewClaimViewModel form = form();
        Map<String, String> fields = valid();
        fields.put("jurisdiction", present.jurisdiction().toLowerCase(java.util.Locale.ROOT));
        fields.put("statePropertyId", present.statePropertyId());
        fields.put("claimantName", "  " + present.claimantName());
        type(form, fields);

        assertThat(form.duplicateProperty().get()).isEqualTo(new NewClaimViewModel.Duplicate(present.claimId(),
                present.claimNumber(), present.status()));
        assertThat(form.duplicateProperty().get().message())
                .isEqualTo("Claim " + present.claimNumber() + " is already open for this property and claimant");
        assertThat(form.reasonRequiredProperty().get()).isTrue();
        assertThat(form.reasonPromptProperty().get()).startsWith("Why another claim for this property and claimant?");
        assertThat(form.canCreateProperty().get()).isFalse();
        assertThat(form.createHintProperty().get())
                .isEqualTo("Say why another claim is needed for this property and claimant");

        form.openDuplicate();
        assertThat(opened).containsExactly(present.claimId() + " " + present.claimNumber() + " null");

        form.reasonProperty().set("second heir files separately");
        form.create();

        Claim claim = form.createdProperty().get();
        assertThat(claim.claimId()).isNotEqualTo(present.claimId());
        assertThat(queries.audit(Long.toString(claim.claimId()), null, AuditActions.CLAIM_CREATE, 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("second heir files separately");
                    assertThat(a.details()).contains("\"duplicateOf\":\"" + present.claimNumber() + "\"");
                });

        // another property: no claim present, no reason asked
        NewClaimViewModel other = form();
        type(other, fields);
        assertThat(other.duplicateProperty().get()).isNotNull();
        other.field(ClaimField.STATE_PROPERTY_ID).textProperty().set("987654321");
        assertThat(other.duplicateProperty().get()).isNull();
        assertThat(other.reasonRequiredProperty().get()).isFalse();
        assertThat(other.canCreateProperty().get()).isTrue();
    }

    @Test
    void aLaterStartingStatusNeedsAReason() {
        NewClaimViewModel form = form();
        assertThat(form.startStatuses()).first().isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(form.startStatuses()).contains(ClaimStatus.EVIDENCE_PENDING)
                .doesNotContain(ClaimStatus.SUBMITTING, ClaimStatus.PAID);
        type(form, valid());
        form.startStatusProperty().set(ClaimStatus.EVIDENCE_PENDING);
        assertThat(form.reasonRequiredProperty().get()).isTrue();
        assertThat(form.createHintProperty().get()).isEqualTo("Say why the claim starts in Evidence pending");
        assertThat(form.canCreateProperty().get()).isFalse();
        form.reasonProperty().set("identity checked at the counter");
        form.create();

        Claim claim = form.createdProperty().get();
        assertThat(claim.status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(opened).singleElement().asString().endsWith("created in Evidence pending (the reason is in its audit entry)");
        assertThat(queries.history(claim.claimId())).singleElement()
                .satisfies(h -> assertThat(h.reason()).isEqualTo("identity checked at the counter"));
    }

    @Test
    void aLookupAnsweredAfterANewerOneIsDropped() {
        Claim present = demoClaim();
        QueuedTaskRunner tasks = new QueuedTaskRunner();
        NewClaimViewModel form = form(tasks);
        Map<String, String> fields = valid();
        fields.put("jurisdiction", present.jurisdiction());
        fields.put("statePropertyId", present.statePropertyId());
        fields.put("claimantName", present.claimantName());
        type(form, fields);
        assertThat(form.checkingDuplicateProperty().get()).isTrue();
        assertThat(form.canCreateProperty().get()).as("Create waits for the lookup").isFalse();
        assertThat(form.createHintProperty().get()).startsWith("Looking for a claim already open");
        form.field(ClaimField.CLAIMANT_NAME).textProperty().set("Someone Else");
        // the newer lookup (no claim) answers first, the older one (the claim present) last
        tasks.run(tasks.size() - 1);
        tasks.runAll();
        assertThat(form.checkingDuplicateProperty().get()).isFalse();
        assertThat(form.duplicateProperty().get()).isNull();
        assertThat(form.canCreateProperty().get()).isTrue();
    }

    @Test
    void aClaimEnteredElsewhereMeanwhileIsShownAsAlreadyOpenAndNothingTypedIsLost() {
        NewClaimViewModel form = form();
        type(form, valid());
        assertThat(form.duplicateProperty().get()).isNull();
        Map<String, String> same = valid();
        same.put("claimType", "owner");
        same.put("filedOn", queries.today().toString());
        Claim meanwhile = new ClaimIntake(db, java.time.Clock.systemDefaultZone()).create(same, null, "r.okafor", null, null);

        form.create();

        assertThat(form.createdProperty().get()).isNull();
        assertThat(form.duplicateProperty().get().claimNumber()).isEqualTo(meanwhile.claimNumber());
        assertThat(form.reasonRequiredProperty().get()).isTrue();
        assertThat(form.canCreateProperty().get()).isFalse();
        valid().forEach((name, text) -> assertThat(form.field(ClaimField.byName(name).orElseThrow()).textProperty()
                .get()).isEqualTo(text));
        assertThat(opened).isEmpty();
    }

    @Test
    void aReasonGivenForALaterStartDoesNotLetARepeatEnteredMeanwhileThroughUnseen() {
        NewClaimViewModel form = form();
        type(form, valid());
        form.startStatusProperty().set(ClaimStatus.EVIDENCE_PENDING);
        form.reasonProperty().set("identity checked at the counter");
        Map<String, String> same = valid();
        same.put("claimType", "owner");
        same.put("filedOn", queries.today().toString());
        Claim meanwhile = new ClaimIntake(db, java.time.Clock.systemDefaultZone()).create(same, null, "r.okafor", null,
                null);

        form.create();

        assertThat(form.createdProperty().get()).isNull();
        assertThat(form.duplicateProperty().get().claimNumber()).isEqualTo(meanwhile.claimNumber());
        // staff now see the claim present; the reason they give covers the repeat, and Create names it
        form.reasonProperty().set("identity checked at the counter; a second heir files separately");
        form.create();
        Claim created = form.createdProperty().get();
        assertThat(created.claimNumber()).isNotEqualTo(meanwhile.claimNumber());
        assertThat(queries.audit(Long.toString(created.claimId()), null, null, 0, 0)).singleElement()
                .satisfies(a -> assertThat(a.details()).contains("\"duplicateOf\":\"" + meanwhile.claimNumber() + "\""));
    }

    @Test
    void aFormClosedWithReferencesNotAddedShowsTheCreatedClaimSayingSo() throws Exception {
        NewClaimViewModel form = form();
        type(form, valid());
        NewClaimViewModel.EvidenceDraft identity = form.addEvidence();
        identity.kindProperty().set(EvidenceKind.IDENTITY);
        Path scan = Files.writeString(dir.resolve("gone.pdf"), "passport");
        form.chooseFile(identity, scan);
        Files.delete(scan);
        form.create();
        Claim claim = form.createdProperty().get();
        assertThat(opened).isEmpty();

        form.closed();

        assertThat(opened).singleElement().asString().startsWith(claim.claimId() + " " + claim.claimNumber())
                .contains("1 evidence reference was not added");
    }

    @Test
    void evidenceThatCannotBeAddedStaysInTheFormWithTheReasonAndIsAddedAgain() throws Exception {
        NewClaimViewModel form = form();
        type(form, valid());
        Path scan = Files.writeString(dir.resolve("id-scan.pdf"), "passport");
        NewClaimViewModel.EvidenceDraft identity = form.addEvidence();
        identity.kindProperty().set(EvidenceKind.IDENTITY);
        form.chooseFile(identity, scan);
        NewClaimViewModel.EvidenceDraft address = form.addEvidence();
        address.kindProperty().set(EvidenceKind.ADDRESS);
        address.urlProperty().set("https://records.example.gov/u/9");
        Files.delete(scan);

        form.create();

        Claim claim = form.createdProperty().get();
        assertThat(claim).isNotNull();
        assertThat(form.doneProperty().get()).isFalse();
        assertThat(opened).isEmpty();
        assertThat(form.evidence()).containsExactly(identity);
        assertThat(identity.failureProperty().get()).startsWith("Could not add this reference").contains("id-scan.pdf");
        assertThat(form.problemProperty().get()).isEqualTo("Claim " + claim.claimNumber() + " was created, but 1"
                + " evidence reference was not added: correct and add again, or remove it and add it later from the"
                + " claim's Evidence tab");
        assertThat(workflow.evidence().list(claim.claimId())).extracting(Evidence::kind)
                .containsExactly(EvidenceKind.ADDRESS);
        assertThat(form.dirty()).as("closing would drop the reference not added").isTrue();
        assertThat(form.unsaved()).isEqualTo("evidence references of claim " + claim.claimNumber() + " are not added");
        assertThat(form.dropQuestion()).contains("Claim " + claim.claimNumber() + " is saved");
        assertThat(form.canCreateProperty().get()).isTrue();

        Files.writeString(scan, "passport");
        form.chooseFile(identity, scan);
        assertThat(identity.failureProperty().get()).isNull();
        form.create();

        assertThat(form.doneProperty().get()).isTrue();
        assertThat(queries.claims(ClaimQuery.all().withSearch(claim.claimNumber()))).hasSize(1);
        assertThat(workflow.evidence().list(claim.claimId())).extracting(Evidence::kind)
                .containsExactly(EvidenceKind.ADDRESS, EvidenceKind.IDENTITY);
        assertThat(opened).singleElement().asString().startsWith(claim.claimId() + " " + claim.claimNumber());
    }
}
