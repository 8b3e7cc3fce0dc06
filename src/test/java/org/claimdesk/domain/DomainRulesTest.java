package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DomainRulesTest {
    @Test
    void everyAuditActionIsInTheOneListOfActions() throws IllegalAccessException {
        List<String> actions = new ArrayList<>();
        for (Field f : AuditActions.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
                    && !f.getName().startsWith("SUBJECT_") && !f.getName().equals("WORKER_ID")) {
                actions.add((String) f.get(null));
            }
        }
        assertThat(actions).hasSizeGreaterThan(10);
        assertThat(AuditActions.ALL).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(actions);
    }

    @Test
    void amountsAreWrittenInDollarsWithThousandsSeparators() {
        assertThat(Amounts.dollars(0)).isEqualTo("$0.00");
        assertThat(Amounts.dollars(5)).isEqualTo("$0.05");
        assertThat(Amounts.dollars(12_345)).isEqualTo("$123.45");
        assertThat(Amounts.dollars(100_000)).isEqualTo("$1,000.00");
        assertThat(Amounts.dollars(123_456_789_01L)).isEqualTo("$123,456,789.01");
        assertThat(Amounts.dollars(-250)).isEqualTo("-$2.50");
    }


    @Test
    void taxIdsShowOnlyTheLastFourDigits() {
        assertThat(TaxIds.mask("123-00-4567")).isEqualTo("***-**-4567");
        assertThat(TaxIds.mask("94-1234567")).isEqualTo("***-**-4567");
        assertThat(TaxIds.mask("12")).isEqualTo("***");
        assertThat(TaxIds.mask(null)).isEmpty();
    }

    @Test
    void statutoryDeadlinesFollowTheJurisdiction() {
        Deadlines deadlines = Deadlines.statutory();
        LocalDate filed = LocalDate.of(2026, 1, 1);
        assertThat(deadlines.dueDate("CA", filed)).isEqualTo(filed.plusDays(180));
        assertThat(deadlines.dueDate("hi", filed)).isEqualTo(filed.plusDays(120));
        assertThat(deadlines.dueDate("UT", filed)).isEqualTo(filed.plusDays(90));
        assertThat(deadlines.dueDate("CO", filed)).isEqualTo(filed.plusDays(90));
        assertThat(deadlines.dueDate("KY", filed)).isEqualTo(filed.plusDays(90));
        assertThat(deadlines.daysFor("NY")).isEqualTo(Deadlines.DEFAULT_DAYS);
        assertThat(deadlines.with("NY", 150).daysFor("NY")).isEqualTo(150);
        assertThat(deadlines.with("*", 60).daysFor("TX")).isEqualTo(60);
        assertThatThrownBy(() -> deadlines.with("NY", 0)).hasMessageContaining("positive");
    }

    @Test
    void officesSetTheDeadlinesOfOtherJurisdictions() {
        Deadlines deadlines = Deadlines.statutory().withOverrides(" NY=150, *=100 ");
        assertThat(deadlines.daysFor("NY")).isEqualTo(150);
        assertThat(deadlines.daysFor("TX")).isEqualTo(100);
        assertThat(deadlines.daysFor("CA")).isEqualTo(180);
        assertThat(Deadlines.statutory().withOverrides("").daysFor("NY")).isEqualTo(Deadlines.DEFAULT_DAYS);
        assertThatThrownBy(() -> Deadlines.statutory().withOverrides("NY:150"))
                .hasMessageContaining("'NY:150' is not JURISDICTION=DAYS");
        assertThatThrownBy(() -> Deadlines.statutory().withOverrides("NY=soon"))
                .hasMessageContaining("'NY=soon': the days must be a whole number");
        // the statute's figures are not the office's to change, and a code no claim has would change nothing
        assertThatThrownBy(() -> Deadlines.statutory().withOverrides("NY=150,CA=365"))
                .hasMessage("decision deadline setting 'CA=365': CA's 180 days are set by statute; the setting is for"
                        + " other jurisdictions");
        assertThatThrownBy(() -> Deadlines.statutory().withOverrides("NYC=150"))
                .hasMessageContaining("'NYC=150': NYC is no jurisdiction");
        assertThat(Deadlines.statutory().withOverrides("ny=150").daysFor("NY")).isEqualTo(150);
    }

    @Test
    void aClaimIsOverdueOnlyWhileItAwaitsADecisionPastItsDueDate() {
        LocalDate due = LocalDate.of(2026, 6, 30);
        Claim submitted = claim(ClaimStatus.SUBMITTED_TO_STATE, due);
        assertThat(submitted.isOverdue(due)).isFalse();
        assertThat(submitted.isOverdue(due.plusDays(1))).isTrue();
        assertThat(claim(ClaimStatus.NEEDS_INFO, due).isOverdue(due.plusDays(1))).isTrue();
        assertThat(claim(ClaimStatus.APPROVED, due).isOverdue(due.plusDays(1))).isFalse();
        assertThat(claim(ClaimStatus.SUBMITTED_TO_STATE, null).isOverdue(due.plusDays(1))).isFalse();
    }

    @Test
    void aClaimNeverPrintsItsTaxId() {
        assertThat(claim(ClaimStatus.PAID, null).toString()).doesNotContain("123-00-4567").contains("***-**-4567");
    }

    @Test
    void aTaxIdsLastFourAreItsLastFourDigitsOrNone() {
        assertThat(TaxIds.last4("123-00-4567")).isEqualTo("4567");
        assertThat(TaxIds.last4("12-3004567")).isEqualTo("4567");
        assertThat(TaxIds.last4("12-3")).isEmpty();
        assertThat(TaxIds.last4(null)).isEmpty();
        assertThat(TaxIds.mask("12-3")).isEqualTo("***");
        assertThat(TaxIds.mask("12-3004567")).isEqualTo("***-**-4567");
    }

    @Test
    void submissionPayloadCarriesOnlyTheLastFourDigits() {
        SubmissionPayload payload = SubmissionPayload.of(claim(ClaimStatus.READY_FOR_SUBMISSION, null), "k-1");
        assertThat(payload.taxIdLast4()).isEqualTo("4567");
        assertThat(payload.toString()).doesNotContain("123-00");
    }

    @Test
    void attemptDetailIsTruncatedTo4K() {
        String big = "x".repeat(10_000);
        assertThat(DeliveryAttempt.truncate(big)).hasSize(DeliveryAttempt.MAX_DETAIL_CHARS);
        assertThat(DeliveryAttempt.truncate("short")).isEqualTo("short");
    }

    static Claim claim(ClaimStatus status, LocalDate due) {
        return new Claim(1, "UPC-2026-000001", "CA", "12345678", "Wells Fargo Bank NA", "HLD-1", PropertyType.AC01,
                ClaimType.OWNER, "Maria Garcia", "123-00-4567", 10_000, status, null, LocalDate.of(2026, 1, 2), due, 0,
                java.time.Instant.EPOCH, java.time.Instant.EPOCH);
    }
}
