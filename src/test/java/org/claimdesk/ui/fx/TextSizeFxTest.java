package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.Region;
import javafx.stage.Window;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.common.UiSettings;
import org.junit.jupiter.api.Test;

/**
 * View › Larger text, Smaller text, Normal text size (Ctrl+=, Ctrl+-, Ctrl+0): every text of the window and of its
 * dialogs grows or shrinks by the same steps, the tables' columns with it; the size is kept at once, and the columns'
 * widths are kept at the normal size whatever the size they were left at.
 */
class TextSizeFxTest extends ConsoleFxTest {

    /** Left at 150 %, the claims table's claim number column 150 px wide at the normal size. */
    @Override
    UiSettings settings() {
        UiSettings ui = super.settings();
        ui.textSize = 150;
        ui.columns.put("claims", List.of(new UiSettings.Column("number", 150, true)));
        return ui;
    }

    @Test
    void staffMakeTheTextLargerSmallerOrNormalAndTheConsoleRemembersIt() throws Exception {
        waitReady();
        snapshot("claims-text-150");
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        TableColumn<ClaimRow, ?> number = onFx(() -> table.getColumns().stream()
                .filter(c -> "number".equals(c.getId())).findFirst().orElseThrow());
        Labeled nav = robot.lookup("#claimsNav").queryAs(Labeled.class);
        // as left: the window's text and the columns at 150 %
        assertThat(onFx(() -> nav.getFont().getSize())).isCloseTo(14 * 1.5, within(0.01));
        assertThat(onFx(number::getPrefWidth)).isCloseTo(150 * 1.5, within(0.01));
        String otherColumn = onFx(() -> table.getColumns().get(3).getId());
        double otherAtNormal = onFx(() -> table.getColumns().get(3).getPrefWidth()) / 1.5;

        // the amount column's narrowest (90 px at the normal size) at the size too
        TableColumn<ClaimRow, ?> amount = onFx(() -> table.getColumns().stream()
                .filter(c -> "amount".equals(c.getId())).findFirst().orElseThrow());
        assertThat(onFx(amount::getMinWidth)).isCloseTo(90 * 1.5, within(0.01));
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT0).release(KeyCode.DIGIT0, KeyCode.CONTROL);
        waitUntil("the normal size", () -> Math.abs(onFx(() -> nav.getFont().getSize()) - 14) < 0.01);
        assertThat(onFx(number::getPrefWidth)).isCloseTo(150, within(0.01));
        assertThat(onFx(amount::getMinWidth)).isCloseTo(90, within(0.01));
        assertThat(onFx(() -> window.mainModel().noticeProperty().get().text())).isEqualTo("Text size 100 % (normal)");
        // staff widen the column by dragging its border (which sets its width, not its preferred width)
        fx(() -> table.resizeColumn(number, 30));
        assertThat(onFx(number::getWidth)).isCloseTo(180, within(0.01));

        robot.press(KeyCode.CONTROL, KeyCode.EQUALS).release(KeyCode.EQUALS, KeyCode.CONTROL);
        robot.press(KeyCode.CONTROL, KeyCode.EQUALS).release(KeyCode.EQUALS, KeyCode.CONTROL);
        waitUntil("125 %", () -> onFx(() -> window.mainModel().textSizeProperty().get()) == 125);
        assertThat(onFx(() -> nav.getFont().getSize())).isCloseTo(14 * 1.25, within(0.01));
        assertThat(onFx(() -> window.scene().getRoot().getStyle())).isEqualTo("-fx-font-size: 16.25px;");
        assertThat(onFx(number::getPrefWidth)).isCloseTo(180 * 1.25, within(0.01));
        assertThat(onFx(() -> window.mainModel().noticeProperty().get().text()))
                .isEqualTo(Keys.say("Text size 125 %: Ctrl+0 for the normal size"));

        // a dialog opened now is at the same size: the keyboard shortcuts, from the Help menu
        robot.clickOn("Help").clickOn("Keyboard shortcuts");
        waitUntil("the dialog shows", () -> onFx(() -> dialogPane() != null));
        assertThat(onFx(() -> dialogPane().getStyle())).isEqualTo("-fx-font-size: 17.50px;");
        // centred on the window at its size (its text set as it is shown)
        waitForLayoutPulse(dialogPane());
        double dialogCentre = onFx(() -> dialogPane().getScene().getWindow().getX()
                + dialogPane().getScene().getWindow().getWidth() / 2);
        double windowCentre = onFx(() -> window.scene().getWindow().getX() + window.scene().getWindow().getWidth() / 2);
        assertThat(dialogCentre).isCloseTo(windowCentre, within(2.0));
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the dialog is closed", () -> onFx(() -> dialogPane() == null));

        // kept at once in this workstation's settings, before the console closes
        org.claimdesk.ui.common.UiSettingsStore kept = new org.claimdesk.ui.common.UiSettingsStore(dir.resolve("settings"));
        waitUntil("the size kept", () -> kept.load().textSize == 125);
        // remembered at the close: the size, and the columns' widths at the normal size
        UiSettings captured = onFx(() -> window.captureSettings());
        assertThat(captured.textSize).isEqualTo(125);
        assertThat(captured.columns.get("claims")).filteredOn(c -> "number".equals(c.id)).singleElement()
                .satisfies(c -> assertThat(c.width).isCloseTo(180, within(0.01)));
        assertThat(captured.columns.get("claims")).filteredOn(c -> otherColumn.equals(c.id)).singleElement()
                .satisfies(c -> assertThat(c.width).isCloseTo(otherAtNormal, within(0.5)));

        // down to the smallest step, where the notice says there is no smaller one
        for (int i = 0; i < 6; i++) {
            robot.press(KeyCode.CONTROL, KeyCode.MINUS).release(KeyCode.MINUS, KeyCode.CONTROL);
        }
        waitUntil("80 %", () -> onFx(() -> window.mainModel().textSizeProperty().get()) == 80);
        assertThat(onFx(() -> window.mainModel().noticeProperty().get().text()))
                .isEqualTo("Text size 80 %, the smallest there is");
        assertThat(onFx(() -> nav.getFont().getSize())).isCloseTo(14 * 0.8, within(0.01));
        assertThat(onFx(number::getPrefWidth)).isCloseTo(180 * 0.8, within(0.01));
    }

    /**
     * At 150 % the claim's detail and the dialogs show their words whole: the detail's fields' names, the new-claim
     * form's buttons (which its button bar sizes when it is first laid out, at the normal size) and the keyboard
     * shortcuts, in two columns as wide as they need.
     */
    @Test
    void dialogsAtALargerSizeShowTheirWordsWhole() {
        waitReady();
        // and the claim's detail, narrowed: its fields' names whole, their values giving way
        fx(() -> robot.lookup("#claimsSplit").queryAs(javafx.scene.control.SplitPane.class).setDividerPositions(0.72));
        selectClaim(firstClaim(org.claimdesk.domain.ClaimStatus.PAID));
        waitUntil("the detail's fields show", () -> onFx(() -> !robot.lookup("#detailGrid .field-name").queryAll().isEmpty()));
        waitForLayoutPulse(robot.lookup("#detailGrid").query());
        List<String> names = onFx(() -> robot.lookup("#detailGrid .field-name").queryAll().stream()
                .map(Labeled.class::cast).filter(l -> l.isVisible() && !l.getText().isEmpty())
                .filter(l -> !l.getText().equals(((javafx.scene.text.Text) l.lookup(".text")).getText()))
                .map(Labeled::getText).toList());
        assertThat(names).as("fields' names cut short").isEmpty();
        // and its claim number, status and tax id's name and value whole
        List<String> heading = onFx(() -> java.util.stream.Stream.of("#detailTitle", "#detailStatus", "#taxIdName",
                        "#taxIdValue").map(id -> robot.lookup(id).queryAs(Labeled.class))
                .filter(l -> l.isVisible() && !l.getText().isEmpty())
                .filter(l -> !l.getText().equals(((javafx.scene.text.Text) l.lookup(".text")).getText()))
                .map(Labeled::getText).toList());
        assertThat(heading).as("the claim's number, status and tax id cut short").isEmpty();
        robot.press(KeyCode.CONTROL, KeyCode.N).release(KeyCode.N, KeyCode.CONTROL);
        waitUntil("the form shows", () -> onFx(() -> dialogPane() != null));
        waitForLayoutPulse(dialogPane());
        List<String> shown = onFx(() -> dialogPane().lookupAll(".button-bar .button").stream()
                .map(b -> ((javafx.scene.text.Text) b.lookup(".text")).getText()).toList());
        assertThat(shown).containsExactlyInAnyOrder("Cancel", "Create");
        // a reference's kind and title, 190 and 210 px at the normal size, 1.5 times as wide
        robot.clickOn("#addEvidenceButton");
        waitUntil("a reference shows", () -> robot.lookup("#newEvidenceKind-0").tryQuery().isPresent());
        waitForLayoutPulse(dialogPane());
        assertThat(onFx(() -> robot.lookup("#newEvidenceKind-0").queryAs(Region.class).getWidth()))
                .isCloseTo(190 * 1.5, within(1.0));
        assertThat(onFx(() -> robot.lookup("#newEvidenceTitle-0").queryAs(Region.class).getWidth()))
                .isCloseTo(210 * 1.5, within(1.0));
        robot.clickOn("#newEvidenceRemove-0");
        waitUntil("the reference is removed", () -> robot.lookup("#newEvidenceKind-0").tryQuery().isEmpty());
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the form is closed", () -> onFx(() -> dialogPane() == null));

        // the import dialog, 980 x 760 at the normal size, 1.5 times as large but within the screen
        robot.press(KeyCode.CONTROL, KeyCode.I).release(KeyCode.I, KeyCode.CONTROL);
        waitUntil("the import dialog shows", () -> onFx(() -> dialogPane() != null));
        waitForLayoutPulse(dialogPane());
        javafx.geometry.Rectangle2D screen = onFx(() -> javafx.stage.Screen.getPrimary().getVisualBounds());
        assertThat(onFx(() -> dialogPane().getPrefWidth()))
                .isCloseTo(Math.min(980 * 1.5, screen.getWidth() * 0.9), within(0.01));
        assertThat(onFx(() -> dialogPane().getPrefHeight()))
                .isCloseTo(Math.min(760 * 1.5, screen.getHeight() * 0.9), within(0.01));
        assertThat(onFx(() -> dialogPane().getPrefWidth())).as("wider than at the normal size").isGreaterThan(980);
        // placed on the screen whole, its Close button on it (as tall as nine tenths of the screen)
        Window importWindow = onFx(() -> dialogPane().getScene().getWindow());
        assertThat(onFx(importWindow::getHeight)).isGreaterThanOrEqualTo(screen.getHeight() * 0.9);
        assertThat(onFx(importWindow::getY)).isGreaterThanOrEqualTo(screen.getMinY());
        assertThat(onFx(() -> importWindow.getY() + importWindow.getHeight())).isLessThanOrEqualTo(screen.getMaxY());
        assertThat(onFx(importWindow::getX)).isGreaterThanOrEqualTo(screen.getMinX());
        assertThat(onFx(() -> importWindow.getX() + importWindow.getWidth())).isLessThanOrEqualTo(screen.getMaxX());
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the import dialog is closed", () -> onFx(() -> dialogPane() == null));

        robot.clickOn("Help").clickOn("Keyboard shortcuts");
        waitUntil("the shortcuts show", () -> onFx(() -> dialogPane() != null));
        waitForLayoutPulse(dialogPane());
        List<Labeled> cut = onFx(() -> dialogPane().lookupAll(".key-list .label").stream()
                .map(Labeled.class::cast)
                .filter(l -> !l.getText().equals(((javafx.scene.text.Text) l.lookup(".text")).getText())).toList());
        assertThat(cut).as("labels cut short").isEmpty();
        assertThat(onFx(() -> dialogPane().lookupAll(".key-list .label").size())).isEqualTo(32);
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the shortcuts are closed", () -> onFx(() -> dialogPane() == null));
    }

    /**
     * At the smallest size a claim's history, whose texts wrap, shows them whole: its rows grow with their lines (a
     * dense row's 2em there is under the 24 px from which a row asks its cells how high they are).
     */
    @Test
    void aWrappedHistoryShowsItsTextsWholeAtTheSmallestSize() {
        waitReady();
        TableColumn<?, ?> number = robot.lookup("#claimsTable").queryTableView().getColumns().get(0);
        for (int i = 0; i < 6; i++) {
            robot.press(KeyCode.CONTROL, KeyCode.MINUS).release(KeyCode.MINUS, KeyCode.CONTROL);
        }
        waitUntil("80 %", () -> onFx(() -> window.mainModel().textSizeProperty().get()) == 80);
        selectClaim(firstClaim(org.claimdesk.domain.ClaimStatus.NEEDS_INFO));
        waitUntil("the selected claim's history is on screen", () -> robot.lookup("#historyTable").tryQuery()
                .map(t -> visible(t) && !onFx(() -> ((TableView<?>) t).getItems().isEmpty())).orElse(false));
        TableView<?> history = robot.lookup("#historyTable").queryTableView();
        waitForLayoutPulse(history);
        assertShownWhole(history);
        assertThat(onFx(number::getWidth)).isGreaterThan(0);
    }

    /**
     * At 150 % the popups are at the window's size too: a tooltip (which the theme sets at 14 px) of a navigation button
     * and of the status bar, whose own texts are larger and smaller than the window's; a text field's menu of edits
     * (which the theme sets at 14 px too; now at its field's size) and the menu bar's menus, each 1.5 times what it
     * shows at the normal size.
     */
    @Test
    void tooltipsAndMenusFollowTheSize() {
        waitReady();
        waitUntil("the main view's tooltips are made", () -> onFx(() -> robot.lookup("#databaseStatus")
                .queryAs(javafx.scene.control.Control.class).getTooltip() != null));
        double[] large = popupFonts();
        assertThat(large[0]).as("a navigation button's tooltip").isCloseTo(14 * 1.5, within(0.01));
        assertThat(large[1]).as("the status bar's tooltip").isCloseTo(14 * 1.5, within(0.01));
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT0).release(KeyCode.DIGIT0, KeyCode.CONTROL);
        waitUntil("the normal size", () -> onFx(() -> window.mainModel().textSizeProperty().get()) == 100);
        double[] normal = popupFonts();
        // as the theme has them at the normal size
        assertThat(normal[0]).as("a navigation button's tooltip").isCloseTo(14, within(0.01));
        assertThat(normal[1]).as("the status bar's tooltip").isCloseTo(14, within(0.01));
        double field = onFx(() -> robot.lookup("#claimSearch").queryAs(javafx.scene.control.TextField.class).getFont()
                .getSize());
        assertThat(normal[2]).as("the search field's menu, at its field's size").isCloseTo(field, within(0.01));
        assertThat(large[2]).as("the search field's menu").isCloseTo(normal[2] * 1.5, within(0.01));
        assertThat(large[3]).as("the File menu").isCloseTo(normal[3] * 1.5, within(0.01));
    }

    /**
     * The text sizes of the tooltips of the Claims button and of the database in the status bar, each shown by the mouse
     * resting on it, of the search field's menu of edits and of the File menu.
     */
    private double[] popupFonts() {
        double nav = hoveredTooltipFont("#claimsNav");
        double status = hoveredTooltipFont("#databaseStatus");
        // as a right click asks for it (the headless robot's click does not)
        fx(() -> {
            javafx.scene.Node search = robot.lookup("#claimSearch").query();
            javafx.geometry.Point2D at = search.localToScreen(10, 10);
            javafx.event.Event.fireEvent(search, new javafx.scene.input.ContextMenuEvent(
                    javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED, 10, 10, at.getX(), at.getY(), false, null));
        });
        double edits = shownMenuFont();
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the menu is closed", () -> onFx(() -> shownMenu() == null));
        robot.clickOn("File");
        double file = shownMenuFont();
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the menu is closed", () -> onFx(() -> shownMenu() == null));
        return new double[] {nav, status, edits, file};
    }

    /** The text size of the tooltip of the control {@code id}, shown as the mouse rests on it, once laid out. */
    private double hoveredTooltipFont(String id) {
        javafx.scene.control.Tooltip tooltip = onFx(() -> robot.lookup(id).queryAs(javafx.scene.control.Control.class)
                .getTooltip());
        robot.moveTo(id);
        waitUntil("the tooltip of " + id + " shows", tooltip::isShowing);
        waitForLayoutPulse(tooltip.getScene().getRoot());
        double size = onFx(() -> tooltip.getFont().getSize());
        robot.moveTo("#claimsTable");
        waitUntil("the tooltip of " + id + " is hidden", () -> !tooltip.isShowing());
        return size;
    }

    private double shownMenuFont() {
        waitUntil("a menu shows", () -> onFx(() -> shownMenu() != null));
        waitForLayoutPulse(onFx(() -> shownMenu().getScene().getRoot()));
        return onFx(() -> ((Labeled) shownMenu().getScene().getRoot().lookup(".menu-item .label")).getFont().getSize());
    }

    private static javafx.scene.control.ContextMenu shownMenu() {
        return Window.getWindows().stream().filter(Window::isShowing)
                .filter(javafx.scene.control.ContextMenu.class::isInstance).map(javafx.scene.control.ContextMenu.class::cast)
                .findFirst().orElse(null);
    }

    private static DialogPane dialogPane() {
        return Window.getWindows().stream().filter(Window::isShowing)
                .map(w -> w.getScene() == null ? null : w.getScene().getRoot())
                .filter(DialogPane.class::isInstance).map(DialogPane.class::cast).findFirst().orElse(null);
    }
}
