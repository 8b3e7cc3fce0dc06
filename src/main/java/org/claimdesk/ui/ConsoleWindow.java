package org.claimdesk.ui;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.ui.audit.AuditView;
import org.claimdesk.ui.audit.AuditViewModel;
import org.claimdesk.ui.claims.ClaimDetailView;
import org.claimdesk.ui.claims.ClaimImportDialogView;
import org.claimdesk.ui.claims.ClaimImportViewModel;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.claims.ClaimsExportViewModel;
import org.claimdesk.ui.claims.ClaimsView;
import org.claimdesk.ui.claims.ClaimsViewModel;
import org.claimdesk.ui.claims.NewClaimDialogView;
import org.claimdesk.ui.claims.NewClaimViewModel;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.ChangeBatches;
import org.claimdesk.ui.common.Coalescer;
import org.claimdesk.ui.common.DesktopFiles;
import org.claimdesk.ui.common.ConsoleExecutors;
import org.claimdesk.ui.common.Fxml;
import org.claimdesk.ui.common.FxTaskRunner;
import org.claimdesk.ui.common.LayoutMemory;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.PageControls;
import org.claimdesk.ui.common.RecordMethods;
import org.claimdesk.ui.common.SettingsKeeper;
import org.claimdesk.ui.common.TextSize;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.claimdesk.ui.common.ViewFactory;
import org.claimdesk.ui.main.MainView;
import org.claimdesk.ui.main.MainViewModel;
import org.claimdesk.ui.main.Page;
import org.claimdesk.ui.outbox.FixFieldViewModel;
import org.claimdesk.ui.outbox.OutboxRow;
import org.claimdesk.ui.outbox.OutboxView;
import org.claimdesk.ui.outbox.OutboxViewModel;
import org.claimdesk.ui.worker.RateHistory;
import org.claimdesk.ui.worker.WorkerView;
import org.claimdesk.ui.worker.WorkerViewModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root of the console window: builds the ViewModels on the given services, loads every
 * FXML through one controller factory, applies the theme and the remembered layout, and wires the
 * periodic refresh and the worker's snapshots. The worker is brought up (started, held paused or left
 * off) once the database is ready. {@link #close()} captures the layout and stops the threads.
 *
 * <p>The constructor builds the models and the main view's nodes and nothing that shows: it may run on the
 * launcher thread in {@code Application.init()}, while the FX thread loads the theme, as JavaFX allows for
 * nodes that are not in a shown window. On a team database it ends by queuing the page on screen's first read to
 * the FX thread, so that the read runs while the window is made. {@link #show(Stage)} makes the scene and the
 * window, on the FX thread.
 */
public final class ConsoleWindow {
    public static final String STYLESHEET = org.claimdesk.ui.common.Dialogs.STYLESHEET;
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleWindow.class);
    static final long TICK_MS = 2_000;
    /** Live updates from other workstations reach the page on screen at most this often, in ms. */
    static final long LIVE_UPDATE_SPACING_MS = 300;
    /** How long the console waits for the live updates to start before it reads the worker's pause again. */
    static final java.time.Duration LIVE_UPDATES_START_WITHIN = java.time.Duration.ofSeconds(10);
    /** Records the FX thread compares on every refresh (rows in place, notices, snapshots). */
    static final List<Class<? extends Record>> COMPARED_ON_FX_THREAD = List.of(ClaimRow.class, OutboxRow.class,
            OutboxEvent.class, AuditEntry.class, FailureGroup.class, Notice.class, WorkerSnapshot.class,
            RateHistory.Point.class);

    /** The window, from {@link #show(Stage)} on. */
    private Stage stage;
    private final ConsoleServices services;
    private final UiSettings settings;
    private final ConsoleExecutors executors = new ConsoleExecutors();
    private final LayoutMemory layout;
    /** Writes what staff change in the window's layout into this workstation's settings file. */
    private final SettingsKeeper kept;
    /**
     * A layout change (a column dragged, a divider moved, the window resized) is kept once the layout has not changed
     * for a second: a drag changes it at every pulse.
     */
    private final javafx.animation.PauseTransition layoutSettled =
            new javafx.animation.PauseTransition(javafx.util.Duration.seconds(1));
    /** Set by {@link #close()}: nothing is kept at once any more. FX thread. */
    private boolean closed;
    private final javafx.beans.value.ChangeListener<Object> windowChanged = (o, before, now) ->
            layoutSettled.playFromStart();
    private final MainViewModel main;
    private final ClaimsViewModel claims;
    private final OutboxViewModel outbox;
    private final WorkerViewModel worker;
    private final AuditViewModel audit;
    private final ClaimImportViewModel importer;
    private final ClaimsExportViewModel exporter;
    private Scene scene;
    private final javafx.scene.Parent mainRoot;
    private final FxTaskRunner tasks;
    private final ViewFactory views;
    /** The Claims page's controller, once the page is built. */
    private ClaimsView claimsView;
    private final MainView mainView;
    private javafx.scene.control.Dialog<?> newClaimDialog;
    private NewClaimViewModel newClaimForm;
    /** The import dialog's view, bound to {@link #importer} once and shown at every opening. */
    private ClaimImportDialogView importView;
    private final FixFieldViewModel fixes;
    /** Work running longer than this shows in the status bar. */
    private static final long BUSY_AFTER_MS = 1_000;
    private final javafx.animation.Timeline busyWatch;
    private final java.util.Set<Page> loaded = java.util.EnumSet.noneOf(Page.class);
    private volatile WorkerSnapshot latestSnapshot;
    private final Coalescer<WorkerSnapshot> toStatusBar;
    private final java.util.function.Consumer<WorkerSnapshot> workerListener;
    private AutoCloseable liveUpdates;

    /**
     * Builds the models and the main view; on the FX thread or, before {@link #show(Stage)}, on any one thread.
     *
     * @param settings what this workstation remembers, as read at start
     * @param settingsStore where a setting staff change is kept at once (start the worker with the console, the text
     *     size, the theme)
     */
    public ConsoleWindow(ConsoleServices services, UiSettings settings, UiSettingsStore settingsStore) {
        // the theme first: the first control made would otherwise load JavaFX's own theme, to be replaced
        applyTheme(settings.dark);
        this.services = services;
        this.settings = settings;
        this.layout = new LayoutMemory(settings);
        this.kept = new SettingsKeeper(settingsStore, this::notKept, this::settingsWritten);
        tasks = new FxTaskRunner(executors.background(), executors.interactive());
        main = new MainViewModel(services.databaseName(), services.demoDataWhenEmpty(), services.emptyNotice(),
                services.queries(), services.worker(),
                settings.startWorker, tasks,
                services.actor(), services.endpoint());
        claims = new ClaimsViewModel(services.queries(), services.workflow(), tasks, services.actor());
        outbox = new OutboxViewModel(services.queries(), services.triage(), services.resubmission(), tasks,
                services.actor());
        worker = new WorkerViewModel(services.worker(), tasks, services.actor(), settings.startWorker,
                on -> settingsStore.update(kept -> kept.startWorker = on));
        worker.startWithConsoleProperty().addListener((obs, old, on) -> settings.startWorker = on);
        audit = new AuditViewModel(services.queries(), tasks);
        importer = new ClaimImportViewModel(services.claimImport(), tasks, services.actor(), DesktopFiles::open);
        fixes = new FixFieldViewModel(services.bulkEdit(), services.resubmission(), tasks, services.actor());
        exporter = new ClaimsExportViewModel(services.claimExport(), services.queries(), tasks, services.actor());
        importer.setOnImported(() -> {
            claims.load();
            audit.refresh();
        });
        toStatusBar = new Coalescer<>(Platform::runLater, main::applyWorker);
        workerListener = s -> {
            latestSnapshot = s;
            toStatusBar.offer(s);
        };

        ViewFactory factory = new ViewFactory();
        views = factory
                .register(MainView.class, () -> new MainView(main))
                .register(ClaimsView.class, () -> new ClaimsView(claims, exporter, layout,
                        () -> factory.load(Fxml.CLAIM_DETAIL)))
                .register(ClaimDetailView.class, () -> new ClaimDetailView(claims))
                .register(OutboxView.class, () -> new OutboxView(outbox, fixes, layout))
                .register(WorkerView.class, () -> new WorkerView(worker))
                .register(AuditView.class, () -> new AuditView(audit, layout));
        ViewFactory.Loaded<MainView> mainLoaded = views.load(Fxml.MAIN);
        mainRoot = mainLoaded.root();
        mainView = mainLoaded.controller();
        // the text size staff chose, on the window and its dialogs from the first frame on
        main.textSizeProperty().set(TextSize.step(settings.textSize));
        TextSize.percentProperty().bind(main.textSizeProperty());
        // a size or theme staff choose is kept at once, not only when the console closes
        main.textSizeProperty().addListener((obs, old, size) -> keepWindow());
        main.darkProperty().addListener((obs, old, dark) -> keepWindow());
        TextSize.follow(mainRoot, TextSize.MAIN_WINDOW_PX);
        // the toolkit's list of windows is the FX thread's (the console may be built on another before it is shown)
        if (Platform.isFxApplicationThread()) {
            TextSize.popupsFollow();
        } else {
            Platform.runLater(TextSize::popupsFollow);
        }
        mainView.showBusy(null);
        busyWatch = new javafx.animation.Timeline(new javafx.animation.KeyFrame(javafx.util.Duration.millis(500),
                e -> mainView.showBusy(tasks.slowest(BUSY_AFTER_MS)
                        .map(w -> "Working: " + w.getKey() + "… " + (w.getValue() / 1000) + " s").orElse(null))));
        busyWatch.setCycleCount(javafx.animation.Animation.INDEFINITE);
        main.onRefresh(Page.CLAIMS, claims::refresh);
        outbox.setClaimFixer((claimId, field, message) -> {
            main.show(Page.CLAIMS);
            claims.editAtField(claimId, field, message);
        });
        outbox.setUnsavedEdit(claims::unsavedEdit);
        claims.setResubmitter(outboxEventId -> {
            main.show(Page.OUTBOX);
            outbox.prepareResubmit(outboxEventId);
        });
        // one count of the outbox rows per state for the status bar and the Outbox page
        outbox.countsFrom(new OutboxViewModel.CountsSource() {
            @Override
            public void now() {
                main.refreshCounts();
            }

            @Override
            public void whenDue() {
                main.refreshCountsWhenDue();
            }
        });
        main.outboxCountsProperty().addListener((obs, old, counts) -> outbox.showStateCounts(counts));
        main.onRefresh(Page.OUTBOX, outbox::refresh);
        main.onRefresh(Page.AUDIT, audit::refresh);
        // its counts move with another workstation's deliveries and re-queues, whether or not this one's worker runs
        main.onRefresh(Page.WORKER, worker::shown);
        main.onLiveRefresh(Page.CLAIMS, claims::refreshRows);
        main.onAuditElsewhere(Page.CLAIMS, claims::reloadDetail);
        main.onLiveRefresh(Page.OUTBOX, outbox::refreshRows);
        main.onClock(Page.OUTBOX, outbox::followClock);
        mainView.setActions(() -> outbox.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION),
                () -> stage.fireEvent(new javafx.stage.WindowEvent(stage, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST)));
        mainView.setNewClaimAction(this::newClaim);
        mainView.setImportAction(() -> {
            if (importView == null) {
                importView = ClaimImportDialogView.load(importer);
            }
            importView.show(stage);
        });

        // Every page, the one on screen first, is built right after the first frame, which shows the window
        // with its navigation, status bar and start-up progress at once.
        main.pageProperty().set(Page.parse(settings.page));
        main.darkProperty().set(settings.dark);
        markDark(settings.dark);
        main.darkProperty().addListener((obs, old, dark) -> {
            applyTheme(dark);
            markDark(dark);
        });

        startupReads.put(Page.CLAIMS, claims::load);
        startupReads.put(Page.OUTBOX, outbox::load);
        startupReads.put(Page.AUDIT, audit::applyFilters);
        // The page on screen's read is what staff wait for. From a server it is started here, queued to the FX
        // thread, which owns the models: built in init, the console reads it while the toolkit makes the window. A
        // file's read is short, hidden behind the page's build once the window is shown; started here it only
        // took the processors from the window's (the first frame 0.1-0.3 s later at 1,000,000 claims).
        onScreenRead = startupReads.remove(main.pageProperty().get());
        readBeforeShown = onScreenRead != null && services.onServer();
        if (readBeforeShown) {
            Platform.runLater(onScreenRead);
        }
    }

    /**
     * File › New claim… (Ctrl+N): the new-claim form, beside the console; the claim it creates, or the one it finds
     * already open, is shown selected in the Claims page. A second Ctrl+N brings the open form to the front.
     */
    private void newClaim() {
        if (newClaimDialog != null && newClaimDialog.isShowing()) {
            newClaimForm.keepFilingDateToday();
            ((Stage) newClaimDialog.getDialogPane().getScene().getWindow()).toFront();
            return;
        }
        NewClaimViewModel form = new NewClaimViewModel(services.workflow().intake(), services.workflow().evidence(),
                tasks, services.actor(), services.queries()::today, (claimId, claimNumber, created) -> {
                    main.show(Page.CLAIMS);
                    claims.showOnly(claimId, claimNumber, created);
                });
        newClaimForm = form;
        newClaimDialog = NewClaimDialogView.open(stage, form);
    }

    /**
     * What closing the console now would lose or cut short, in staff's words; null when nothing: an edit not saved, a
     * new claim's form filled in, an action, import or export still running.
     */
    public String unfinishedWork() {
        List<String> parts = new ArrayList<>();
        if (claims.editor().dirtyProperty().get()) {
            parts.add("the claim being edited has changes not saved");
        }
        if (claims.editor().busyProperty().get()) {
            parts.add("a claim's change is still being saved");
        }
        if (claims.editor().evidenceBusyProperty().get()) {
            parts.add("an evidence change is still being saved");
        }
        if (claims.busyProperty().get()) {
            parts.add("a claim's action is still running");
        }
        if (newClaimDialog != null && newClaimDialog.isShowing() && newClaimForm.dirty()) {
            parts.add(newClaimForm.unsaved());
        }
        if (outbox.writingProperty().get() || fixes.runningProperty().get()) {
            parts.add("an action on outbox rows is still running");
        }
        if (importer.running()) {
            parts.add("an import is still running");
        }
        if (exporter.exportingProperty().get() || audit.exportingProperty().get()) {
            parts.add("an export is still being written");
        }
        return parts.isEmpty() ? null : String.join("; ", parts);
    }

    /** Asks before the window closes (its close button, File › Exit) when {@link #unfinishedWork()} says anything. */
    private void confirmClose(javafx.stage.WindowEvent close) {
        String unfinished = unfinishedWork();
        if (unfinished != null && !Dialogs.confirm(stage, "Quit ClaimDesk?", "Quit ClaimDesk now? "
                + Character.toUpperCase(unfinished.charAt(0)) + unfinished.substring(1)
                + ": quitting loses it, or stops it where it is.", "Quit")) {
            close.consume();
        }
    }

    /** Loads the FXML of {@code page} once and hands it to the main view. */
    private void loadPage(Page page) {
        if (loaded.contains(page)) {
            return;
        }
        loaded.add(page);
        switch (page) {
            case CLAIMS -> {
                ViewFactory.Loaded<ClaimsView> l = views.load(Fxml.CLAIMS);
                claimsView = l.controller();
                mainView.addPage(page, l.root(), controls(claims::refresh, l.controller()::focusSearch,
                        l.controller()::focusMain));
            }
            case OUTBOX -> {
                ViewFactory.Loaded<OutboxView> l = views.load(Fxml.OUTBOX);
                mainView.addPage(page, l.root(), controls(outbox::refresh, l.controller()::focusSearch,
                        l.controller()::focusMain));
            }
            case WORKER -> {
                ViewFactory.Loaded<WorkerView> l = views.load(Fxml.WORKER);
                mainView.addPage(page, l.root(), controls(worker::shown, () -> { }, l.controller()::focusMain));
            }
            case AUDIT -> {
                ViewFactory.Loaded<AuditView> l = views.load(Fxml.AUDIT);
                mainView.addPage(page, l.root(), controls(audit::refresh, l.controller()::focusSearch,
                        l.controller()::focusMain));
            }
        }
    }

    private static PageControls controls(Runnable refresh, Runnable search, Runnable main) {
        return new PageControls() {
            @Override
            public void refresh() {
                refresh.run();
            }

            @Override
            public void focusSearch() {
                search.run();
            }

            @Override
            public void focusMain() {
                main.run();
            }
        };
    }

    /** The smallest window the pages are laid out for, on a screen that has room for it. */
    private static final double MIN_WIDTH = 960;
    private static final double MIN_HEIGHT = 600;

    private void placeWindow() {
        // never larger than the screen: at 150 or 200 % scaling the default size (1440 x 900) would reach past it,
        // the status bar below its edge
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        stage.setMinWidth(Math.min(MIN_WIDTH, screen.getWidth()));
        stage.setMinHeight(Math.min(MIN_HEIGHT, screen.getHeight()));
        stage.setWidth(Math.min(settings.width, screen.getWidth()));
        stage.setHeight(Math.min(settings.height, screen.getHeight()));
        if (!Double.isNaN(settings.x) && !Double.isNaN(settings.y)) {
            boolean onScreen = Screen.getScreens().stream().map(Screen::getVisualBounds)
                    .anyMatch((Rectangle2D b) -> b.contains(settings.x + 40, settings.y + 20));
            if (onScreen) {
                stage.setX(settings.x);
                stage.setY(settings.y);
            }
        }
        stage.setMaximized(settings.maximized);
    }

    /** The dark theme's own colours in the console's stylesheet hang on the root's {@code dark} class. */
    private void markDark(boolean dark) {
        if (dark) {
            if (!mainRoot.getStyleClass().contains("dark")) {
                mainRoot.getStyleClass().add("dark");
            }
        } else {
            mainRoot.getStyleClass().remove("dark");
        }
    }

    /**
     * Sets the theme. Off the FX thread JavaFX takes the setting at once and loads the stylesheet on the FX
     * thread, in the order of its other events.
     */
    static void applyTheme(boolean dark) {
        // The theme's stylesheet in its binary form: JavaFX loads it without parsing CSS text.
        String stylesheet = dark ? new PrimerDark().getUserAgentStylesheetBSS()
                : new PrimerLight().getUserAgentStylesheetBSS();
        if (!stylesheet.equals(Application.getUserAgentStylesheet())) {
            Application.setUserAgentStylesheet(stylesheet);
        }
    }

    /**
     * Puts the console in {@code window} and shows it, on the FX thread; then reads the page on screen (unless the
     * constructor did) and builds it while the database is prepared (demo data when empty: the page is read again
     * after it), and then builds and fills the other pages: until the page on screen has its rows, the FX thread and
     * the processors work for it alone (at 1,000,000 claims the other pages' first reads and views take seconds).
     */
    public void show(Stage window) {
        stage = window;
        scene = new Scene(mainRoot, settings.width, settings.height);
        scene.getStylesheets().add(ConsoleWindow.class.getResource(STYLESHEET).toExternalForm());
        stage.setScene(scene);
        stage.setOnCloseRequest(this::confirmClose);
        stage.setTitle("ClaimDesk — " + services.databaseTitle());
        placeWindow();
        busyWatch.play();
        stage.show();
        mainView.warmHiddenPagesAfter(this::idle);
        // the claim's detail is built when start-up is idle, so that the first selection only joins it
        afterLayoutWhen(this::idle, () -> claimsView.prepareDetail());
        // and the main view's tooltips (each a window of its own, 40 ms together at start), which nobody reads sooner
        afterLayoutWhen(this::idle, mainView::addTooltips);
        // from then on what staff change in the window's layout is kept at once (start-up's own layout is not theirs)
        afterLayoutWhen(this::idle, this::keepLayoutChanges);
        // the first frame is the window's frame (navigation, status bar, start-up progress); the page follows it
        afterLayoutWhen(() -> true, () -> loadPage(main.pageProperty().get()));
        main.pageProperty().addListener((obs, old, page) -> {
            loadPage(page);
            restOfStartup.run();
        });
        services.worker().addListener(workerListener);
        if (onScreenRead != null && !readBeforeShown) {
            onScreenRead.run();
        }
        main.start(() -> {
            if (onScreenRead != null && main.filledAtStart()) {
                onScreenRead.run();
            }
            // the page on screen has its rows once it is built and no read runs (its read may end before its build)
            afterLayoutWhen(() -> loaded.contains(main.pageProperty().get()) && tasks.running() == 0, restOfStartup);
            worker.attach();
            executors.every(TICK_MS, "live refresh", () -> Platform.runLater(() -> main.tick(latestSnapshot)));
            // spaced on the monotonic clock: a wall clock set back would hold every later change until it caught up
            ChangeBatches toPages = new ChangeBatches(executors::after, LIVE_UPDATE_SPACING_MS,
                    () -> System.nanoTime() / 1_000_000,
                    changes -> Platform.runLater(() -> main.changedElsewhere(changes)));
            org.claimdesk.app.LiveChanges live = services.liveChanges();
            liveUpdates = live.subscribe(toPages::offer);
            if (live.live()) {
                main.watchLiveUpdates(live::connected);
                main.catchUpOnceHeard(() -> live.awaitListening(LIVE_UPDATES_START_WITHIN));
            }
            // bound here, off the FX thread, rather than inside the pulse of the first refresh that compares them
            tasks.submit("prepare row comparisons", p -> {
                COMPARED_ON_FX_THREAD.forEach(RecordMethods::bind);
                return null;
            }, done -> { }, e -> LOG.debug("binding the row types' equals and hashCode failed", e));
        });
    }

    /** The other pages' first reads, run by {@link #restOfStartup} once the page on screen has its rows. */
    private final Map<Page, Runnable> startupReads = new EnumMap<>(Page.class);
    /** The page on screen's first read (null for a page without one); run again after demo data fill the database. */
    private final Runnable onScreenRead;
    /** Whether the constructor started {@link #onScreenRead}, the database being on a server. */
    private final boolean readBeforeShown;

    /** The other pages' first reads and views; once, when the page on screen has its rows or staff leave it. */
    private final Runnable restOfStartup = new Runnable() {
        private boolean done;

        @Override
        public void run() {
            if (done || !main.readyProperty().get()) {
                return;
            }
            done = true;
            startupReads.values().forEach(Runnable::run);
            startupReads.clear();
            for (Page page : Page.values()) {
                // one page per event, so that frames are drawn between them
                Platform.runLater(() -> loadPage(page));
            }
        }
    };

    /**
     * Runs {@code then} once on the FX thread, after the first pulse whose layout finds {@code condition} true, as an
     * event of its own: the frame that pulse laid out goes to the renderer first and is painted while {@code then}
     * runs.
     */
    private void afterLayoutWhen(BooleanSupplier condition, Runnable then) {
        scene.addPostLayoutPulseListener(new Runnable() {
            private boolean done;

            @Override
            public void run() {
                if (!done && condition.getAsBoolean()) {
                    done = true;
                    Platform.runLater(() -> {
                        scene.removePostLayoutPulseListener(this);
                        then.run();
                    });
                }
            }
        });
    }

    /** True once every page is built and no background work is running or queued. */
    public boolean idle() {
        return loaded.size() == Page.values().length && tasks.running() == 0;
    }

    /** Whether start-up's warm-up of the hidden pages is over (they are hidden again and stay so until shown). */
    public boolean hiddenPagesWarmed() {
        return mainView.warmedUp();
    }

    public Scene scene() {
        return scene;
    }

    /** The Claims page's controller; null until the page is built. */
    public ClaimsView claimsView() {
        return claimsView;
    }

    public MainViewModel mainModel() {
        return main;
    }

    public ClaimsViewModel claimsModel() {
        return claims;
    }

    public OutboxViewModel outboxModel() {
        return outbox;
    }

    public WorkerViewModel workerModel() {
        return worker;
    }

    public ClaimsExportViewModel exportModel() {
        return exporter;
    }

    public ClaimImportViewModel importModel() {
        return importer;
    }

    public AuditViewModel auditModel() {
        return audit;
    }

    /**
     * Writes the window's settings as they are on screen (bounds, theme, text size, page, splits, columns) into this
     * workstation's file, on the keeper's thread: what staff change is kept at once, not only when the console closes.
     */
    private void keepWindow() {
        if (stage == null || closed) {
            return;
        }
        layoutSettled.stop();
        UiSettings now = captureSettings();
        kept.keep(file -> file.takeWindowOf(now));
    }

    /** Keeps the layout once it settles after each change: splits, columns, the window's bounds, the page shown. */
    private void keepLayoutChanges() {
        if (closed) {
            // closed before start-up was idle
            return;
        }
        layoutSettled.setOnFinished(e -> keepWindow());
        layout.onChange(layoutSettled::playFromStart);
        main.pageProperty().addListener(windowChanged);
        windowBounds().forEach(p -> p.addListener(windowChanged));
    }

    /** The window's bounds and whether it is maximized, as kept in the settings. */
    private List<javafx.beans.value.ObservableValue<?>> windowBounds() {
        return List.of(stage.xProperty(), stage.yProperty(), stage.widthProperty(), stage.heightProperty(),
                stage.maximizedProperty());
    }

    /** On the keeper's thread: the window's settings were written (a notice that they could not be goes). */
    private void settingsWritten() {
        Platform.runLater(main::settingsKept);
    }

    /** On a background thread: the window's settings could not be written; staff are told (and it is logged). */
    private void notKept(RuntimeException e) {
        LOG.warn("cannot keep the window's settings: {}", e.getMessage());
        Platform.runLater(() -> main.settingsNotKept(e.getMessage()));
    }

    /** Captures window bounds, theme, page and layout into the settings; FX thread. */
    public UiSettings captureSettings() {
        layout.capture();
        settings.maximized = stage.isMaximized();
        if (!stage.isMaximized() && !stage.isIconified()) {
            settings.x = stage.getX();
            settings.y = stage.getY();
            settings.width = stage.getWidth();
            settings.height = stage.getHeight();
        }
        settings.dark = main.darkProperty().get();
        settings.textSize = main.textSizeProperty().get();
        settings.page = main.pageProperty().get().name();
        return settings.copy();
    }

    /**
     * Stops listening to the worker and ends the console's threads (waiting for running reads). An import, an export or
     * a fix still running (staff chose to quit anyway) is asked to stop at its next batch first, as its Cancel does,
     * so that it ends at a batch's edge rather than when the database closes under it.
     */
    public void close() {
        // nothing more is kept at once: the close keeps the window as it is left
        closed = true;
        layout.onChange(() -> { });
        main.pageProperty().removeListener(windowChanged);
        if (stage != null) {
            windowBounds().forEach(p -> p.removeListener(windowChanged));
        }
        layoutSettled.stop();
        kept.stop();
        // the console's windows go: the text size is no longer theirs
        TextSize.percentProperty().unbind();
        TextSize.percentProperty().set(TextSize.NORMAL);
        importer.cancel();
        exporter.cancel();
        fixes.cancel();
        busyWatch.stop();
        if (liveUpdates != null) {
            try {
                liveUpdates.close();
            } catch (Exception e) {
                LOG.debug("stopping the live updates failed", e);
            }
        }
        services.worker().removeListener(workerListener);
        worker.detach();
        executors.close();
    }
}
