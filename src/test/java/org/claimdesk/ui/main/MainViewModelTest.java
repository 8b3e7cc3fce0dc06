package org.claimdesk.ui.main;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Set;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.WorkerPauseStore;
import org.claimdesk.domain.DataChange;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.FakeWorker;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainViewModelTest {
    @TempDir
    Path dir;

    @Test
    void withoutDemoDataAnEmptyDatabaseStaysEmptyAndSaysHowClaimsComeIn() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            Queries queries = TestDatabases.queries(db);
            MainViewModel model = new MainViewModel("database claimdesk on db.office.lan:5432 as staff", null, queries,
                    audited(new FakeWorker(), db), true, new DirectTaskRunner(), "tester", "simulated state");

            model.start(() -> { });

            assertThat(model.readyProperty().get()).isTrue();
            assertThat(queries.countClaims(ClaimQuery.all())).isZero();
            assertThat(model.bannerProperty().get()).isEqualTo(MainViewModel.EMPTY_TEAM_DATABASE);
        }
    }

    /**
     * Nothing starts without the start-up step (the worker, the live refresh, the pages' reads): one that failed (a
     * full disk while the demo data were written, a team server restarting) is tried again by itself, then on F5.
     */
    @Test
    void aFailedStartUpStepIsTriedAgainByItselfThenOnRefresh() throws Exception {
        try (Database db = TestDatabases.demo(dir, 0)) {
            Queries queries = TestDatabases.queries(db);
            java.util.concurrent.atomic.AtomicInteger failuresLeft = new java.util.concurrent.atomic.AtomicInteger(1);
            java.util.function.Function<java.time.LocalDate, org.claimdesk.app.DemoData> demo = today -> {
                if (failuresLeft.getAndDecrement() > 0) {
                    throw new org.claimdesk.store.DatabaseException("the disk holding the database is full; free space"
                            + " and try again (nothing was written)");
                }
                return new org.claimdesk.app.DemoData(db, today, org.claimdesk.domain.Deadlines.statutory());
            };
            MainViewModel model = new MainViewModel("a file", demo, queries, audited(new FakeWorker(), db), false,
                    new DirectTaskRunner(), "tester", "simulated state");
            List<String> notices = new ArrayList<>();
            model.noticeProperty().addListener((obs, old, n) -> notices.add(n == null ? null : n.text()));
            List<String> ready = new ArrayList<>();

            model.start(() -> ready.add("ready"));

            assertThat(notices).first().asString().contains("the disk holding the database is full")
                    .endsWith("trying again in 2 s");
            assertThat(model.readyProperty().get()).isTrue();
            assertThat(ready).containsExactly("ready");
            assertThat(model.noticeProperty().get()).as("the failure's notice goes once it succeeds").isNull();
            assertThat(queries.countClaims(ClaimQuery.all())).isEqualTo(MainViewModel.DEMO_CLAIMS);
        }
        try (Database db = TestDatabases.demo(java.nio.file.Files.createDirectories(dir.resolve("again")), 0)) {
            java.util.concurrent.atomic.AtomicBoolean serverBack = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.function.Function<java.time.LocalDate, org.claimdesk.app.DemoData> demo = today -> {
                if (!serverBack.get()) {
                    throw new org.claimdesk.store.DatabaseException("cannot reach the team database");
                }
                return new org.claimdesk.app.DemoData(db, today, org.claimdesk.domain.Deadlines.statutory());
            };
            MainViewModel model = new MainViewModel("a file", demo, TestDatabases.queries(db),
                    audited(new FakeWorker(), db), false, new DirectTaskRunner(), "tester", "simulated state");

            model.start(() -> { });

            assertThat(model.readyProperty().get()).isFalse();
            assertThat(model.noticeProperty().get().text()).endsWith("press F5 (Refresh) to try again");
            serverBack.set(true);
            model.refreshCurrent();
            assertThat(model.readyProperty().get()).isTrue();
        }
    }

    @Test
    void theStatusBarSaysWhileTheStateHoldsTheWorker() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            MainViewModel model = new MainViewModel("a file", null, TestDatabases.queries(db),
                    audited(new FakeWorker(), db), false, new DirectTaskRunner(), "tester", "simulated state");
            java.time.Instant until = java.time.Instant.parse("2026-11-30T10:00:30Z");

            model.applyWorker(FakeWorker.held(until.minusSeconds(30),
                    new org.claimdesk.delivery.WorkerSnapshot.Hold(until.minusSeconds(30), until,
                            "429 rate_limited: slow down")));
            assertThat(model.workerStateProperty().get())
                    .isEqualTo("Worker held by the state until " + org.claimdesk.ui.common.Formats.time(until));
            assertThat(model.workerHeldProperty().get()).as("shown as a warning").isTrue();

            model.applyWorker(FakeWorker.running(until.plusSeconds(1), 0, 0, 0, 0));
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker running");
            assertThat(model.workerHeldProperty().get()).isFalse();
        }
    }

    @Test
    void theStatusBarSaysWhetherATeamDatabasesLiveUpdatesArrive() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            MainViewModel model = new MainViewModel("a file", null, TestDatabases.queries(db),
                    audited(new FakeWorker(), db), false, new DirectTaskRunner(), "tester", "simulated state");
            assertThat(model.liveUpdatesProperty().get()).as("a local file has none").isNull();
            java.util.concurrent.atomic.AtomicBoolean connected = new java.util.concurrent.atomic.AtomicBoolean(false);
            model.start(() -> { });

            model.watchLiveUpdates(connected::get);
            assertThat(model.liveUpdatesProperty().get()).as("not yet connected at start: not lost")
                    .isEqualTo("Live updates: connecting…");
            assertThat(model.liveUpdatesLostProperty().get()).isFalse();
            connected.set(true);
            model.tick(null);
            assertThat(model.liveUpdatesProperty().get()).isEqualTo("● Live");
            assertThat(model.liveUpdatesLostProperty().get()).isFalse();

            connected.set(false);
            model.tick(null);
            assertThat(model.liveUpdatesProperty().get()).startsWith("Live updates lost: reconnecting");
            assertThat(model.liveUpdatesLostProperty().get()).isTrue();
        }
    }

    /**
     * A console left open overnight reads its page again when the day changes, though nothing else did: ages, overdue
     * flags and the overdue filter are counted from today. Within a day a quiet tick reads nothing.
     */
    @Test
    void thePageOnScreenIsReadAgainWhenTheDayChanges() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            java.util.concurrent.atomic.AtomicReference<java.time.Instant> now = new java.util.concurrent.atomic
                    .AtomicReference<>(java.time.Instant.parse("2026-12-07T23:59:58Z"));
            java.time.Clock clock = new java.time.Clock() {
                @Override
                public java.time.ZoneId getZone() {
                    return java.time.ZoneOffset.UTC;
                }

                @Override
                public java.time.Clock withZone(java.time.ZoneId zone) {
                    return this;
                }

                @Override
                public java.time.Instant instant() {
                    return now.get();
                }
            };
            MainViewModel model = new MainViewModel("a file", null, new org.claimdesk.app.Queries(db, clock),
                    audited(new FakeWorker(), db), false, new DirectTaskRunner(), "tester", "simulated state");
            int[] reads = {0};
            model.onRefresh(Page.CLAIMS, () -> reads[0]++);
            model.start(() -> { });
            int atStart = reads[0];

            model.tick(null);
            model.tick(null);
            assertThat(reads[0]).as("a quiet tick within the day").isEqualTo(atStart);

            now.set(java.time.Instant.parse("2026-12-08T00:00:01Z"));
            model.tick(null);
            assertThat(reads[0]).as("read again at midnight").isEqualTo(atStart + 1);
            model.tick(null);
            assertThat(reads[0]).isEqualTo(atStart + 1);
        }
    }

    /**
     * On a desk's file nothing notifies a pause made by another program (a second console, a move into a team
     * database): it is read at every tick, one read at a time however many ticks pass while it waits.
     */
    @Test
    void onADesksFileAPauseMadeByAnotherProgramIsFollowedAtTheTickOneReadAtATime() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            AuditedWorker mine = audited(new FakeWorker(), db);
            org.claimdesk.ui.testing.QueuedTaskRunner tasks = new org.claimdesk.ui.testing.QueuedTaskRunner();
            MainViewModel model = new MainViewModel("a file", null, TestDatabases.queries(db), mine, false, tasks,
                    "tester", "simulated state");
            model.start(() -> { });
            tasks.runAll();

            audited(new FakeWorker(), db).as("claimdesk-migrate").pause("moved into the team database");
            model.tick(null);
            model.tick(null);
            model.tick(null);
            assertThat(tasks.names()).filteredOn("follow the worker's pause"::equals).hasSize(1);
            tasks.runAll();
            assertThat(mine.staffPause()).hasValueSatisfying(
                    p -> assertThat(p.reason()).isEqualTo("moved into the team database"));
        }
    }

    /** While the live updates are lost, a pause made on another workstation is read at each tick, not heard. */
    @Test
    void whileTheLiveUpdatesAreLostAPauseMadeElsewhereIsFollowedAtTheTick() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            AuditedWorker mine = audited(new FakeWorker(), db);
            MainViewModel model = new MainViewModel("a team database", null, TestDatabases.queries(db), mine, false,
                    new DirectTaskRunner(), "tester", "simulated state");
            java.util.concurrent.atomic.AtomicBoolean connected = new java.util.concurrent.atomic.AtomicBoolean(true);
            model.start(() -> { });
            model.watchLiveUpdates(connected::get);

            audited(new FakeWorker(), db).pause("the state asked us to hold until Monday");
            model.tick(null);
            assertThat(mine.staffPause()).as("heard while live: the notification brings it").isEmpty();

            connected.set(false);
            model.tick(null);
            assertThat(mine.staffPause()).hasValueSatisfying(
                    p -> assertThat(p.reason()).isEqualTo("the state asked us to hold until Monday"));
        }
    }

    @Test
    void anEmptyDatabaseGetsDemoDataWithProgressAndABanner() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            Queries queries = TestDatabases.queries(db);
            DirectTaskRunner tasks = new DirectTaskRunner();
            FakeWorker worker = new FakeWorker();
            AuditedWorker audited = audited(worker, db);
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), queries, audited, true, tasks,
                    "tester", "simulated state");
            List<String> ready = new ArrayList<>();
            assertThat(model.readyProperty().get()).isFalse();

            model.start(() -> ready.add("ready"));

            assertThat(queries.countClaims(ClaimQuery.all())).isEqualTo(MainViewModel.DEMO_CLAIMS);
            assertThat(ready).containsExactly("ready");
            assertThat(model.readyProperty().get()).isTrue();
            assertThat(model.bannerProperty().get()).startsWith("Demo data: this database was empty")
                    .contains("5,000 synthetic claims")
                    .endsWith("The delivery worker is paused so you can look at the demo's failures first; Resume on"
                            + " the Worker page to deliver the demo's pending rows.");
            assertThat(worker.commands).as("held paused, never started").doesNotContain("start");
            assertThat(model.workerStateProperty().get()).startsWith("Worker paused by ClaimDesk at ")
                    .endsWith(": " + MainViewModel.DEMO_PAUSE_REASON);
            assertThat(model.workerHeldProperty().get()).isTrue();
            assertThat(queries.audit(AuditActions.WORKER_ID, null, AuditActions.WORKER_PAUSE, 0, 0)).singleElement()
                    .satisfies(e -> {
                        assertThat(e.actor()).isEqualTo(MainViewModel.DEMO_PAUSE_ACTOR);
                        assertThat(e.reason()).isEqualTo(MainViewModel.DEMO_PAUSE_REASON);
                    });
            assertThat(tasks.progress).hasSizeGreaterThan(10);
            assertThat(tasks.progress).last().satisfies(p -> assertThat(p.fraction()).isEqualTo(1.0));
            int pending = queries.countOutbox(org.claimdesk.store.OutboxQuery.all().withState(DeliveryState.PENDING));
            assertThat(model.pendingProperty().get()).isEqualTo(pending);
            assertThat(model.databasePathProperty().get()).isEqualTo(db.path().toString());

            audited.resume("seen the demo's failures");
            model.applyWorker(audited.snapshot());
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker running");
            assertThat(model.bannerProperty().get()).as("the banner no longer says the worker is paused")
                    .startsWith("Demo data: this database was empty").endsWith("The delivery worker is running.");
            model.dismissBanner();
            assertThat(model.bannerProperty().get()).isNull();
        }
    }

    @Test
    void aDatabaseWithClaimsIsLeftAloneAndHasNoBannerWhileItsWorkerRuns() {
        try (Database db = TestDatabases.demo(dir, 50)) {
            Queries queries = TestDatabases.queries(db);
            FakeWorker worker = new FakeWorker();
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), queries, audited(worker, db), true,
                    new DirectTaskRunner(), "tester", "simulated state");
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker not started yet");
            model.start(() -> { });
            assertThat(queries.countClaims(ClaimQuery.all())).isEqualTo(50);
            assertThat(model.bannerProperty().get()).isNull();
            assertThat(model.readyProperty().get()).isTrue();
            assertThat(worker.commands).contains("start");
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker running");
            assertThat(model.workerHeldProperty().get()).isFalse();
        }
    }

    @Test
    void withTheSettingOffTheWorkerIsLeftOffAndTheStatusBarSaysWhy() {
        try (Database db = TestDatabases.demo(dir, 50)) {
            FakeWorker worker = new FakeWorker();
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), TestDatabases.queries(db),
                    audited(worker, db), false, new DirectTaskRunner(), "tester", "simulated state");
            model.start(() -> { });
            assertThat(worker.commands).doesNotContain("start");
            assertThat(model.workerStateProperty().get())
                    .isEqualTo("Worker off: not started with the console on this workstation");
            assertThat(model.workerHeldProperty().get()).isTrue();
            assertThat(model.bannerProperty().get()).isNull();
        }
    }

    @Test
    void aWorkerPausedByStaffComesUpPausedWithABannerSayingByWhomWhenAndWhy() {
        try (Database db = TestDatabases.demo(dir, 50)) {
            audited(new FakeWorker(), db).as("r.okafor").pause("state asked us to hold submissions until Monday");
            FakeWorker worker = new FakeWorker();
            AuditedWorker audited = audited(worker, db);
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), TestDatabases.queries(db),
                    audited, true, new DirectTaskRunner(), "tester", "simulated state");
            model.start(() -> { });
            assertThat(worker.commands).doesNotContain("start");
            assertThat(model.workerStateProperty().get()).startsWith("Worker paused by r.okafor at ")
                    .endsWith(": state asked us to hold submissions until Monday");
            assertThat(model.bannerProperty().get()).startsWith("The delivery worker is paused by r.okafor at ")
                    .endsWith("state asked us to hold submissions until Monday. Submissions wait until it is resumed on"
                            + " the Worker page.");
            audited.resume(null);
            assertThat(worker.commands).as("resuming starts a worker held paused").contains("start");
            model.applyWorker(audited.snapshot());
            assertThat(model.bannerProperty().get()).as("resumed: nothing left to say").isNull();
        }
    }

    /** Resumed on another workstation while this console's worker stays off: the banner no longer says paused. */
    @Test
    void aPauseLiftedElsewhereLeavesNoBannerSayingPausedWhenThisWorkerStaysOff() {
        try (Database db = TestDatabases.demo(dir, 50)) {
            audited(new FakeWorker(), db).as("r.okafor").pause("state asked us to hold submissions until Monday");
            FakeWorker worker = new FakeWorker();
            AuditedWorker audited = audited(worker, db);
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db),
                    TestDatabases.queries(db), audited, false, new DirectTaskRunner(), "tester", "simulated state");
            model.start(() -> { });
            assertThat(model.bannerProperty().get()).startsWith("The delivery worker is paused by r.okafor");

            // another workstation's console, which has read the pause as every console does
            AuditedWorker elsewhere = audited(new FakeWorker(), db).as("m.alvarez");
            elsewhere.followPause();
            elsewhere.resume("the state is back");
            model.changedElsewhere(java.util.EnumSet.of(org.claimdesk.domain.DataChange.WORKER));
            model.applyWorker(audited.snapshot());

            assertThat(worker.commands).as("this workstation does not start its worker with the console")
                    .doesNotContain("start");
            assertThat(model.bannerProperty().get()).as("resumed elsewhere: no pause left to tell of").isNull();
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker off: not started with the console on"
                    + " this workstation");
        }
    }

    @Test
    void aPauseMadeElsewhereWhoseReadFailedIsFollowedAtTheNextTick() {
        try (Database db = TestDatabases.demo(dir, 0)) {
            AuditedWorker audited = audited(new FakeWorker(), db);
            MainViewModel model = new MainViewModel("a file", null, TestDatabases.queries(db), audited, false,
                    new DirectTaskRunner(), "tester", "simulated state");
            model.start(() -> { });
            // another workstation paused the worker, and this one's read of it fails (the table is out of reach)
            db.useTransaction(h -> new WorkerPauseStore().put(h, new WorkerPause("m.alvarez", Instant.now(),
                    "state maintenance tonight")));
            db.useTransaction(h -> h.execute("ALTER TABLE worker_pause RENAME TO worker_pause_away"));

            List<String> notices = new ArrayList<>();
            // each notice set, even one equal to the last (a change listener would not hear that one)
            model.noticeProperty().addListener(o -> notices.add(model.noticeProperty().get().text()));
            model.changedElsewhere(java.util.Set.of(DataChange.WORKER));
            model.tick(null);
            model.tick(null);

            assertThat(audited.staffPause()).isEmpty();
            assertThat(notices).as("told once, tried at each tick").singleElement().asString()
                    .contains("follow the pause made on another workstation");

            db.useTransaction(h -> h.execute("ALTER TABLE worker_pause_away RENAME TO worker_pause"));
            model.tick(null);

            assertThat(audited.staffPause()).hasValueSatisfying(p -> assertThat(p.actor()).isEqualTo("m.alvarez"));
        }
    }

    private static AuditedWorker audited(FakeWorker worker, Database db) {
        return new AuditedWorker(worker, db, Clock.systemUTC(), "tester");
    }

    @Test
    void theStatusBarFollowsTheWorker() {
        try (Database db = TestDatabases.demo(dir, 10)) {
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), TestDatabases.queries(db),
                    audited(new FakeWorker(), db), false, new DirectTaskRunner(), "tester", "simulated state");
            assertThat(model.endpointProperty().get()).isEqualTo("simulated state");
            FakeWorker worker = new FakeWorker();
            model.applyWorker(worker.with(WorkerSnapshot.RunState.PAUSED, "401", true));
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker paused itself");
            model.applyWorker(FakeWorker.running(Instant.now(), 0, 0, 7, 3));
            assertThat(model.workerStateProperty().get()).isEqualTo("Worker running");
            assertThat(model.failedProperty().get()).isEqualTo(53);
        }
    }

    @Test
    void theTickRefreshesThePageOnScreenOnlyWhenDeliveriesMoved() {
        try (Database db = TestDatabases.demo(dir, 10)) {
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), TestDatabases.queries(db),
                    audited(new FakeWorker(), db), false, new DirectTaskRunner(), "tester", "simulated state");
            List<String> refreshed = new ArrayList<>();
            for (Page p : Page.values()) {
                model.onRefresh(p, () -> refreshed.add("full " + p));
            }
            model.onLiveRefresh(Page.OUTBOX, () -> refreshed.add("rows"));
            model.start(() -> { });
            WorkerSnapshot a = FakeWorker.running(Instant.now(), 0, 10, 1, 0);
            model.tick(a);
            model.tick(a);
            assertThat(refreshed).as("nothing moved").isEmpty();
            model.tick(FakeWorker.running(Instant.now(), 1, 10, 2, 0));
            assertThat(refreshed).as("the first live refresh is a full one").containsExactly("full CLAIMS");
            refreshed.clear();

            model.show(Page.OUTBOX);
            assertThat(refreshed).as("a page is refreshed in full when it is shown").containsExactly("full OUTBOX");
            refreshed.clear();
            tickMoved(model, 2, MainViewModel.FULL_REFRESH_EVERY);
            assertThat(refreshed).as("after a switch, rows only until the fifth live refresh")
                    .containsExactly("rows", "rows", "rows", "rows", "full OUTBOX");
            refreshed.clear();
            tickMoved(model, 10, 2);
            model.refreshCurrent();
            tickMoved(model, 20, MainViewModel.FULL_REFRESH_EVERY);
            assertThat(refreshed).as("F5 starts the count again")
                    .containsExactly("rows", "rows", "full OUTBOX", "rows", "rows", "rows", "rows", "full OUTBOX");
        }
    }

    @Test
    void changesFromElsewhereRefreshThePageInFullAtMostAboutEveryTenSecondsAndOnceMoreWhenTheyPause() {
        try (Database db = TestDatabases.demo(dir, 10)) {
            AtomicLong now = new AtomicLong(ms(1_000_000));
            TimedTasks tasks = new TimedTasks(now);
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db),
                    TestDatabases.queries(db), audited(new FakeWorker(), db), false, tasks, "tester", "simulated state");
            List<String> refreshed = new ArrayList<>();
            for (Page p : Page.values()) {
                model.onRefresh(p, () -> refreshed.add("full " + p));
            }
            model.onLiveRefresh(Page.OUTBOX, () -> refreshed.add("rows"));
            model.onLiveRefresh(Page.CLAIMS, () -> refreshed.add("claim rows"));
            model.nanoClock(now::get);
            model.start(() -> { });
            Set<DataChange> outbox = Set.of(DataChange.OUTBOX);

            model.changedElsewhere(outbox);
            assertThat(refreshed).as("nothing refreshed in full yet: in full").containsExactly("full CLAIMS");
            model.show(Page.OUTBOX);
            refreshed.clear();

            tasks.advance(300);
            model.changedElsewhere(outbox);
            assertThat(refreshed).as("300 ms after a full refresh: the rows").containsExactly("rows");
            tasks.advance(999);
            assertThat(refreshed).containsExactly("rows");
            tasks.advance(1);
            assertThat(refreshed).as("in full a second later").containsExactly("rows", "full OUTBOX");
            refreshed.clear();

            model.show(Page.AUDIT);
            model.changedElsewhere(Set.of(DataChange.AUDIT));
            assertThat(refreshed).as("a page without a light refresh: in full").containsExactly("full AUDIT", "full AUDIT");
            assertThat(tasks.waiting()).isZero();
            model.show(Page.OUTBOX);
            refreshed.clear();

            tasks.advance(300);
            model.changedElsewhere(outbox);
            tasks.advance(700);
            model.changedElsewhere(outbox);
            tasks.advance(999);
            assertThat(refreshed).as("a second change before the pause ended waits for its own")
                    .containsExactly("rows", "rows");
            tasks.advance(1);
            assertThat(refreshed).containsExactly("rows", "rows", "full OUTBOX");
            model.refreshCurrent();
            refreshed.clear();

            for (int i = 0; i < 40; i++) {
                tasks.advance(300);
                model.changedElsewhere(outbox);
            }
            assertThat(refreshed).as("changes 300 ms apart for 12 s: in full once ten seconds have passed")
                    .hasSize(40).containsOnlyOnce("full OUTBOX").element(33).isEqualTo("full OUTBOX");
            tasks.advance(1_000);
            assertThat(refreshed).as("and once they paused").hasSize(41).last().isEqualTo("full OUTBOX");
            refreshed.clear();

            for (int i = 0; i < 20; i++) {
                tasks.advance(1_500);
                model.changedElsewhere(outbox);
            }
            tasks.advance(1_000);
            assertThat(refreshed.stream().filter("full OUTBOX"::equals)).as(
                    "changes 1.5 s apart for 30 s after a full refresh owed to them: in full 10 s after it, 10.5 s"
                            + " after that, and once they paused").hasSize(3);
            assertThat(refreshed).hasSize(23).last().isEqualTo("full OUTBOX");
            refreshed.clear();

            tasks.advance(300);
            model.changedElsewhere(outbox);
            model.refreshCurrent();
            tasks.advance(300);
            model.changedElsewhere(outbox);
            model.show(Page.CLAIMS);
            tasks.advance(20_000);
            assertThat(refreshed).as("F5 and a switch of page pay what was owed")
                    .containsExactly("rows", "full OUTBOX", "rows", "full CLAIMS");
            refreshed.clear();

            model.changedElsewhere(Set.of(DataChange.CLAIMS));
            assertThat(refreshed).as("ten seconds after the last full refresh: in full at once")
                    .containsExactly("full CLAIMS");
            assertThat(tasks.waiting()).isZero();
            refreshed.clear();

            model.onAuditElsewhere(Page.CLAIMS, () -> refreshed.add("claim detail"));
            tasks.advance(300);
            model.changedElsewhere(Set.of(DataChange.AUDIT));
            assertThat(refreshed).as("audit entries only (a tax id revealed): the selected claim's detail")
                    .containsExactly("claim detail");
            tasks.advance(300);
            model.changedElsewhere(Set.of(DataChange.WORKER, DataChange.AUDIT));
            assertThat(refreshed).as("with a pause, which the page does not show").containsExactly("claim detail",
                    "claim detail");
            tasks.advance(300);
            model.changedElsewhere(Set.of(DataChange.CLAIMS, DataChange.AUDIT));
            assertThat(refreshed).as("with claims changed by staff (evidence added): the rows, and the detail, which"
                    + " the rows may not show changed").containsExactly("claim detail", "claim detail", "claim rows",
                    "claim detail");
            tasks.advance(300);
            model.changedElsewhere(Set.of(DataChange.CLAIMS, DataChange.OUTBOX));
            assertThat(refreshed).as("a delivery elsewhere, which writes no audit entry: the rows, which show the"
                    + " selected claim's own delivery").hasSize(5).last().isEqualTo("claim rows");
            tasks.advance(1_000);
            assertThat(refreshed).last().isEqualTo("full CLAIMS");
            refreshed.clear();
            tasks.advance(10_000);
            model.changedElsewhere(Set.of(DataChange.CLAIMS, DataChange.AUDIT));
            assertThat(refreshed).as("in full: its refresh reads the detail").containsExactly("full CLAIMS");
        }
    }

    private static long ms(long millis) {
        return millis * 1_000_000;
    }

    /** Runs {@link #after}'s work when {@link #advance} moves the test's clock past its time. */
    private static final class TimedTasks extends DirectTaskRunner {
        private final AtomicLong now;
        private final List<Map.Entry<Long, Runnable>> due = new ArrayList<>();

        TimedTasks(AtomicLong now) {
            this.now = now;
        }

        @Override
        public void after(Duration delay, Runnable then) {
            due.add(Map.entry(now.get() + delay.toNanos(), then));
        }

        /** Moves the clock on by {@code millis}, running each piece of work at its time, the earliest first. */
        void advance(long millis) {
            long end = now.get() + ms(millis);
            while (true) {
                Optional<Map.Entry<Long, Runnable>> next = due.stream().filter(e -> e.getKey() <= end)
                        .min(Map.Entry.comparingByKey());
                if (next.isEmpty()) {
                    break;
                }
                due.remove(next.get());
                now.set(Math.max(now.get(), next.get().getKey()));
                next.get().getValue().run();
            }
            now.set(end);
        }

        int waiting() {
            return due.size();
        }
    }

    /** {@code times} ticks, each with deliveries moved since the one before. */
    private static void tickMoved(MainViewModel model, int from, int times) {
        for (int i = 0; i < times; i++) {
            model.tick(FakeWorker.running(Instant.now(), from + i, 100, from + i + 2, 0));
        }
    }

    @Test
    void aPeriodicCountWaitsFourTimesAsLongAsTheLastCountTookAndAnAskedForCountDoesNot() {
        try (Database db = TestDatabases.demo(dir, 10)) {
            DirectTaskRunner tasks = new DirectTaskRunner();
            Queries queries = TestDatabases.queries(db);
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), queries,
                    audited(new FakeWorker(), db), false, tasks, "tester", "simulated state");
            model.start(() -> { });
            java.util.ArrayDeque<Long> clock = new java.util.ArrayDeque<>();
            model.nanoClock(clock::remove);
            long ms = 1_000_000;

            clock.addAll(List.of(1_000 * ms, 1_100 * ms));
            int counted = counts(tasks);
            model.refreshCounts();
            assertThat(counts(tasks)).as("a count that took 100 ms").isEqualTo(counted + 1);
            assertThat(model.outboxCountsProperty().get()).isEqualTo(queries.countOutboxByState());

            clock.add(1_499 * ms);
            model.refreshCountsWhenDue();
            assertThat(counts(tasks)).as("399 ms after it ended: not yet").isEqualTo(counted + 1);
            assertThat(clock).isEmpty();

            clock.addAll(List.of(1_500 * ms, 1_500 * ms, 1_510 * ms));
            model.refreshCountsWhenDue();
            assertThat(counts(tasks)).as("400 ms after it ended").isEqualTo(counted + 2);

            clock.addAll(List.of(1_511 * ms, 1_530 * ms));
            model.refreshCounts();
            assertThat(counts(tasks)).as("asked for: at once").isEqualTo(counted + 3);
            assertThat(clock).isEmpty();
        }
    }

    @Test
    void aCountAskedForWhileOneRunsIsReadAgainWhenItEnds() {
        try (Database db = TestDatabases.demo(dir, 10)) {
            Queries queries = TestDatabases.queries(db);
            org.claimdesk.ui.testing.QueuedTaskRunner tasks = new org.claimdesk.ui.testing.QueuedTaskRunner();
            MainViewModel model = new MainViewModel(db.path().toString(), TestDatabases.demoData(db), queries,
                    audited(new FakeWorker(), db), false, tasks, "tester", "simulated state");
            model.start(() -> { });
            tasks.runAll();
            int before = tasks.size();

            model.refreshCounts();
            model.refreshCounts();
            model.refreshCountsWhenDue();
            assertThat(tasks.size()).as("one count at a time").isEqualTo(before + 1);
            tasks.run(before);
            assertThat(tasks.names()).as("asked for while the first ran: once more after it")
                    .containsExactly("count outbox rows");

            db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed', last_error = 'x'"
                    + " WHERE delivery_state = 'pending'"));
            tasks.run(before);
            assertThat(tasks.size()).as("and no more").isEqualTo(before);
            assertThat(model.outboxCountsProperty().get()).isEqualTo(queries.countOutboxByState());
            assertThat(model.pendingProperty().get()).isZero();
        }
    }

    private static int counts(DirectTaskRunner tasks) {
        return (int) tasks.ran.stream().filter("count outbox rows"::equals).count();
    }
}
