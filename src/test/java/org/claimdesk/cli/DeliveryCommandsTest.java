package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.HolderRegistry;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The delivery commands as a script calls them: exit codes, stdout, one-line refusals on stderr. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DeliveryCommandsTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    DatabaseLocation file;
    FaultyStateServer server;

    record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return Json.mapper().readTree(out);
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        file = TestDatabase.location(engine, dir, "claims");
        server = FaultyStateServer.start((key, n) -> Fault.NONE, Duration.ofSeconds(1));
    }

    @AfterEach
    void tearDown() {
        server.close();
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

    private List<SubmitResult> submitted(int n) {
        try (Database db = Database.open(file)) {
            return Outbox.submitted(db, n);
        }
    }

    private long count(DeliveryState state) {
        try (Database db = Database.open(file)) {
            return Outbox.count(db, state);
        }
    }

    @Test
    void drainAgainstTheSimulatedStateDeliversEverythingAndSaysItIsSimulated() throws Exception {
        submitted(5);

        Run run = run("drain", "--simulated", "--until-idle", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("simulated").asBoolean()).isTrue();
        assertThat(json.get("endpoint").asText()).isEqualTo("simulated state");
        assertThat(json.get("ending").asText()).isEqualTo("idle");
        assertThat(json.get("sent").asLong()).isEqualTo(5);
        assertThat(json.get("failed").asLong()).isZero();
        assertThat(json.get("attempts").asLong()).isEqualTo(5);
        assertThat(json.get("pending").asLong()).isZero();
        assertThat(json.has("seconds")).isTrue();
        assertThat(json.has("eventsPerSecond")).isTrue();
        assertThat(count(DeliveryState.SENT)).isEqualTo(5);

        Run text = run("drain", "--simulated");
        assertThat(text.exit()).isZero();
        assertThat(text.out()).startsWith("simulated state: 0 sent");
    }

    @Test
    void unaskedADatabaseFilesRowsGoToTheSimulatedStateAndATeamDatabasesGoNowhere() {
        submitted(2);

        Run drain = run("drain", "--until-idle");
        Run reconcile = run("outbox", "requeue", "--all-failed", "--reconcile", "--actor", "r.okafor", "--reason",
                "state portal back");

        if (engine == TestDatabase.Engine.SQLITE) {
            assertThat(drain.exit()).as(drain.err()).isZero();
            assertThat(drain.out()).startsWith("simulated state: 2 sent");
            assertThat(count(DeliveryState.SENT)).isEqualTo(2);
        } else {
            String refusal = "claimdesk: this is a team database: name the state's API with --state-api URL"
                    + " or CLAIMDESK_STATE_URL (or pass --simulated to send its rows to the simulated state)\n";
            assertThat(drain.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(drain.err()).isEqualTo(refusal);
            assertThat(count(DeliveryState.PENDING)).isEqualTo(2);
        }
        // a reconciliation asks the state what it holds: the simulated state a command starts knows nothing
        assertThat(reconcile.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(reconcile.err()).isEqualTo("claimdesk: --reconcile asks the state about each row's key: no state"
                + " API is named (--state-api URL or CLAIMDESK_STATE_URL); nothing was re-queued\n");
        Run simulated = run("outbox", "requeue", "--all-failed", "--reconcile", "--simulated", "--actor", "r.okafor",
                "--reason", "state portal back");
        assertThat(simulated.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(simulated.err()).contains("the simulated state a command starts knows no earlier submission");
        Run drainBoth = run("drain", "--simulated", "--state-api", "http://127.0.0.1:9/");
        assertThat(drainBoth.exit()).as("before anything is opened").isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        Run unused = run("outbox", "requeue", "--all-failed", "--state-api", "http://127.0.0.1:9/", "--actor",
                "r.okafor", "--reason", "state portal back");
        assertThat(unused.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(unused.err()).isEqualTo("claimdesk: the state options (--state-api, --simulated, --sim-…,"
                + " --allow-plain-http) go with --reconcile: without it no state is asked\n");
        Run both = run("outbox", "abandon", "--id", "1", "--dry-run", "--simulated", "--state-api",
                "http://127.0.0.1:9/", "--actor", "r.okafor", "--reason", "x");
        assertThat(both.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(both.err()).isEqualTo("claimdesk: choose either --state-api or --simulated, not both\n");
    }

    @Test
    void theWorkstationsStateApiIsTheCommandsUnlessOneIsNamed() {
        submitted(2);
        System.setProperty("claimdesk.stateUrl", server.baseUrl().toString());
        try {
            Run drain = run("drain", "--until-idle");
            assertThat(drain.exit()).as(drain.err()).isZero();
            assertThat(drain.out()).startsWith("state API at " + server.baseUrl());
            assertThat(server.totalPosts()).isEqualTo(2);

            submitted(1);
            Run simulated = run("drain", "--simulated", "--until-idle");
            assertThat(simulated.exit()).as(simulated.err()).isZero();
            assertThat(simulated.out()).startsWith("simulated state: 1 sent");
            assertThat(server.totalPosts()).as("--simulated chooses the other").isEqualTo(2);
        } finally {
            System.clearProperty("claimdesk.stateUrl");
        }
        assertThat(count(DeliveryState.SENT)).isEqualTo(3);
    }

    @Test
    void drainExitsThreeWhenMaxWaitRunsOutWithRowsPending() throws Exception {
        submitted(3);
        server.plan((key, n) -> Fault.RATE_LIMITED_429);
        server.retryAfterSeconds(30);
        server.answerTogether(3); // the three calls are under way before the first answer holds the worker

        Run run = run("drain", "--state-api", server.baseUrl().toString(), "--until-idle", "--max-wait", "1", "--json");

        assertThat(run.exit()).as(run.err()).isEqualTo(ClaimDeskCommand.EXIT_PENDING);
        JsonNode json = run.json();
        assertThat(json.get("ending").asText()).isEqualTo("max_wait");
        assertThat(json.get("pending").asLong()).isEqualTo(3);
        assertThat(json.get("retried").asLong()).isEqualTo(3);
        assertThat(json.get("simulated").asBoolean()).isFalse();
        assertThat(run.err()).as("the hold is told once").startsWith("waiting until ")
                .contains(": the state asked ClaimDesk to slow down (429 ").contains("Retry-After 30 s")
                .hasLineCount(1);
    }

    @Test
    void drainSaysEachHoldOnceEvenWhenOneFollowsAnotherWithoutAGap() throws Exception {
        submitted(2);
        server.plan((key, n) -> Fault.RATE_LIMITED_429);
        server.retryAfterSeconds(1);

        Run run = run("drain", "--state-api", server.baseUrl().toString(), "--until-idle", "--max-wait", "3.5",
                "--backoff-base-ms", "100");

        assertThat(run.exit()).as(run.err()).isEqualTo(ClaimDeskCommand.EXIT_PENDING);
        // a hold of a second, then the one row sent after it refused at once: the next hold, and so on
        List<String> lines = run.err().lines().toList();
        assertThat(lines).hasSizeGreaterThanOrEqualTo(2).doesNotHaveDuplicates()
                .allSatisfy(l -> assertThat(l).startsWith("waiting until "));
        assertThat(count(DeliveryState.PENDING)).isEqualTo(2);
    }

    @Test
    void drainRefusalsAreOneLineOnStderr() {
        submitted(2);
        Run both = run("drain", "--simulated", "--state-api", server.baseUrl().toString());
        assertThat(both.exit()).as("a usage error").isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(both.err()).isEqualTo("claimdesk: choose either --state-api or --simulated, not both\n");

        server.plan((key, n) -> Fault.UNAUTHORIZED_401);
        Run unauthorized = run("drain", "--state-api", server.baseUrl().toString());
        assertThat(unauthorized.exit()).as(unauthorized.out() + unauthorized.err()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(unauthorized.err()).startsWith("claimdesk: delivery stopped: 401 unauthorized: token expired")
                .contains("CLAIMDESK_STATE_TOKEN").hasLineCount(1);
        assertThat(count(DeliveryState.PENDING)).isEqualTo(2);

        Run shortLease = run("drain", "--state-api", server.baseUrl().toString(), "--lease-seconds", "5");
        assertThat(shortLease.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(shortLease.err()).contains("the lease of 5000 ms must be longer than the longest call");
    }

    @Test
    void drainRefusesWhileStaffHaveTheWorkerPausedUnlessToldToGoOn() throws Exception {
        submitted(2);
        try (Database db = Database.open(file);
             SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
             AuditedWorker worker = new AuditedWorker(new DeliveryWorker(db, state, WorkerSettings.defaults(),
                     Clock.systemUTC(), Deadlines.statutory()), db, Clock.systemUTC(), "r.okafor")) {
            worker.pause("state asked us to hold submissions until Monday");
        }

        Run paused = run("drain", "--simulated");
        assertThat(paused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(paused.err()).startsWith("claimdesk: the delivery worker is paused by r.okafor at ")
                .containsPattern("r\\.okafor at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}: state asked")
                .contains(": state asked us to hold submissions until Monday; resume it on the console's Worker page")
                .hasLineCount(1);
        assertThat(count(DeliveryState.PENDING)).isEqualTo(2);

        assertThat(run("drain", "--simulated", "--even-if-paused").err().strip())
                .isEqualTo("claimdesk: --even-if-paused needs --actor and --reason: overriding staff's pause is audited");
        // decision deadlines that cannot be read refuse the drain before its override is audited
        System.setProperty(org.claimdesk.app.DeadlineSettings.PROPERTY, "NY=often");
        try {
            Run unreadable = run("drain", "--simulated", "--even-if-paused", "--actor", "m.alvarez", "--reason",
                    "the state's deadline for these is today");
            assertThat(unreadable.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(unreadable.err().strip()).isEqualTo("claimdesk: this workstation's claimdesk.deadlineDays:"
                    + " decision deadline setting 'NY=often': the days must be a whole number");
        } finally {
            System.clearProperty(org.claimdesk.app.DeadlineSettings.PROPERTY);
        }
        assertThat(run("audit", "list", "--action", "worker.pause_override", "--json").json()).isEmpty();
        Run anyway = run("drain", "--simulated", "--even-if-paused", "--actor", "m.alvarez", "--reason",
                "the state's deadline for these is today");
        assertThat(anyway.exit()).as(anyway.err()).isZero();
        assertThat(anyway.err()).contains("warning: delivering although the worker is paused by r.okafor");
        assertThat(count(DeliveryState.SENT)).isEqualTo(2);
        assertThat(run("audit", "list", "--action", "worker.pause_override", "--json").json()).singleElement()
                .satisfies(e -> {
                    assertThat(e.get("actor").asText()).isEqualTo("m.alvarez");
                    assertThat(e.get("reason").asText()).isEqualTo("the state's deadline for these is today");
                    assertThat(e.get("details").toString()).contains("r.okafor");
                });
        try (Database db = Database.open(file)) {
            assertThat(org.claimdesk.app.AuditedWorker.pauseIn(db)).as("the pause stays").isPresent();
        }
    }

    /**
     * 120 rows submitted and a drain of them (with {@code options}) under way when r.okafor's console pauses the
     * worker; the drain's run once it ended.
     */
    private Run pausedWhileDraining(String... options) throws Exception {
        submitted(120);
        List<String> args = new java.util.ArrayList<>(List.of("drain", "--simulated", "--sim-latency-ms", "100",
                "--concurrency", "2", "--until-idle"));
        args.addAll(List.of(options));
        java.util.concurrent.CompletableFuture<Run> drain = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                run(args.toArray(String[]::new)));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> count(DeliveryState.SENT) >= 4);
        try (Database db = Database.open(file);
             SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
             AuditedWorker worker = new AuditedWorker(new DeliveryWorker(db, state, WorkerSettings.defaults(),
                     Clock.systemUTC(), Deadlines.statutory()), db, Clock.systemUTC(), "r.okafor")) {
            worker.pause("state asked us to hold submissions until Monday");
        }
        return drain.get(60, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void aPauseMadeWhileADrainRunsStopsItOnceTheDeliveriesUnderWayFinish() throws Exception {
        // another workstation's console pauses the worker while this drain delivers
        Run stopped = pausedWhileDraining();
        assertThat(stopped.exit()).as(stopped.out()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(stopped.err()).startsWith("claimdesk: delivery stopped: the delivery worker was paused by r.okafor at ")
                .containsPattern("r\\.okafor at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}: state asked")
                .contains(": state asked us to hold submissions until Monday; the deliveries under way finished, ")
                .hasLineCount(1);
        long sent = count(DeliveryState.SENT);
        assertThat(sent).as("the drain stopped well before the end").isLessThan(100);
        assertThat(count(DeliveryState.PENDING)).isEqualTo(120 - sent);
        assertThat(stopped.err()).contains((120 - sent) + " rows wait for it to be resumed");
    }

    @Test
    void aDrainToldToGoOnDespiteAPauseStillStopsForAPauseMadeWhileItRuns() throws Exception {
        // no pause was held when it started; a console pauses the worker now: this drain overrides no such pause
        Run stopped = pausedWhileDraining("--even-if-paused", "--actor", "m.alvarez", "--reason", "deadline today");
        assertThat(stopped.exit()).as(stopped.out()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(stopped.err()).startsWith("claimdesk: delivery stopped: the delivery worker was paused by r.okafor at ")
                .hasLineCount(1);
        long sent = count(DeliveryState.SENT);
        assertThat(sent).as("the drain stopped well before the end").isLessThan(100);
        assertThat(count(DeliveryState.PENDING)).isEqualTo(120 - sent);
        assertThat(run("audit", "list", "--action", "worker.pause_override", "--json").json()).isEmpty();
    }

    @Test
    void requeueAbandonAndAttemptsWorkOnFailedRows() throws Exception {
        List<SubmitResult> queued = submitted(3);
        server.plan((key, n) -> key.equals(queued.get(2).idempotencyKey()) ? Fault.NONE : Fault.REJECT_422);
        assertThat(run("drain", "--state-api", server.baseUrl().toString()).exit()).isZero();
        assertThat(count(DeliveryState.FAILED)).isEqualTo(2);

        Run attempts = run("outbox", "attempts", Long.toString(queued.get(0).outboxEventId()), "--json");
        assertThat(attempts.exit()).isZero();
        assertThat(attempts.json()).hasSize(1);
        assertThat(attempts.json().get(0).get("outcome").asText()).isEqualTo("PERMANENT");
        assertThat(attempts.json().get(0).get("httpStatus").asInt()).isEqualTo(422);
        assertThat(run("outbox", "attempts", Long.toString(queued.get(0).outboxEventId())).out())
                .contains("422 invalid_claim: holder id not found");
        assertThat(run("outbox", "attempts", "999999").err()).isEqualTo("claimdesk: no outbox row with id 999999\n");

        Run failures = run("outbox", "failures", "--json");
        assertThat(failures.json().get(0).get("count").asInt()).isEqualTo(2);

        // one filter for list, failures and requeue: text in any case, % literal, age by the last change
        assertThat(run("outbox", "list", "--state", "failed", "--error-like", "holder ID", "--json").json()).hasSize(2);
        assertThat(run("outbox", "list", "--error-like", "%", "--json").json()).isEmpty();
        assertThat(run("outbox", "failures", "--error-like", "no such text", "--json").json()).isEmpty();
        assertThat(run("outbox", "failures", "--changed-before", "2000-01-01T00:00:00Z", "--json").json()).isEmpty();
        String tomorrow = java.time.Instant.now().plus(java.time.Duration.ofDays(1)).toString();
        assertThat(run("outbox", "requeue", "--all-failed", "--failed-before", tomorrow, "--error-like", "HOLDER",
                "--actor", "m.alvarez", "--reason", "x", "--dry-run").out()).isEqualTo("would re-queue 2 failed row(s)\n");
        assertThat(run("outbox", "requeue", "--all-failed", "--changed-before", "2000-01-01T00:00:00Z",
                "--actor", "m.alvarez", "--reason", "x", "--dry-run").out()).isEqualTo("would re-queue 0 failed row(s)\n");

        Run dry = run("outbox", "requeue", "--all-failed", "--error-like", "HOLDER ID", "--actor", "m.alvarez",
                "--reason", "holder file reloaded", "--dry-run");
        assertThat(dry.exit()).isZero();
        assertThat(dry.out()).isEqualTo("would re-queue 2 failed row(s)\n");
        // the preview is where a supervisor sees that the state refused this very data
        assertThat(dry.err()).startsWith("warning: 2 of them (").contains(KeyPolicy.UNCHANGED_REFUSAL_WARNING);
        JsonNode dryJson = run("outbox", "requeue", "--all-failed", "--error-like", "HOLDER ID", "--actor",
                "m.alvarez", "--reason", "holder file reloaded", "--dry-run", "--json").json();
        assertThat(dryJson.get("refusedUnchangedIds")).hasSize(2);
        assertThat(dryJson.get("claimCorrectedIds")).isEmpty();
        assertThat(dryJson.get("warning").asText()).contains(KeyPolicy.UNCHANGED_REFUSAL_WARNING);
        assertThat(dryJson.fieldNames()).toIterable().containsExactly("dryRun", "wouldRequeue", "ids",
                "refusedUnchangedIds", "claimCorrectedIds", "warning");
        assertThat(count(DeliveryState.FAILED)).isEqualTo(2);

        Run none = run("outbox", "requeue", "--all-failed", "--error-like", "no such text", "--actor", "m.alvarez",
                "--reason", "x");
        assertThat(none.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(none.err()).isEqualTo("claimdesk: no failed row matches: nothing was re-queued\n");
        assertThat(run("outbox", "requeue", "--all-failed", "--id", "1", "--actor", "a", "--reason", "b").exit())
                .as("a usage error").isEqualTo(ClaimDeskCommand.EXIT_USAGE);

        Run requeue = run("outbox", "requeue", "--id", Long.toString(queued.get(0).outboxEventId()),
                "--actor", "m.alvarez", "--reason", "holder file reloaded", "--reconcile", "--state-api",
                server.baseUrl().toString(), "--json");
        assertThat(requeue.exit()).as(requeue.err()).isZero();
        assertThat(requeue.json().get("requeued").asInt()).isEqualTo(1);
        assertThat(requeue.json().get("reconciled").asInt()).isZero();

        Run preview = run("outbox", "abandon", "--id", queued.get(1).outboxEventId() + ","
                + queued.get(0).outboxEventId(), "--actor", "j.chen", "--reason", "claimant to correct the holder id",
                "--dry-run");
        assertThat(preview.exit()).as(preview.err()).isZero();
        assertThat(preview.out()).startsWith("1 will be abandoned, 1 skipped because they are not failed")
                .endsWith("; their claims would go back to READY_FOR_SUBMISSION (--dry-run: nothing was changed)\n"
                        + "  outbox row " + queued.get(1).outboxEventId() + "\n");
        assertThat(preview.err()).isEqualTo("outbox row " + queued.get(0).outboxEventId()
                + " is pending: only failed rows can be abandoned; skipped\n");
        assertThat(count(DeliveryState.FAILED)).as("nothing abandoned by the preview").isEqualTo(1);

        Run abandon = run("outbox", "abandon", "--id", queued.get(1).outboxEventId() + "," + queued.get(0).outboxEventId(),
                "--actor", "j.chen", "--reason", "claimant to correct the holder id");
        assertThat(abandon.exit()).as(abandon.err()).isZero();
        assertThat(abandon.out()).isEqualTo("abandoned 1 row(s); their claims are back in READY_FOR_SUBMISSION\n");
        assertThat(abandon.err()).isEqualTo("outbox row " + queued.get(0).outboxEventId()
                + " is pending: only failed rows can be abandoned; skipped\n");
        Run nothing = run("outbox", "abandon", "--id", Long.toString(queued.get(0).outboxEventId()), "--actor", "j.chen",
                "--reason", "x");
        assertThat(nothing.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        try (Database db = Database.open(file)) {
            assertThat(new org.claimdesk.app.Queries(db, java.time.Clock.systemUTC()).claim(queued.get(1).claimId())
                    .orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        }
        Run audit = run("audit", "list", "--actor", "j.chen", "--json");
        assertThat(audit.json()).hasSize(1);
        assertThat(audit.json().get(0).get("action").asText()).isEqualTo("outbox.abandon");
    }

    @Test
    void attemptsShowTheFieldTheStateNamedAsAtFault() throws Exception {
        SubmitResult queued = submitted(1).get(0);
        String unknownHolder = HolderRegistry.standard().unregisteredHolderId(11);
        try (Database db = Database.open(file)) {
            String payload = new org.claimdesk.app.Queries(db, java.time.Clock.systemUTC())
                    .outboxEvent(queued.outboxEventId()).orElseThrow().payload();
            ObjectNode body = (ObjectNode) Json.mapper().readTree(payload);
            body.put("holderId", unknownHolder);
            Outbox.setPayload(db, queued.outboxEventId(), "state_claim_submission_requested", body.toString());
        }
        assertThat(run("drain", "--state-api", server.baseUrl().toString()).exit()).isZero();
        assertThat(count(DeliveryState.FAILED)).isEqualTo(1);

        Run text = run("outbox", "attempts", Long.toString(queued.outboxEventId()));
        assertThat(text.out()).contains("PERMANENT 422  [field holderId] 422 invalid_claim: holder id " + unknownHolder
                + " is not in CA's holder registry");
        Run json = run("outbox", "attempts", Long.toString(queued.outboxEventId()), "--json");
        assertThat(json.json()).singleElement().satisfies(a -> {
            assertThat(a.get("field").asText()).isEqualTo("holderId");
            assertThat(a.get("httpStatus").asInt()).isEqualTo(422);
        });
    }

    /** A {@code state-sim} started in this JVM: its address, the line it said it listens with, and its exit code. */
    private record StateSim(String url, String listening, CompletableFuture<Integer> exit) {
    }

    /** Starts {@code state-sim --port 0} with {@code options} and waits until it says where it listens. */
    private static StateSim startStateSim(String... options) {
        StringWriter simOut = new StringWriter();
        List<String> args = new java.util.ArrayList<>(List.of("state-sim", "--port", "0"));
        args.addAll(List.of(options));
        CompletableFuture<Integer> sim = CompletableFuture.supplyAsync(() -> ClaimDeskCommand.execute(
                new PrintWriter(simOut, true), new PrintWriter(new StringWriter(), true), args.toArray(String[]::new)));
        Pattern listening = Pattern.compile("simulated state listening on (http://127\\.0\\.0\\.1:\\d+).*");
        await().atMost(Duration.ofSeconds(10)).until(() -> listening.matcher(simOut.toString()).find());
        Matcher m = listening.matcher(simOut.toString());
        assertThat(m.find()).isTrue();
        return new StateSim(m.group(1), m.group(), sim);
    }

    @Test
    void stateSimServesTheContractOverHttpForADrain() throws Exception {
        submitted(4);
        StateSim sim = startStateSim("--latency-ms", "5", "--for-seconds", "3");

        Run drain = run("drain", "--state-api", sim.url(), "--json");

        assertThat(drain.exit()).as(drain.err()).isZero();
        assertThat(drain.json().get("sent").asInt()).isEqualTo(4);
        assertThat(sim.exit().get()).isZero();
    }

    /** Training on the hold: a simulated state with a rate limit, and a drain that waits it out. */
    @Test
    void aDrainWaitsOutTheRateLimitOfStateSim() throws Exception {
        submitted(6);
        StateSim sim = startStateSim("--rate-limit", "2", "--for-seconds", "20");
        assertThat(sim.listening()).matches(".* \\(.*, at most 2 submissions a second\\)");

        Run drain = run("drain", "--state-api", sim.url(), "--until-idle", "--max-wait", "15",
                "--backoff-base-ms", "100", "--json");

        assertThat(drain.exit()).as(drain.err()).isZero();
        assertThat(drain.json().get("sent").asInt()).isEqualTo(6);
        assertThat(drain.json().get("failed").asInt()).isZero();
        assertThat(drain.err()).startsWith("waiting until ").contains("429 rate_limited: more than 2 submissions a second");
        assertThat(count(DeliveryState.SENT)).isEqualTo(6);
    }

    @Test
    void stateSimOnAPortInUseSaysSoInOneLine() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            CliTest.Run sim = CliTest.run("state-sim", "--port", Integer.toString(taken.getLocalPort()), "--for-seconds", "1");
            assertThat(sim.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(sim.err().strip()).startsWith("claimdesk: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": the port is in use or not allowed").endsWith("choose another with --port")
                    .doesNotContain("unexpected").doesNotContain("Exception");
        }
    }
}
