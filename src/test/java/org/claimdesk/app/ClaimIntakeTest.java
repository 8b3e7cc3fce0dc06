package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DuplicateClaimException;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Entering one claim: the field rules, the claim number, the starting status, history, audit and duplicates. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimIntakeTest {
    @Parameter
    TestDatabase.Engine engine;

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-02T15:00:00Z"), ZoneId.systemDefault());
    static final LocalDate TODAY = LocalDate.ofInstant(CLOCK.instant(), ZoneId.systemDefault());

    @TempDir
    Path dir;

    Database db;
    ClaimIntake intake;
    Queries queries;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        intake = new ClaimIntake(db, CLOCK);
        queries = new Queries(db, CLOCK);
    }

    @AfterEach
    void close() {
        db.close();
    }

    static Map<String, String> fields() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("jurisdiction", "ca");
        f.put("statePropertyId", "4401187");
        f.put("holderName", "Pacific Gas and Electric Co");
        f.put("holderId", "HLD-351016");
        f.put("propertyType", "UT01");
        f.put("claimType", "owner");
        f.put("claimantName", "  Nguyễn Văn An  ");
        f.put("taxId", "512004471");
        f.put("amountCents", "18250");
        f.put("filedOn", "2026-03-02");
        f.put("claimantEmail", "an@example.org");
        return f;
    }

    @Test
    void aNewClaimStartsIdentityPendingWithItsNumberOneHistoryRowAndOneAuditEntry() {
        Claim claim = intake.create(fields(), null, "j.chen", null, null);

        assertThat(claim.claimNumber()).matches("UPC-" + TODAY.getYear() + "-\\d{6}");
        assertThat(claim.status()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(claim.jurisdiction()).isEqualTo("CA");
        assertThat(claim.claimantName()).isEqualTo("Nguyễn Văn An");
        assertThat(claim.taxId()).isEqualTo("512-00-4471");
        assertThat(claim.amountCents()).isEqualTo(18_250);
        assertThat(claim.claimantEmail()).isEqualTo("an@example.org");
        assertThat(claim.claimantPhone()).isNull();
        assertThat(claim.version()).isZero();

        List<StatusChange> history = queries.history(claim.claimId());
        assertThat(history).singleElement().satisfies(h -> {
            assertThat(h.fromStatus()).isNull();
            assertThat(h.toStatus()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
            assertThat(h.actor()).isEqualTo("j.chen");
        });
        List<AuditEntry> audit = queries.audit(Long.toString(claim.claimId()), null, null, 0, 0);
        assertThat(audit).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo(AuditActions.CLAIM_CREATE);
            assertThat(a.actor()).isEqualTo("j.chen");
            assertThat(a.details()).contains(claim.claimNumber()).contains("***-**-4471")
                    .doesNotContain("512-00-4471").doesNotContain("512004471");
        });

        Map<String, String> other = fields();
        other.put("claimantName", "Maria Garcia");
        Claim next = intake.create(other, null, "j.chen", null, null);
        assertThat(sequence(next)).isEqualTo(sequence(claim) + 1);
    }

    /**
     * A statement that fails while it holds a tax id (here a trigger refusing the insert) reports the database's
     * reason without the statement's values: the message reaches standard error and the log.
     */
    @Test
    void aFailedInsertNamesNoValueItHeld() {
        org.claimdesk.testing.Triggers.failing(db, "claim_refused", "claim", "INSERT", "refused by the server");

        Throwable failed = org.assertj.core.api.Assertions.catchThrowable(
                () -> intake.create(fields(), null, "j.chen", null, null));

        assertThat(failed).isNotNull();
        for (Throwable t = failed; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).as(t.getClass().getName())
                    .doesNotContain("512004471").doesNotContain("512-00-4471").doesNotContain("an@example.org");
        }
        assertThat(failed).hasStackTraceContaining("refused by the server");
    }

    /** A NUL in an email address (a CSV's) is a broken rule, as in a name: PostgreSQL cannot store one. */
    @Test
    void aControlCharacterInAnEmailIsRefusedByItsRule() {
        Map<String, String> f = fields();
        f.put("claimantEmail", "an\u0000x@example.org");
        assertThatThrownBy(() -> intake.create(f, null, "j.chen", null, null))
                .isInstanceOf(InvalidFieldsException.class).hasMessageContaining("email address");
        assertThat(Sql.count(db, "claim")).isZero();
    }

    @Test
    void everyBrokenRuleIsNamedByTheFieldsOwnRuleAndNothingIsWritten() {
        Map<String, String> f = fields();
        f.put("statePropertyId", "12");
        f.put("amountCents", "12.50");
        f.put("taxId", "987-65-43");
        f.remove("claimType");
        f.put("colour", "red");

        assertThatThrownBy(() -> intake.create(f, null, "j.chen", null, null))
                .isInstanceOfSatisfying(InvalidFieldsException.class, e -> {
                    assertThat(e.violations()).extracting(FieldViolation::field)
                            .containsExactlyInAnyOrder("statePropertyId", "amountCents", "taxId", "claimType", "colour");
                    assertThat(e.violations()).filteredOn(v -> v.field().equals("statePropertyId"))
                            .extracting(FieldViolation::rule)
                            .containsExactly(ClaimField.STATE_PROPERTY_ID.check("12", TODAY).violations().get(0).rule());
                    assertThat(e.getMessage()).doesNotContain("987-65-43");
                });
        assertThat(Sql.count(db, "claim")).isZero();
        assertThat(Sql.count(db, "audit_log")).isZero();
    }

    @Test
    void aDuplicateIsRefusedNamingTheClaimPresentUnlessAReasonIsGiven() {
        Claim first = intake.create(fields(), null, "j.chen", null, null);

        Map<String, String> again = fields();
        again.put("amountCents", "99");
        assertThatThrownBy(() -> intake.create(again, null, "r.okafor", null, null))
                .isInstanceOfSatisfying(DuplicateClaimException.class, e -> {
                    assertThat(e.existingClaimNumber()).isEqualTo(first.claimNumber());
                    assertThat(e.getMessage()).contains(first.claimNumber()).contains("reason");
                    // staff see the claimant's name; the log line of the refusal does not keep it
                    assertThat(e.getMessage()).contains(first.claimantName());
                    assertThat(e.forLog()).contains(first.claimNumber()).doesNotContain(first.claimantName());
                });
        assertThat(Sql.count(db, "claim")).isEqualTo(1);
        assertThat(intake.duplicateOf(ClaimDraft.read(again, TODAY).draft())).map(Claim::claimNumber)
                .contains(first.claimNumber());

        // a reason alone does not let the repeat through, nor naming another claim: staff name the one they saw
        assertThatThrownBy(() -> intake.create(again, ClaimStatus.EVIDENCE_PENDING, "r.okafor",
                "identity checked at the counter", null))
                .isInstanceOfSatisfying(DuplicateClaimException.class,
                        e -> assertThat(e.getMessage()).contains("name " + first.claimNumber()));
        assertThatThrownBy(() -> intake.create(again, null, "r.okafor", "reported twice", "UPC-2026-999999"))
                .isInstanceOf(DuplicateClaimException.class);
        assertThatThrownBy(() -> intake.create(again, null, "r.okafor", null, first.claimNumber()))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("repeats claim " + first.claimNumber()
                        + " needs a reason");
        assertThat(Sql.count(db, "claim")).isEqualTo(1);

        Claim second = intake.create(again, null, "r.okafor", "the holder reported the property twice",
                first.claimNumber().toLowerCase(java.util.Locale.ROOT));
        assertThat(second.claimNumber()).isNotEqualTo(first.claimNumber());
        assertThat(queries.audit(Long.toString(second.claimId()), null, null, 0, 0)).singleElement()
                .satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("the holder reported the property twice");
                    assertThat(a.details()).contains("\"duplicateOf\":\"" + first.claimNumber() + "\"");
                });
    }

    /** Nine bare digits are an SSN on an owner's claim and the EIN on a business's. */
    @Test
    void nineBareDigitsAreReadForTheClaimType() {
        assertThat(intake.create(fields(), null, "j.chen", null, null).taxId()).isEqualTo("512-00-4471");
        Map<String, String> business = fields();
        business.put("claimType", "business");
        business.put("claimantName", "Harbor Dental Group LLC");
        assertThat(intake.create(business, null, "j.chen", null, null).taxId()).isEqualTo("51-2004471");
    }

    /** The claimant's name in capitals, with other spacing or decomposed accents is the claimant present. */
    @Test
    void aClaimantWrittenAnotherWayIsTheClaimantPresent() {
        Claim first = intake.create(fields(), null, "j.chen", null, null);
        for (String writing : List.of("NGUYỄN VĂN AN", "nguyễn  văn an", "Nguyen Van An",
                java.text.Normalizer.normalize("Nguyễn Văn An", java.text.Normalizer.Form.NFD))) {
            Map<String, String> again = fields();
            again.put("claimantName", writing);
            assertThat(intake.duplicateOf(ClaimDraft.read(again, TODAY).draft())).as(writing)
                    .map(Claim::claimNumber).contains(first.claimNumber());
            assertThatThrownBy(() -> intake.create(again, null, "r.okafor", null, null)).as(writing)
                    .isInstanceOfSatisfying(DuplicateClaimException.class,
                            e -> assertThat(e.existingClaimNumber()).isEqualTo(first.claimNumber()));
        }
        Map<String, String> other = fields();
        other.put("claimantName", "Nguyễn Văn Anh");
        assertThat(intake.create(other, null, "r.okafor", null, null).claimNumber()).isNotEqualTo(first.claimNumber());
        assertThat(Sql.count(db, "claim")).isEqualTo(2);
    }

    @Test
    void aLaterStartNeedsAReasonAndIsAStatusBeforeSubmissionAlongTheTable() {
        assertThat(Transitions.startingStatuses()).containsExactly(ClaimStatus.IDENTITY_PENDING,
                ClaimStatus.EVIDENCE_PENDING, ClaimStatus.READY_FOR_SUBMISSION);
        assertThatThrownBy(() -> intake.create(fields(), ClaimStatus.EVIDENCE_PENDING, "j.chen", null, null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("needs a reason");
        assertThatThrownBy(() -> intake.create(fields(), ClaimStatus.SUBMITTING, "j.chen", "sent on paper", null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("cannot start in SUBMITTING");
        assertThatThrownBy(() -> intake.create(fields(), ClaimStatus.WITHDRAWN, "j.chen", "withdrawn", null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("cannot start in WITHDRAWN");
        assertThat(Sql.count(db, "claim")).isZero();

        Claim ready = intake.create(fields(), ClaimStatus.READY_FOR_SUBMISSION, "j.chen",
                "identity and evidence checked on paper before entry", null);
        assertThat(ready.status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(queries.history(ready.claimId())).singleElement().satisfies(h -> {
            assertThat(h.fromStatus()).isNull();
            assertThat(h.toStatus()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
            assertThat(h.reason()).isEqualTo("identity and evidence checked on paper before entry");
        });
    }

    @Test
    void claimNumbersFollowDemoIdsAndAreNeverReusedAfterAClaimIsRemoved() {
        new DemoData(db, CLOCK, Deadlines.statutory()).generate(40, 3, n -> { });
        Claim created = intake.create(fields(), null, "j.chen", null, null);
        assertThat(sequence(created)).isEqualTo(41);

        db.useTransaction(h -> {
            h.execute("DELETE FROM claim_status_history WHERE claim_id = ?", created.claimId());
            h.execute("DELETE FROM claim WHERE claim_id = ?", created.claimId());
        });
        Map<String, String> other = fields();
        other.put("claimantName", "Maria Garcia");
        Claim next = intake.create(other, null, "j.chen", null, null);
        assertThat(sequence(next)).isEqualTo(42);
        assertThat(next.claimNumber()).isNotEqualTo(created.claimNumber());
    }

    private static long sequence(Claim claim) {
        return Long.parseLong(claim.claimNumber().substring(claim.claimNumber().lastIndexOf('-') + 1));
    }
}
