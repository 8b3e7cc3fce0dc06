package org.claimdesk.ui.main;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.BooleanProperty;
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
import javafx.beans.property.SimpleObjectProperty;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.Queries;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The main window: which page is shown, the start-up (demo data for an empty database, with progress and
 * a banner), the status bar (worker state, endpoint, pending and failed rows, database path) and the
 * periodic live refresh of the page on screen while deliveries move.
 */
public final class MainViewModel {
    public static final int DEMO_CLAIMS = Integer.getInteger("claimdesk.demoClaims", 5_000);
    public static final long DEMO_SEED = 20_261_130L;

    private final Path databaseFile;
    private final Function<LocalDate, DemoData> demoData;
    private final Queries queries;
    private final TaskRunner tasks;
    private final String actor;

    private final ObjectProperty<Page> page = new SimpleObjectProperty<>(Page.CLAIMS);
    private final BooleanProperty dark = new SimpleBooleanProperty();
    private final ReadOnlyBooleanWrapper ready = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper startupProgress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyStringWrapper startupText = new ReadOnlyStringWrapper("Opening the database…");
    private final ReadOnlyStringWrapper demoBanner = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper workerState = new ReadOnlyStringWrapper("Worker stopped");
    private final ReadOnlyStringWrapper endpoint = new ReadOnlyStringWrapper("");
    private final ReadOnlyLongWrapper pending = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper failed = new ReadOnlyLongWrapper();
    private final ReadOnlyStringWrapper databasePath = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private final Map<Page, Runnable> refreshers = new EnumMap<>(Page.class);
    private final Map<Page, Runnable> liveRefreshers = new EnumMap<>(Page.class);
    /** Every this many live refreshes, the page is refreshed in full (counts and groups too). */
    static final int FULL_REFRESH_EVERY = 5;
    private int liveRefreshes;

    private Runnable onReady = () -> { };
    private boolean countsInFlight;
    private long lastActivity = -1;

    /**
     * @param databaseFile the open database's file, for the status bar
     * @param demoData the demo data an empty database gets, dated from the given day
     */
    public MainViewModel(Path databaseFile, Function<LocalDate, DemoData> demoData, Queries queries, TaskRunner tasks,
            String actor, String endpointName) {
        this.databaseFile = databaseFile;
        this.demoData = demoData;
        this.queries = queries;
        this.tasks = tasks;
        this.actor = actor;
        this.databasePath.set(databaseFile.toString());
        this.endpoint.set(endpointName);
        page.addListener((obs, old, shown) -> {
            if (ready.get()) {
                refreshers.getOrDefault(shown, () -> { }).run();
            }
        });
    }

    public ObjectProperty<Page> pageProperty() {
        return page;
    }

    public BooleanProperty darkProperty() {
        return dark;
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

    /** Shown while the database holds generated demo data; null otherwise. */
    public ReadOnlyStringProperty demoBannerProperty() {
        return demoBanner.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty workerStateProperty() {
        return workerState.getReadOnlyProperty();
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

    /** What the live refresh does on {@code p} between full refreshes: the rows on screen only. */
    public void onLiveRefresh(Page p, Runnable refresher) {
        liveRefreshers.put(p, refresher);
    }

    public void show(Page p) {
        page.set(p);
    }

    public void refreshCurrent() {
        refreshers.getOrDefault(page.get(), () -> { }).run();
        refreshCounts();
    }

    public void dismissBanner() {
        demoBanner.set(null);
    }

    /**
     * Checks the database: an empty one gets {@link #DEMO_CLAIMS} demo claims (with progress) and a banner
     * saying so. Then {@code whenReady} runs on the UI thread.
     */
    public void start(Runnable whenReady) {
        this.onReady = whenReady;
        tasks.submit("prepare the database", p -> {
            int claims = queries.countClaims(ClaimQuery.all());
            if (claims > 0) {
                return null;
            }
            p.update(0, DEMO_CLAIMS, "This database is empty: generating demo data");
            LocalDate today = queries.today();
            return demoData.apply(today)
                    .generate(DEMO_CLAIMS, DEMO_SEED, n -> p.update(n, DEMO_CLAIMS, "Generating demo claims"));
        }, (DemoData.Summary summary) -> {
            if (summary != null) {
                demoBanner.set("Demo data: this database was empty, so ClaimDesk filled it with "
                        + Formats.count(summary.claims()) + " synthetic claims and " + Formats.count(summary.outboxRows())
                        + " outbox rows (fake names, non-issuable tax ids). Deliveries go to the simulated state.");
            }
            startupProgress.set(1);
            startupText.set("");
            ready.set(true);
            refreshCounts();
            onReady.run();
        }, e -> {
            startupText.set("");
            notice.set(Notice.error("prepare the database " + databaseFile, e));
        }, update -> {
            startupProgress.set(update.fraction());
            startupText.set(update.message() + " (" + Formats.count(update.done()) + " of "
                    + Formats.count(update.total()) + ")");
        });
    }

    /** Pending and failed counts for the status bar; one read, skipped while the previous one runs. */
    public void refreshCounts() {
        if (countsInFlight || !ready.get()) {
            return;
        }
        countsInFlight = true;
        tasks.submit("count outbox rows", p -> queries.countOutboxByState(), counts -> {
            countsInFlight = false;
            pending.set(counts.getOrDefault(DeliveryState.PENDING, 0));
            failed.set(counts.getOrDefault(DeliveryState.FAILED, 0));
        }, e -> countsInFlight = false);
    }

    /** The status bar's view of the worker. */
    public void applyWorker(WorkerSnapshot s) {
        if (s == null) {
            return;
        }
        endpoint.set(s.endpoint());
        workerState.set(switch (s.runState()) {
            case STOPPED -> "Worker stopped";
            case RUNNING -> "Worker running";
            case PAUSED -> s.pausedBySystem() ? "Worker paused itself" : "Worker paused";
        });
        pending.set(s.pending());
        failed.set(s.failedTotal());
    }

    /**
     * The periodic tick: refreshes the counts, and the page on screen when deliveries moved since the last
     * tick (live refresh keeps the selection and scroll position). Most live refreshes reload only the rows
     * on screen; every {@value #FULL_REFRESH_EVERY}th also reloads counts and groups.
     */
    public void tick(WorkerSnapshot latest) {
        if (!ready.get()) {
            return;
        }
        long activity = latest == null ? 0 : latest.attemptsThisRun() + latest.sentTotal() + latest.failedTotal()
                + latest.pending();
        if (lastActivity >= 0 && activity != lastActivity) {
            Runnable full = refreshers.getOrDefault(page.get(), () -> { });
            Runnable light = liveRefreshers.getOrDefault(page.get(), full);
            (liveRefreshes++ % FULL_REFRESH_EVERY == 0 ? full : light).run();
        }
        lastActivity = activity;
        refreshCounts();
    }
}
