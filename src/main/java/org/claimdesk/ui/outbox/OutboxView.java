package org.claimdesk.ui.outbox;

import java.time.Instant;
import javafx.beans.binding.Bindings;
import org.claimdesk.ui.common.TextSize;
import org.claimdesk.ui.common.Accessible;
import java.io.File;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.beans.value.ObservableValue;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.StringConverter;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.ui.common.BusyIndicator;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.LayoutMemory;
import org.claimdesk.ui.common.NoticeLabel;
import org.claimdesk.ui.common.Paging;
import org.claimdesk.ui.common.ReasonKeys;

/** The outbox page: binds {@link OutboxViewModel} to the FXML and asks for confirmation of bulk actions. */
public final class OutboxView {
    private final OutboxViewModel model;
    private final FixFieldViewModel fix;
    private FixFieldDialogView fixContent;
    private final LayoutMemory layout;

    @FXML private javafx.scene.layout.BorderPane outboxPage;
    @FXML private ComboBox<DeliveryState> outboxStateFilter;
    @FXML private ComboBox<String> outboxJurisdictionFilter;
    @FXML private TextField outboxErrorFilter;
    @FXML private ComboBox<OutboxViewModel.Age> outboxAgeFilter;
    @FXML private Button outboxApplyButton;
    @FXML private ProgressIndicator outboxLoading;
    @FXML private Button outboxExportButton;
    @FXML private ChoiceBox<OutboxViewModel.Scope> bulkScope;
    @FXML private Button requeueButton;
    @FXML private Button resubmitButton;
    @FXML private Button fixClaimButton;
    @FXML private Button abandonButton;
    @FXML private Button fixFieldButton;
    @FXML private ProgressBar bulkProgress;
    @FXML private Label bulkProgressLabel;
    @FXML private SplitPane outboxSplit;
    @FXML private ListView<FailureGroup> errorGroups;
    /** Writes the error groups' "last seen … ago" again each minute while the page is on screen. */
    private final javafx.animation.Timeline ages = new javafx.animation.Timeline();
    /** Whether the page is on screen in a showing window: held here, as a binding is held only by its observers. */
    private javafx.beans.binding.BooleanBinding agesOnScreen;
    @FXML private Label groupSeenLabel;
    @FXML private Button clearGroupButton;
    @FXML private TableView<OutboxRow> outboxTable;
    @FXML private TableColumn<OutboxRow, String> rowColumn;
    @FXML private TableColumn<OutboxRow, String> supersededByColumn;
    @FXML private TableColumn<OutboxRow, String> claimColumn;
    @FXML private TableColumn<OutboxRow, String> outboxJurisdictionColumn;
    @FXML private TableColumn<OutboxRow, String> claimantColumn;
    @FXML private TableColumn<OutboxRow, String> claimStatusColumn;
    @FXML private TableColumn<OutboxRow, String> eventTypeColumn;
    @FXML private TableColumn<OutboxRow, String> stateColumn;
    @FXML private TableColumn<OutboxRow, String> attemptsColumn;
    @FXML private TableColumn<OutboxRow, String> errorColumn;
    @FXML private TableColumn<OutboxRow, String> changedColumn;
    @FXML private TableColumn<OutboxRow, String> nextAttemptColumn;
    @FXML private TableColumn<OutboxRow, String> keyColumn;
    @FXML private TableColumn<OutboxRow, String> createdColumn;
    @FXML private TableColumn<OutboxRow, String> sentColumn;
    @FXML private Button outboxPreviousButton;
    @FXML private Button outboxNextButton;
    @FXML private Label outboxPageLabel;
    @FXML private Label outboxCountsLabel;
    @FXML private Label outboxDetailTitle;
    @FXML private TextArea lastErrorView;
    @FXML private TableView<DeliveryAttempt> attemptsTable;
    @FXML private TableColumn<DeliveryAttempt, String> attemptNoColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptAtColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptDurationColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptHttpColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptOutcomeColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptFieldColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptDetailColumn;
    @FXML private TextArea payloadView;
    @FXML private Label outboxNotice;

    private boolean syncing;

    public OutboxView(OutboxViewModel model, FixFieldViewModel fix, LayoutMemory layout) {
        this.model = model;
        this.fix = fix;
        this.layout = layout;
    }

    @FXML
    private void initialize() {
        Accessible.name(outboxStateFilter, "Delivery state");
        Accessible.name(outboxJurisdictionFilter, "Jurisdiction");
        Accessible.name(outboxErrorFilter, "Error text, claim number or row");
        Accessible.name(outboxAgeFilter, "Age");
        Accessible.name(bulkScope, "Act on");
        Accessible.name(lastErrorView, "Last error");
        Accessible.name(payloadView, "Payload");
        bindFilters();
        bindGroups();
        bindTable();
        bindDetail();
        bindBulk();
        NoticeLabel.bind(outboxNotice, model.noticeProperty());
        layout.split("outbox", outboxSplit);
        layout.table("outbox", outboxTable);
    }

    private void bindFilters() {
        outboxStateFilter.getItems().add(null);
        outboxStateFilter.getItems().addAll(DeliveryState.values());
        StateCell buttonCell = new StateCell();
        outboxStateFilter.setButtonCell(buttonCell);
        outboxStateFilter.setCellFactory(l -> new StateCell());
        outboxStateFilter.valueProperty().bindBidirectional(model.stateProperty());
        outboxStateFilter.setOnAction(e -> model.applyFilters());
        // followed only while the page is shown (JavaFX repaints the whole window for a change to a node that is
        // not drawn); bound, not only listened to: the counts may have been read before this view was built
        ObservableValue<Map<DeliveryState, Integer>> counts =
                model.stateCountsProperty().when(outboxPage.visibleProperty());
        outboxCountsLabel.textProperty().bind(counts.map(OutboxView::describeCounts));
        // The chosen state's count follows the counts.
        counts.addListener((obs, old, c) -> buttonCell.show(outboxStateFilter.getValue()));

        org.claimdesk.ui.common.FilterChoices.follow(outboxJurisdictionFilter, model.jurisdictions(),
                model.jurisdictionProperty()::get, v -> {
                    model.jurisdictionProperty().set(v);
                    model.applyFilters();
                });
        outboxJurisdictionFilter.setOnShowing(e -> model.reloadJurisdictions());
        outboxJurisdictionFilter.setButtonCell(textCell("All jurisdictions"));
        outboxJurisdictionFilter.setCellFactory(l -> textCell("All jurisdictions"));
        outboxErrorFilter.textProperty().bindBidirectional(model.errorTextProperty());
        outboxErrorFilter.setOnAction(e -> model.applyFilters());
        // emptied, the text filters no more (as the Claims page's search): nothing hidden stays applied
        outboxErrorFilter.textProperty().addListener((obs, old, text) -> {
            if ((text == null || text.isEmpty()) && old != null && !old.isEmpty()) {
                model.applyFilters();
            }
        });
        outboxAgeFilter.getItems().setAll(OutboxViewModel.Age.values());
        outboxAgeFilter.setConverter(new StringConverter<>() {
            @Override
            public String toString(OutboxViewModel.Age age) {
                return age == null ? "" : age.label();
            }

            @Override
            public OutboxViewModel.Age fromString(String s) {
                return null;
            }
        });
        outboxAgeFilter.valueProperty().bindBidirectional(model.ageProperty());
        outboxAgeFilter.setOnAction(e -> model.applyFilters());
        outboxApplyButton.setOnAction(e -> model.applyFilters());
        BusyIndicator.bind(outboxLoading, model.loadingProperty());
        outboxExportButton.setOnAction(e -> export());
    }

    /** A delivery state with its row count, or "All states". */
    private final class StateCell extends ListCell<DeliveryState> {
        @Override
        protected void updateItem(DeliveryState item, boolean empty) {
            super.updateItem(item, empty);
            if (empty) {
                setText(null);
            } else {
                show(item);
            }
        }

        void show(DeliveryState item) {
            Map<DeliveryState, Integer> counts = model.stateCountsProperty().get();
            setText(item == null ? "All states"
                    : Formats.label(item.name()) + " (" + Formats.count(counts.getOrDefault(item, 0)) + ")");
        }
    }

    private static ListCell<String> textCell(String nullText) {
        return new ListCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item == null ? nullText : item);
            }
        };
    }

    /** The rows per state, "12 pending · 3 failed · …"; nothing before the counts are read. */
    static String describeCounts(Map<DeliveryState, Integer> counts) {
        if (counts.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        for (DeliveryState state : DeliveryState.values()) {
            if (!s.isEmpty()) {
                s.append(" · ");
            }
            s.append(Formats.count(counts.getOrDefault(state, 0))).append(' ').append(state.dbValue());
        }
        return s.toString();
    }

    private void bindGroups() {
        // Added before the list's own selection model listens to the groups, and the listener below after it:
        // a selection the list moves by itself while groups change does not reach the model.
        model.groups().addListener((ListChangeListener<FailureGroup>) c -> syncing = true);
        errorGroups.setItems(model.groups());
        errorGroups.setCellFactory(list -> new ErrorGroupCell(model::now));
        // "last seen 3 min ago" is written when a cell shows its group; a group that stopped growing keeps its cell,
        // so the few cells are written again each minute (a console open for days would say "3 min" on Monday)
        // only while the page is on screen in a window that shows: a running animation is held by the toolkit, and
        // with it this page and everything it reaches, a console closed included
        ages.getKeyFrames().add(new javafx.animation.KeyFrame(javafx.util.Duration.minutes(1),
                e -> errorGroups.refresh()));
        ages.setCycleCount(javafx.animation.Animation.INDEFINITE);
        javafx.beans.value.ObservableValue<Boolean> windowShows = outboxPage.sceneProperty()
                .flatMap(javafx.scene.Scene::windowProperty).flatMap(javafx.stage.Window::showingProperty)
                .orElse(false);
        javafx.beans.binding.BooleanBinding onScreen = javafx.beans.binding.Bindings.createBooleanBinding(
                () -> outboxPage.isVisible() && windowShows.getValue(), outboxPage.visibleProperty(), windowShows);
        agesOnScreen = onScreen;
        onScreen.addListener((obs, was, shown) -> {
            if (shown) {
                ages.play();
            } else {
                ages.stop();
            }
        });
        if (onScreen.get()) {
            ages.play();
        }
        errorGroups.getSelectionModel().selectedItemProperty().addListener((obs, old, g) -> {
            if (!syncing && g != null) {
                model.selectGroup(g);
                bulkScope.setValue(OutboxViewModel.Scope.GROUP);
            }
        });
        model.selectedGroupProperty().addListener((obs, old, g) -> {
            groupSeenLabel.setText(g == null ? "Select an error to see its rows."
                    : Formats.count(g.count()) + " rows · first seen " + Formats.time(g.firstSeen())
                    + " · last seen " + Formats.time(g.lastSeen()));
            if (g == null) {
                syncing = true;
                errorGroups.getSelectionModel().clearSelection();
                syncing = false;
                if (bulkScope.getValue() == OutboxViewModel.Scope.GROUP) {
                    bulkScope.setValue(OutboxViewModel.Scope.SELECTION);
                }
            }
        });
        // A refresh updates the groups in place: keep the selection on the same signature.
        model.groups().addListener((ListChangeListener<FailureGroup>) c -> {
            syncing = false;
            FailureGroup g = model.selectedGroupProperty().get();
            if (g == null) {
                return;
            }
            int index = -1;
            for (int i = 0; i < model.groups().size() && index < 0; i++) {
                if (model.groups().get(i).signature().equals(g.signature())) {
                    index = i;
                }
            }
            if (index == errorGroups.getSelectionModel().getSelectedIndex()
                    && (index < 0 || model.groups().get(index) == errorGroups.getSelectionModel().getSelectedItem())) {
                return;
            }
            syncing = true;
            try {
                if (index >= 0) {
                    errorGroups.getSelectionModel().clearAndSelect(index);
                } else {
                    errorGroups.getSelectionModel().clearSelection();
                }
            } finally {
                syncing = false;
            }
        });
        groupSeenLabel.setText("Select an error to see its rows.");
        clearGroupButton.setOnAction(e -> {
            model.selectGroup(null);
            bulkScope.setValue(OutboxViewModel.Scope.SELECTION);
        });
        clearGroupButton.visibleProperty().bind(model.selectedGroupProperty().isNotNull());
    }

    /** A pending row's next attempt: "in 40 s" ahead, "due" once its time has come; nothing for other rows. */
    static String nextAttempt(OutboxRow row, Instant now) {
        if (row.event().deliveryState() != DeliveryState.PENDING || row.event().nextAttemptAt() == null) {
            return "";
        }
        return row.event().nextAttemptAt().isAfter(now) ? Formats.age(row.event().nextAttemptAt(), now) : "due";
    }

    private void bindTable() {
        // As for the groups: selection moves the table makes by itself while rows change do not reach the model.
        model.rows().addListener((ListChangeListener<OutboxRow>) c -> syncing = true);
        outboxTable.setItems(model.rows());
        outboxTable.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        Cells.number(rowColumn, r -> Long.toString(r.id()));
        Cells.number(supersededByColumn, r -> r.event().supersededBy() == null ? "" : "row " + r.event().supersededBy());
        Cells.text(claimColumn, OutboxRow::claimNumber);
        Cells.text(outboxJurisdictionColumn, OutboxRow::jurisdiction);
        Cells.text(claimantColumn, OutboxRow::claimant);
        Cells.text(claimStatusColumn, OutboxRow::claimStatus);
        Cells.text(eventTypeColumn, r -> r.event().eventType());
        Cells.badge(stateColumn, r -> r.event().deliveryState().name(), Formats::label);
        Cells.number(attemptsColumn, r -> Integer.toString(r.event().attempts()));
        Cells.textWithTooltip(errorColumn, r -> Formats.oneLine(r.event().lastError(), 160), r -> r.event().lastError());
        Cells.text(changedColumn, r -> Formats.time(r.event().updatedAt()));
        // counted from the console's clock, which ticks while the page is shown: each visible cell follows it
        nextAttemptColumn.setCellValueFactory(c -> c.getValue() == null ? null : Bindings.createStringBinding(
                () -> nextAttempt(c.getValue(), model.clockProperty().get() == null ? model.now()
                        : model.clockProperty().get()), model.clockProperty()));
        Cells.text(keyColumn, r -> r.event().idempotencyKey());
        keyColumn.getStyleClass().add("mono");
        Cells.text(createdColumn, r -> Formats.time(r.event().createdAt()));
        Cells.text(sentColumn, r -> Formats.time(r.event().sentAt()));
        outboxTable.getSelectionModel().getSelectedItems().addListener((ListChangeListener<OutboxRow>) c -> {
            if (!syncing) {
                model.select(List.copyOf(outboxTable.getSelectionModel().getSelectedItems()));
            }
        });
        // A refresh may replace rows: keep the same rows selected.
        model.rows().addListener((ListChangeListener<OutboxRow>) c -> {
            syncing = false;
            reselect();
        });
        model.pagingProperty().addListener((obs, old, p) -> showPaging(p));
        showPaging(model.pagingProperty().get());
        outboxPreviousButton.setOnAction(e -> model.previousPage());
        outboxNextButton.setOnAction(e -> model.nextPage());
    }

    private void showPaging(Paging p) {
        outboxPageLabel.setText(p.describe());
        outboxPreviousButton.setDisable(!p.hasPrevious());
        outboxNextButton.setDisable(!p.hasNext());
    }

    /** After a refresh (rows are updated in place): puts the table's selection back on the same rows by id. */
    private void reselect() {
        Set<Long> wanted = new HashSet<>();
        model.selectionProperty().get().forEach(r -> wanted.add(r.id()));
        if (wanted.isEmpty()) {
            return;
        }
        List<Integer> indices = new ArrayList<>();
        for (int i = 0; i < model.rows().size(); i++) {
            if (wanted.contains(model.rows().get(i).id())) {
                indices.add(i);
            }
        }
        List<Integer> selected = new ArrayList<>(outboxTable.getSelectionModel().getSelectedIndices());
        Collections.sort(selected);
        if (selected.equals(indices)) {
            return;
        }
        syncing = true;
        try {
            outboxTable.getSelectionModel().clearSelection();
            indices.forEach(outboxTable.getSelectionModel()::select);
        } finally {
            syncing = false;
        }
    }

    private void bindDetail() {
        Cells.number(attemptNoColumn, a -> Integer.toString(a.attemptNo()));
        Cells.wrapped(attemptAtColumn, a -> Formats.time(a.startedAt()));
        Cells.number(attemptDurationColumn, a -> Long.toString(a.durationMs()));
        Cells.text(attemptHttpColumn, a -> a.httpStatus() == null ? "—" : a.httpStatus().toString());
        Cells.badge(attemptOutcomeColumn, a -> a.outcome().name(), Formats::label);
        Cells.wrapped(attemptFieldColumn, a -> a.field() == null ? "—" : a.field());
        Cells.textWithTooltip(attemptDetailColumn, a -> Formats.oneLine(a.detail(), 200), DeliveryAttempt::detail);
        // with no row selected the pane says what to do, without an empty error box and attempts table under it
        for (javafx.scene.Node part : List.of(lastErrorView, attemptsTable)) {
            part.visibleProperty().bind(model.detailProperty().isNotNull());
            part.managedProperty().bind(part.visibleProperty());
        }
        model.detailProperty().addListener((obs, old, d) -> {
            if (d == null) {
                outboxDetailTitle.setText("Select a row to see its attempts and payload.");
                lastErrorView.setText("");
                payloadView.setText("");
                attemptsTable.getItems().clear();
                return;
            }
            outboxDetailTitle.setText(d.row().claimNumber() + " (" + d.row().jurisdiction() + ", " + d.row().claimant()
                    + ", " + d.row().claimStatus() + ") · row " + d.row().id() + " · "
                    + Formats.label(d.row().event().deliveryState().name()) + " · key " + d.row().event().idempotencyKey());
            lastErrorView.setText(d.row().event().lastError() == null ? "No error recorded" : d.row().event().lastError());
            payloadView.setText(d.prettyPayload());
            attemptsTable.getItems().setAll(d.attempts());
        });
        outboxDetailTitle.setText("Select a row to see its attempts and payload.");
    }

    private void bindBulk() {
        bulkScope.getItems().setAll(OutboxViewModel.Scope.values());
        bulkScope.setConverter(new StringConverter<>() {
            @Override
            public String toString(OutboxViewModel.Scope s) {
                return s == null ? "" : switch (s) {
                    case SELECTION -> "Selected rows";
                    case GROUP -> "Selected error group";
                    case FILTER -> "Every row of the filter";
                };
            }

            @Override
            public OutboxViewModel.Scope fromString(String s) {
                return null;
            }
        });
        bulkScope.setValue(OutboxViewModel.Scope.SELECTION);
        requeueButton.setOnAction(e -> model.preview(OutboxTriage.Action.REQUEUE, bulkScope.getValue()));
        abandonButton.setOnAction(e -> model.preview(OutboxTriage.Action.ABANDON, bulkScope.getValue()));
        requeueButton.disableProperty().bind(model.busyProperty());
        abandonButton.disableProperty().bind(model.busyProperty());
        outboxExportButton.disableProperty().bind(model.busyProperty());
        bulkProgress.visibleProperty().bind(model.progressProperty().isNotNull());
        bulkProgressLabel.visibleProperty().bind(model.progressProperty().isNotNull());
        bulkProgress.managedProperty().bind(bulkProgress.visibleProperty());
        bulkProgressLabel.managedProperty().bind(bulkProgressLabel.visibleProperty());
        // followed only while the page is shown (a hidden node's change repaints the whole window)
        model.progressProperty().when(outboxPage.visibleProperty()).addListener((obs, old, p) -> {
            if (p != null) {
                bulkProgress.setProgress(p.total() > 0 ? p.fraction() : ProgressBar.INDETERMINATE_PROGRESS);
                bulkProgressLabel.setText(Formats.count(p.done()) + (p.total() > 0 ? " / " + Formats.count(p.total()) : "")
                        + (p.message() == null ? "" : " · " + p.message()));
            }
        });
        model.planProperty().addListener((obs, old, plan) -> {
            if (plan != null) {
                javafx.application.Platform.runLater(() -> confirm(plan));
            }
        });
        bindResubmit();
        bindFixField();
    }

    private void bindFixField() {
        fix.setOnChange(model::refresh);
        fixFieldButton.setOnAction(e -> fixField());
        fixFieldButton.disableProperty().bind(model.busyProperty().or(fix.busyProperty()));
    }

    /** "Fix a field…": one field set on the claims of the rows the scope chooses, then those rows resubmitted. */
    private void fixField() {
        OutboxViewModel.Scope scope = bulkScope.getValue();
        model.rowsOf(scope).ifPresent(rows -> {
            fix.open(rows, scope.words(), model.shownRefusedField());
            // bound to the page's fix model once: a view loaded at every opening would stay bound to it for good
            if (fixContent == null) {
                fixContent = FixFieldDialogView.load(fix);
            }
            fixContent.startOver();
            FixFieldDialogView content = fixContent;
            Dialog<ButtonType> dialog = new Dialog<>();
            dialog.initOwner(outboxTable.getScene().getWindow());
            dialog.setTitle("Fix a field on many claims");
            dialog.getDialogPane().setContent(content.root());
            dialog.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
            javafx.scene.Node close = dialog.getDialogPane().lookupButton(ButtonType.CLOSE);
            close.setId("fixCloseButton");
            // closing while claims are being changed would hide the run's report: cancel first
            close.disableProperty().bind(fix.runningProperty());
            dialog.setOnCloseRequest(e -> {
                if (fix.runningProperty().get()) {
                    e.consume();
                }
            });
            javafx.application.Platform.runLater(() -> content.root().lookup("#fixValueField").requestFocus());
            dialog.showAndWait();
        });
    }

    private void bindResubmit() {
        resubmitButton.setOnAction(e -> model.prepareResubmit(bulkScope.getValue()));
        model.bulkResubmitProperty().addListener((obs, old, plan) -> {
            if (plan != null) {
                javafx.application.Platform.runLater(() -> confirmResubmit(plan));
            }
        });
        resubmitButton.disableProperty().bind(model.busyProperty());
        fixClaimButton.setOnAction(e -> model.fixSelectedClaim());
        fixClaimButton.disableProperty().bind(model.busyProperty());
        model.resubmitCheckProperty().addListener((obs, old, check) -> {
            if (check != null) {
                javafx.application.Platform.runLater(() -> askResubmit(check));
            }
        });
        // wherever the focus is on the page: after a resubmit, Ctrl+Enter is the next step the notice names
        outboxPage.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER && e.isShortcutDown()) {
                selectNextFailed();
                e.consume();
            } else if (e.getCode() == javafx.scene.input.KeyCode.E && e.isShortcutDown() && e.isShiftDown()) {
                model.fixSelectedClaim();
                e.consume();
            }
        });
    }

    /**
     * Ctrl+Enter: the next failed row of the group after the one selected, or, when the selection left the table (the
     * row just resubmitted is no longer failed), after that row.
     */
    void selectNextFailed() {
        Resubmission.Result last = model.lastResubmitProperty().get();
        OutboxRow selected = outboxTable.getSelectionModel().getSelectedItem();
        long after = selected != null ? selected.id() : last != null ? last.oldOutboxEventId() : -1;
        model.nextFailedRow(after).ifPresent(row -> {
            outboxTable.getSelectionModel().clearSelection();
            outboxTable.getSelectionModel().select(row);
            outboxTable.scrollTo(row);
        });
    }

    private void askResubmit(Resubmission.Check check) {
        if (model.resubmitCheckProperty().get() != check) {
            return;
        }
        ResubmitDialogView content = ResubmitDialogView.load();
        content.show(check);
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(outboxTable.getScene().getWindow());
        dialog.setTitle("Resubmit outbox row " + check.outboxEventId());
        dialog.getDialogPane().setContent(content.root());
        boolean changed = check.decision() == KeyPolicy.Decision.RESUBMIT;
        ButtonType ok = changed ? new ButtonType("Resubmit under a new key", ButtonBar.ButtonData.OK_DONE)
                : new ButtonType("Re-queue unchanged…", ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        dialog.getDialogPane().lookupButton(ok).setId("dialogOkButton");
        if (changed) {
            dialog.getDialogPane().lookupButton(ok).disableProperty()
                    .bind(content.reasonField().textProperty().map(String::isBlank));
            ReasonKeys.enterConfirms(content.reasonField(), (Button) dialog.getDialogPane().lookupButton(ok));
            ReasonKeys.offer(content.reasonField(), model.resubmitReasonToRetry(check.outboxEventId()));
            javafx.application.Platform.runLater(content.reasonField()::requestFocus);
        }
        boolean confirmed = dialog.showAndWait().filter(b -> b == ok).isPresent();
        if (!confirmed) {
            model.cancelResubmit();
        } else if (changed) {
            model.resubmit(check, content.reasonField().getText().strip());
        } else {
            model.requeueInstead(check);
        }
        outboxTable.requestFocus();
    }

    private void confirm(OutboxViewModel.Plan plan) {
        if (model.planProperty().get() != plan) {
            return;
        }
        OutboxTriage.Action action = plan.action();
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(outboxTable.getScene().getWindow());
        dialog.setTitle(action.verb() + " outbox rows");
        dialog.setHeaderText(action.verb() + " " + plan.scope().words() + "?\n" + plan.preview().describe() + ".");
        ButtonType ok = new ButtonType(action.verb() + " " + Formats.count(plan.preview().eligible()),
                ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        TextArea reason = Dialogs.reasonArea("Why? (required; written to the audit trail with your name)",
                model.reasonToRetry(plan));
        CheckBox reconcile = new CheckBox("Reconcile first: ask the state about each row by its idempotency key,"
                + " and mark rows it already accepted as sent instead of sending them twice");
        reconcile.setId("reconcileCheck");
        reconcile.setWrapText(true);
        reconcile.setSelected(action == OutboxTriage.Action.REQUEUE);
        // an abandon asks the state by itself about the rows it may hold; only a re-queue offers the choice
        reconcile.setVisible(action == OutboxTriage.Action.REQUEUE);
        reconcile.setManaged(reconcile.isVisible());
        VBox box = new VBox(10, new VBox(4, Dialogs.reasonLabel(reason, true), reason), reconcile);
        box.setPrefWidth(TextSize.scaled(520));
        dialog.getDialogPane().setContent(box);
        Dialogs.okOnReason(dialog, ok, reason, true);
        if (dialog.showAndWait().filter(b -> b == ok).isPresent()) {
            model.execute(plan, reason.getText().strip(), reconcile.isVisible() && reconcile.isSelected());
        } else {
            model.cancelPlan();
        }
        outboxTable.requestFocus();
    }

    /** The resubmission of many rows, previewed: what it will do, the rows skipped and why, and the reason. */
    private void confirmResubmit(OutboxViewModel.BulkResubmit plan) {
        if (model.bulkResubmitProperty().get() != plan) {
            return;
        }
        Resubmission.BulkPreview preview = plan.preview();
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(outboxTable.getScene().getWindow());
        dialog.setTitle("Resubmit outbox rows");
        dialog.setHeaderText("Resubmit " + plan.scope().words() + "?\n" + preview.describe()
                + ". Each row is superseded by a new row carrying its claim as corrected.");
        ButtonType ok = new ButtonType("Resubmit " + Formats.count(preview.eligible()), ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        VBox box = new VBox(8);
        box.setPrefWidth(TextSize.scaled(560));
        // each claim and what was corrected on it, by whoever: what goes out under this reason
        box.getChildren().addAll(new javafx.scene.control.Label("To resubmit, with what was corrected since each was"
                + " refused:"), shortList("resubmitTargetList", preview.targets().stream().map(c -> "Row "
                        + c.outboxEventId() + " · claim " + c.claimNumber() + ": " + String.join(", ",
                                c.diff().fields())).toList()));
        if (!preview.skipped().isEmpty()) {
            box.getChildren().addAll(new javafx.scene.control.Label("Skipped (not failed, or their claim unchanged:"
                    + " correct it first, or re-queue it if the state's trouble was passing):"),
                    shortList("resubmitSkippedList", List.copyOf(preview.skipped().values())));
        }
        TextArea reason = Dialogs.reasonArea(
                "Why? (required; written to the audit trail with your name, for each row)",
                model.bulkResubmitReasonToRetry(plan));
        box.getChildren().addAll(Dialogs.reasonLabel(reason, true), reason);
        dialog.getDialogPane().setContent(box);
        Dialogs.okOnReason(dialog, ok, reason, true);
        if (dialog.showAndWait().filter(b -> b == ok).isPresent()) {
            model.resubmitAll(plan, reason.getText().strip());
        } else {
            model.cancelBulkResubmit();
        }
        outboxTable.requestFocus();
    }

    /** A short list in a question: {@code items}, at most about six lines high. */
    private static javafx.scene.control.ListView<String> shortList(String id, List<String> items) {
        javafx.scene.control.ListView<String> list = new javafx.scene.control.ListView<>();
        list.setId(id);
        list.getItems().setAll(items);
        list.setPrefHeight(Math.min(160, 26 * items.size() + 4));
        return list;
    }

    /** Ctrl+R: previews re-queueing the selected rows. */
    public void requeueSelected() {
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
    }

    public void focusSearch() {
        outboxErrorFilter.requestFocus();
        outboxErrorFilter.selectAll();
    }

    /** The page switched to: its table. */
    public void focusMain() {
        outboxTable.requestFocus();
    }

    private void export() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export outbox rows");
        chooser.setInitialFileName("claimdesk-outbox-" + LocalDate.now() + ".csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV", "*.csv"));
        File file = chooser.showSaveDialog(outboxTable.getScene().getWindow());
        if (file != null) {
            model.exportCsv(file.toPath());
        }
    }
}
