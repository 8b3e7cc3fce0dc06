package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import org.claimdesk.delivery.StateRules.Refusal;
import org.claimdesk.store.Json;
import org.claimdesk.testing.StatePayloads;
import org.junit.jupiter.api.Test;

class StateRulesTest {
    private static final StateRules RULES = StateRules.standard();
    private static final List<String> REQUIRED = List.of("claimId", "claimNumber", "jurisdiction", "statePropertyId",
            "holderName", "holderId", "propertyType", "claimType", "claimantName", "taxIdLast4", "amountCents", "filedOn");

    private static Refusal refusal(ObjectNode body) {
        Optional<Refusal> verdict = RULES.judge(body);
        assertThat(verdict).as("refused: %s", body).isPresent();
        return verdict.get();
    }

    @Test
    void aCompleteOrdinaryClaimIsAccepted() {
        assertThat(RULES.judge(StatePayloads.valid(1))).isEmpty();
        assertThat(RULES.judge(StatePayloads.valid(1).putNull("evidence"))).isEmpty();
        // 200 characters as the contract counts them, each outside the basic plane (two UTF-16 units)
        assertThat(RULES.judge(StatePayloads.valid(1).put("claimantName", "\uD842\uDFB7".repeat(200)))).isEmpty();
        assertThat(RULES.judge(Json.mapper().createArrayNode())).get().extracting(Refusal::error).isEqualTo("invalid_body");
    }

    @Test
    void eachRequiredFieldMissingOrBlankIsNamed() {
        for (String field : REQUIRED) {
            ObjectNode absent = StatePayloads.valid(1);
            absent.remove(field);
            assertThat(refusal(absent)).isEqualTo(new Refusal(400, "missing_field", field, field + " is required"));
            ObjectNode nulled = StatePayloads.valid(1).putNull(field);
            assertThat(refusal(nulled).field()).isEqualTo(field);
            if (!field.equals("claimId") && !field.equals("amountCents")) {
                assertThat(refusal(StatePayloads.valid(1).put(field, "  ")).error()).isEqualTo("missing_field");
            }
        }
    }

    @Test
    void eachMalformedFieldIsNamed() {
        Object[][] cases = {
            {"claimId", "7"}, {"claimId", 0}, {"claimId", 1.5},
            {"claimNumber", "U".repeat(41)},
            {"jurisdiction", "ca"}, {"jurisdiction", "ZZ"}, {"jurisdiction", 6},
            {"statePropertyId", "123456"}, {"statePropertyId", "1234567890"}, {"statePropertyId", "12345a78"},
            {"holderName", "H".repeat(201)},
            {"holderId", "HLD"}, {"holderId", "HLD-12345"}, {"holderId", "hld-100200"},
            {"propertyType", "XX01"}, {"claimType", "owner"},
            {"taxIdLast4", "123"}, {"taxIdLast4", "123-00-4567"}, {"taxIdLast4", 4567},
            {"amountCents", -5}, {"amountCents", "12345"}, {"amountCents", 12.5},
            {"filedOn", "03/01/2026"}, {"filedOn", "2026-02-30"},
        };
        for (Object[] c : cases) {
            ObjectNode body = StatePayloads.valid(1);
            body.set((String) c[0], Json.mapper().valueToTree(c[1]));
            Refusal r = refusal(body);
            assertThat(r.status()).as("%s = %s", c[0], c[1]).isEqualTo(400);
            assertThat(r.error()).as("%s = %s", c[0], c[1]).isEqualTo("invalid_field");
            assertThat(r.field()).as("%s = %s", c[0], c[1]).isEqualTo(c[0]);
        }
        assertThat(refusal(StatePayloads.valid(1).put("taxIdLast4", "98x6")).message())
                .as("a refusal never repeats the tax id").doesNotContain("98x6");
    }

    @Test
    void evidenceReferencesNeedAKnownKind() {
        ObjectNode notAList = StatePayloads.valid(1).put("evidence", "address");
        assertThat(refusal(notAList)).extracting(Refusal::error, Refusal::field).containsExactly("invalid_field", "evidence");
        ObjectNode unknown = StatePayloads.valid(1);
        unknown.putArray("evidence").addObject().put("kind", "identity").put("title", "passport");
        ((com.fasterxml.jackson.databind.node.ArrayNode) unknown.get("evidence")).addObject().put("kind", "selfie");
        assertThat(refusal(unknown)).extracting(Refusal::error, Refusal::field)
                .containsExactly("invalid_field", "evidence[1].kind");
        ObjectNode noKind = StatePayloads.valid(1);
        noKind.putArray("evidence").addObject().put("title", "utility bill");
        assertThat(refusal(noKind)).extracting(Refusal::error, Refusal::field)
                .containsExactly("missing_field", "evidence[0].kind");
        ObjectNode every = StatePayloads.valid(1);
        StateRules.EVIDENCE_KINDS.forEach(k -> ((com.fasterxml.jackson.databind.node.ArrayNode)
                every.withArray("evidence")).addObject().put("kind", k).put("url", "https://docs.example/" + k));
        assertThat(RULES.judge(every)).isEmpty();
    }

    @Test
    void anAmountAtTheJurisdictionsThresholdNeedsProofOfAddress() {
        assertThat(StateRules.addressEvidenceThresholdCents("CA")).isEqualTo(100_000);
        assertThat(StateRules.addressEvidenceThresholdCents("OR"))
                .isEqualTo(StateRules.DEFAULT_ADDRESS_EVIDENCE_THRESHOLD_CENTS).isEqualTo(500_000);
        assertThat(RULES.judge(StatePayloads.valid(1).put("amountCents", 99_999))).isEmpty();
        Refusal atThreshold = refusal(StatePayloads.valid(1).put("amountCents", 100_000));
        assertThat(atThreshold).isEqualTo(new Refusal(400, "missing_field", "evidence.address",
                "proof of address required: CA needs an evidence reference of kind address for claims of $1,000.00"
                        + " or more"));
        ObjectNode other = StatePayloads.valid(1).put("amountCents", 250_000);
        other.putArray("evidence").addObject().put("kind", "identity");
        assertThat(refusal(other).field()).as("evidence of another kind does not count").isEqualTo("evidence.address");
        ObjectNode proven = StatePayloads.valid(1).put("amountCents", 250_000);
        proven.putArray("evidence").addObject().put("kind", "address").put("title", "utility bill");
        assertThat(RULES.judge(proven)).isEmpty();
        ObjectNode oregon = StatePayloads.valid(1).put("jurisdiction", "OR").put("amountCents", 250_000)
                .put("statePropertyId", PropertyLedger.openPropertyId("OR", 1));
        assertThat(RULES.judge(oregon)).as("below Oregon's default threshold").isEmpty();
    }

    @Test
    void aHolderMustBeRegisteredForTheClaimsJurisdiction() {
        HolderRegistry registry = HolderRegistry.standard();
        HolderRegistry.Holder pge = registry.holders().stream().filter(h -> h.name().equals("Pacific Gas and Electric Co"))
                .findFirst().orElseThrow();
        ObjectNode inCalifornia = StatePayloads.valid(1).put("holderId", pge.id()).put("holderName", pge.name());
        assertThat(RULES.judge(inCalifornia)).isEmpty();
        ObjectNode inNewYork = inCalifornia.deepCopy().put("jurisdiction", "NY")
                .put("statePropertyId", PropertyLedger.openPropertyId("NY", 1));
        assertThat(refusal(inNewYork)).isEqualTo(new Refusal(422, "invalid_claim", "holderId",
                "holder id " + pge.id() + " is not in NY's holder registry"));
        String unknown = registry.unregisteredHolderId(42);
        assertThat(refusal(StatePayloads.valid(1).put("holderId", unknown)))
                .extracting(Refusal::status, Refusal::error, Refusal::field).containsExactly(422, "invalid_claim", "holderId");
    }

    @Test
    void aPropertyAlreadyPaidIsRefused() {
        String paid = PropertyLedger.paidPropertyId("CA", 5);
        assertThat(PropertyLedger.paid("CA", paid)).isTrue();
        assertThat(refusal(StatePayloads.valid(1).put("statePropertyId", paid))).isEqualTo(new Refusal(422,
                "already_paid", "statePropertyId", "state property id " + paid + " was already paid to another claimant"));
    }

    @Test
    void aTaxIdThatDiffersFromTheOwnerRecordIsRefusedAndTheMatchingOnePasses() {
        String recorded = PropertyLedger.ownerRecordedPropertyId("CA", 9);
        String owner = PropertyLedger.ownerTaxIdLast4("CA", recorded).orElseThrow();
        String other = PropertyLedger.otherTaxIdLast4(owner);
        assertThat(other).hasSize(4).isNotEqualTo(owner);
        assertThat(RULES.judge(StatePayloads.valid(1).put("statePropertyId", recorded).put("taxIdLast4", owner))).isEmpty();
        Refusal mismatch = refusal(StatePayloads.valid(1).put("statePropertyId", recorded).put("taxIdLast4", other));
        assertThat(mismatch).extracting(Refusal::status, Refusal::error, Refusal::field)
                .containsExactly(422, "identity_mismatch", "taxIdLast4");
        assertThat(mismatch.message()).contains(recorded).doesNotContain(owner).doesNotContain(other);
        assertThat(PropertyLedger.ownerTaxIdLast4("CA", PropertyLedger.openPropertyId("CA", 9))).isEmpty();
        assertThat(PropertyLedger.ownerTaxIdLast4("CA", PropertyLedger.paidPropertyId("CA", 9))).isEmpty();
    }

    @Test
    void theLedgerIsTheDocumentedFunctionAndLeavesShortIdsAlone() throws Exception {
        int paid = 0;
        int recorded = 0;
        for (int i = 0; i < 2_000; i++) {
            String id = Integer.toString(100_000_000 + i * 7_919);
            byte[] d = MessageDigest.getInstance("SHA-256").digest(("CA:" + id).getBytes(StandardCharsets.UTF_8));
            long bucket = (((d[0] & 0xffL) << 24) | ((d[1] & 0xffL) << 16) | ((d[2] & 0xffL) << 8) | (d[3] & 0xffL)) % 100;
            assertThat(PropertyLedger.paid("CA", id)).isEqualTo(bucket == 0);
            Optional<String> owner = PropertyLedger.ownerTaxIdLast4("CA", id);
            assertThat(owner.isPresent()).isEqualTo(bucket >= 1 && bucket <= 5);
            if (owner.isPresent()) {
                int value = ((d[4] & 0xff) << 8) | (d[5] & 0xff);
                assertThat(owner.get()).isEqualTo(String.format("%04d", 1 + value % 9999));
                recorded++;
            }
            paid += bucket == 0 ? 1 : 0;
            String eightDigits = Integer.toString(40_000_000 + i);
            assertThat(PropertyLedger.paid("CA", eightDigits)).isFalse();
            assertThat(PropertyLedger.ownerTaxIdLast4("CA", eightDigits)).isEmpty();
        }
        assertThat(paid).as("about one in a hundred").isBetween(5, 40);
        assertThat(recorded).as("about five in a hundred").isBetween(60, 150);
        assertThat(PropertyLedger.paidPropertyId("NY", 3)).isEqualTo(PropertyLedger.paidPropertyId("NY", 3))
                .matches("\\d{9}");
    }

    @Test
    void theFirstBrokenRuleInTheDocumentedOrderIsTheAnswer() {
        ObjectNode everything = StatePayloads.valid(1).put("amountCents", 500_000)
                .put("holderId", HolderRegistry.standard().unregisteredHolderId(1))
                .put("statePropertyId", PropertyLedger.paidPropertyId("CA", 1));
        assertThat(refusal(everything).field()).isEqualTo("evidence.address");
        everything.putArray("evidence").addObject().put("kind", "address");
        assertThat(refusal(everything).field()).isEqualTo("holderId");
        everything.put("holderId", "HLD-100200");
        assertThat(refusal(everything).field()).isEqualTo("statePropertyId");
        everything.remove("claimantName");
        assertThat(refusal(everything).field()).isEqualTo("claimantName");
    }

    @Test
    void theSameBodyGetsTheSameVerdictTwiceAndFromAnotherInstance() {
        ObjectNode body = StatePayloads.valid(1).put("statePropertyId", PropertyLedger.ownerRecordedPropertyId("CA", 4))
                .put("taxIdLast4", "0000");
        Refusal first = refusal(body);
        assertThat(refusal(body)).isEqualTo(first);
        StateRules other = new StateRules(HolderRegistry.parse(List.of("holder_id,holder_name,property_type,jurisdictions",
                "HLD-100200,Wells Fargo Bank NA,AC01,ALL")));
        assertThat(other.judge(body)).contains(first);
    }

    @Test
    void theRegistryListsRealisticHoldersForEveryDemoJurisdiction() {
        HolderRegistry registry = HolderRegistry.standard();
        assertThat(registry.holders()).hasSizeGreaterThan(20)
                .allSatisfy(h -> assertThat(h.id()).matches("HLD-\\d{6}"))
                .anySatisfy(h -> assertThat(h.name()).contains("Bank"))
                .anySatisfy(h -> assertThat(h.name()).contains("Payroll"))
                .anySatisfy(h -> assertThat(h.name()).contains("Insurance"));
        for (String j : List.of("CA", "NY", "TX", "FL", "IL", "WA", "UT", "CO", "KY", "NC", "HI")) {
            assertThat(registry.holdersFor(j)).as(j).hasSizeGreaterThan(15).allMatch(h -> registry.registered(h.id(), j));
        }
        assertThat(registry.holdersFor("ZZ")).isEmpty();
        String unknown = registry.unregisteredHolderId(7);
        assertThat(unknown).matches("HLD-\\d{6}").isEqualTo(registry.unregisteredHolderId(7));
        assertThat(registry.holder(unknown)).isEmpty();
        assertThat(registry.registered("HLD-100200", "CA")).isTrue();
    }
}
