package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ErrorSignatureTest {

    @Test
    void idsNumbersAndQuotedValuesAreStrippedSoOneErrorMakesOneGroup() {
        String a = ErrorSignature.of("422 invalid_claim: holder id HLD-104233 not found in the holder's 2025 report");
        String b = ErrorSignature.of("422 invalid_claim: holder id HLD-998120 not found in the holder's 2024 report");
        assertThat(a).isEqualTo(b).isEqualTo("422 invalid_claim: holder id # not found in the holder's # report");
    }

    /** A group is shown as its newest message's signature with the letters' case as written: "CA's", not "ca's". */
    @Test
    void aGroupIsShownWithItsLettersCaseAsWritten() {
        String text = "422 invalid_claim: holder id HLD-104233 is not in CA's holder registry";
        assertThat(ErrorSignature.shown(text)).isEqualTo("422 invalid_claim: holder id # is not in CA's holder registry");
        assertThat(ErrorSignature.of(text)).isEqualTo("422 invalid_claim: holder id # is not in ca's holder registry");
        assertThat(ErrorSignature.shown(null)).isEqualTo("(no error text)");
        FailureGroup group = FailureGroup.of(text, 3, java.time.Instant.EPOCH, java.time.Instant.EPOCH);
        assertThat(group.shown()).isEqualTo("422 invalid_claim: holder id # is not in CA's holder registry");
        assertThat(group.shown().toLowerCase(java.util.Locale.ROOT)).isEqualTo(group.signature());
    }

    @Test
    void theLeadingHttpStatusIsKeptAndTellsErrorsApart() {
        assertThat(ErrorSignature.of("503 unavailable: state portal busy (gave up after 8 attempts)"))
                .isEqualTo("503 unavailable: state portal busy (gave up after # attempts)");
        assertThat(ErrorSignature.of("502 unavailable: state portal busy (gave up after 3 attempts)"))
                .isNotEqualTo(ErrorSignature.of("503 unavailable: state portal busy (gave up after 3 attempts)"));
    }

    @Test
    void uuidsAmountsDurationsAndCaseIdsBecomeOnePlaceholder() {
        assertThat(ErrorSignature.of("timeout: no reply from the state within 15000 ms (gave up after 8 attempts)"))
                .isEqualTo("timeout: no reply from the state within # ms (gave up after # attempts)");
        assertThat(ErrorSignature.of("400 missing_field: proof of address link required for claims over $1,000"))
                .isEqualTo("400 missing_field: proof of address link required for claims over #");
        assertThat(ErrorSignature.of("the key sub-8f3a0c1e-1b2c-4d5e-9f00-aa11bb22cc33 was used for claim UPC-2026-004217"))
                .isEqualTo("the key # was used for claim #");
        assertThat(ErrorSignature.of("unknown event type 'claim_archived': this worker delivers only x"))
                .isEqualTo("unknown event type '…': this worker delivers only x");
    }

    @Test
    void tokensStartOnlyWhereAWordStartsYetMatchAsTheUnanchoredPatternDoes() {
        // the unanchored pattern: same signatures, but a search that tries every position inside each word
        Pattern plain = Pattern.compile("[\\p{L}\\p{N}$#._/:-]*\\p{N}[\\p{L}\\p{N}$#.,_/:-]*");
        String alphabet = "ab1 2,.:-_/$#'x\u00e9\u0663\u216b\t9";
        Random random = new Random(20261130);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder("error ");
            for (int j = random.nextInt(40); j > 0; j--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String message = text.toString();
            String expected = plain.matcher(message.strip().replaceAll("\\s+", " ").replaceAll("'[^']*'", "'…'"))
                    .replaceAll(m -> {
                        char last = m.group().charAt(m.group().length() - 1);
                        return last == ':' || last == ',' || last == '.' ? "#" + last : "#";
                    }).replaceAll("\\s+", " ").strip().toLowerCase(java.util.Locale.ROOT);
            if (!message.contains("\"")) {
                assertThat(ErrorSignature.of(message)).as(message).isEqualTo(expected.length() <= 200 ? expected
                        : expected.substring(0, 199) + "…");
            }
        }
    }

    @Test
    void caseWhitespaceAndEmptyTextAreNormalised() {
        assertThat(ErrorSignature.of("  Connection   LOST\n before reply ")).isEqualTo("connection lost before reply");
        assertThat(ErrorSignature.of(null)).isEqualTo("(no error text)");
        assertThat(ErrorSignature.of(" ")).isEqualTo("(no error text)");
        assertThat(ErrorSignature.of("x".repeat(500))).hasSize(200);
    }

    @Test
    void signaturesAreRememberedUpToABoundAndStayRightPastIt() {
        String first = "422 invalid_claim: holder id HLD-0 not found";
        assertThat(ErrorSignature.of(first)).isEqualTo("422 invalid_claim: holder id # not found");
        assertThat(ErrorSignature.of(first)).as("asked again").isEqualTo("422 invalid_claim: holder id # not found");

        for (int i = 1; i <= ErrorSignature.REMEMBERED + 100; i++) {
            assertThat(ErrorSignature.of("422 invalid_claim: holder id HLD-" + i + " not found"))
                    .isEqualTo("422 invalid_claim: holder id # not found");
            assertThat(ErrorSignature.remembered()).isLessThanOrEqualTo(ErrorSignature.REMEMBERED);
        }
        assertThat(ErrorSignature.of(first)).as("after the memory started afresh")
                .isEqualTo("422 invalid_claim: holder id # not found");
        assertThat(ErrorSignature.of("Connection LOST")).isEqualTo("connection lost");
    }
}
