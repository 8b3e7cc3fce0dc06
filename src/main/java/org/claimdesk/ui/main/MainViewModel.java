package org.claimdesk.ui.main;

import java.time.Duration;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.Queries;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.DataChange;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TextSize;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The main window: which page is shown, the start-up (demo data for an empty database, with progress and
 * a banner; then the delivery worker, started, held paused or left off), the status bar (worker state,
 * endpoint, pending and failed rows, database path) and the periodic live refresh of the page on screen
 * while deliveries move.
 */
public final class MainViewModel {
    public static final int DEMO_CLAIMS = Integer.getInteger("claimdesk.demoClaims", 5_000);
    public static final long DEMO_SEED = 20_261_130L;
    /** Who pauses the worker of a console that has just filled an empty database with demo data. */
    public static final String DEMO_PAUSE_ACTOR = "ClaimDesk";
    public static final String DEMO_PAUSE_REASON = "new demo data: look at its failures before delivering";

    private final String databaseFile;
    private final Function<LocalDate, DemoData> demoData;
    private final Queries queries;
    private final AuditedWorker worker;
    private final boolean startWorker;
    private final TaskRunner tasks;
    private final String actor;

    private final ObjectProperty<Page> page = new SimpleObjectProperty<>(Page.CLAIMS);
    private final BooleanProperty dark = new SimpleBooleanProperty();
    private final IntegerProperty textSize =
            new SimpleIntegerProperty(TextSize.NORMAL);
    private final ReadOnlyBooleanWrapper ready = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper startupProgress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyStringWrapper startupText = new ReadOnlyStringWrapper("Opening the database…");
    private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper workerState = new ReadOnlyStringWrapper("Worker not started yet");
    private final ReadOnlyBooleanWrapper workerHeld = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper endpoint = new ReadOnlyStringWrapper("");
    private final ReadOnlyLongWrapper pending = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper failed = new ReadOnlyLongWrapper();
    private final ReadOnlyStringWrapper databasePath = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper liveUpdates = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper liveUpdatesLost = new ReadOnlyBooleanWrapper();
    /** Whether a team database's live updates arrive; null on a local file. */
    private java.util.function.BooleanSupplier liveConnected;
    /** How long a console's live updates may take to start before the status bar says they are lost. */
    static final long LIVE_CONNECTING_MS = 10_000;
    private long liveWatchedSince;
    /** Whether the live updates have arrived once since the console started. */
    private boolean liveHeard;
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    /** The notice that the window's settings could not be kept, while it may still be shown. */
    private Notice settingsNotice;
    /** How often a failed start-up step is tried again by itself (after 2, 4, … up to 60 s), before F5 is asked for. */
    static final int START_RETRIES = 10;
    /** Whether the start-up step runs or is to be tried again. */
    private boolean starting;
    private int startTries;
    /** The notice of the start-up step's last failure, cleared once it succeeds. */
    private Notice startFailure;
    private final Map<Page, Runnable> refreshers = new EnumMap<>(Page.class);
    /** The day the pages were last counted from, at the tick; null before the first. */
    private LocalDate shownDay;
    private final Map<Page, Runnable> liveRefreshers = new EnumMap<>(Page.class);
    private final Map<Page, Runnable> auditReaders = new EnumMap<>(Page.class);
    private final Map<Page, Runnable> clockFollowers = new EnumMap<>(Page.class);
    /**
     * Every this many live refreshes, the page is refreshed in full (counts and groups too); a full refresh for
     * another reason (a switch to the page, F5, a change from another workstation) starts the count again.
     */
    static final int FULL_REFRESH_EVERY = 5;
    /** Live refreshes since the last full refresh, or 0 before the first: the first live refresh is then a full one. */
    private int liveRefreshes;
    /**
     * Changes from another workstation refresh the page on screen in full (on the Outbox page, with its error
     * groups) only when it was not refreshed in full for this long (a switch, F5, a tick's or such a change's full
     * refresh); otherwise its rows, and in full once {@link #QUIET_ELSEWHERE} passes without another such change.
     * During another workstation's drain its changes arrive several times a second, and on a team database each
     * full refresh of the Outbox page groups the failed rows on the server (0.1–0.3 s at 1,000,000 rows).
     */
    static final Duration FULL_ELSEWHERE_SPACING = Duration.ofSeconds(10);
    /** How long without changes from elsewhere before the page their light refreshes showed is refreshed in full. */
    static final Duration QUIET_ELSEWHERE = Duration.ofSeconds(1);
    /** When the page on screen was last refreshed in full (nano clock), once {@link #refreshedInFull}; FX thread. */
    private long lastFullNanos;
    /** Whether a page has been refreshed in full yet. */
    private boolean refreshedInFull;
    /** Whether the last full refresh was one owed to changes from elsewhere, after they paused. */
    private boolean lastFullWasOwed;
    /** When the last change from elsewhere shown by a light refresh arrived (nano clock). */
    private long lastLightNanos;
    /** Changes from elsewhere shown by a light refresh, counted: the owed full refresh waits for the last one's pause. */
    private long lightChangesElsewhere;
    /**
     * Whether a check for a full refresh owed to changes from elsewhere (shown by light refreshes only) waits for
     * its pause; one at a time.
     */
    private boolean owedCheckWaiting;
    /** The waiting check's number: a full refresh pays what was owed and ends it. */
    private long owedCheck;

    /** What an empty team database says at start: demo data never goes into an office's shared database. */
    public static final String EMPTY_TEAM_DATABASE = "This team database holds no claims yet. Add them with File › New claim"
            + " (Ctrl+N) or File › Import claims (Ctrl+I), or move a workstation's database in with claimdesk migrate"
            + " (docs/operations.md).";
    /**
     * What an empty desk's database says at start on a workstation set up for a state's API: demo data's pending
     * submissions would go to the state, so none is made.
     */
    public static final String EMPTY_DESK_WITH_STATE_API = "This database holds no claims yet. Add them with File ›"
            + " New claim (Ctrl+N) or File › Import claims (Ctrl+I). No demo data was made: this workstation delivers to"
            + " the state's API (CLAIMDESK_STATE_URL), where synthetic claims must never go.";
    /** What an empty database says at start when it gets no demo data. */
    private final String emptyNotice;
    private volatile boolean emptyAtStart;
    /** Whether start-up filled the empty database with demo data; on the UI thread. */
    private boolean filledAtStart;
    private Runnable onReady = () -> { };
    private boolean countsInFlight;
    /** A count was asked for while one ran: it runs again when that one ends, for what changed meanwhile. */
    private boolean countsAgain;
    private long lastCountNanos;
    private long lastCountEndedNanos;
    /**
     * A periodic count waits this many times as long as the last count took, from its end: at 1,000,000 outbox
     * rows on a team database a count takes the server most of a second, so it is read every few seconds rather
     * than at every tick, and a small database is counted at every tick as before.
     */
    static final int COUNT_SPACING = 4;
    private java.util.function.LongSupplier nanoClock = System::nanoTime;
    private final ReadOnlyObjectWrapper<Map<DeliveryState, Integer>> outboxCounts =
            new ReadOnlyObjectWrapper<>(Map.of());
    private long lastActivity = -1;
    /** True after a read of a pause made elsewhere failed: the next tick reads it again. FX thread. */
    private boolean pauseToFollow;
    /** A read of the pause is under way (FX thread). */
    private boolean pauseFollowRunning;
    /** True from a failed read of a pause made elsewhere, which staff were told of, until a read succeeds. */
    private boolean pauseFollowFailing;
    /** How the worker came up; null until it has. */
    private AuditedWorker.Startup workerStartup;
    /** The demo banner without what it says of the worker; null when the database was not empty. */
    private String demoText;
    /** True while the banner says the worker is paused: once it runs again, that part goes. */
    private boolean bannerSaysPaused;

    /**
     * @param databaseFile the open database (its file, or server and database), for the status bar
     * @param demoData the demo data an empty database gets, dated from the given day; null for a team database,
     *     which never gets any, and a desk whose workstation delivers to a state's API
     * @param startWorker this workstation's setting: start the delivery worker once the database is ready
     *     (unless staff paused it)
     */
    public MainViewModel(String databaseFile, Function<LocalDate, DemoData> demoData, Queries queries,
            AuditedWorker worker, boolean startWorker, TaskRunner tasks, String actor, String endpointName) {
        this(databaseFile, demoData, EMPTY_TEAM_DATABASE, queries, worker, startWorker, tasks, actor, endpointName);
    }

    /**
     * @param emptyNotice what an empty database says at start when {@code demoData} is null (a team database, or a
     *     desk whose workstation delivers to a state's API)
     */
    public MainViewModel(String databaseFile, Function<LocalDate, DemoData> demoData, String emptyNotice,
            Queries queries, AuditedWorker worker, boolean startWorker, TaskRunner tasks, String actor,
            String endpointName) {
        this.emptyNotice = Keys.say(emptyNotice);
        this.databaseFile = databaseFile;
        this.demoData = demoData;
        this.queries = queries;
        this.worker = worker;
        this.startWorker = startWorker;
        this.tasks = tasks;
        this.actor = actor;
        this.databasePath.set(databaseFile);
        this.endpoint.set(endpointName);
        page.addListener((obs, old, shown) -> {
            if (ready.get()) {
                refreshInFull();
            }
            // a page's texts counted from now as it is shown, not from its last tick while it was shown before
            clockFollowers.getOrDefault(shown, () -> { }).run();
        });
    }

    public ObjectProperty<Page> pageProperty() {
        return page;
    }

    public BooleanProperty darkProperty() {
        return dark;
    }

    /** The console's text size, in percent of the normal size (View › Larger text, Smaller text, Normal text size). */
    public IntegerProperty textSizeProperty() {
        return textSize;
    }

    /** View › Larger text (Ctrl+=): the next size up, said in a notice. */
    public void largerText() {
        setTextSize(TextSize.larger(textSize.get()));
    }

    /** View › Smaller text (Ctrl+-): the next size down, said in a notice. */
    public void smallerText() {
        setTextSize(TextSize.smaller(textSize.get()));
    }

    /** View › Normal text size (Ctrl+0). */
    public void normalText() {
        setTextSize(TextSize.NORMAL);
    }

    private void setTextSize(int percent) {
        int before = textSize.get();
        textSize.set(percent);
        String text;
        if (percent == before && percent != TextSize.NORMAL) {
            text = "Text size " + percent + " %, the " + (percent > TextSize.NORMAL ? "largest" : "smallest")
                    + " there is";
        } else if (percent == TextSize.NORMAL) {
            text = "Text size " + percent + " % (normal)";
        } else {
            text = "Text size " + percent + " %: Ctrl+0 for the normal size";
        }
        notice.set(Notice.info(text));
    }

    /** The window's settings (text size, theme, layout) could not be written to this workstation's file. */
    public void settingsNotKept(String reason) {
        settingsNotice = Notice.warning("Could not keep the window's settings (text size, theme, layout) on this "
                + "workstation: " + reason + ". The console tries again when it closes");
        notice.set(settingsNotice);
    }

    /** The window's settings were written: a notice that they could not be goes, if still shown. */
    public void settingsKept() {
        if (settingsNotice != null && notice.get() == settingsNotice) {
            notice.set(null);
        }
        settingsNotice = null;
    }

    /**
     * Whether start-up filled the empty database with demo data (known once {@link #readyProperty()} is true): a
     * page read before that showed an empty database.
     */
    public boolean filledAtStart() {
        return filledAtStart;
    }

    /** True once the database is open and holds data; the pages load then. */
    public ReadOnlyBooleanProperty readyProperty() {
        return ready.getReadOnlyProperty();
    }

    /** Demo data generation progress, 0..1; -1 while it is not known. */
    public ReadOnlyDoubleProperty startupProgressProperty() {
        return startupProgress.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty startupTextProperty() {
        return startupText.getReadOnlyProperty();
    }

    /**
     * The start-up banner: what the demo data are and why the worker is paused after they were generated,
     * or that staff have the worker paused; null when there is nothing to say or staff dismissed it.
     */
    public ReadOnlyStringProperty bannerProperty() {
        return banner.getReadOnlyProperty();
    }

    /** The status bar's worker: running, paused (by whom, when, why), or off by this workstation's setting. */
    public ReadOnlyStringProperty workerStateProperty() {
        return workerState.getReadOnlyProperty();
    }

    /** True while the worker does not deliver (paused, or not started): the status bar marks it. */
    public ReadOnlyBooleanProperty workerHeldProperty() {
        return workerHeld.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty endpointProperty() {
        return endpoint.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty pendingProperty() {
        return pending.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty failedProperty() {
        return failed.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty databasePathProperty() {
        return databasePath.getReadOnlyProperty();
    }

    /** What the status bar says of a team database's live updates; null on a local file. */
    public ReadOnlyStringProperty liveUpdatesProperty() {
        return liveUpdates.getReadOnlyProperty();
    }

    /** True while a team database's live updates are lost (the console reconnects by itself). */
    public ReadOnlyBooleanProperty liveUpdatesLostProperty() {
        return liveUpdatesLost.getReadOnlyProperty();
    }

    /**
     * Shows in the status bar whether the live updates of a team database arrive, as {@code connected} says (read
     * at every tick; it reads no database). FX thread.
     */
    public void watchLiveUpdates(java.util.function.BooleanSupplier connected) {
        liveConnected = connected;
        liveWatchedSince = System.nanoTime();
        showLiveUpdates();
    }

    /**
     * Reads the worker's pause and the rows on screen again once the live updates are heard ({@code listening}, which
     * may wait, runs on a background task): a pause made, or a claim changed, on another workstation between this
     * console's start-up reads and the feed's start would otherwise go unheeded until the next change.
     */
    public void catchUpOnceHeard(java.util.function.BooleanSupplier listening) {
        tasks.submit("catch up once live updates start", p -> {
            boolean heard = listening.getAsBoolean();
            if (heard) {
                worker.followPause();
            }
            return heard;
        }, heard -> {
            if (heard && ready.get()) {
                liveRefreshers.getOrDefault(page.get(), refreshers.getOrDefault(page.get(), () -> { })).run();
            }
        }, e -> notice.set(Notice.error("follow the pause made on another workstation", e)));
    }

    /**
     * Shows whether the live updates arrive: while the feed first connects (at most {@value #LIVE_CONNECTING_MS} ms)
     * "connecting", not "lost". True when a team database's do not arrive now.
     */
    private boolean showLiveUpdates() {
        if (liveConnected == null) {
            return false;
        }
        boolean up = liveConnected.getAsBoolean();
        liveHeard |= up;
        boolean connecting = !up && !liveHeard && System.nanoTime() - liveWatchedSince < LIVE_CONNECTING_MS * 1_000_000;
        liveUpdatesLost.set(!up && !connecting);
        liveUpdates.set(up ? "● Live" : connecting ? "Live updates: connecting…"
                : "Live updates lost: reconnecting; F5 reads the page");
        return !up;
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    public String actor() {
        return actor;
    }

    /** What F5 and the live refresh do on {@code p}. */
    public void onRefresh(Page p, Runnable refresher) {
        refreshers.put(p, refresher);
    }

    /**
     * What {@code p} does at each tick while it is shown, reading nothing: texts counted from now (the Outbox page's
     * "in 40 s" before a row's next attempt), which would otherwise stay as the page was read until a row changes.
     */
    public void onClock(Page p, Runnable follower) {
        clockFollowers.put(p, follower);
        if (page.get() == p) {
            follower.run();
        }
    }

    /** What the live refresh does on {@code p} between full refreshes: the rows on screen only. */
    public void onLiveRefresh(Page p, Runnable refresher) {
        liveRefreshers.put(p, refresher);
    }

    /**
     * What {@code p} reads again when another workstation wrote audit entries and nothing else the page shows (the
     * Claims page: the selected claim's audit tab, e.g. after a tax id revealed there); with other changes the page's
     * own refresh reads them.
     */
    public void onAuditElsewhere(Page p, Runnable reader) {
        auditReaders.put(p, reader);
    }

    public void show(Page p) {
        page.set(p);
    }

    /** Refreshes the page on screen and the counts; before start-up could prepare the database, tries that again. */
    public void refreshCurrent() {
        if (!ready.get() && !starting && onReady != null) {
            startTries = 0;
            start(onReady);
            return;
        }
        refreshInFull();
        refreshCounts();
    }

    /** Refreshes the page on screen in full; the live refreshes that follow reload its rows only, up to the next full one. */
    private void refreshInFull() {
        // the day the page is counted from: the tick reads it again when the day changes
        shownDay = queries.today();
        liveRefreshes = 1;
        refreshedInFull = true;
        lastFullNanos = nanoClock.getAsLong();
        lastFullWasOwed = false;
        owedCheck++;
        owedCheckWaiting = false;
        refreshers.getOrDefault(page.get(), () -> { }).run();
    }

    public void dismissBanner() {
        banner.set(null);
    }

    /**
     * Checks the database: an empty one gets {@link #DEMO_CLAIMS} demo claims (with progress) and a banner
     * saying so, unless it is a team database (no demo data given), which stays empty and says how claims come in. Then {@code whenReady} runs on the UI thread, and the worker is started (see
     * {@link #bringUpWorker}).
     */
    public void start(Runnable whenReady) {
        this.onReady = whenReady;
        starting = true;
        tasks.submit("prepare the database", p -> {
            boolean hasClaims = queries.hasClaims();
            emptyAtStart = !hasClaims;
            if (hasClaims || demoData == null) {
                return null;
            }
            p.update(0, DEMO_CLAIMS, "This database is empty: generating demo data");
            LocalDate today = queries.today();
            return demoData.apply(today)
                    .generate(DEMO_CLAIMS, DEMO_SEED, n -> p.update(n, DEMO_CLAIMS, "Generating demo claims"));
        }, (DemoData.Summary summary) -> {
            String demo = summary == null ? null : "Demo data: this database was empty, so ClaimDesk filled it with "
                    + Formats.count(summary.claims()) + " synthetic claims and " + Formats.count(summary.outboxRows())
                    + " outbox rows (fake names, non-issuable tax ids). Deliveries go to the simulated state.";
            filledAtStart = summary != null;
            starting = false;
            if (startFailure != null && notice.get() == startFailure) {
                notice.set(null);
            }
            startFailure = null;
            banner.set(demo != null ? demo : emptyAtStart ? emptyNotice : null);
            startupProgress.set(1);
            startupText.set("");
            ready.set(true);
            refreshCounts();
            onReady.run();
            bringUpWorker(demo);
        }, e -> {
            // nothing starts without this step (the worker, the live refresh, the pages' reads): it is tried again
            String why = Notice.error("prepare the database " + databaseFile, e).text();
            startTries++;
            if (startTries <= START_RETRIES) {
                long seconds = Math.min(60, 1L << startTries);
                startFailure = new Notice(Notice.Kind.ERROR, why + "; trying again in " + seconds + " s");
                notice.set(startFailure);
                startupText.set("Could not prepare the database; trying again in " + seconds + " s");
                tasks.after(Duration.ofSeconds(seconds), () -> start(onReady));
            } else {
                starting = false;
                startFailure = new Notice(Notice.Kind.ERROR, why + "; press F5 (Refresh) to try again");
                notice.set(startFailure);
                startupText.set("Could not prepare the database; press F5 (Refresh) to try again");
            }
        }, update -> {
            startupProgress.set(update.fraction());
            startupText.set(update.message() + " (" + Formats.count(update.done()) + " of "
                    + Formats.count(update.total()) + ")");
        });
    }

    private record WorkerStarted(AuditedWorker.Startup startup, WorkerSnapshot snapshot) {
    }

    /**
     * Brings the worker up as staff left it: held paused when staff paused it (this console or another on
     * the database), else started if this workstation's setting says so, else left off. A database just
     * filled with demo data gets its worker paused first, so staff see the demo's failures before deliveries
     * change them; {@code demo} is the demo banner then, which the worker's state is added to.
     */
    private void bringUpWorker(String demo) {
        tasks.submit("start the delivery worker", p -> {
            if (demo != null) {
                worker.as(DEMO_PAUSE_ACTOR).pause(DEMO_PAUSE_REASON);
            }
            return new WorkerStarted(worker.startWithConsole(startWorker), worker.snapshot());
        }, started -> {
            workerStartup = started.startup();
            // the run state only: the worker publishes its counts once it has read them
            showWorkerState(started.snapshot());
            String pause = worker.staffPause().map(MainViewModel::pausedBy).orElse("");
            demoText = demo;
            bannerSaysPaused = started.startup() == AuditedWorker.Startup.PAUSED;
            if (demo != null) {
                banner.set(demo + " " + switch (started.startup()) {
                    case PAUSED -> worker.staffPause().filter(w -> w.actor().equals(DEMO_PAUSE_ACTOR)).isPresent()
                            ? "The delivery worker is paused so you can look at the demo's failures first;"
                                    + " Resume on the Worker page to deliver the demo's pending rows."
                            : "The delivery worker is " + pause + ". Resume it on the Worker page to deliver.";
                    case RUNNING -> "The delivery worker is running.";
                    case OFF -> "The delivery worker is off on this workstation: Start it on the Worker page.";
                });
            } else if (started.startup() == AuditedWorker.Startup.PAUSED) {
                banner.set("The delivery worker is " + pause + ". Submissions wait until it is resumed on the"
                        + " Worker page.");
            } else {
                worker.refusal().ifPresent(banner::set);
            }
        }, e -> notice.set(Notice.error("start the delivery worker", e)));
    }

    /** "paused by NAME at TIME: reason". */
    static String pausedBy(WorkerPause p) {
        return "paused by " + p.actor() + " at " + Formats.time(p.at()) + ": " + p.reason();
    }

    /**
     * The outbox rows per state (the status bar's pending and failed, the Outbox page's state filter): one read at a
     * time; asked for while one runs, it is read once more when that one ends.
     */
    public void refreshCounts() {
        if (!ready.get()) {
            return;
        }
        if (countsInFlight) {
            countsAgain = true;
            return;
        }
        countsInFlight = true;
        long started = nanoClock.getAsLong();
        tasks.submit("count outbox rows", p -> queries.countOutboxByState(), counts -> {
            countEnded(started);
            pending.set(counts.getOrDefault(DeliveryState.PENDING, 0));
            failed.set(counts.getOrDefault(DeliveryState.FAILED, 0));
            outboxCounts.set(counts);
            if (countsAgain) {
                countsAgain = false;
                refreshCounts();
            }
        }, e -> {
            countEnded(started);
            countsAgain = false;
        });
    }

    /**
     * The counts on a periodic refresh: skipped while a count runs or until {@value #COUNT_SPACING} times the last
     * count's time has passed since it ended, so that counting never takes more than a fifth of the time.
     */
    public void refreshCountsWhenDue() {
        if (countsInFlight || nanoClock.getAsLong() - lastCountEndedNanos < COUNT_SPACING * lastCountNanos) {
            return;
        }
        refreshCounts();
    }

    private void countEnded(long started) {
        countsInFlight = false;
        lastCountEndedNanos = nanoClock.getAsLong();
        lastCountNanos = lastCountEndedNanos - started;
    }

    /** The clock the counts' spacing is measured with (tests give their own). */
    void nanoClock(java.util.function.LongSupplier clock) {
        nanoClock = clock;
    }

    /** The last outbox rows per state that {@link #refreshCounts} read; FX thread. */
    public ReadOnlyObjectProperty<Map<DeliveryState, Integer>> outboxCountsProperty() {
        return outboxCounts.getReadOnlyProperty();
    }

    /**
     * Another workstation committed {@code changes} (the team database's live updates): the page on screen reads
     * again when it shows data of those kinds (keeping selection and scroll position, as F5 does; see
     * {@link #refreshForChangesElsewhere}), the counts are read again, and a pause by staff made or ended there is
     * followed here. FX thread.
     */
    public void changedElsewhere(Set<DataChange> changes) {
        if (!ready.get()) {
            return;
        }
        if (changes.contains(DataChange.WORKER)) {
            followPause();
        }
        Runnable audit = auditReaders.get(page.get());
        boolean inFull = page.get().shows(changes) && refreshForChangesElsewhere();
        // audit entries come with every staff action (evidence added, a row re-queued), many of which leave the page's
        // rows as they were: a light refresh would leave the selected claim's detail as it was until the full one
        if (!inFull && changes.contains(DataChange.AUDIT) && audit != null) {
            audit.run();
        }
        if (changes.contains(DataChange.OUTBOX)) {
            refreshCounts();
        }
    }

    /**
     * The page on screen is refreshed in full for a change from elsewhere, unless it was refreshed in full within
     * the last {@link #FULL_ELSEWHERE_SPACING}: then its rows are (its light refresh; a page without one is
     * refreshed in full), and it is refreshed in full once {@link #QUIET_ELSEWHERE} passes without another such
     * change — and, when the full refresh before was itself such a one, no sooner than
     * {@link #FULL_ELSEWHERE_SPACING} after it. A single change from elsewhere thus reads the page in full at once
     * or a second later; a run of them (another workstation's drain or import, its changes seconds apart or less)
     * about every {@link #FULL_ELSEWHERE_SPACING} and once more when it ends.
     *
     * @return true when the page was refreshed in full
     */
    private boolean refreshForChangesElsewhere() {
        long now = nanoClock.getAsLong();
        Runnable light = liveRefreshers.get(page.get());
        if (light == null || !refreshedInFull || now - lastFullNanos >= FULL_ELSEWHERE_SPACING.toNanos()) {
            refreshInFull();
            return true;
        }
        light.run();
        lastLightNanos = now;
        lightChangesElsewhere++;
        if (!owedCheckWaiting) {
            checkOwedFullAfter(owedFullDueNanos() - now);
        }
        return false;
    }

    /** When the owed full refresh is due: a pause after the last change, and the spacing after an owed one. */
    private long owedFullDueNanos() {
        long afterPause = lastLightNanos + QUIET_ELSEWHERE.toNanos();
        return lastFullWasOwed ? Math.max(afterPause, lastFullNanos + FULL_ELSEWHERE_SPACING.toNanos()) : afterPause;
    }

    /**
     * Refreshes the page in full after {@code nanos} unless it was meanwhile (which ends this check) or another
     * change from elsewhere came (then it waits again until the full refresh is due).
     */
    private void checkOwedFullAfter(long nanos) {
        owedCheckWaiting = true;
        long check = ++owedCheck;
        long changes = lightChangesElsewhere;
        tasks.after(Duration.ofNanos(Math.max(0, nanos)), () -> {
            if (check != owedCheck || !ready.get()) {
                return;
            }
            owedCheckWaiting = false;
            if (changes == lightChangesElsewhere) {
                refreshInFull();
                lastFullWasOwed = true;
            } else {
                checkOwedFullAfter(owedFullDueNanos() - nanoClock.getAsLong());
            }
        });
    }

    /**
     * Reads the pause by staff and has the worker follow it; when the read fails, staff are told once and the next
     * ticks try again, so that a pause made elsewhere is not missed for want of one read. FX thread.
     */
    private void followPause() {
        pauseToFollow = false;
        if (pauseFollowRunning) {
            // one read at a time: ticks while the last one waits (for a connection, say) add none behind it; a change
            // heard meanwhile may be newer than what it reads, so the next tick reads again
            pauseToFollow = true;
            return;
        }
        pauseFollowRunning = true;
        tasks.submit("follow the worker's pause", p -> {
            worker.followPause();
            return null;
        }, done -> {
            pauseFollowRunning = false;
            pauseFollowFailing = false;
        }, e -> {
            pauseFollowRunning = false;
            pauseToFollow = true;
            if (!pauseFollowFailing) {
                pauseFollowFailing = true;
                notice.set(Notice.error("follow the pause made on another workstation", e));
            }
        });
    }

    /** The status bar's view of the worker. */
    public void applyWorker(WorkerSnapshot s) {
        if (s == null) {
            return;
        }
        showWorkerState(s);
        pending.set(s.pending());
        failed.set(s.failedTotal());
    }

    /** Shows the worker's state with the pause by staff in force now, whenever {@code taken} was read. */
    private void showWorkerState(WorkerSnapshot taken) {
        WorkerSnapshot s = worker.asStaffSee(taken);
        endpoint.set(s.endpoint());
        workerState.set(switch (s.runState()) {
            case STOPPED -> worker.refusal().isPresent() ? "Worker off: no state API set on this workstation"
                    : workerStartup == AuditedWorker.Startup.OFF
                            || workerStartup == AuditedWorker.Startup.PAUSED && !startWorker
                    ? "Worker off: not started with the console on this workstation" : "Worker not started yet";
            case RUNNING -> s.hold() != null ? "Worker held by the state until " + Formats.time(s.hold().until())
                    : "Worker running";
            case PAUSED -> s.pausedBySystem() ? "Worker paused itself"
                    : worker.staffPause().map(p -> "Worker " + pausedBy(p)).orElse("Worker paused");
        });
        workerHeld.set(s.runState() != WorkerSnapshot.RunState.RUNNING || s.hold() != null);
        boolean running = s.runState() == WorkerSnapshot.RunState.RUNNING;
        // resumed (here, or elsewhere while this console's worker stays off): the banner no longer says paused
        if (bannerSaysPaused && (running || worker.staffPause().isEmpty() && s.runState() != WorkerSnapshot.RunState.PAUSED)) {
            bannerSaysPaused = false;
            if (banner.get() != null) {
                banner.set(demoText == null ? null : demoText + (running ? " The delivery worker is running."
                        : " The delivery worker was resumed; it is not running on this workstation (Worker page)."));
            }
        }
    }

    /**
     * The periodic tick: refreshes the counts, and the page on screen when deliveries moved since the last
     * tick (live refresh keeps the selection and scroll position). Most live refreshes reload only the rows
     * on screen; every {@value #FULL_REFRESH_EVERY}th since the page's last full refresh also reloads counts and
     * groups. A switch to the page has just refreshed it in full: grouping a team database's failed rows again at
     * the next tick would keep its server busy for as long again.
     */
    public void tick(WorkerSnapshot latest) {
        if (!ready.get()) {
            return;
        }
        clockFollowers.getOrDefault(page.get(), () -> { }).run();
        boolean unheard = showLiveUpdates() || liveConnected == null;
        if (pauseToFollow || unheard) {
            // a pause made elsewhere is read at every tick where no notification brings it: a desk's file (another
            // program on it, a move into a team database) or a team database whose notifications are lost
            followPause();
        }
        long activity = latest == null ? 0 : latest.attemptsThisRun() + latest.sentTotal() + latest.failedTotal()
                + latest.pending();
        LocalDate today = queries.today();
        boolean newDay = shownDay != null && !today.equals(shownDay);
        shownDay = today;
        if (newDay) {
            // ages, overdue flags, the overdue filter and its counts are counted from today: a console left open
            // overnight reads its page again at midnight, though nothing else changed
            refreshInFull();
            refreshCounts();
        } else if (lastActivity >= 0 && activity != lastActivity) {
            Runnable full = refreshers.getOrDefault(page.get(), () -> { });
            Runnable light = liveRefreshers.getOrDefault(page.get(), full);
            if (liveRefreshes % FULL_REFRESH_EVERY == 0) {
                refreshInFull();
            } else {
                liveRefreshes++;
                light.run();
            }
        }
        lastActivity = activity;
        refreshCountsWhenDue();
    }
}
