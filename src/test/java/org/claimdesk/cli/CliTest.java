package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class CliTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    DatabaseLocation location;
    String db;

    record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return Json.mapper().readTree(out);
        }
    }

    /** A command run with nothing on its standard input. */
    static Run run(String... args) {
        return runWithInput("", args);
    }

    /** A command run with {@code input} on its standard input. */
    static Run runWithInput(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = ClaimDeskCommand.execute(new java.io.ByteArrayInputStream(input.getBytes(
                java.nio.charset.StandardCharsets.UTF_8)), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @BeforeEach
    void demo() {
        location = TestDatabase.location(engine, dir, "cli");
        db = TestDatabase.argument(location);
        Run demo = run("--db", db, "demo", "--claims", "300", "--seed", "5", "--today", "2026-11-02");
        assertThat(demo.exit()).as(demo.err()).isZero();
        assertThat(demo.out()).contains("300 claims");
    }

    @Test
    void claimsListPrintsEveryMatchAsOneJsonArray() throws Exception {
        Run all = run("--db", db, "claims", "list", "--json");
        assertThat(all.exit()).isZero();
        JsonNode rows = all.json();
        assertThat(rows.isArray()).isTrue();
        assertThat(rows).hasSize(300);
        JsonNode first = rows.get(0);
        for (String field : new String[] {"claimId", "claimNumber", "status", "stateCaseId", "jurisdiction", "amountCents"}) {
            assertThat(first.has(field)).as(field).isTrue();
        }
        assertThat(all.out()).doesNotContainPattern("\\d{3}-00-\\d{4}");

        Run ca = run("--db", db, "claims", "list", "--jurisdiction", "ca", "--status", "paid,approved", "--json");
        assertThat(ca.json()).isNotEmpty().allSatisfy(n -> {
            assertThat(n.get("jurisdiction").asText()).isEqualTo("CA");
            assertThat(n.get("status").asText()).isIn("PAID", "APPROVED");
        });
        assertThat(run("--db", db, "claims", "list", "--limit", "7", "--json").json()).hasSize(7);
    }

    @Test
    void searchFindsAClaimByNumber() throws Exception {
        Run found = run("--db", db, "claims", "list", "--search", "UPC-2026-000017", "--json");
        assertThat(found.json()).hasSize(1);
        assertThat(found.json().get(0).get("claimNumber").asText()).isEqualTo("UPC-2026-000017");
    }

    @Test
    void advanceAndShowRoundTrip() throws Exception {
        String id = firstWithStatus("IDENTITY_PENDING");
        Run advanced = run("--db", db, "claims", "advance", id, "--to", "evidence-pending", "--actor", "j.chen",
                "--reason", "ID checked", "--key", "k-1");
        assertThat(advanced.exit()).as(advanced.err()).isZero();
        assertThat(advanced.out()).contains("IDENTITY_PENDING -> EVIDENCE_PENDING");

        Run replay = run("--db", db, "claims", "advance", id, "--to", "EVIDENCE_PENDING", "--actor", "j.chen", "--key", "k-1");
        assertThat(replay.exit()).isZero();
        assertThat(replay.out()).contains("replayed");

        JsonNode shown = run("--db", db, "claims", "show", id, "--json").json();
        assertThat(shown.get("claim").get("status").asText()).isEqualTo("EVIDENCE_PENDING");
        assertThat(shown.get("history").get(shown.get("history").size() - 1).get("actor").asText()).isEqualTo("j.chen");

        JsonNode audit = run("--db", db, "audit", "list", "--subject", id, "--json").json();
        assertThat(audit).singleElement().satisfies(a -> {
            assertThat(a.get("action").asText()).isEqualTo("claim.advance");
            assertThat(a.get("reason").asText()).isEqualTo("ID checked");
        });
    }

    @Test
    void submitQueuesAnOutboxRow() throws Exception {
        String id = firstWithStatus("READY_FOR_SUBMISSION");
        Run submitted = run("--db", db, "claims", "submit", id, "--actor", "supervisor.kim", "--key", "sub-cli-1",
                "--reason", "holder confirmed by phone");
        assertThat(submitted.exit()).as(submitted.err()).isZero();
        String number = run("--db", db, "claims", "show", id, "--json").json().get("claim").get("claimNumber").asText();
        // the demo's ready claims carry no proof of ownership: said, not refused
        assertThat(submitted.err()).contains("warning: " + number + ": Not on file by the evidence checklist:")
                .contains("Proof of ownership").contains("The state may refuse a claim without them.");
        // by the number staff quote, as the console's Audit page takes it
        JsonNode entry = run("--db", db, "audit", "list", "--subject", number, "--action", "claim.submit", "--limit", "1",
                "--json").json();
        assertThat(entry).singleElement().satisfies(a ->
                assertThat(a.get("reason").asText()).isEqualTo("holder confirmed by phone"));

        JsonNode rows = run("--db", db, "outbox", "list", "--state", "pending", "--json").json();
        JsonNode mine = null;
        for (JsonNode row : rows) {
            if (row.get("idempotencyKey").asText().equals("sub-cli-1")) {
                mine = row;
            }
        }
        assertThat(mine).isNotNull();
        for (String field : new String[] {"outboxEventId", "claimId", "eventType", "deliveryState", "attempts",
            "lastError", "idempotencyKey", "nextAttemptAt"}) {
            assertThat(mine.has(field)).as(field).isTrue();
        }
        assertThat(mine.get("claimId").asText()).isEqualTo(id);
        assertThat(mine.get("eventType").asText()).isEqualTo("state_claim_submission_requested");

        // the same key again says where things are now; once its row is given up, the key is spent
        long row = mine.get("outboxEventId").asLong();
        Run replay = run("--db", db, "claims", "submit", id, "--actor", "supervisor.kim", "--key", "sub-cli-1");
        assertThat(replay.out()).contains(": SUBMITTING, outbox row " + row + " (pending), key sub-cli-1 [replayed");
        try (org.claimdesk.store.Database database = org.claimdesk.store.Database.open(location)) {
            database.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed' WHERE"
                    + " outbox_event_id = ?", row));
        }
        assertThat(run("--db", db, "outbox", "abandon", "--id", Long.toString(row), "--actor", "kim", "--reason",
                "holder gone").exit()).isZero();
        Run spent = run("--db", db, "claims", "submit", id, "--actor", "supervisor.kim", "--key", "sub-cli-1");
        assertThat(spent.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(spent.err()).contains("the key sub-cli-1 carried a submission of claim")
                .contains("that is now abandoned").contains("needs a new key");
        assertThat(run("--db", db, "claims", "show", id, "--json").json().get("claim").get("status").asText())
                .isEqualTo("READY_FOR_SUBMISSION");
    }

    @Test
    void aRefusedOperationExitsOneWithOneLineAndNoStackTrace() {
        String id = firstWithStatus("IDENTITY_PENDING");
        Run refused = run("--db", db, "claims", "advance", id, "--to", "PAID", "--actor", "j.chen");
        assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(refused.err().strip().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("claimdesk: cannot move a claim from IDENTITY_PENDING to PAID"));
        assertThat(refused.err()).doesNotContain("Exception").doesNotContain("\tat ");

        Run missing = run("--db", db, "claims", "show", "UPC-1999-999999");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("claimdesk: no claim UPC-1999-999999");

        Run badStatus = run("--db", db, "claims", "list", "--status", "DONE");
        assertThat(badStatus.exit()).as("the command line's mistake").isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(badStatus.err()).startsWith("claimdesk: --status: unknown status 'DONE'");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run("--db", db, "claims", "advance", "1", "--to", "PAID").exit()).isEqualTo(2);
        assertThat(run("--db", db, "claims", "list", "--frobnicate").exit()).isEqualTo(2);
        assertThat(run("--db", db, "nonsense").exit()).isEqualTo(2);
        assertThat(run("--db", db, "claims", "list", "--limit", "many").exit()).isEqualTo(2);
        // a limit of none or fewer listed every row: refused, as the list would not be what was asked for
        for (String[] list : new String[][] {{"claims", "list"}, {"outbox", "list"}, {"audit", "list"}}) {
            for (String limit : new String[] {"0", "-5"}) {
                Run run = run("--db", db, list[0], list[1], "--limit", limit);
                assertThat(run.exit()).as(list[0] + " " + limit).isEqualTo(2);
                assertThat(run.out()).isEmpty();
                assertThat(run.err()).contains("--limit must be at least 1 (leave it out for every row)");
            }
        }
        // a value out of range, an empty criterion (an unset shell variable) or an address of the wrong kind: the
        // command line's mistake, not a refusal of the work
        String[][] mistakes = {{"drain", "--concurrency", "0"}, {"drain", "--lease-seconds", "0"},
            {"drain", "--sim-failure-rate", "2"}, {"audit", "list", "--actor", ""}, {"audit", "list", "--subject", " "},
            {"audit", "list", "--action", ""}, {"outbox", "list", "--state", ""}, {"outbox", "list", "--state", "lost"},
            {"migrate", "--from", "desk.db", "--to", "other.db"}, {"state-sim", "--port", "70000"},
            {"state-sim", "--port", "0", "--failure-rate", "2"}, {"audit", "list", "--action", "claim.advanced"},
            {"claims", "import", "claims.csv", "--actor", "kim", "--encoding", "klingon"}};
        for (String[] mistake : mistakes) {
            String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("--db", db),
                    java.util.Arrays.stream(mistake)).toArray(String[]::new);
            Run run = run(args);
            assertThat(run.exit()).as(String.join(" ", mistake) + ": " + run.err()).isEqualTo(2);
            assertThat(run.err().lines()).as(String.join(" ", mistake)).singleElement()
                    .satisfies(l -> assertThat(l).startsWith("claimdesk: "));
        }
    }

    @Test
    void versionAndHelpExitZero() {
        Run version = run("--version");
        assertThat(version.exit()).isZero();
        assertThat(version.out()).startsWith("ClaimDesk ");
        Run help = run("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("claims").contains("outbox").contains("audit").contains("demo");
    }

    @Test
    void theOfficeSetsDeadlinesForOtherJurisdictions() throws Exception {
        long id;
        try (org.claimdesk.store.Database database = org.claimdesk.store.Database.open(location)) {
            id = org.claimdesk.testing.TestClaims.insert(database, org.claimdesk.domain.ClaimStatus.NEEDS_INFO, "NY");
        }
        System.setProperty(org.claimdesk.app.DeadlineSettings.PROPERTY, "NY=150");
        try {
            Run advanced = run("--db", db, "claims", "advance", Long.toString(id), "--to", "SUBMITTED_TO_STATE",
                    "--actor", "j.chen", "--reason", "documents sent");
            assertThat(advanced.exit()).as(advanced.err()).isZero();
            JsonNode claim = run("--db", db, "claims", "show", Long.toString(id), "--json").json().get("claim");
            assertThat(claim.get("decisionDueOn").asText()).isEqualTo(java.time.LocalDate.now().plusDays(150).toString());

            System.setProperty(org.claimdesk.app.DeadlineSettings.PROPERTY, "NY=often");
            Run badSetting = run("--db", db, "claims", "advance", Long.toString(id), "--to", "NEEDS_INFO", "--actor", "j.chen",
                    "--reason", "notarized form missing");
            assertThat(badSetting.exit()).isEqualTo(1);
            assertThat(badSetting.err().strip()).isEqualTo("claimdesk: this workstation's claimdesk.deadlineDays:"
                    + " decision deadline setting 'NY=often': the days must be a whole number");
        } finally {
            System.clearProperty(org.claimdesk.app.DeadlineSettings.PROPERTY);
        }
    }

    @Test
    void selfTestDeliversOneSubmissionToTheSimulatedState() {
        Run selfTest = run("--self-test");
        assertThat(selfTest.exit()).as(selfTest.err()).isZero();
        assertThat(selfTest.out()).contains("database and migrations", "delivered to the simulated state",
                "claim acknowledged with a case id").endsWith("self-test: OK\n");
    }

    @Test
    void aNewerDatabaseIsRefusedOnTheCommandLine() throws Exception {
        try (org.claimdesk.store.Database database = org.claimdesk.store.Database.open(location)) {
            // as a later ClaimDesk leaves it: its schema version recorded where each engine keeps it
            database.useTransaction(h -> h.execute(database.onServer() ? """
                    INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,
                        installed_by, execution_time, success)
                    VALUES (42, '42', 'later', 'SQL', 'V42__later.sql', 0, 'it', 1, true)"""
                    : "PRAGMA user_version = 42"));
        }
        Run refused = run("--db", db, "claims", "list");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("newer ClaimDesk").contains("schema version 42");
    }

    @Test
    void anUpgradeOfTheSchemaIsSaidOnStderrBeforeTheCommandsOwnOutput() throws Exception {
        try (org.claimdesk.store.Database database = org.claimdesk.store.Database.open(location)) {
            // as ClaimDesk at schema version 12 left it
            database.useTransaction(h -> org.claimdesk.testing.OlderSchema.undoDownTo(h, database.onServer(), 12));
        }
        assertThat(org.claimdesk.store.Migrations.latestVersion()).isEqualTo(22);
        Run upgraded = run("--db", db, "claims", "list");
        assertThat(upgraded.exit()).isZero();
        assertThat(upgraded.err()).isEqualTo(
                "Bringing the database up to date for this ClaimDesk: schema version 13 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 14 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 15 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 16 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 17 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 18 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 19 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 20 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 21 of 22 (it was at 12)…\n"
                + "Bringing the database up to date for this ClaimDesk: schema version 22 of 22 (it was at 12)…\n");
        Run again = run("--db", db, "claims", "list");
        assertThat(again.err()).isEmpty();
        assertThat(upgraded.out()).isEqualTo(again.out()).contains("UPC-");
    }

    private String firstWithStatus(String status) {
        try {
            return run("--db", db, "claims", "list", "--status", status, "--limit", "1", "--json").json()
                    .get(0).get("claimId").asText();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
