package org.claimdesk.ui.audit;

import org.claimdesk.ui.common.Accessible;
import org.claimdesk.ui.common.AuditDetails;
import java.io.File;
import java.time.LocalDate;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.FileChooser;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.LayoutMemory;
import org.claimdesk.ui.common.NoticeLabel;

/** The audit page: binds {@link AuditViewModel} to the FXML. */
public final class AuditView {
    private final AuditViewModel model;
    private final LayoutMemory layout;

    @FXML private TextField auditSubjectFilter;
    @FXML private TextField auditActorFilter;
    @FXML private ComboBox<String> auditActionFilter;
    @FXML private Button auditApplyButton;
    @FXML private Button auditClearButton;
    @FXML private Button auditExportButton;
    @FXML private TableView<AuditEntry> auditTable;
    @FXML private TableColumn<AuditEntry, String> atColumn;
    @FXML private TableColumn<AuditEntry, String> actorColumn;
    @FXML private TableColumn<AuditEntry, String> actionColumn;
    @FXML private TableColumn<AuditEntry, String> subjectColumn;
    @FXML private TableColumn<AuditEntry, String> reasonColumn;
    @FXML private TableColumn<AuditEntry, String> detailsColumn;
    @FXML private Button auditPreviousButton;
    @FXML private Button auditNextButton;
    @FXML private Label auditPageLabel;
    @FXML private ProgressBar auditExportProgress;
    @FXML private Label auditNotice;

    public AuditView(AuditViewModel model, LayoutMemory layout) {
        this.model = model;
        this.layout = layout;
    }

    @FXML
    private void initialize() {
        Accessible.name(auditSubjectFilter, "Subject: claim number, claim ID or outbox row ID");
        Accessible.name(auditActorFilter, "Actor");
        Accessible.name(auditActionFilter, "Action");
        auditSubjectFilter.textProperty().bindBidirectional(model.subjectProperty());
        auditActorFilter.textProperty().bindBidirectional(model.actorProperty());
        auditActionFilter.getItems().add(null);
        auditActionFilter.getItems().addAll(model.actions());
        auditActionFilter.setButtonCell(actionCell());
        auditActionFilter.setCellFactory(l -> actionCell());
        auditActionFilter.valueProperty().bindBidirectional(model.actionProperty());
        auditActionFilter.setOnAction(e -> model.applyFilters());
        auditSubjectFilter.setOnAction(e -> model.applyFilters());
        auditActorFilter.setOnAction(e -> model.applyFilters());
        auditApplyButton.setOnAction(e -> model.applyFilters());
        auditClearButton.setOnAction(e -> model.showSubject(""));
        auditExportButton.setOnAction(e -> export());
        auditExportButton.disableProperty().bind(model.exportingProperty());
        auditExportProgress.visibleProperty().bind(model.exportingProperty());

        auditTable.setItems(model.rows());
        Cells.text(atColumn, a -> Formats.time(a.at()));
        Cells.text(actorColumn, AuditEntry::actor);
        Cells.text(actionColumn, AuditEntry::action);
        Cells.text(subjectColumn, model::subjectText);
        Cells.textWithTooltip(reasonColumn, a -> Formats.oneLine(a.reason(), 200), AuditEntry::reason);
        Cells.textWithTooltip(detailsColumn, a -> AuditDetails.summary(a.details(), true), AuditEntry::details);
        auditPageLabel.textProperty().bind(model.pageTextProperty());
        auditNextButton.disableProperty().bind(model.hasNextProperty().not());
        auditPreviousButton.disableProperty().bind(model.hasPreviousProperty().not());
        auditNextButton.setOnAction(e -> model.nextPage());
        auditPreviousButton.setOnAction(e -> model.previousPage());
        NoticeLabel.bind(auditNotice, model.noticeProperty());
        layout.table("audit", auditTable);
    }

    private static ListCell<String> actionCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item == null ? "Every action" : item);
            }
        };
    }

    private void export() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export the audit trail");
        chooser.setInitialFileName("claimdesk-audit-" + LocalDate.now() + ".csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV", "*.csv"));
        File file = chooser.showSaveDialog(auditTable.getScene().getWindow());
        if (file != null) {
            model.exportCsv(file.toPath());
        }
    }

    public void focusSearch() {
        auditSubjectFilter.requestFocus();
        auditSubjectFilter.selectAll();
    }

    /** The page switched to: its table. */
    public void focusMain() {
        auditTable.requestFocus();
    }
}
