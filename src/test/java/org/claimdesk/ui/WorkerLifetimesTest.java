package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.ui.main.MainViewModel;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.claimdesk.ui.worker.WorkerViewModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker across lifetimes of the console's services on one real SQLite file, driven through the
 * ViewModels on the calling thread: it starts by itself when the workstation's setting says so, stays off
 * when it does not, and a pause by staff holds across a restart until someone resumes it.
 */
class WorkerLifetimesTest {
    static final String REASON = "state portal down for maintenance";

    @TempDir
    Path dir;

    Path file;
    final SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withLatency(Duration.ofMillis(5)));

    /** One lifetime of the console: its services and the two ViewModels that bring the worker up and drive it. */
    record Lifetime(ConsoleServices services, MainViewModel main, WorkerViewModel worker) implements AutoCloseable {
        @Override
        public void close() {
            worker.detach();
            services.close();
        }
    }

    @BeforeEach
    void demoDatabase() {
        try (Database db = TestDatabases.demo(dir, 200)) {
            file = db.path();
        }
        setDue("0");
    }

    /** Makes every pending row due at {@code epochMillis}. */
    void setDue(String epochMillis) {
        try (Database db = Database.open(file)) {
            db.useTransaction(h -> h.execute("UPDATE outbox_event SET next_attempt_at = " + epochMillis
                    + " WHERE delivery_state = 'pending'"));
        }
    }

    Lifetime start(String operator, boolean startWithConsole) {
        ConsoleServices services = ConsoleServices.on(Database.open(file), new SimulatedStateAdapter(state),
                WorkerSettings.defaults().withInterval(Duration.ofMillis(100)).withConcurrency(4)).withActor(operator);
        DirectTaskRunner tasks = new DirectTaskRunner();
        MainViewModel main = new MainViewModel(services.databaseName(), services::demoData, services.queries(), services.worker(),
                startWithConsole, tasks, services.actor(), services.endpoint());
        WorkerViewModel worker = new WorkerViewModel(services.worker(), tasks, services.actor(), startWithConsole,
                on -> { });
        worker.attach();
        main.start(() -> { });
        return new Lifetime(services, main, worker);
    }

    int pending(Lifetime l) {
        return l.services().queries().countOutboxByState().getOrDefault(DeliveryState.PENDING, 0);
    }

    int posts() {
        return state.posts().values().stream().mapToInt(Integer::intValue).sum();
    }

    @Test
    void withTheSettingOnTheWorkerStartsWithTheConsoleAndDeliversWithoutAnyonePressingStart() {
        try (Lifetime l = start("m.alvarez", true)) {
            assertThat(pending(l)).isPositive();
            assertThat(l.main().workerStateProperty().get()).isEqualTo("Worker running");
            await().atMost(Duration.ofSeconds(10)).until(() -> l.worker().runStateProperty().get() == RunState.RUNNING);
            await().atMost(Duration.ofSeconds(20)).until(() -> pending(l) == 0);
        }
    }

    @Test
    void withTheSettingOffTheWorkerStaysOffAndDeliversNothing() {
        try (Lifetime l = start("m.alvarez", false)) {
            assertThat(l.main().workerStateProperty().get())
                    .isEqualTo("Worker off: not started with the console on this workstation");
            assertThat(l.services().worker().snapshot().runState()).isEqualTo(RunState.STOPPED);
            assertThat(l.worker().canStartProperty().get()).isTrue();
        }
        assertThat(posts()).isZero();
    }

    @Test
    void aPauseByStaffSurvivesARestartUntilResumedAndBothAreAudited() {
        setDue("4102444800000");
        try (Lifetime first = start("r.okafor", true)) {
            assertThat(first.services().worker().snapshot().runState()).isEqualTo(RunState.RUNNING);
            first.worker().pause(REASON);
            first.main().applyWorker(first.services().worker().snapshot()); // as the status bar's listener does
            assertThat(first.main().workerStateProperty().get()).startsWith("Worker paused by r.okafor at ")
                    .endsWith(": " + REASON);
        }
        // due now: nothing may send them until someone resumes the worker
        setDue("0");
        int postsBefore = posts();

        try (Lifetime second = start("s.patel", true)) {
            assertThat(second.main().workerStateProperty().get()).startsWith("Worker paused by r.okafor at ")
                    .endsWith(": " + REASON);
            assertThat(second.main().bannerProperty().get()).startsWith("The delivery worker is paused by r.okafor");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> second.worker().runStateProperty().get() == RunState.PAUSED);
            assertThat(second.worker().staffPauseProperty().get()).startsWith("Paused by r.okafor at ");
            assertThat(second.worker().canStartProperty().get()).isFalse();
            second.worker().start();
            assertThat(second.worker().noticeProperty().get().text()).as("Start is refused while paused")
                    .contains("the worker is paused by r.okafor");
            second.worker().drainNow();
            assertThat(pending(second)).isPositive();
        }
        assertThat(posts()).as("a worker held paused never calls the state").isEqualTo(postsBefore);

        try (Lifetime third = start("s.patel", true)) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> third.worker().runStateProperty().get() == RunState.PAUSED);
            third.worker().resume("portal back up");
            third.main().applyWorker(third.services().worker().snapshot());
            assertThat(third.main().workerStateProperty().get()).isEqualTo("Worker running");
            await().atMost(Duration.ofSeconds(20)).until(() -> pending(third) == 0);
        }

        try (Lifetime fourth = start("s.patel", true)) {
            assertThat(fourth.main().workerStateProperty().get()).as("the resume holds too").isEqualTo("Worker running");
            List<AuditEntry> pauses = fourth.services().queries().audit(AuditActions.WORKER_ID, null,
                    AuditActions.WORKER_PAUSE, 0, 0);
            assertThat(pauses).singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo("r.okafor");
                assertThat(e.reason()).isEqualTo(REASON);
            });
            List<AuditEntry> resumes = fourth.services().queries().audit(AuditActions.WORKER_ID, null,
                    AuditActions.WORKER_RESUME, 0, 0);
            assertThat(resumes).singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo("s.patel");
                assertThat(e.reason()).isEqualTo("portal back up");
                assertThat(e.details()).contains("\"pausedBy\":\"r.okafor\"").contains("\"reason\":\"" + REASON + "\"");
            });
        }
    }
}
