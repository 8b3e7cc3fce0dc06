package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.Json;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimEditingTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Instant NOW = Instant.parse("2026-11-02T15:00:00Z");

    @TempDir
    Path dir;

    Database db;
    ClaimEditing editing;
    Queries queries;
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        editing = new ClaimEditing(db, clock);
        queries = new Queries(db, clock);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static Map<String, String> fields(String... nameValue) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            map.put(nameValue[i], nameValue[i + 1]);
        }
        return map;
    }

    private List<AuditEntry> auditOf(long id) {
        List<AuditEntry> oldestFirst = new java.util.ArrayList<>(queries.audit(Long.toString(id), null, null, 0, 0));
        java.util.Collections.reverse(oldestFirst);
        return oldestFirst;
    }

    @Test
    void anEditWritesTheFieldsBumpsTheVersionAndAuditsEachFieldBeforeAndAfter() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Claim before = queries.claim(id).orElseThrow();

        EditResult result = editing.edit(id, 0, fields(
                "amountCents", "15000",
                "holderId", "HLD-200300",
                "claimantName", "Zoë Ångström",
                "claimantEmail", "zoe@example.org",
                "propertyType", "ac02",
                "claimType", "heir",
                "jurisdiction", "ny",
                "filedOn", "2026-02-27",
                "statePropertyId", "987654321",
                "holderName", before.holderName()), "j.chen", "claimant sent corrected bank letter");

        assertThat(result.version()).isEqualTo(1);
        assertThat(result.changes()).extracting(FieldChange::field).containsExactly("amountCents", "holderId",
                "claimantName", "claimantEmail", "propertyType", "claimType", "jurisdiction", "filedOn",
                "statePropertyId");
        Claim after = queries.claim(id).orElseThrow();
        assertThat(after.version()).isEqualTo(1);
        assertThat(after.amountCents()).isEqualTo(15_000);
        assertThat(after.holderId()).isEqualTo("HLD-200300");
        assertThat(after.claimantName()).isEqualTo("Zoë Ångström");
        assertThat(after.claimantEmail()).isEqualTo("zoe@example.org");
        assertThat(after.propertyType()).isEqualTo(PropertyType.AC02);
        assertThat(after.claimType()).isEqualTo(ClaimType.HEIR);
        assertThat(after.jurisdiction()).isEqualTo("NY");
        assertThat(after.filedOn()).isEqualTo(LocalDate.of(2026, 2, 27));
        assertThat(after.statePropertyId()).isEqualTo("987654321");
        assertThat(after.updatedAt()).isEqualTo(NOW);
        assertThat(after.status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        // the search index follows the edited claimant
        assertThat(queries.claims(ClaimQuery.all().withSearch("ångström"))).extracting(Claim::claimId).containsExactly(id);

        List<AuditEntry> audit = auditOf(id);
        assertThat(audit).hasSize(9).allSatisfy(a -> {
            assertThat(a.action()).isEqualTo(AuditActions.CLAIM_EDIT);
            assertThat(a.actor()).isEqualTo("j.chen");
            assertThat(a.reason()).isEqualTo("claimant sent corrected bank letter");
            assertThat(a.at()).isEqualTo(NOW);
        });
        JsonNode amount = Json.mapper().readTree(audit.get(0).details());
        assertThat(amount.get("field").asText()).isEqualTo("amountCents");
        assertThat(amount.get("before").asText()).isEqualTo("12345");
        assertThat(amount.get("after").asText()).isEqualTo("15000");
        assertThat(amount.get("version").asLong()).isEqualTo(1);
        JsonNode email = Json.mapper().readTree(audit.get(3).details());
        assertThat(email.get("before").asText()).isEmpty();
        assertThat(email.get("after").asText()).isEqualTo("zoe@example.org");
    }

    @Test
    void aValueThatBreaksItsRuleIsRefusedAndNothingIsWritten() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);

        assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "15000", "statePropertyId", "12"),
                "j.chen", "fix"))
                .isInstanceOf(InvalidFieldsException.class)
                .hasMessage("statePropertyId must be 7 to 9 digits");
        assertThatThrownBy(() -> editing.edit(id, 0, fields("colour", "blue"), "j.chen", "fix"))
                .hasMessageStartingWith("colour is not a claim field");

        assertThat(queries.claim(id).orElseThrow().amountCents()).isEqualTo(12_345);
        assertThat(queries.claim(id).orElseThrow().version()).isZero();
        assertThat(auditOf(id)).isEmpty();
    }

    @Test
    void anEditNeedsAnActorAReasonAndAField() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "1"), "j.chen", " "))
                .hasMessage("a reason is required for this action");
        assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "1"), "", "why"))
                .hasMessage("an actor name is required");
        assertThatThrownBy(() -> editing.edit(id, 0, Map.of(), "j.chen", "why"))
                .hasMessageStartingWith("nothing to edit");
        assertThatThrownBy(() -> editing.edit(9999, 0, fields("amountCents", "1"), "j.chen", "why"))
                .hasMessage("no claim with id 9999");
    }

    @Test
    void valuesAsTheyWereChangeNothing() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        EditResult result = editing.edit(id, 0, fields("amountCents", "12345", "claimantEmail", ""), "j.chen", "check");
        assertThat(result.changes()).isEmpty();
        assertThat(result.version()).isZero();
        assertThat(queries.claim(id).orElseThrow().version()).isZero();
        assertThat(auditOf(id)).isEmpty();
    }

    @Test
    void aStaleVersionIsAConflictNamingWhoChangedTheClaimAndWhenAndNothingIsOverwritten() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Instant earlier = NOW.minusSeconds(600);
        new ClaimEditing(db, Clock.fixed(earlier, ZoneOffset.UTC))
                .edit(id, 0, fields("holderId", "HLD-777111"), "r.okafor", "holder merged");

        assertThatThrownBy(() -> editing.edit(id, 0, fields("holderId", "HLD-888888", "amountCents", "1"), "j.chen",
                "typo"))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("was changed by r.okafor at "
                        + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(earlier.atZone(ZoneId.systemDefault())))
                .hasMessageContaining("edited holderId")
                .hasMessageContaining("you saw version 0, it is now at version 1")
                .hasMessageContaining("nothing was saved");

        Claim stored = queries.claim(id).orElseThrow();
        assertThat(stored.holderId()).isEqualTo("HLD-777111");
        assertThat(stored.amountCents()).isEqualTo(12_345);
        assertThat(stored.version()).isEqualTo(1);
        assertThat(auditOf(id)).hasSize(1);
    }

    /** Evidence added and a tax id revealed leave the claim's version as it was: they name no one who changed it. */
    @Test
    void aConflictNamesWhoChangedTheClaimNotWhoLastLookedAtItOrAddedEvidence() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Instant edited = NOW.minusSeconds(900);
        new ClaimEditing(db, Clock.fixed(edited, ZoneOffset.UTC))
                .edit(id, 0, fields("holderId", "HLD-777111"), "r.okafor", "holder merged");
        Clock later = Clock.fixed(NOW.minusSeconds(300), ZoneOffset.UTC);
        new ClaimEvidence(db, later, EvidenceFiles.own(dir.resolve("evidence")))
                .addUrl(id, "address", "https://records.example.gov/utility/2024-03", null, "m.alvarez");
        new Workflow(db, later, org.claimdesk.domain.Deadlines.statutory()).revealTaxId(id, "s.patel", "caller check");
        assertThat(queries.claim(id).orElseThrow().version()).isEqualTo(1);

        assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "1"), "j.chen", "typo"))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("was changed by r.okafor at "
                        + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(edited.atZone(ZoneId.systemDefault())))
                .hasMessageContaining("edited holderId");
    }

    /**
     * An edit that would give a claim the jurisdiction, property and claimant of another is refused, as entering or
     * importing that claim again is; the claim stays as it was.
     */
    @Test
    void anEditThatWouldRepeatAnotherClaimsKeyIsRefused() {
        long first = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        long second = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        Claim other = queries.claim(first).orElseThrow();
        Claim before = queries.claim(second).orElseThrow();
        Map<String, String> sameKey = new LinkedHashMap<>();
        sameKey.put("statePropertyId", other.statePropertyId());
        sameKey.put("claimantName", other.claimantName());

        assertThatThrownBy(() -> editing.edit(second, 0, sameKey, "j.chen", "property id per the state's letter"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("claim " + other.claimNumber() + " (EVIDENCE_PENDING) already has jurisdiction CA, state"
                        + " property id " + other.statePropertyId() + " and claimant " + other.claimantName() + ": claim "
                        + before.claimNumber() + " would repeat it; nothing was changed")
                .satisfies(e -> assertThat(((ClaimDeskException) e).forLog()).as("the log keeps no claimant's name")
                        .contains(other.claimNumber()).doesNotContain(other.claimantName()))
                // the fields changed are named, for the console to mark them where staff typed
                .isInstanceOfSatisfying(org.claimdesk.domain.InvalidFieldsException.class, e ->
                        assertThat(e.violations()).extracting(v -> v.field() + " " + v.rule()).containsExactly(
                                "statePropertyId would repeat claim " + other.claimNumber() + ", which has this"
                                        + " jurisdiction, state property id and claimant",
                                "claimantName would repeat claim " + other.claimNumber() + ", which has this"
                                        + " jurisdiction, state property id and claimant"));
        assertThat(queries.claim(second).orElseThrow()).isEqualTo(before);

        // one of the three alone is no repeat
        editing.edit(second, 0, Map.of("claimantName", other.claimantName()), "j.chen", "name per the ID");
        assertThat(queries.claim(second).orElseThrow().claimantName()).isEqualTo(other.claimantName());
    }

    /**
     * The claimant's name is compared in its match form: written in capitals, with other spacing or accents, it is
     * the claimant of the other claim all the same; respelling a claim's own claimant keeps its key and is no repeat,
     * even of a claim it was entered as repeating.
     */
    @Test
    void anotherWritingOfAnotherClaimsClaimantIsARepeatAndOfItsOwnIsNot() {
        long first = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        long second = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        editing.edit(first, 0, Map.of("claimantName", "José María Núñez"), "j.chen", "name per the ID");
        Claim other = queries.claim(first).orElseThrow();
        editing.edit(second, 0, Map.of("statePropertyId", other.statePropertyId()), "j.chen", "per the state's letter");
        Claim before = queries.claim(second).orElseThrow();

        for (String writing : List.of("JOSE MARIA NUNEZ", "  josé   maría núñez ", "Jose\u0301 Mari\u0301a Nun\u0303ez",
                "José-María Núñez")) {
            assertThatThrownBy(() -> editing.edit(second, 1, Map.of("claimantName", writing), "j.chen", "per the ID"))
                    .as(writing).isInstanceOf(ClaimDeskException.class)
                    .hasMessageContaining("claim " + other.claimNumber() + " (EVIDENCE_PENDING) already has")
                    .hasMessageEndingWith("claim " + before.claimNumber() + " would repeat it; nothing was changed");
        }
        assertThat(queries.claim(second).orElseThrow()).isEqualTo(before);

        // a claim entered as a repeat of the first (same key): its claimant respelled stays that one repeat
        db.useTransaction(h -> h.execute("UPDATE claim SET claimant_name = ? WHERE claim_id = ?",
                other.claimantName(), second));
        editing.edit(second, 1, Map.of("claimantName", "JOSÉ MARÍA NÚÑEZ"), "j.chen", "as on the state's letter");
        assertThat(queries.claim(second).orElseThrow().claimantName()).isEqualTo("JOSÉ MARÍA NÚÑEZ");
        // and a name of its own is no repeat either
        editing.edit(second, 2, Map.of("claimantName", "José Núñez"), "j.chen", "the son, per the ID");
        assertThat(queries.claim(second).orElseThrow().claimantName()).isEqualTo("José Núñez");
    }

    /** A tax id replaced by nine bare digits is read for the claim's type: the EIN of a business claim. */
    @Test
    void nineBareDigitsReplacingATaxIdAreReadForTheClaimsType() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        editing.replaceTaxId(id, 0, "941234567", "j.chen", "per the W-9");
        assertThat(Sql.scalar(db, "SELECT tax_id FROM claim WHERE claim_id = " + id, String.class))
                .isEqualTo("941-23-4567");

        editing.edit(id, 1, Map.of("claimType", "BUSINESS"), "j.chen", "the claimant is the company");
        editing.replaceTaxId(id, 2, "941234567", "j.chen", "the company's EIN per the W-9");
        assertThat(Sql.scalar(db, "SELECT tax_id FROM claim WHERE claim_id = " + id, String.class))
                .isEqualTo("94-1234567");
        assertThat(queries.claim(id).orElseThrow().version()).isEqualTo(3);

        Map<String, String> both = new LinkedHashMap<>();
        both.put("taxId", "123004567");
        both.put("claimType", "OWNER");
        editing.edit(id, 3, both, "j.chen", "the owner claims in person");
        assertThat(Sql.scalar(db, "SELECT tax_id FROM claim WHERE claim_id = " + id, String.class))
                .isEqualTo("123-00-4567");
    }

    /** Submitting checks the version staff saw, as moving a claim does: what goes to the state is what they checked. */
    @Test
    void aSubmitAfterSomeoneElseEditedTheClaimIsAConflictAndQueuesNothing() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        editing.edit(id, 0, fields("amountCents", "125000"), "r.okafor", "amount per the holder's report");
        Workflow workflow = new Workflow(db, clock, Deadlines.statutory());

        assertThatThrownBy(() -> workflow.submit(id, "j.chen", null, 0L))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("was changed by r.okafor")
                .hasMessageContaining("edited amountCents");
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(Sql.count(db, "outbox_event")).isZero();

        assertThat(workflow.submit(id, "j.chen", null, 1L).replayed()).isFalse();
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    /** A resubmission keeps the claim SUBMITTING and moves its version on: the conflict says so, not a status move. */
    @Test
    void aConflictWithAResubmissionSaysItWasResubmitted() {
        long id = TestClaims.insert(db, ClaimStatus.SUBMITTING);
        db.useTransaction(h -> {
            ClaimStore store = new ClaimStore();
            store.note(h, store.find(h, id).orElseThrow(), "s.patel", "resubmitted after the state refused holderId",
                    NOW);
        });
        assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "1"), "j.chen", "fix"))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("changed by s.patel")
                .hasMessageContaining("(resubmitted after the state refused holderId)");
    }

    @Test
    void aConflictWithTheDeliveryWorkerNamesTheWorkerAndTheStatus() {
        long id = TestClaims.insert(db, ClaimStatus.SUBMITTING);
        db.useTransaction(h -> {
            ClaimStore store = new ClaimStore();
            store.changeStatus(h, store.find(h, id).orElseThrow(), ClaimStatus.SUBMITTED_TO_STATE, "CA-2026-1", null,
                    "worker-7", null, NOW);
        });
        // staff opened the claim while SUBMITTING (version 0); the state has since acknowledged it
        assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "1"), "j.chen", "fix"))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("changed by worker-7")
                .hasMessageContaining("moved it to SUBMITTED_TO_STATE");
    }

    @Test
    void editingIsRefusedWithTheReasonOnceTheStateHasTheClaim() {
        for (ClaimStatus status : ClaimStatus.values()) {
            long id = TestClaims.insert(db, status);
            if (status.editRefusal(false).isEmpty() && status.fieldRefusal(ClaimField.AMOUNT_CENTS).isEmpty()) {
                assertThat(editing.edit(id, 0, fields("amountCents", "777"), "j.chen", "fix").version()).isEqualTo(1);
            } else if (status.editRefusal(false).isEmpty()) {
                assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "777"), "j.chen", "fix"))
                        .isInstanceOf(InvalidFieldsException.class)
                        .hasMessageStartingWith("amountCents cannot be changed while the state asks for information");
                assertThat(queries.claim(id).orElseThrow().amountCents()).isEqualTo(12_345);
            } else {
                assertThatThrownBy(() -> editing.edit(id, 0, fields("amountCents", "777"), "j.chen", "fix"))
                        .isInstanceOf(ClaimDeskException.class)
                        .hasMessageContaining("cannot be edited in " + status)
                        .hasMessageContaining(status.editRefusal(false).get());
                assertThat(queries.claim(id).orElseThrow().amountCents()).isEqualTo(12_345);
            }
        }
    }

    /**
     * While the state asks for information its case is about the claim as submitted: the claimant's details can be
     * corrected, what names the property, the holder, the claim type, the amount or the filing date cannot — "Information
     * sent to state" moves the claim back without a new submission.
     */
    @Test
    void whileTheStateAsksForInformationOnlyTheClaimantsDetailsChange() {
        long id = TestClaims.insert(db, ClaimStatus.NEEDS_INFO);
        Claim before = queries.claim(id).orElseThrow();

        assertThatThrownBy(() -> editing.edit(id, 0, fields("claimantAddress", "12 Elm St, Fresno CA",
                "jurisdiction", "TX", "holderId", "HLD-100999"), "j.chen", "state asked"))
                .isInstanceOf(InvalidFieldsException.class)
                .satisfies(e -> assertThat(((InvalidFieldsException) e).violations())
                        .extracting(FieldViolation::field).containsExactlyInAnyOrder("holderId", "jurisdiction"))
                .hasMessageContaining("other property or another amount is a new claim");
        assertThat(queries.claim(id).orElseThrow()).isEqualTo(before);
        assertThat(auditOf(id)).isEmpty();

        EditResult edited = editing.edit(id, 0, fields("claimantAddress", "12 Elm St, Fresno CA",
                "claimantName", before.claimantName().toUpperCase(java.util.Locale.ROOT),
                "jurisdiction", before.jurisdiction()), "j.chen", "the state asked for the current address");
        assertThat(edited.changes()).extracting(FieldChange::field)
                .containsExactlyInAnyOrder("claimantName", "claimantAddress");
        assertThat(queries.claim(id).orElseThrow().claimantAddress()).isEqualTo("12 Elm St, Fresno CA");
    }

    @Test
    void aClaimWhoseSubmissionIsOnItsWayIsNotEditedUntilTheStateRefusesIt() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Workflow workflow = new Workflow(db, clock, Deadlines.statutory());
        SubmitResult submitted = workflow.submit(id, "supervisor.kim", "key-1");
        String queued = queries.outboxEvent(submitted.outboxEventId()).orElseThrow().payload();
        int auditBefore = auditOf(id).size();

        // the row is pending: the state may be receiving exactly the queued data, so the claim keeps it
        assertThatThrownBy(() -> editing.edit(id, 1, fields("holderId", "HLD-424242"), "j.chen", "typo"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("cannot be edited in SUBMITTING")
                .hasMessageContaining(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        assertThatThrownBy(() -> new ClaimEvidence(db, clock, EvidenceFiles.own(dir.resolve("evidence")))
                .addUrl(id, "address", "https://example.org/deed.pdf", "deed", "j.chen"))
                .hasMessageContaining(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        assertThat(queries.claim(id).orElseThrow().holderId()).isEqualTo("HLD-100200");
        assertThat(auditOf(id)).hasSize(auditBefore);

        // the state refused it for good: now the claim is fixed by editing it; the refused payload stays as sent
        db.useTransaction(h -> h.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'failed', last_error = 'holder id not on the report'
                WHERE outbox_event_id = :id""").bind("id", submitted.outboxEventId()).execute());
        editing.edit(id, 1, fields("holderId", "HLD-424242"), "j.chen", "state refused the holder id");

        assertThat(queries.outboxEvent(submitted.outboxEventId()).orElseThrow().payload()).isEqualTo(queued);
        assertThat(Json.mapper().readValue(queued, SubmissionPayload.class).holderId()).isEqualTo("HLD-100200");
        assertThat(queries.claim(id).orElseThrow().holderId()).isEqualTo("HLD-424242");
    }

    @Test
    void theTaxIdIsReplacedWholeAndAuditedMasked() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        String old = queries.claim(id).orElseThrow().taxId();

        EditResult result = editing.replaceTaxId(id, 0, "987-00-6543", "j.chen", "claimant's SSN card");

        assertThat(result.changes()).singleElement().satisfies(c -> {
            assertThat(c.field()).isEqualTo("taxId");
            assertThat(c.before()).isEqualTo("***-**-" + old.substring(old.length() - 4));
            assertThat(c.after()).isEqualTo("***-**-6543");
        });
        assertThat(queries.claim(id).orElseThrow().taxId()).isEqualTo("987-00-6543");
        assertThat(auditOf(id)).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo(AuditActions.TAX_ID_REPLACE);
            assertThat(a.reason()).isEqualTo("claimant's SSN card");
            assertThat(a.details()).contains("***-**-6543").doesNotContain("987-00-6543").doesNotContain(old);
        });
        assertThatThrownBy(() -> editing.replaceTaxId(id, 1, "987-00-65", "j.chen", "typo"))
                .hasMessage("taxId must be an SSN or ITIN written 123-45-6789 or an EIN written 12-3456789");
        assertThatThrownBy(() -> editing.replaceTaxId(id, 1, "987-00-6544", "j.chen", ""))
                .hasMessage("a reason is required for this action");
    }
}
