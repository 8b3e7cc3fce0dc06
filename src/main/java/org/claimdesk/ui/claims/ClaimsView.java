package org.claimdesk.ui.claims;

import org.claimdesk.ui.common.Accessible;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.MapChangeListener;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.Node;
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
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.VBox;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.common.BusyIndicator;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.LayoutMemory;
import org.claimdesk.ui.common.NoticeLabel;
import org.claimdesk.ui.common.Once;
import org.claimdesk.ui.common.PageTableSkin;
import org.claimdesk.ui.common.Paging;
import org.claimdesk.ui.common.ViewFactory;

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
    @FXML private Label claimsNotice;
    @FXML private Button claimsExportButton;
    @FXML private Button claimsExportCancelButton;
    @FXML private ProgressBar claimsExportProgress;
    @FXML private Label claimsExportProgressLabel;
    @FXML private Label claimsExportNotice;
    @FXML private BorderPane claimsPage;

    private final Map<ClaimStatus, ToggleButton> chips = new EnumMap<>(ClaimStatus.class);
    private boolean syncingSelection;

    private final Supplier<ViewFactory.Loaded<ClaimDetailView>> detailLoader;
    /** The claim's detail once built: its controller and its root. */
    private ViewFactory.Loaded<ClaimDetailView> detail;

    public ClaimsView(ClaimsViewModel model, ClaimsExportViewModel exporter, LayoutMemory layout,
            Supplier<ViewFactory.Loaded<ClaimDetailView>> detailLoader) {
        this.model = model;
        this.exporter = exporter;
        this.layout = layout;
        this.detailLoader = detailLoader;
    }

    @FXML
    private void initialize() {
        Accessible.name(claimSearch, "Search claims");
        Accessible.name(jurisdictionFilter, "Jurisdiction");
        bindFilters();
        bindTable();
        bindPager();
        bindDetailPane();
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
        org.claimdesk.ui.common.FilterChoices.follow(jurisdictionFilter, model.jurisdictions(),
                model.jurisdictionProperty()::get, value -> {
                    model.jurisdictionProperty().set(value);
                    model.applyFilters();
                });
        jurisdictionFilter.setOnShowing(e -> model.reloadJurisdictions());
        jurisdictionFilter.setButtonCell(jurisdictionCell());
        jurisdictionFilter.setCellFactory(list -> jurisdictionCell());
        // the model clears the jurisdiction when it shows one claim (see ClaimsViewModel#showOnly)
        model.jurisdictionProperty().addListener((obs, old, value) -> {
            if (!java.util.Objects.equals(value, jurisdictionFilter.getValue())) {
                jurisdictionFilter.setValue(value);
            }
        });
        overdueFilter.selectedProperty().bindBidirectional(model.overdueOnlyProperty());
        overdueFilter.setOnAction(e -> model.applyFilters());
        clearFiltersButton.setOnAction(e -> {
            model.clearFilters();
            jurisdictionFilter.setValue(null);
        });
        refreshClaimsButton.setOnAction(e -> model.refresh());
        BusyIndicator.bind(claimsLoading, model.loadingProperty());

        for (ClaimStatus status : ClaimStatus.values()) {
            ToggleButton chip = new ToggleButton(status.label());
            chip.setId("status-" + status.name());
            chip.getStyleClass().addAll("chip", "chip-" + status.name().toLowerCase(java.util.Locale.ROOT));
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
                model.pagingProperty().get().total(), exporter.failedRequest()).ifPresent(a -> exporter.export(a.file(),
                        model.shownFilter(), a.includeTaxIds(), a.reason(), a.replace())));
        exporter.replaceQuestionProperty().addListener((obs, old, asked) -> {
            if (asked != null) {
                exporter.replaceAnswered(Dialogs.confirm(claimsTable.getScene().getWindow(), "Replace the file?",
                        asked.file() + " already exists. Replace it with this export?", "Replace"));
            }
        });
        claimsExportButton.disableProperty().bind(exporter.exportingProperty());
        claimsExportProgress.visibleProperty().bind(exporter.progressProperty().isNotNull());
        claimsExportProgress.managedProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportProgressLabel.visibleProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportProgressLabel.managedProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportCancelButton.visibleProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportCancelButton.managedProperty().bind(claimsExportProgress.visibleProperty());
        claimsExportCancelButton.setOnAction(e -> exporter.cancel());
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
                    setAccessibleText(null);
                    return;
                }
                setText(overdue ? "⚠ " + Formats.date(row.decisionDueOn()) : Formats.date(row.decisionDueOn()));
                setAccessibleText(overdue ? "Overdue, due " + Formats.date(row.decisionDueOn()) : null);
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
     * The claim's detail (the edit form, tabs and five tables) is built from its own FXML by {@link #prepareDetail()}
     * and joins the scene when a claim is first selected. Built with the page, it took about a third of the page's
     * build; in the scene, its styling and skins would come before the first rows, in the same pulse.
     */
    private void bindDetailPane() {
        detailPlaceholder.visibleProperty().bind(model.selectedProperty().isNull());
        detailPlaceholder.managedProperty().bind(detailPlaceholder.visibleProperty());
        // staff finish (save or cancel) an edit before choosing another claim
        claimsTable.disableProperty().bind(model.editor().activeProperty());
        // an edit saved or cancelled hides the field that had the focus: back to the claims, for the next one
        model.editor().activeProperty().addListener((obs, was, editing) -> {
            if (was && !editing) {
                javafx.application.Platform.runLater(() -> {
                    if (claimsPage.isVisible() && !model.editor().activeProperty().get()) {
                        claimsTable.requestFocus();
                    }
                });
            }
        });
        claimsPage.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (detail != null) {
                detail.controller().onPageKey(e);
            }
        });
        Runnable join = () -> detailPane.getChildren().add(prepareDetail());
        if (model.selectedProperty().get() != null) {
            join.run();
        } else {
            Once.when(model.selectedProperty(), java.util.Objects::nonNull, join);
        }
    }

    /**
     * Builds the claim's detail, once, without putting it in the scene: the console calls it when start-up is idle,
     * so that the first selection only joins it; a selection before that builds it then.
     */
    public Node prepareDetail() {
        if (detail == null) {
            detail = detailLoader.get();
        }
        return detail.root();
    }

    /** True once the claim's detail has been built (by {@link #prepareDetail()}). */
    public boolean detailBuilt() {
        return detail != null;
    }

    /** Ctrl+F: focus the search field with its text selected. */
    public void focusSearch() {
        claimSearch.requestFocus();
        claimSearch.selectAll();
    }

    /** The page switched to: the claims table (the edit form while a claim is being edited). */
    public void focusMain() {
        if (claimsTable.isDisabled() && detail != null) {
            detail.controller().focusEdit();
        } else {
            claimsTable.requestFocus();
        }
    }
}
