package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.cli.CliTest.Run;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code claims set} and {@code outbox resubmit --all-failed} on the demo's own refusals: the Texas rows the state
 * refused because their holder id is not in its registry are fixed in one step, resubmitted together and accepted.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class BulkFixCommandTest {
    @Parameter
    TestDatabase.Engine engine;

    static final String REGISTERED = "HLD-100200";

    @TempDir
    Path dir;

    String db;
    String signature;

    @BeforeEach
    void demo() throws Exception {
        db = TestDatabase.argument(TestDatabase.location(engine, dir, "cli"));
        Run demo = CliTest.run("--db", db, "demo", "--claims", "400", "--seed", "9", "--today", "2026-11-02");
        assertThat(demo.exit()).as(demo.err()).isZero();
        for (JsonNode group : run("outbox", "failures", "--jurisdiction", "TX", "--json").json()) {
            if (group.get("signature").asText().contains("holder registry")) {
                signature = group.get("signature").asText();
            }
        }
        assertThat(signature).as("the demo has Texas rows refused for an unregistered holder").isNotNull();
    }

    private Run run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--db";
        all[1] = db;
        System.arraycopy(args, 0, all, 2, args.length);
        return CliTest.run(all);
    }

    @Test
    void aGroupIsFixedInOneStepResubmittedTogetherAndAccepted() throws Exception {
        Run dry = run("claims", "set", "holderId=" + REGISTERED, "--outbox-signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "registered id", "--dry-run", "--json");
        assertThat(dry.exit()).as(dry.err()).isZero();
        int count = dry.json().get("wouldChange").asInt();
        assertThat(count).isPositive();
        List<Long> claimIds = new ArrayList<>();
        dry.json().get("targets").forEach(t -> {
            claimIds.add(t.get("claimId").asLong());
            assertThat(t.get("before").asText()).startsWith("HLD-").isNotEqualTo(REGISTERED);
            assertThat(t.get("after").asText()).isEqualTo(REGISTERED);
        });
        // unchanged, the rows are not resubmitted
        Run early = run("outbox", "resubmit", "--all-failed", "--signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "again");
        assertThat(early.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(early.err()).contains("has not changed since the state refused")
                .contains("claimdesk: nothing was resubmitted");

        Run set = run("claims", "set", "holderId=" + REGISTERED, "--outbox-signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "registered id from the state's list");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(set.out()).contains(" -> " + REGISTERED)
                .contains(count + " of " + count + " claim(s) changed (holderId → " + REGISTERED + ")");
        for (long claim : claimIds) {
            JsonNode audit = run("audit", "list", "--subject", Long.toString(claim), "--json").json();
            assertThat(audit).filteredOn(a -> a.get("action").asText().equals("claim.edit")).singleElement()
                    .satisfies(a -> assertThat(a.get("reason").asText()).isEqualTo("registered id from the state's list"));
        }

        Run resubmit = run("outbox", "resubmit", "--all-failed", "--signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "holder id corrected", "--json");
        assertThat(resubmit.exit()).as(resubmit.err()).isZero();
        assertThat(resubmit.json().get("resubmitted").asInt()).isEqualTo(count);
        List<Long> newRows = new ArrayList<>();
        resubmit.json().get("rows").forEach(r -> newRows.add(r.get("newOutboxEventId").asLong()));

        Run drain = run("drain", "--simulated", "--until-idle", "--even-if-paused", "--actor", "r.okafor", "--reason",
                "deliver the corrected rows now");
        assertThat(drain.exit()).as(drain.err()).isZero();
        JsonNode sent = run("outbox", "list", "--state", "sent", "--json").json();
        List<Long> sentIds = new ArrayList<>();
        sent.forEach(r -> sentIds.add(r.get("outboxEventId").asLong()));
        assertThat(sentIds).containsAll(newRows);
        assertThat(run("outbox", "failures", "--jurisdiction", "TX", "--json").json())
                .noneSatisfy(g -> assertThat(g.get("signature").asText()).isEqualTo(signature));
    }

    @Test
    void aRefusedValueTheTaxIdAndAMissingChoiceOfClaimsAreOneLineRefusals() {
        Run bad = run("claims", "set", "holderId=HLD 1", "--outbox-signature", signature, "--actor", "a", "--reason", "r");
        assertThat(bad.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(bad.err().strip()).isEqualTo("claimdesk: holderId must be HLD- and six digits, as the state's"
                + " holder registry numbers holders (e.g. HLD-100200)");
        Run tax = run("claims", "set", "taxId=123-45-6789", "--id", "1,2", "--actor", "a", "--reason", "r");
        assertThat(tax.exit()).as("a usage error").isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(tax.err()).contains("taxId cannot be set on many claims at once").doesNotContain("6789");
        Run neither = run("claims", "set", "holderId=" + REGISTERED, "--actor", "a", "--reason", "r");
        assertThat(neither.exit()).as("a usage error").isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(neither.err()).contains("either --id or --outbox-signature");
        Run noEquals = run("claims", "set", "holderId", "--id", "1", "--actor", "a", "--reason", "r");
        assertThat(noEquals.err()).contains("FIELD=VALUE");
    }

    @Test
    void reQueueingRowsWhoseClaimWasCorrectedIsRefusedUnlessTheOldDataIsAskedFor() throws Exception {
        Run set = run("claims", "set", "holderId=" + REGISTERED, "--outbox-signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "registered id");
        assertThat(set.exit()).as(set.err()).isZero();
        JsonNode failedBefore = run("outbox", "list", "--state", "failed", "--json").json();

        Run refused = run("outbox", "requeue", "--all-failed", "--signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "again");
        assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(refused.err()).contains("a re-queue sends the old data under the old key")
                .contains("outbox resubmit").contains("--send-old-data").contains("nothing was re-queued");
        assertThat(run("outbox", "list", "--state", "failed", "--json").json()).isEqualTo(failedBefore);

        Run asked = run("outbox", "requeue", "--all-failed", "--signature", signature, "--jurisdiction", "TX",
                "--actor", "r.okafor", "--reason", "the state wants the old record first", "--send-old-data");
        assertThat(asked.exit()).as(asked.err()).isZero();
        assertThat(asked.out()).startsWith("re-queued ");
    }

    @Test
    void aBlankSignatureIsRefusedNotReadAsEveryFailedRow() throws Exception {
        JsonNode failedBefore = run("outbox", "list", "--state", "failed", "--json").json();
        Run set = run("claims", "set", "holderId=" + REGISTERED, "--outbox-signature", "", "--actor", "a", "--reason", "r");
        assertThat(set.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(set.err().strip()).isEqualTo("claimdesk: --outbox-signature is empty: give a value, or leave the"
                + " option out");
        Run blankState = run("claims", "set", "holderId=" + REGISTERED, "--outbox-signature", signature,
                "--jurisdiction", " ", "--actor", "a", "--reason", "r");
        assertThat(blankState.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(blankState.err()).contains("--jurisdiction is empty");
        Run requeue = run("outbox", "requeue", "--all-failed", "--signature", "", "--actor", "a", "--reason", "r");
        assertThat(requeue.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(requeue.err()).contains("--signature is empty");
        Run resubmit = run("outbox", "resubmit", "--all-failed", "--error-like", "", "--actor", "a", "--reason", "r");
        assertThat(resubmit.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(resubmit.err()).contains("--error-like is empty");
        assertThat(run("outbox", "list", "--state", "failed", "--json").json()).isEqualTo(failedBefore);
        assertThat(run("audit", "list", "--action", "claim.edit", "--json").json()).isEmpty();
    }
}
