package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.claimdesk.testing.RuleBreakingClaims;
import org.claimdesk.testing.RuleBreakingClaims.Rule;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fix-and-resubmit loop as a user runs it from the command line: {@code state-sim} serving the simulated
 * state on 127.0.0.1, {@code claims submit}, {@code drain --state-api}, {@code outbox requeue}, {@code claims
 * edit}, {@code claims evidence add}, {@code outbox resubmit}, {@code outbox list --json}.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ResubmitEndToEndCliTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    DatabaseLocation location;
    String db;
    String stateApi;
    Thread sim;
    final AtomicInteger simExit = new AtomicInteger(-1);

    record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return Json.mapper().readTree(out);
        }
    }

    private Run run(String... args) {
        return runWithInput("", args);
    }

    private Run runWithInput(String input, String... args) {
        List<String> all = new ArrayList<>(List.of("--db", db));
        all.addAll(List.of(args));
        CliTest.Run r = CliTest.runWithInput(input, all.toArray(String[]::new));
        return new Run(r.exit(), r.out(), r.err());
    }

    private Run ok(String... args) {
        return okWithInput("", args);
    }

    private Run okWithInput(String input, String... args) {
        Run r = runWithInput(input, args);
        assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isZero();
        return r;
    }

    @BeforeEach
    void stateSim() {
        location = TestDatabase.location(engine, dir, "office");
        db = TestDatabase.argument(location);
        StringWriter simOut = new StringWriter();
        sim = new Thread(() -> simExit.set(ClaimDeskCommand.execute(new PrintWriter(simOut, true),
                new PrintWriter(new StringWriter(), true), "state-sim", "--port", "0")), "state-sim under test");
        sim.start();
        Pattern url = Pattern.compile("simulated state listening on (http://127\\.0\\.0\\.1:\\d+)");
        await().atMost(Duration.ofSeconds(10)).until(() -> url.matcher(simOut.toString()).find());
        Matcher m = url.matcher(simOut.toString());
        assertThat(m.find()).isTrue();
        stateApi = m.group(1);
    }

    @AfterEach
    void stopStateSim() throws Exception {
        sim.interrupt();
        sim.join(10_000);
        assertThat(sim.isAlive()).as("state-sim stopped").isFalse();
    }

    @Test
    void aUserFixesRefusedClaimsAndResubmitsThemFromTheCommandLine() throws Exception {
        Map<Rule, String> claims = new EnumMap<>(Rule.class);
        try (Database database = Database.open(location)) {
            int n = 0;
            for (Rule rule : Rule.values()) {
                claims.put(rule, Long.toString(RuleBreakingClaims.insert(database, rule, ++n)));
            }
        }
        Map<Rule, String> rows = new EnumMap<>(Rule.class);
        Pattern queued = Pattern.compile("SUBMITTING, outbox row (\\d+) \\(pending\\), key ");
        for (Rule rule : Rule.values()) {
            Matcher m = queued.matcher(ok("claims", "submit", claims.get(rule), "--actor", "supervisor.kim").out());
            assertThat(m.find()).isTrue();
            rows.put(rule, m.group(1));
        }

        // refused, each naming its field
        JsonNode first = ok("drain", "--state-api", stateApi, "--until-idle", "--max-wait", "30", "--json").json();
        assertThat(first.get("sent").asInt()).isZero();
        assertThat(first.get("failed").asInt()).isEqualTo(4);
        Map<Rule, String> keys = new EnumMap<>(Rule.class);
        for (Rule rule : Rule.values()) {
            JsonNode row = row(rows.get(rule));
            keys.put(rule, row.get("idempotencyKey").asText());
            assertThat(row.get("deliveryState").asText()).isEqualTo("failed");
            assertThat(row.get("lastError").asText()).startsWith(rule.errorStart);
            JsonNode attempts = ok("outbox", "attempts", rows.get(rule), "--json").json();
            assertThat(attempts).hasSize(1);
            assertThat(attempts.get(0).get("field").asText()).isEqualTo(rule.field);
        }

        // a resubmit with nothing corrected is refused; re-queued unchanged, the --reason is the confirmation
        Run unchanged = run("outbox", "resubmit", rows.get(Rule.UNREGISTERED_HOLDER), "--actor", "r.okafor",
                "--reason", "again");
        assertThat(unchanged.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(unchanged.err().strip()).doesNotContain("\n").contains("has not changed since the state refused");
        List<String> requeue = new ArrayList<>(List.of("outbox", "requeue"));
        rows.values().forEach(id -> requeue.addAll(List.of("--id", id)));
        requeue.addAll(List.of("--actor", "m.alvarez", "--reason", "the portal was updated; trying once more", "--json"));
        Run requeued = ok(requeue.toArray(String[]::new));
        assertThat(requeued.err()).contains("4 of them: " + KeyPolicy.UNCHANGED_REFUSAL_WARNING + " (confirmed by --reason)");
        assertThat(requeued.json().get("requeued").asInt()).isEqualTo(4);

        JsonNode second = ok("drain", "--state-api", stateApi, "--until-idle", "--max-wait", "30", "--json").json();
        assertThat(second.get("sent").asInt()).isZero();
        assertThat(second.get("failed").asInt()).isEqualTo(4);
        for (Rule rule : Rule.values()) {
            JsonNode row = row(rows.get(rule));
            assertThat(row.get("deliveryState").asText()).isEqualTo("failed");
            assertThat(row.get("idempotencyKey").asText()).isEqualTo(keys.get(rule));
            JsonNode attempts = ok("outbox", "attempts", rows.get(rule), "--json").json();
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(1).get("field").asText()).isEqualTo(rule.field);
            assertThat(attempts.get(1).get("httpStatus").asInt()).isEqualTo(rule.httpStatus);
            assertThat(attempts.get(1).get("detail").asText()).isEqualTo(attempts.get(0).get("detail").asText());
        }

        // corrected
        ok("claims", "edit", claims.get(Rule.UNREGISTERED_HOLDER), "--actor", "r.okafor", "--reason",
                "holder id from the holder's report", "--set", "holderId=" + RuleBreakingClaims.REGISTERED_HOLDER);
        ok("claims", "edit", claims.get(Rule.ALREADY_PAID), "--actor", "r.okafor", "--reason", "property id mistyped",
                "--set", "statePropertyId=" + RuleBreakingClaims.openPropertyId(3));
        Run taxId = okWithInput(RuleBreakingClaims.ownerTaxId(4) + "\n", "claims", "edit",
                claims.get(Rule.IDENTITY_MISMATCH), "--actor", "r.okafor", "--reason", "tax id read off the SSN card",
                "--tax-id-stdin");
        assertThat(taxId.out()).doesNotContain(RuleBreakingClaims.ownerTaxId(4));
        ok("claims", "evidence", "add", claims.get(Rule.NO_PROOF_OF_ADDRESS), "--kind", "address", "--url",
                "https://records.example.gov/utility/2", "--title", "Utility bill", "--actor", "r.okafor");

        // resubmitted
        Map<Rule, JsonNode> resubmitted = new EnumMap<>(Rule.class);
        for (Rule rule : Rule.values()) {
            JsonNode r = ok("outbox", "resubmit", rows.get(rule), "--actor", "r.okafor", "--reason",
                    "corrected: " + rule.field, "--json").json();
            assertThat(r.get("oldIdempotencyKey").asText()).isEqualTo(keys.get(rule));
            assertThat(r.get("newIdempotencyKey").asText()).isNotEqualTo(keys.get(rule)).startsWith("sub-");
            assertThat(r.get("refusedWith").asText()).startsWith(rule.errorStart);
            resubmitted.put(rule, r);
        }
        JsonNode superseded = ok("outbox", "list", "--state", "superseded", "--json").json();
        assertThat(superseded).hasSize(4);

        // accepted
        JsonNode third = ok("drain", "--state-api", stateApi, "--until-idle", "--max-wait", "30", "--json").json();
        assertThat(third.get("sent").asInt()).isEqualTo(4);
        assertThat(third.get("failed").asInt()).isZero();
        for (Rule rule : Rule.values()) {
            String newRow = resubmitted.get(rule).get("newOutboxEventId").asText();
            JsonNode old = row(rows.get(rule));
            JsonNode sent = row(newRow);
            assertThat(old.get("deliveryState").asText()).isEqualTo("superseded");
            assertThat(old.get("supersededBy").asText()).isEqualTo(newRow);
            assertThat(sent.get("deliveryState").asText()).isEqualTo("sent");
            assertThat(sent.get("supersededBy").isNull()).isTrue();
            assertThat(sent.get("idempotencyKey").asText()).isEqualTo(resubmitted.get(rule).get("newIdempotencyKey").asText());
            assertThat(ok("outbox", "attempts", rows.get(rule), "--json").json()).hasSize(2);
            assertThat(ok("outbox", "list", "--state", "superseded", "--json").json().findValuesAsText("outboxEventId"))
                    .contains(rows.get(rule));

            JsonNode shown = ok("claims", "show", claims.get(rule), "--json").json();
            assertThat(shown.get("claim").get("status").asText()).isEqualTo("SUBMITTED_TO_STATE");
            String caseId = shown.get("claim").get("stateCaseId").asText();
            assertThat(caseId).isNotBlank().isEqualTo(sent.get("stateCaseId").asText());
            List<String> history = new ArrayList<>();
            shown.get("history").forEach(h -> history.add(h.get("toStatus").asText() + " " + h.get("reason").asText()));
            assertThat(history).hasSizeGreaterThanOrEqualTo(3);
            assertThat(history.get(history.size() - 2)).startsWith("SUBMITTING resubmitted after the state refused \""
                    + rule.errorStart).contains("corrected: " + rule.field);
            assertThat(history.get(history.size() - 1)).startsWith("SUBMITTED_TO_STATE").contains(caseId);
        }

        JsonNode audit = ok("audit", "list", "--json").json();
        List<String> actions = new ArrayList<>();
        audit.forEach(a -> actions.add(a.get("action").asText()));
        assertThat(actions).contains("outbox.requeue", "claim.edit", "claim.replace_tax_id", "claim.evidence_add",
                "outbox.resubmit");
        String everything = audit.toString();
        assertThat(everything).doesNotContain(RuleBreakingClaims.ownerTaxId(4)).doesNotContain("123-00-");
    }

    private JsonNode row(String id) throws Exception {
        for (JsonNode row : ok("outbox", "list", "--json").json()) {
            if (row.get("outboxEventId").asText().equals(id)) {
                return row;
            }
        }
        throw new AssertionError("outbox list has no row " + id);
    }
}
