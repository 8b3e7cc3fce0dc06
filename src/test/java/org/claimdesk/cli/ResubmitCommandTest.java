package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.claimdesk.app.Workflow;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.claimdesk.testing.HolderRegistryState;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code outbox resubmit}: exit codes, one-line refusals, JSON, the superseded rows in {@code outbox list}. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ResubmitCommandTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    DatabaseLocation file;
    long claimId;
    long refusedRow;
    String taxId;

    record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return Json.mapper().readTree(out);
        }
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 2];
        all[0] = "--db";
        all[1] = TestDatabase.argument(file);
        System.arraycopy(args, 0, all, 2, args.length);
        int exit = ClaimDeskCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), all);
        return new Run(exit, out.toString(), err.toString());
    }

    @BeforeEach
    void refused() {
        file = TestDatabase.location(engine, dir, "claims");
        try (Database db = Database.open(file)) {
            claimId = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            taxId = db.read(h -> h.createQuery("SELECT tax_id FROM claim WHERE claim_id = :id").bind("id", claimId)
                    .mapTo(String.class).one());
            HolderRegistryState.setHolderId(db, claimId, HolderRegistryState.UNKNOWN_HOLDER);
            refusedRow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(claimId, "s.patel", null)
                    .outboxEventId();
            try (HolderRegistryState state = new HolderRegistryState();
                    DeliveryWorker worker = new DeliveryWorker(db, state, Workers.fast(), Clock.systemUTC(), Deadlines.statutory())) {
                worker.start();
                await().atMost(Duration.ofSeconds(20)).until(() -> Outbox.count(db, DeliveryState.FAILED) == 1);
            }
        }
    }

    @Test
    void anUnchangedClaimIsRefusedWithOneLineAndExitOne() {
        Run r = run("outbox", "resubmit", Long.toString(refusedRow), "--actor", "r.okafor", "--reason", "again");
        assertThat(r.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(r.err().strip()).contains("has not changed since the state refused outbox row " + refusedRow)
                .doesNotContain("\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void requeueingARefusalUnchangedWarnsThatTheReasonIsTheConfirmation() {
        Run r = run("outbox", "requeue", "--id", Long.toString(refusedRow), "--actor", "r.okafor", "--reason", "I know");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains(KeyPolicy.UNCHANGED_REFUSAL_WARNING).contains("confirmed by --reason");
        Run help = run("outbox", "requeue", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out().replaceAll("\\s+", " "))
                .contains("also the confirmation that they may be sent again unchanged");
    }

    @Test
    void aCorrectedClaimIsResubmittedAndTheChainIsListed() throws Exception {
        try (Database db = Database.open(file)) {
            HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        }
        Run r = run("outbox", "resubmit", Long.toString(refusedRow), "--actor", "r.okafor", "--reason", "fixed", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode result = r.json();
        long newRow = result.get("newOutboxEventId").asLong();
        assertThat(result.get("oldOutboxEventId").asLong()).isEqualTo(refusedRow);
        assertThat(result.get("newIdempotencyKey").asText()).isNotEqualTo(result.get("oldIdempotencyKey").asText());
        assertThat(result.get("changes").get(0).get("field").asText()).isEqualTo("holderId");
        assertThat(result.get("changes").get(0).get("after").asText()).isEqualTo("HLD-100200");

        Run listed = run("outbox", "list", "--state", "superseded", "--json");
        assertThat(listed.exit()).isZero();
        assertThat(listed.json()).hasSize(1);
        assertThat(listed.json().get(0).get("outboxEventId").asLong()).isEqualTo(refusedRow);
        assertThat(listed.json().get(0).get("supersededBy").asLong()).isEqualTo(newRow);
        assertThat(run("outbox", "list", "--json").json().get(1).get("supersededBy").isNull()).isTrue();

        Run attempts = run("outbox", "attempts", Long.toString(refusedRow));
        assertThat(attempts.out()).contains("superseded").contains("PERMANENT");

        Run again = run("outbox", "resubmit", Long.toString(refusedRow), "--actor", "j.chen", "--reason", "fixed");
        assertThat(again.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(again.err().strip()).contains("was already resubmitted as row " + newRow);

        Run notFailed = run("outbox", "resubmit", Long.toString(newRow), "--actor", "j.chen", "--reason", "fixed");
        assertThat(notFailed.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(notFailed.err().strip()).contains("is pending: only a failed row can be resubmitted");

        Run audit = run("audit", "list", "--json");
        String digits = taxId.replaceAll("[^0-9]", "");
        for (Run each : new Run[] {r, listed, attempts, again, notFailed, audit}) {
            assertThat(each.out() + each.err()).doesNotContain(taxId).doesNotContain(digits);
        }
        assertThat(audit.out()).contains("outbox.resubmit");
    }
}
