package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.claimdesk.app.Queries;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.store.Database;
import org.claimdesk.ui.ConsoleServices;
import org.claimdesk.ui.ConsoleWindow;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import java.util.Set;
import javafx.scene.input.KeyCode;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.claims.ClaimRow;
import org.testfx.matcher.control.LabeledMatchers;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole console on a real temporary database, the real delivery worker and a fast simulated state,
 * loaded from the real FXML in a headless (Monocle) stage. Every uncaught exception on any thread fails
 * the test that caused it.
 */
abstract class ConsoleFxTest {
    static final int CLAIMS = 1_500;

    @TempDir
    Path dir;

    ConsoleServices services;
    /** The test being run, known before its database opens. */
    TestInfo testInfo;
    ConsoleWindow window;
    Database db;
    Queries queries;
    final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Thread.UncaughtExceptionHandler previous;

    final FxRobot robot = new FxRobot();

    @BeforeEach
    void startConsole(TestInfo test) throws Exception {
        WaitForAsyncUtils.autoCheckException = true;
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        testInfo = test;
        db = openDatabase();
        prepare(db, test);
        queries = TestDatabases.queries(db);
        SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()
                .withLatency(Duration.ofMillis(20))));
        WorkerSettings settings = WorkerSettings.defaults().withInterval(Duration.ofMillis(300)).withConcurrency(2)
                .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
        services = ConsoleServices.on(db, state, settings);
        UiSettings ui = settings();
        Stage stage = FxToolkit.registerPrimaryStage();
        // built here, off the FX thread, as the console builds it in Application.init(); shown on the FX thread
        window = new ConsoleWindow(services, ui, new UiSettingsStore(dir.resolve("settings")));
        FxToolkit.setupFixture(() -> {
            Thread.currentThread().setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
            window.show(stage);
            shown(window);
        });
    }

    /** What a test does on the FX thread right after the window is shown, before its first pulse. */
    void shown(ConsoleWindow shownWindow) {
    }

    /**
     * The remembered settings the window starts with: the worker does not start with the console, so each
     * test starts it (or not) itself.
     */
    UiSettings settings() {
        UiSettings ui = new UiSettings();
        ui.width = 1440;
        ui.height = 900;
        ui.startWorker = false;
        return ui;
    }

    /** The database the console opens: a file in {@link #dir} with {@value #CLAIMS} demo claims. */
    Database openDatabase() {
        return TestDatabases.demo(dir, CLAIMS);
    }

    /** What a test does to the database before the console opens it. */
    void prepare(Database database, TestInfo test) {
    }

    @AfterEach
    void closeConsole() throws Exception {
        if (window != null) {
            WaitForAsyncUtils.asyncFx(() -> window.close()).get(10, TimeUnit.SECONDS);
        }
        FxToolkit.cleanupStages();
        if (services != null) {
            services.close();
        }
        Thread.setDefaultUncaughtExceptionHandler(previous);
        assertThat(uncaught).as("exceptions that escaped to a thread").isEmpty();
    }

    /**
     * A picture of the console's window, into {@code target/screenshots} or the folder the system property
     * {@code claimdesk.screenshots} names (docs/screenshots to refresh the documentation's pictures).
     */
    void snapshot(String name) throws Exception {
        snapshot(name, onFx(window::scene));
    }

    /** As {@link #snapshot(String)}, for another window's scene (a dialog). */
    static void snapshot(String name, Scene scene) throws Exception {
        Path out = Path.of(System.getProperty("claimdesk.screenshots", "target/screenshots"));
        Files.createDirectories(out);
        WritableImage image = onFx(() -> scene.snapshot(null));
        ImageIO.write(SwingFXUtils.fromFXImage(image, null), "png",
                out.resolve(name + ".png").toFile());
    }

    /**
     * Types {@code reason} into the reason dialog once it is open: the dialog comes up after its preview was read
     * off the FX thread, which takes longer on a busy machine.
     */
    void typeReason(String reason) {
        waitUntil("the reason dialog opens", () -> robot.lookup("#reasonField").tryQuery()
                .map(javafx.scene.Node::isVisible).orElse(false));
        robot.clickOn("#reasonField").write(reason);
    }

    /** Waits (polling, no sleeps) until {@code condition} holds on the FX thread. */
    static void waitUntil(String what, Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> {
                Boolean ok = WaitForAsyncUtils.asyncFx(condition).get(5, TimeUnit.SECONDS);
                return Boolean.TRUE.equals(ok);
            });
        } catch (TimeoutException e) {
            throw new AssertionError("timed out waiting until " + what, e);
        }
    }

    /** Waits until a pulse has laid out {@code node}'s scene after this call (it asks for one). */
    static void waitForLayoutPulse(Node node) {
        java.util.concurrent.atomic.AtomicBoolean laidOut = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable listener = () -> laidOut.set(true);
        fx(() -> {
            node.getScene().addPostLayoutPulseListener(listener);
            Platform.requestNextPulse();
        });
        waitUntil("a layout pulse", laidOut::get);
        fx(() -> node.getScene().removePostLayoutPulseListener(listener));
    }

    static <T> T onFx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    Claim firstClaim(ClaimStatus status) {
        return queries.claims(ClaimQuery.all().withStatuses(Set.of(status)).withPage(0, 1)).get(0);
    }

    void selectClaim(Claim claim) {
        robot.clickOn("#claimSearch").write(claim.claimNumber()).type(KeyCode.ENTER);
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        waitUntil("the claim is the only row", () -> table.getItems().size() == 1);
        waitUntil("the row is drawn", () -> robot.lookup("#claimsTable .table-cell")
                .match(LabeledMatchers.hasText(claim.claimNumber())).tryQuery().isPresent());
        robot.clickOn(robot.lookup("#claimsTable .table-cell").match(LabeledMatchers.hasText(claim.claimNumber()))
                .queryAs(javafx.scene.Node.class));
        waitUntil("its detail shows", () -> window.claimsModel().detailProperty().get() != null
                && window.claimsModel().detailProperty().get().claim().claimId() == claim.claimId());
    }

    /** Clicks the claim detail's tab named {@code title} (the page list has an "Audit" too). */
    void chooseDetailTab(String title) {
        robot.clickOn(robot.lookup("#detailTabs .tab-label").match(LabeledMatchers.hasText(title))
                .queryAs(javafx.scene.Node.class));
    }

    void waitReady() {
        waitUntil("the console is ready", () -> window.mainModel().readyProperty().get()
                && !robot.lookup("#claimsTable").queryAs(TableView.class).getItems().isEmpty());
    }

    /** After {@link #waitReady}: the other pages are built once the page on screen has its rows, one per event. */
    void waitOtherPagesBuilt() {
        waitUntil("every page is built", () -> robot.lookup("#outboxTable").tryQuery().isPresent()
                && robot.lookup("#workerPage").tryQuery().isPresent() && robot.lookup("#auditTable").tryQuery().isPresent());
    }

    /**
     * Every text {@code table} shows on screen is whole (wrapped within its cell, its badge's, or on one line not cut
     * short) but in the columns named {@code oneLine}, and its columns are within the table and the view around it.
     */
    void assertShownWhole(TableView<?> table, String... oneLine) {
        List<String> cells = onFx(() -> shownCells(table).map(c -> String.valueOf(c.getItem())).toList());
        assertThat(cells).as("texts shown").hasSizeGreaterThan(5);
        List<String> cut = onFx(() -> shownCells(table)
                .filter(c -> !List.of(oneLine).contains(c.getTableColumn().getText()))
                .filter(c -> !shownWhole(c)).map(c -> String.valueOf(c.getItem())).toList());
        assertThat(cut).as("texts cut short").isEmpty();
        double columns = onFx(() -> table.getVisibleLeafColumns().stream().mapToDouble(TableColumn::getWidth).sum());
        assertThat(columns).as("the columns' widths").isLessThanOrEqualTo(onFx(table::getWidth));
        // and the table within what shows it (the claim's detail scrolls up and down, not sideways)
        javafx.scene.control.ScrollPane around = onFx(() -> {
            for (Node n = table.getParent(); n != null; n = n.getParent()) {
                if (n instanceof javafx.scene.control.ScrollPane pane) {
                    return pane;
                }
            }
            return null;
        });
        if (around != null) {
            assertThat(onFx(() -> around.getContent().getLayoutBounds().getWidth()))
                    .as("the detail's width within its view").isLessThanOrEqualTo(onFx(() ->
                            around.getViewportBounds().getWidth()) + 0.5);
        }
    }

    /** The cells of {@code table} on screen with a text: in a row and a column shown, not a spare one. */
    private static java.util.stream.Stream<TableCell<?, ?>> shownCells(TableView<?> table) {
        return table.lookupAll(".table-cell").stream().<TableCell<?, ?>>map(n -> (TableCell<?, ?>) n)
                .filter(c -> visible(c) && c.getTableRow() != null && !c.getTableRow().isEmpty()
                        && c.getTableColumn() != null && c.getTableColumn().isVisible())
                .filter(c -> !c.isEmpty() && c.getItem() != null && !String.valueOf(c.getItem()).isEmpty());
    }

    /** Whether {@code cell} shows its whole text: wrapped within it, its badge's, or on one line not cut short. */
    static boolean shownWhole(TableCell<?, ?> cell) {
        String whole = String.valueOf(cell.getItem());
        if (cell.getGraphic() instanceof javafx.scene.text.Text text) {
            javafx.geometry.Bounds bounds = text.getBoundsInParent();
            return text.getText().equals(whole) && bounds.getMaxY() <= cell.getHeight() + 0.5
                    && bounds.getMaxX() <= cell.getWidth() + 0.5;
        }
        if (cell.getGraphic() instanceof javafx.scene.control.Labeled badge) {
            return badge.lookup(".text") instanceof javafx.scene.text.Text shown && shown.getText().equals(badge.getText());
        }
        return cell.lookup(".text") instanceof javafx.scene.text.Text shown && shown.getText().equals(whole);
    }

    static boolean visible(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    static void fx(Runnable r) {
        try {
            WaitForAsyncUtils.asyncFx(r).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    static void runLater(Runnable r) {
        Platform.runLater(r);
        WaitForAsyncUtils.waitForFxEvents();
    }
}
