package org.claimdesk.ui.main;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.common.NoticeLabel;
import org.claimdesk.ui.common.PageControls;

/** The main window: menus and shortcuts, navigation, the start-up banner, the page area and the status bar. */
public final class MainView {
    /** How long hidden pages are laid out after start-up (see {@link #warmHiddenPagesAfter}). */
    static final int WARM_UP_PULSES = 20;
    private volatile boolean warmedUp;

    private final MainViewModel model;
    private final Map<Page, Node> pageNodes = new EnumMap<>(Page.class);
    private final Map<Page, PageControls> pageControls = new EnumMap<>(Page.class);
    private Runnable requeueSelected = () -> { };
    private Runnable exit = () -> { };
    private Runnable newClaim = () -> { };
    private Map<Page, ToggleButton> navButtons = Map.of();

    @FXML private javafx.scene.control.MenuBar menuBar;
    @FXML private MenuItem newClaimMenuItem;
    private Runnable importClaims = () -> { };

    @FXML private MenuItem importMenuItem;
    @FXML private MenuItem refreshMenuItem;
    @FXML private MenuItem exitMenuItem;
    @FXML private MenuItem findMenuItem;
    @FXML private MenuItem requeueMenuItem;
    @FXML private MenuItem claimsMenuItem;
    @FXML private MenuItem outboxMenuItem;
    @FXML private MenuItem workerMenuItem;
    @FXML private MenuItem auditMenuItem;
    @FXML private CheckMenuItem darkMenuItem;
    @FXML private MenuItem largerTextMenuItem;
    @FXML private MenuItem smallerTextMenuItem;
    @FXML private MenuItem normalTextMenuItem;
    @FXML private MenuItem shortcutsMenuItem;
    @FXML private HBox demoBanner;
    @FXML private Label demoBannerText;
    @FXML private Button dismissBannerButton;
    @FXML private ToggleButton claimsNav;
    @FXML private ToggleButton outboxNav;
    @FXML private ToggleButton workerNav;
    @FXML private ToggleButton auditNav;
    @FXML private Label actorLabel;
    @FXML private StackPane pages;
    @FXML private VBox startupPane;
    @FXML private Label startupLabel;
    @FXML private ProgressBar startupProgress;
    @FXML private Label mainNotice;
    @FXML private Label workerStatus;
    @FXML private Label endpointStatus;
    @FXML private Label pendingStatus;
    @FXML private Label failedStatus;
    @FXML private Label liveStatus;
    @FXML private Label databaseStatus;
    @FXML private Label busyStatus;

    public MainView(MainViewModel model) {
        this.model = model;
    }

    @FXML
    private void initialize() {
        ToggleGroup nav = new ToggleGroup();
        Map<Page, ToggleButton> buttons = Map.of(Page.CLAIMS, claimsNav, Page.OUTBOX, outboxNav, Page.WORKER, workerNav,
                Page.AUDIT, auditNav);
        navButtons = buttons;
        buttons.forEach((page, button) -> {
            button.setToggleGroup(nav);
            button.setOnAction(e -> {
                model.show(page);
                button.setSelected(true);
            });
        });
        model.pageProperty().addListener((obs, old, page) -> showPage(page, buttons));
        showPage(model.pageProperty().get(), buttons);
        claimsMenuItem.setOnAction(e -> model.show(Page.CLAIMS));
        outboxMenuItem.setOnAction(e -> model.show(Page.OUTBOX));
        workerMenuItem.setOnAction(e -> model.show(Page.WORKER));
        auditMenuItem.setOnAction(e -> model.show(Page.AUDIT));
        refreshMenuItem.setOnAction(e -> model.refreshCurrent());
        newClaimMenuItem.setOnAction(e -> newClaim.run());
        findMenuItem.setOnAction(e -> {
            PageControls c = pageControls.get(model.pageProperty().get());
            if (c != null) {
                c.focusSearch();
            }
        });
        requeueMenuItem.setOnAction(e -> {
            model.show(Page.OUTBOX);
            requeueSelected.run();
        });
        exitMenuItem.setOnAction(e -> exit.run());
        importMenuItem.setOnAction(e -> importClaims.run());
        importMenuItem.disableProperty().bind(model.readyProperty().not());
        darkMenuItem.selectedProperty().bindBidirectional(model.darkProperty());
        // Ctrl+= whether or not Shift is down (Ctrl++ on most keyboards), Ctrl+-, Ctrl+0; the keypad's +, - and 0 and a
        // + key of its own too
        largerTextMenuItem.setAccelerator(new KeyCodeCombination(KeyCode.EQUALS, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.SHIFT_ANY));
        smallerTextMenuItem.setAccelerator(new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN));
        normalTextMenuItem.setAccelerator(new KeyCodeCombination(KeyCode.DIGIT0, KeyCombination.SHORTCUT_DOWN));
        largerTextMenuItem.setOnAction(e -> model.largerText());
        smallerTextMenuItem.setOnAction(e -> model.smallerText());
        normalTextMenuItem.setOnAction(e -> model.normalText());
        menuBar.sceneProperty().addListener((obs, old, scene) -> {
            if (scene != null) {
                scene.getAccelerators().put(new KeyCodeCombination(KeyCode.ADD, KeyCombination.SHORTCUT_DOWN),
                        model::largerText);
                // a keyboard with a + key of its own (German, say)
                scene.getAccelerators().put(new KeyCodeCombination(KeyCode.PLUS, KeyCombination.SHORTCUT_DOWN,
                        KeyCombination.SHIFT_ANY), model::largerText);
                scene.getAccelerators().put(new KeyCodeCombination(KeyCode.SUBTRACT, KeyCombination.SHORTCUT_DOWN),
                        model::smallerText);
                scene.getAccelerators().put(new KeyCodeCombination(KeyCode.NUMPAD0, KeyCombination.SHORTCUT_DOWN),
                        model::normalText);
            }
        });
        shortcutsMenuItem.setOnAction(e -> Dialogs.keys(pages.getScene().getWindow(), "Keyboard shortcuts", List.of(
                Map.entry("Ctrl+N", "new claim"),
                Map.entry("Ctrl+1 … Ctrl+4", "Claims, Outbox, Worker, Audit"),
                Map.entry("Ctrl+F", "search on the current page"),
                Map.entry("F5", "refresh the current page"),
                Map.entry("Ctrl+R", "re-queue the selected outbox rows"),
                Map.entry("Ctrl+Shift+E", "fix the selected failed row's claim"),
                Map.entry("Ctrl+Enter", "select the error group's next failed row"),
                Map.entry("Ctrl+E", "edit the selected claim"),
                Map.entry("Ctrl+S", "save the edit"),
                Map.entry("Esc", "cancel the edit"),
                Map.entry("Shift+F10", "the table's menu: sort, columns"),
                Map.entry("Ctrl+I", "import claims from a CSV file"),
                Map.entry("Ctrl+Shift+D", "dark theme"),
                Map.entry("Ctrl+= / Ctrl+-", "larger / smaller text"),
                Map.entry("Ctrl+0", "normal text size"),
                Map.entry("Ctrl+Q", "exit")),
                "In a question's reason box: Enter answers it, Shift+Enter starts a new line, Tab moves on."));

        demoBannerText.textProperty().bind(model.bannerProperty());
        demoBanner.visibleProperty().bind(model.bannerProperty().isNotNull());
        demoBanner.managedProperty().bind(demoBanner.visibleProperty());
        dismissBannerButton.setOnAction(e -> model.dismissBanner());

        startupPane.visibleProperty().bind(model.readyProperty().not());
        startupLabel.textProperty().bind(model.startupTextProperty());
        startupProgress.progressProperty().bind(model.startupProgressProperty());
        NoticeLabel.bind(mainNotice, model.noticeProperty());

        actorLabel.setText("Signed in as " + model.actor());
        workerStatus.textProperty().bind(model.workerStateProperty());
        model.workerHeldProperty().addListener((obs, old, held) -> {
            workerStatus.getStyleClass().remove("status-warning");
            if (held) {
                workerStatus.getStyleClass().add("status-warning");
            }
        });
        endpointStatus.textProperty().bind(model.endpointProperty().map(e -> "State: " + e));
        pendingStatus.textProperty().bind(model.pendingProperty().map(n -> Formats.count(n.longValue()) + " pending"));
        failedStatus.textProperty().bind(model.failedProperty().map(n -> Formats.count(n.longValue()) + " failed"));
        model.failedProperty().addListener((obs, old, n) -> {
            failedStatus.getStyleClass().remove("status-danger");
            if (n.longValue() > 0) {
                failedStatus.getStyleClass().add("status-danger");
            }
        });
        liveStatus.textProperty().bind(model.liveUpdatesProperty());
        liveStatus.visibleProperty().bind(model.liveUpdatesProperty().isNotNull());
        liveStatus.managedProperty().bind(liveStatus.visibleProperty());
        liveStatus.getStyleClass().add("status-live");
        model.liveUpdatesLostProperty().addListener((obs, old, lost) -> {
            liveStatus.getStyleClass().removeAll("status-warning", "status-live");
            liveStatus.getStyleClass().add(lost ? "status-warning" : "status-live");
        });
        databaseStatus.textProperty().bind(model.databasePathProperty().map(p -> "Database: " + p));
    }

    /**
     * The navigation's and the status bar's tooltips. A tooltip is a window of its own, so they are made on the
     * FX thread once the console is shown, not with the view (which may be built before, on another thread).
     */
    public void addTooltips() {
        navButtons.forEach((page, button) ->
                button.setTooltip(new Tooltip(Keys.say(page.title() + " (Ctrl+" + (page.ordinal() + 1) + ")"))));
        workerStatus.setTooltip(new Tooltip());
        workerStatus.getTooltip().textProperty().bind(model.workerStateProperty());
        liveStatus.setTooltip(new Tooltip("Changes made on other workstations show on this console's pages as they"
                + " are saved"));
        databaseStatus.setTooltip(new Tooltip());
        databaseStatus.getTooltip().textProperty().bind(model.databasePathProperty());
    }

    /** What Ctrl+R and File › Exit do. */
    /** Shows what has been running a while (or nothing): "Working: advance claim… 12 s". */
    public void showBusy(String text) {
        busyStatus.setText(text == null ? "" : text);
        busyStatus.setVisible(text != null);
        busyStatus.setManaged(text != null);
    }

    /** What File › Import claims… does. */
    public void setImportAction(Runnable action) {
        this.importClaims = action;
    }

    public void setActions(Runnable requeue, Runnable exitAction) {
        this.requeueSelected = requeue;
        this.exit = exitAction;
    }

    /** What File › New claim… (Ctrl+N) does. */
    public void setNewClaimAction(Runnable action) {
        this.newClaim = action;
    }

    /**
     * Puts a loaded page into the page area, under the start-up overlay, in a {@link PageHolder} that keeps
     * it out of the layout pass while it is hidden.
     */
    public void addPage(Page page, Parent node, PageControls controls) {
        pageNodes.put(page, node);
        pageControls.put(page, controls);
        node.setVisible(page == model.pageProperty().get());
        if (page == model.pageProperty().get()) {
            focusPage(page);
        }
        pages.getChildren().add(pages.getChildren().size() - 1, new PageHolder(node));
    }

    /**
     * Once {@code startupDone} says so (every page built and filled), shows the hidden pages for a moment
     * ({@value #WARM_UP_PULSES} pulses, about a third of a second) under the page on screen, whose opaque
     * background covers them, and out of the mouse's reach; then hides them again. JavaFX makes a table's
     * rows and cells only while the table is visible, over several pulses, and the renderer fills its
     * caches (region backgrounds, glyphs) the first time it draws them: without this, the first visit to
     * a page would do all of that in long pulses while staff wait for it.
     */
    public void warmHiddenPagesAfter(BooleanSupplier startupDone) {
        Scene scene = pages.getScene();
        scene.addPostLayoutPulseListener(new Runnable() {
            private List<Node> warming;
            private int pulses;

            @Override
            public void run() {
                if (warmedUp) {
                    return;
                }
                if (warming == null) {
                    if (startupDone.getAsBoolean()) {
                        start();
                    }
                    return;
                }
                if (++pulses >= WARM_UP_PULSES) {
                    Page current = model.pageProperty().get();
                    pageNodes.forEach((p, n) -> {
                        n.setMouseTransparent(false);
                        n.setVisible(p == current);
                    });
                    warmedUp = true;
                    Platform.runLater(() -> scene.removePostLayoutPulseListener(this));
                }
            }

            private void start() {
                Node shown = pageNodes.get(model.pageProperty().get());
                warming = new ArrayList<>();
                pageNodes.values().stream().filter(n -> n != shown).forEach(warming::add);
                if (shown != null) {
                    shown.getParent().toFront();
                }
                startupPane.toFront();
                for (Node n : warming) {
                    n.setMouseTransparent(true);
                    n.setVisible(true);
                }
            }
        });
    }

    /** Whether {@link #warmHiddenPagesAfter}'s warm-up has run and hidden the other pages again. */
    public boolean warmedUp() {
        return warmedUp;
    }

    private void showPage(Page page, Map<Page, ToggleButton> buttons) {
        if (page == null) {
            return;
        }
        pageNodes.forEach((p, node) -> node.setVisible(p == page));
        focusPage(page);
        buttons.get(page).setSelected(true);
    }

    /**
     * The page switched to takes the focus (its table): the control that had it is hidden with the page it was on,
     * and JavaFX would hand it to whichever control comes next (another page's filter, a navigation button). Given
     * after the switch's own event: a flow that focuses a field of the page once its claim is read comes after it.
     */
    private void focusPage(Page page) {
        // a page visited for the first time is built after this (the window's own listener): looked up after it
        Platform.runLater(() -> {
            Node node = pageNodes.get(page);
            PageControls controls = pageControls.get(page);
            if (node == null || controls == null || page != model.pageProperty().get()) {
                return;
            }
            if (node.isVisible()) {
                controls.focusMain();
            }
        });
    }
}
