package org.claimdesk.ui.claims;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.MapChangeListener;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.LazyTabContent;
import org.claimdesk.ui.common.LayoutMemory;
import org.claimdesk.ui.common.NoticeLabel;
import org.claimdesk.ui.common.Once;
import org.claimdesk.ui.common.PageTableSkin;
import org.claimdesk.ui.common.Paging;

/** The claims page: binds {@link ClaimsViewModel} to the FXML and forwards what staff do. No IO here. */
public final class ClaimsView {
    private static final PseudoClass OVERDUE = PseudoClass.getPseudoClass("overdue");
    private final ClaimsViewModel model;
    private final ClaimsExportViewModel exporter;
    private final LayoutMemory layout;

    @FXML private TextField claimSearch;
    @FXML private ComboBox<String> jurisdictionFilter;
    @FXML private CheckBox overdueFilter;
    @FXML private Button clearFiltersButton;
    @FXML private Button refreshClaimsButton;
    @FXML private ProgressIndicator claimsLoading;
    @FXML private FlowPane statusFilter;
    @FXML private SplitPane claimsSplit;
    @FXML private TableView<ClaimRow> claimsTable;
    @FXML private TableColumn<ClaimRow, String> numberColumn;
    @FXML private TableColumn<ClaimRow, String> jurisdictionColumn;
    @FXML private TableColumn<ClaimRow, String> claimantColumn;
    @FXML private TableColumn<ClaimRow, String> taxIdColumn;
    @FXML private TableColumn<ClaimRow, String> propertyColumn;
    @FXML private TableColumn<ClaimRow, String> amountColumn;
    @FXML private TableColumn<ClaimRow, String> statusColumn;
    @FXML private TableColumn<ClaimRow, String> caseColumn;
    @FXML private TableColumn<ClaimRow, String> ageColumn;
    @FXML private TableColumn<ClaimRow, ClaimRow> dueColumn;
    @FXML private Button firstPageButton;
    @FXML private Button previousPageButton;
    @FXML private Button nextPageButton;
    @FXML private Button lastPageButton;
    @FXML private Label pageLabel;
    @FXML private Label detailPlaceholder;
    @FXML private VBox detailPane;
    @FXML private VBox detailContent;
    @FXML private Label detailTitle;
    @FXML private Label detailStatus;
    @FXML private Label detailOverdue;
    @FXML private Label detailClaimant;
    @FXML private GridPane detailGrid;
    @FXML private Label taxIdValue;
    @FXML private Button revealTaxIdButton;
    @FXML private Button hideTaxIdButton;
    @FXML private Button replaceTaxIdButton;
    @FXML private FlowPane claimActions;
    @FXML private Label actionsHint;
    @FXML private TableView<StatusChange> historyTable;
    @FXML private TableColumn<StatusChange, String> historyAtColumn;
    @FXML private TableColumn<StatusChange, String> historyToColumn;
    @FXML private TableColumn<StatusChange, String> historyActorColumn;
    @FXML private TableColumn<StatusChange, String> historyReasonColumn;
    @FXML private TableView<AuditEntry> claimAuditTable;
    @FXML private TableColumn<AuditEntry, String> auditAtColumn;
    @FXML private TableColumn<AuditEntry, String> auditActorColumn;
    @FXML private TableColumn<AuditEntry, String> auditActionColumn;
    @FXML private TableColumn<AuditEntry, String> auditReasonColumn;
    @FXML private TableColumn<AuditEntry, String> auditChangeColumn;
    @FXML private TableView<ClaimDetail.Delivery> claimOutboxTable;
    @FXML private Button fixDeliveryButton;
    @FXML private Button resubmitDeliveryButton;
    @FXML private TableColumn<ClaimDetail.Delivery, String> deliveryIdColumn;
    @FXML private TableColumn<ClaimDetail.Delivery, String> deliveryStateColumn;
    @FXML private TableColumn<ClaimDetail.Delivery, String> deliveryAttemptsColumn;
    @FXML private TableColumn<ClaimDetail.Delivery, String> deliveryErrorColumn;
    @FXML private TableView<DeliveryAttempt> claimAttemptsTable;
    @FXML private TableColumn<DeliveryAttempt, String> attemptNoColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptAtColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptHttpColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptOutcomeColumn;
    @FXML private TableColumn<DeliveryAttempt, String> attemptDetailColumn;
    @FXML private Label claimsNotice;
    @FXML private Button claimsExportButton;
    @FXML private ProgressBar claimsExportProgress;
    @FXML private Label claimsExportProgressLabel;
    @FXML private Label claimsExportNotice;
    @FXML private BorderPane claimsPage;
    @FXML private HBox editBar;
    @FXML private Button editButton;
    @FXML private Label readOnlyLabel;
    @FXML private VBox editForm;
    @FXML private Label faultLabel;
    @FXML private Tab evidenceTab;
    @FXML private Label evidenceFault;
    @FXML private HBox conflictBox;
    @FXML private Label conflictLabel;
    @FXML private Button reloadAfterConflictButton;
    @FXML private GridPane editGrid;
    @FXML private TextField editReason;
    @FXML private Button saveEditButton;
    @FXML private Button cancelEditButton;
    @FXML private Label saveHintLabel;
    @FXML private TabPane detailTabs;
    @FXML private TableView<Evidence> evidenceTable;
    @FXML private TableColumn<Evidence, String> evidenceKindColumn;
    @FXML private TableColumn<Evidence, String> evidenceTitleColumn;
    @FXML private TableColumn<Evidence, String> evidenceSourceColumn;
    @FXML private TableColumn<Evidence, String> evidenceAddedColumn;
    @FXML private ComboBox<EvidenceKind> evidenceKind;
    @FXML private TextField evidenceTitle;
    @FXML private TextField evidenceUrl;
    @FXML private Button addEvidenceUrlButton;
    @FXML private Button addEvidenceFileButton;
    @FXML private Label evidenceHint;
    @FXML private Label evidenceError;

    private final Map<ClaimStatus, ToggleButton> chips = new EnumMap<>(ClaimStatus.class);
    private boolean syncingSelection;

    public ClaimsView(ClaimsViewModel model, ClaimsExportViewModel exporter, LayoutMemory layout) {
        this.model = model;
        this.exporter = exporter;
        this.layout = layout;
    }

    @FXML
    private void initialize() {
        bindFilters();
        bindTable();
        bindPager();
        bindDetail();
        bindEditing();
        NoticeLabel.bind(claimsNotice, model.noticeProperty());
        bindExport();
        layout.split("claims", claimsSplit);
        layout.table("claims", claimsTable);
    }

    private void bindFilters() {
        claimSearch.textProperty().bindBidirectional(model.searchProperty());
        claimSearch.setOnAction(e -> model.applyFilters());
        claimSearch.textProperty().addListener((obs, old, text) -> {
            if (text == null || text.isEmpty()) {
                model.applyFilters();
            }
        });
        jurisdictionFilter.setItems(FXCollections.observableArrayList());
        model.jurisdictions().addListener((javafx.collections.ListChangeListener<String>) c -> {
            String current = model.jurisdictionProperty().get();
            jurisdictionFilter.getItems().setAll(model.jurisdictions());
            jurisdictionFilter.getItems().add(0, null);
            jurisdictionFilter.setValue(current);
        });
        jurisdictionFilter.setButtonCell(jurisdictionCell());
        jurisdictionFilter.setCellFactory(list -> jurisdictionCell());
        // the model clears the jurisdiction when it shows one claim (see ClaimsViewModel#showOnly)
        model.jurisdictionProperty().addListener((obs, old, value) -> {
            if (!java.util.Objects.equals(value, jurisdictionFilter.getValue())) {
                jurisdictionFilter.setValue(value);
            }
        });
        jurisdictionFilter.valueProperty().addListener((obs, old, value) -> {
            if (!java.util.Objects.equals(value, model.jurisdictionProperty().get())) {
                model.jurisdictionProperty().set(value);
                model.applyFilters();
            }
        });
        overdueFilter.selectedProperty().bindBidirectional(model.overdueOnlyProperty());
        overdueFilter.setOnAction(e -> model.applyFilters());
        clearFiltersButton.setOnAction(e -> {
            model.clearFilters();
            jurisdictionFilter.setValue(null);
        });
        refreshClaimsButton.setOnAction(e -> model.refresh());
        claimsLoading.visibleProperty().bind(model.loadingProperty());

        for (ClaimStatus status : ClaimStatus.values()) {
            ToggleButton chip = new ToggleButton(status.label());
            chip.setId("status-" + status.name());
            chip.getStyleClass().addAll("chip", "chip-" + status.name().toLowerCase(java.util.Locale.ROOT));
            chip.setFocusTraversable(false);
            chip.setOnAction(e -> model.toggleStatus(status, chip.isSelected()));
            chips.put(status, chip);
            statusFilter.getChildren().add(chip);
        }
        model.statusCounts().addListener((MapChangeListener<ClaimStatus, Integer>) c -> updateChip(c.getKey()));
        model.activeStatusesProperty().addListener((obs, old, active) ->
                chips.forEach((status, chip) -> chip.setSelected(active.contains(status))));
    }

    private void bindExport() {
        claimsExportButton.setOnAction(e -> ClaimsExportDialog.ask(claimsTable.getScene().getWindow(),
                model.pagingProperty().get().total()).ifPresent(a -> exporter.export(a.file(), model.shownFilter(),
                        a.includeTaxIds(), a.reason())));
        claimsExportButton.disableProperty().bind(exporter.exportingProperty());
        claimsExportProgress.visibleProperty().bind(exporter.progressProperty().isNotNull());
        claimsExportProgress.managedProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportProgressLabel.visibleProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportProgressLabel.managedProperty().bind(claimsExportProgress.visibleProperty());
        // followed only while the page is shown (a hidden node's change repaints the whole window)
        exporter.progressProperty().when(claimsPage.visibleProperty()).addListener((obs, old, p) -> {
            if (p != null) {
                claimsExportProgress.setProgress(p.total() > 0 ? p.fraction() : ProgressBar.INDETERMINATE_PROGRESS);
                claimsExportProgressLabel.setText(Formats.count(p.done())
                        + (p.total() > 0 ? " / " + Formats.count(p.total()) : "") + " exported");
            }
        });
        NoticeLabel.bind(claimsExportNotice, exporter.noticeProperty());
    }

    private static ListCell<String> jurisdictionCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item == null ? "All jurisdictions" : item);
            }
        };
    }

    private void updateChip(ClaimStatus status) {
        Integer n = model.statusCounts().get(status);
        chips.get(status).setText(status.label() + "  " + Formats.count(n == null ? 0 : n));
    }

    private void bindTable() {
        // List listeners run in the order they were added: this one before the table's selection model reacts
        // to new rows, the one at the end of this method after it. A selection the table moves by itself while
        // rows change (the selected row's position removed) is not staff's choice: it does not reach the
        // model, and the selection is then put back on the claim staff chose (or cleared).
        model.rows().addListener((javafx.collections.ListChangeListener<ClaimRow>) c -> syncingSelection = true);
        PageTableSkin.install(claimsTable);
        claimsTable.setItems(model.rows());
        Cells.text(numberColumn, ClaimRow::claimNumber);
        Cells.text(jurisdictionColumn, ClaimRow::jurisdiction);
        Cells.text(claimantColumn, ClaimRow::claimantName);
        Cells.text(taxIdColumn, ClaimRow::taxIdMasked);
        taxIdColumn.getStyleClass().add("mono");
        Cells.text(propertyColumn, r -> r.propertyType().name());
        Cells.number(amountColumn, r -> Formats.money(r.amountCents()));
        Cells.badge(statusColumn, r -> r.status().name(), name -> ClaimStatus.valueOf(name).label());
        Cells.text(caseColumn, ClaimRow::stateCaseId);
        Cells.number(ageColumn, r -> r.ageDays() + " d");
        dueColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        dueColumn.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(ClaimRow row, boolean empty) {
                super.updateItem(row, empty);
                boolean overdue = !empty && row != null && row.decisionDueOn() != null && row.overdue();
                // a pseudo-class: restyled from JavaFX's cache as rows change under the cell (see Cells.badge)
                pseudoClassStateChanged(OVERDUE, overdue);
                if (empty || row == null || row.decisionDueOn() == null) {
                    setText(null);
                    return;
                }
                setText(overdue ? "⚠ " + Formats.date(row.decisionDueOn()) : Formats.date(row.decisionDueOn()));
            }
        });
        numberColumn.setUserData(ClaimQuery.Sort.CLAIM_NUMBER);
        jurisdictionColumn.setUserData(ClaimQuery.Sort.JURISDICTION);
        claimantColumn.setUserData(ClaimQuery.Sort.CLAIMANT);
        propertyColumn.setUserData(ClaimQuery.Sort.PROPERTY_TYPE);
        amountColumn.setUserData(ClaimQuery.Sort.AMOUNT);
        statusColumn.setUserData(ClaimQuery.Sort.STATUS);
        caseColumn.setUserData(ClaimQuery.Sort.STATE_CASE_ID);
        ageColumn.setUserData(ClaimQuery.Sort.FILED_ON);
        dueColumn.setUserData(ClaimQuery.Sort.DECISION_DUE_ON);
        // Sorting happens in the database over every match, not over the page on screen.
        claimsTable.setSortPolicy(table -> {
            if (table.getSortOrder().isEmpty()) {
                model.sortBy(ClaimQuery.Sort.CLAIM_ID, false);
            } else {
                TableColumn<ClaimRow, ?> col = table.getSortOrder().get(0);
                boolean desc = col.getSortType() == TableColumn.SortType.DESCENDING;
                // Age grows as the filing date gets older: oldest first means filed_on ascending.
                if (col == ageColumn) {
                    desc = !desc;
                }
                model.sortBy((ClaimQuery.Sort) col.getUserData(), desc);
            }
            return true;
        });
        claimsTable.getSelectionModel().selectedItemProperty().addListener((obs, old, row) -> {
            if (!syncingSelection && row != null) {
                model.select(row);
            }
        });
        // A refresh may replace the rows: put the selection back on the same claim.
        model.selectedProperty().addListener((obs, old, row) -> reselect(row));
        model.rows().addListener((javafx.collections.ListChangeListener<ClaimRow>) c -> {
            syncingSelection = false;
            reselect(model.selectedProperty().get());
        });
    }

    /**
     * Puts the table's selection on {@code row}'s claim, or clears it when the claim is not on the page: a
     * refresh updates the rows in place, so the selected position may now hold another claim.
     */
    private void reselect(ClaimRow row) {
        if (row == null) {
            return;
        }
        int index = -1;
        for (int i = 0; i < model.rows().size(); i++) {
            if (model.rows().get(i).claimId() == row.claimId()) {
                index = i;
                break;
            }
        }
        int shownIndex = claimsTable.getSelectionModel().getSelectedIndex();
        ClaimRow shown = claimsTable.getSelectionModel().getSelectedItem();
        if (index == shownIndex && (index < 0 || model.rows().get(index).equals(shown))) {
            return;
        }
        syncingSelection = true;
        try {
            if (index >= 0) {
                claimsTable.getSelectionModel().clearAndSelect(index);
            } else {
                claimsTable.getSelectionModel().clearSelection();
            }
        } finally {
            syncingSelection = false;
        }
    }

    private void showPaging(Paging p) {
        pageLabel.setText(p.describe());
        previousPageButton.setDisable(!p.hasPrevious());
        firstPageButton.setDisable(!p.hasPrevious());
        nextPageButton.setDisable(!p.hasNext());
        lastPageButton.setDisable(!p.hasNext());
    }

    private void bindPager() {
        model.pagingProperty().addListener((obs, old, p) -> {
            showPaging(p);
            if (old != null && old.offset() != p.offset()) {
                claimsTable.scrollTo(0);
            }
        });
        showPaging(model.pagingProperty().get());
        firstPageButton.setOnAction(e -> model.firstPage());
        previousPageButton.setOnAction(e -> model.previousPage());
        nextPageButton.setOnAction(e -> model.nextPage());
        lastPageButton.setOnAction(e -> model.lastPage());
    }

    /**
     * The claim's detail (tabs and five tables) joins the scene when a claim is first selected: until then its
     * styling and skins would come before the first rows, in the same pulse (about a third of a second at start).
     */
    private void attachDetailOnFirstSelection() {
        int at = detailPane.getChildren().indexOf(detailContent);
        detailPane.getChildren().remove(at);
        Once.when(model.selectedProperty(), java.util.Objects::nonNull,
                () -> detailPane.getChildren().add(at, detailContent));
    }

    private void bindDetail() {
        attachDetailOnFirstSelection();
        LazyTabContent.holdUntilSelected(detailTabs);
        detailContent.visibleProperty().bind(model.selectedProperty().isNotNull());
        detailContent.managedProperty().bind(detailContent.visibleProperty());
        detailPlaceholder.visibleProperty().bind(model.selectedProperty().isNull());
        detailPlaceholder.managedProperty().bind(detailPlaceholder.visibleProperty());
        model.selectedProperty().addListener((obs, old, row) -> showClaim(row));
        model.actions().addListener((javafx.collections.ListChangeListener<ClaimAction>) c -> showActions());
        claimActions.disableProperty().bind(model.busyProperty());
        revealTaxIdButton.disableProperty().bind(model.busyProperty());
        model.revealedTaxIdProperty().addListener((obs, old, v) -> showTaxId());
        revealTaxIdButton.setOnAction(e -> reveal());
        hideTaxIdButton.setOnAction(e -> model.hideTaxId());

        Cells.text(historyAtColumn, h -> Formats.time(h.at()));
        Cells.text(historyToColumn, h -> h.toStatus().label());
        Cells.text(historyActorColumn, StatusChange::actor);
        Cells.text(historyReasonColumn, StatusChange::reason);
        Cells.text(auditAtColumn, a -> Formats.time(a.at()));
        Cells.text(auditActorColumn, AuditEntry::actor);
        Cells.text(auditActionColumn, AuditEntry::action);
        Cells.text(auditReasonColumn, AuditEntry::reason);
        Cells.textWithTooltip(auditChangeColumn, ClaimsView::change, AuditEntry::details);
        Cells.text(deliveryIdColumn, d -> Long.toString(d.event().outboxEventId()));
        Cells.badge(deliveryStateColumn, d -> d.event().deliveryState().name(), Formats::label);
        Cells.number(deliveryAttemptsColumn, d -> Integer.toString(d.event().attempts()));
        Cells.textWithTooltip(deliveryErrorColumn, d -> Formats.oneLine(d.event().lastError(), 200),
                d -> d.event().lastError());
        Cells.number(attemptNoColumn, a -> Integer.toString(a.attemptNo()));
        Cells.text(attemptAtColumn, a -> Formats.time(a.startedAt()));
        Cells.text(attemptHttpColumn, a -> a.httpStatus() == null ? "—" : a.httpStatus().toString());
        Cells.badge(attemptOutcomeColumn, a -> a.outcome().name(), Formats::label);
        Cells.textWithTooltip(attemptDetailColumn, a -> Formats.oneLine(a.detail(), 200), DeliveryAttempt::detail);
        claimOutboxTable.getSelectionModel().selectedItemProperty().addListener((obs, old, d) ->
                claimAttemptsTable.getItems().setAll(d == null ? java.util.List.of() : d.attempts()));
        BooleanBinding notFailed = Bindings.createBooleanBinding(() -> {
            ClaimDetail.Delivery d = claimOutboxTable.getSelectionModel().getSelectedItem();
            return d == null || d.event().deliveryState() != DeliveryState.FAILED;
        }, claimOutboxTable.getSelectionModel().selectedItemProperty());
        fixDeliveryButton.disableProperty().bind(notFailed);
        resubmitDeliveryButton.disableProperty().bind(notFailed);
        fixDeliveryButton.setOnAction(e -> model.fixDelivery(claimOutboxTable.getSelectionModel().getSelectedItem()));
        resubmitDeliveryButton.setOnAction(e -> model.resubmitDelivery(
                claimOutboxTable.getSelectionModel().getSelectedItem()));
        model.detailProperty().addListener((obs, old, d) -> showDetail(d));
        showClaim(null);
    }

    private void showClaim(ClaimRow row) {
        detailGrid.getChildren().clear();
        if (row == null) {
            historyTable.getItems().clear();
            claimAuditTable.getItems().clear();
            claimOutboxTable.getItems().clear();
            claimAttemptsTable.getItems().clear();
            return;
        }
        detailTitle.setText(row.claimNumber());
        detailStatus.setText(row.status().label());
        detailStatus.getStyleClass().setAll("label", "badge", "badge-" + row.status().name().toLowerCase(java.util.Locale.ROOT));
        detailOverdue.setVisible(row.overdue());
        detailOverdue.setManaged(row.overdue());
        detailClaimant.setText(row.claimantName());
        int r = 0;
        r = field(r, "Jurisdiction", row.jurisdiction());
        r = field(r, "Claim type", Formats.label(row.claimType().name()));
        r = field(r, "Property", row.propertyType().name() + " · " + row.propertyType().description());
        r = field(r, "Amount", Formats.money(row.amountCents()));
        r = field(r, "Holder", row.holderName() + (row.holderId() == null ? "" : " (" + row.holderId() + ")"));
        r = field(r, "State property id", row.statePropertyId());
        r = field(r, "Filed", Formats.date(row.filedOn()) + " (" + row.ageDays() + " days ago)");
        r = field(r, "State case id", row.stateCaseId() == null ? "—" : row.stateCaseId());
        field(r, "Decision due", row.decisionDueOn() == null ? "—"
                : Formats.date(row.decisionDueOn()) + (row.overdue() ? "  (overdue)" : ""));
        showTaxId();
    }

    /** The claimant's contact details, when the claim has any, below the read-only fields. */
    private void showContact(EditableClaim claim) {
        detailGrid.getChildren().removeIf(n -> "contact".equals(n.getUserData()));
        if (claim == null) {
            return;
        }
        String contact = String.join("   ", java.util.stream.Stream.of(ClaimField.CLAIMANT_EMAIL,
                ClaimField.CLAIMANT_PHONE, ClaimField.CLAIMANT_ADDRESS)
                .map(f -> claim.texts().getOrDefault(f, "")).filter(t -> !t.isEmpty()).toList());
        if (!contact.isEmpty()) {
            int row = detailGrid.getRowCount();
            field(row, "Contact", contact);
            detailGrid.getChildren().stream().filter(n -> GridPane.getRowIndex(n) != null
                    && GridPane.getRowIndex(n) == row).forEach(n -> n.setUserData("contact"));
        }
    }

    private int field(int row, String name, String value) {
        Label n = new Label(name);
        n.getStyleClass().add("field-name");
        Label v = new Label(value);
        v.setWrapText(true);
        v.getStyleClass().add("field-value");
        detailGrid.addRow(row, n, v);
        return row + 1;
    }

    /** An edit's entry as "holderId: HLD-1 → HLD-2" (the tax id is audited masked); other details on one line. */
    private static String change(AuditEntry entry) {
        if (entry.details() == null || entry.details().isBlank()) {
            return "";
        }
        try {
            com.fasterxml.jackson.databind.JsonNode details = org.claimdesk.store.Json.mapper().readTree(entry.details());
            if (details.hasNonNull("field")) {
                return details.path("field").asText() + ": " + orDash(details.path("before").asText(""))
                        + " → " + orDash(details.path("after").asText(""));
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // not JSON: shown as written
        }
        return Formats.oneLine(entry.details(), 200);
    }

    private static String orDash(String text) {
        return text.isEmpty() ? "—" : text;
    }

    private void showTaxId() {
        ClaimRow row = model.selectedProperty().get();
        String revealed = model.revealedTaxIdProperty().get();
        taxIdValue.setText(revealed != null ? revealed : row == null ? "" : row.taxIdMasked());
        taxIdValue.getStyleClass().remove("revealed");
        if (revealed != null) {
            taxIdValue.getStyleClass().add("revealed");
        }
        revealTaxIdButton.setVisible(revealed == null);
        revealTaxIdButton.setManaged(revealed == null);
        hideTaxIdButton.setVisible(revealed != null);
        hideTaxIdButton.setManaged(revealed != null);
    }

    private void showActions() {
        claimActions.getChildren().clear();
        ClaimRow row = model.selectedProperty().get();
        for (ClaimAction action : model.actions()) {
            Button b = new Button(action.label());
            b.setId("action-" + action.target().name());
            b.getStyleClass().add(action.submit() ? "accent"
                    : action.target() == ClaimStatus.WITHDRAWN || action.target() == ClaimStatus.REJECTED ? "danger"
                    : "button-outlined");
            b.setTooltip(new Tooltip("Moves the claim to " + action.target().label()
                    + (action.reasonRequired() ? "; asks for a reason" : "")));
            b.setOnAction(e -> perform(action));
            claimActions.getChildren().add(b);
        }
        if (row == null) {
            actionsHint.setText("");
        } else if (row.status() == ClaimStatus.SUBMITTING) {
            actionsHint.setText("A submission is in flight: the worker moves the claim on when the state acknowledges it;"
                    + " to fix and resubmit, abandon its failed row in the Outbox view.");
        } else if (model.actions().isEmpty()) {
            actionsHint.setText(row.status().label() + " is final: no further actions.");
        } else {
            actionsHint.setText("");
        }
    }

    private void perform(ClaimAction action) {
        ClaimRow row = model.selectedProperty().get();
        if (row == null) {
            return;
        }
        Optional<Dialogs.Answer> answer = Dialogs.confirmWithReason(claimsTable.getScene().getWindow(), action.label(),
                action.confirmation(row.claimNumber()), action.label(), action.reasonRequired(),
                action.reasonRequired() ? "Why? (required)" : "Note for the audit trail (optional)");
        answer.ifPresent(a -> model.perform(action, a.reason()));
    }

    private void reveal() {
        ClaimRow row = model.selectedProperty().get();
        if (row == null) {
            return;
        }
        Dialogs.confirmWithReason(claimsTable.getScene().getWindow(), "Reveal tax id",
                "Reveal the whole tax id of claim " + row.claimNumber() + "? The reveal is audited.", "Reveal",
                true, "Why do you need it? (required)")
                .ifPresent(a -> model.revealTaxId(a.reason()));
    }

    private void showDetail(ClaimDetail d) {
        if (d == null) {
            return;
        }
        historyTable.getItems().setAll(d.history());
        showContact(d.editable());
        claimAuditTable.getItems().setAll(d.audit());
        Long selectedDelivery = Optional.ofNullable(claimOutboxTable.getSelectionModel().getSelectedItem())
                .map(x -> x.event().outboxEventId()).orElse(null);
        claimOutboxTable.getItems().setAll(d.deliveries());
        if (!d.deliveries().isEmpty()) {
            int index = 0;
            for (int i = 0; i < d.deliveries().size(); i++) {
                if (selectedDelivery != null && d.deliveries().get(i).event().outboxEventId() == selectedDelivery) {
                    index = i;
                }
            }
            claimOutboxTable.getSelectionModel().select(index);
        }
    }

    private static final KeyCombination EDIT = KeyCombination.keyCombination("Shortcut+E");
    private static final KeyCombination SAVE = KeyCombination.keyCombination("Shortcut+S");

    /** Ctrl+E edits the selected claim, Ctrl+S saves, Esc cancels; the edit form replaces the read-only fields. */
    private void bindEditing() {
        ClaimEditViewModel editor = model.editor();
        ClaimEditForm.build(editor, editGrid);
        editForm.visibleProperty().bind(editor.activeProperty());
        editForm.managedProperty().bind(editForm.visibleProperty());
        detailGrid.visibleProperty().bind(editor.activeProperty().not());
        detailGrid.managedProperty().bind(detailGrid.visibleProperty());
        detailClaimant.visibleProperty().bind(editor.activeProperty().not());
        detailClaimant.managedProperty().bind(detailClaimant.visibleProperty());
        editBar.visibleProperty().bind(editor.activeProperty().not());
        editBar.managedProperty().bind(editBar.visibleProperty());
        editButton.disableProperty().bind(editor.canEditProperty().not());
        editButton.setOnAction(e -> startEdit());
        readOnlyLabel.textProperty().bind(editor.readOnlyReasonProperty().map(r -> "Read-only: " + r)
                .orElse("Ctrl+E edits the fields; Ctrl+S saves, Esc cancels."));
        // a status change or a reveal while editing would leave the edit on an old version
        claimActions.disableProperty().unbind();
        claimActions.disableProperty().bind(model.busyProperty().or(editor.activeProperty()));
        revealTaxIdButton.disableProperty().unbind();
        revealTaxIdButton.disableProperty().bind(model.busyProperty().or(editor.activeProperty()));
        // replaced outside the form: an edit under way would then be on an old version
        replaceTaxIdButton.disableProperty().bind(model.busyProperty().or(editor.busyProperty())
                .or(editor.canEditProperty().not()).or(editor.activeProperty()));
        replaceTaxIdButton.setOnAction(e -> replaceTaxId());
        editReason.textProperty().bindBidirectional(editor.reasonProperty());
        editReason.setOnAction(e -> editor.save());
        saveEditButton.disableProperty().bind(editor.canSaveProperty().not());
        saveEditButton.setOnAction(e -> editor.save());
        cancelEditButton.disableProperty().bind(editor.busyProperty());
        cancelEditButton.setOnAction(e -> cancelEdit());
        saveHintLabel.textProperty().bind(editor.saveHintProperty());
        conflictLabel.textProperty().bind(editor.conflictProperty());
        conflictBox.visibleProperty().bind(editor.conflictProperty().isNotNull());
        conflictBox.managedProperty().bind(conflictBox.visibleProperty());
        reloadAfterConflictButton.setOnAction(e -> editor.reloadAfterConflict());
        faultLabel.textProperty().bind(editor.faultProperty().map(ClaimEditViewModel.Fault::describe));
        faultLabel.visibleProperty().bind(editor.faultProperty().isNotNull());
        faultLabel.managedProperty().bind(faultLabel.visibleProperty());
        evidenceFault.textProperty().bind(editor.faultProperty().map(f -> f.evidence() ? f.describe() : null));
        evidenceFault.visibleProperty().bind(evidenceFault.textProperty().isNotEmpty());
        evidenceFault.managedProperty().bind(evidenceFault.visibleProperty());
        editor.faultProperty().addListener((obs, old, fault) -> {
            if (fault != null) {
                // after the form has been laid out for edit mode, so the field can take the focus
                javafx.application.Platform.runLater(() -> bringToFault(fault));
            }
        });
        // staff finish (save or cancel) an edit before choosing another claim
        claimsTable.disableProperty().bind(editor.activeProperty());
        ClaimEditForm.bindEvidence(editor, evidenceTable, evidenceKindColumn, evidenceTitleColumn,
                evidenceSourceColumn, evidenceAddedColumn, evidenceKind, evidenceTitle, evidenceUrl,
                addEvidenceUrlButton, addEvidenceFileButton, evidenceHint, evidenceError);
        claimsPage.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (EDIT.match(e) && model.selectedProperty().get() != null) {
                startEdit();
                e.consume();
            } else if (SAVE.match(e) && editor.activeProperty().get()) {
                editor.save();
                e.consume();
            } else if (e.getCode() == KeyCode.ESCAPE && editor.activeProperty().get() && !popupShowing(e)) {
                e.consume();
                cancelEdit();
            }
        });
    }

    private void startEdit() {
        if (model.editor().startEdit()) {
            editGrid.getChildren().stream().filter(n -> n.getId() != null && n.getId().startsWith("edit-"))
                    .findFirst().ifPresent(javafx.scene.Node::requestFocus);
        }
    }

    /** Esc or Cancel: leaves edit mode; asks first when something was typed. */
    private void cancelEdit() {
        ClaimEditViewModel editor = model.editor();
        if (!editor.activeProperty().get() || editor.busyProperty().get()) {
            return;
        }
        ClaimRow row = model.selectedProperty().get();
        if (editor.dirtyProperty().get() && !Dialogs.confirm(claimsTable.getScene().getWindow(), "Drop changes",
                "Drop your unsaved changes to claim " + (row == null ? "" : row.claimNumber())
                        + "? Nothing of them has been saved.", "Drop changes")) {
            return;
        }
        editor.cancel();
        editButton.requestFocus();
    }

    /** Takes staff to the field the state refused: its input, the Evidence tab, or the tax id's Replace. */
    private void bringToFault(ClaimEditViewModel.Fault fault) {
        if (fault.evidence()) {
            detailTabs.getSelectionModel().select(evidenceTab);
            fault.evidenceKind().ifPresent(evidenceKind::setValue);
            (evidenceUrl.isDisabled() ? evidenceTable : evidenceUrl).requestFocus();
        } else if (fault.taxId()) {
            replaceTaxIdButton.requestFocus();
        } else {
            editGrid.getChildren().stream().filter(n -> ("edit-" + fault.field()).equals(n.getId())).findFirst()
                    .ifPresent(javafx.scene.Node::requestFocus);
        }
    }

    /** Replace…: asks for the new tax id, whole, and the reason; saved in the background and audited masked. */
    private void replaceTaxId() {
        ClaimRow row = model.selectedProperty().get();
        if (row == null) {
            return;
        }
        ClaimEditForm.askTaxId(claimsTable.getScene().getWindow(), model.editor(), row.claimNumber())
                .ifPresent(a -> model.editor().replaceTaxId(a.taxId(), a.reason()));
    }

    /** An Esc that closes a drop-down list is for the list, not for the edit. */
    private static boolean popupShowing(KeyEvent e) {
        return e.getTarget() instanceof ComboBox<?> box && box.isShowing();
    }

    /** Ctrl+F: focus the search field with its text selected. */
    public void focusSearch() {
        claimSearch.requestFocus();
        claimSearch.selectAll();
    }
}
