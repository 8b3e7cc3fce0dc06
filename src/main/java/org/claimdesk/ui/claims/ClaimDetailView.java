package org.claimdesk.ui.claims;

import org.claimdesk.ui.common.Accessible;
import org.claimdesk.ui.common.AuditDetails;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.common.LazyTabContent;

/**
 * The selected claim's detail on the Claims page: its fields, the edit form, the tax id, the status actions and
 * the tabs of history, audit, evidence and deliveries. Its FXML is loaded apart from the page's, once, before the
 * first selection needs it (see {@link ClaimsView}). No IO here.
 */
public final class ClaimDetailView {
    private final ClaimsViewModel model;

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
    @FXML private HBox editBar;
    @FXML private Button editButton;
    @FXML private Label readOnlyLabel;
    @FXML private VBox editForm;
    @FXML private Label faultLabel;
    @FXML private Tab evidenceTab;
    @FXML private Label evidenceFault;
    @FXML private HBox conflictBox;
    @FXML private Label conflictLabel;
    @FXML private Label lockedLabel;
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
    @FXML private Button withdrawEvidenceButton;
    @FXML private Label evidenceSelected;
    @FXML private Label evidenceHint;
    @FXML private Label evidenceError;

    public ClaimDetailView(ClaimsViewModel model) {
        this.model = model;
    }

    @FXML
    private void initialize() {
        Accessible.name(editReason, "Reason for the change (required; audited with each change)");
        Accessible.name(evidenceKind, "Kind of evidence");
        Accessible.name(evidenceTitle, "Evidence title (optional)");
        Accessible.name(evidenceUrl, "Evidence web address");
        bindDetail();
        bindEditing();
        // built after the page, maybe with a claim already selected: shown as it is now
        showClaim(model.selectedProperty().get());
        showActions();
        showDetail(model.detailProperty().get());
    }

    private Window window() {
        return detailContent.getScene().getWindow();
    }

    private void bindDetail() {
        LazyTabContent.holdUntilSelected(detailTabs);
        detailContent.visibleProperty().bind(model.selectedProperty().isNotNull());
        detailContent.managedProperty().bind(detailContent.visibleProperty());
        model.selectedProperty().addListener((obs, old, row) -> showClaim(row));
        model.actions().addListener((javafx.collections.ListChangeListener<ClaimAction>) c -> showActions());
        claimActions.disableProperty().bind(model.busyProperty());
        revealTaxIdButton.disableProperty().bind(model.busyProperty());
        model.revealedTaxIdProperty().addListener((obs, old, v) -> showTaxId());
        revealTaxIdButton.setOnAction(e -> reveal());
        hideTaxIdButton.setOnAction(e -> model.hideTaxId());

        // the detail is narrow: its history's and audit's texts wrap within their columns instead of being cut short
        Cells.wrapped(historyAtColumn, h -> Formats.minute(h.at()));
        Cells.wrapped(historyToColumn, h -> h.toStatus().label());
        Cells.wrapped(historyActorColumn, StatusChange::actor);
        Cells.wrapped(historyReasonColumn, StatusChange::reason);
        Cells.wrapped(auditAtColumn, a -> Formats.minute(a.at()));
        Cells.wrapped(auditActorColumn, AuditEntry::actor);
        Cells.wrapped(auditActionColumn, AuditEntry::action);
        Cells.wrapped(auditReasonColumn, AuditEntry::reason);
        Cells.wrapped(auditChangeColumn, a -> AuditDetails.summary(a.details(), false), AuditEntry::details);
        Cells.text(deliveryIdColumn, d -> Long.toString(d.event().outboxEventId()));
        Cells.badge(deliveryStateColumn, d -> d.event().deliveryState().name(), Formats::label);
        Cells.number(deliveryAttemptsColumn, d -> Integer.toString(d.event().attempts()));
        Cells.textWithTooltip(deliveryErrorColumn, d -> Formats.oneLine(d.event().lastError(), 200),
                d -> d.event().lastError());
        Cells.number(attemptNoColumn, a -> Integer.toString(a.attemptNo()));
        Cells.wrapped(attemptAtColumn, a -> Formats.time(a.startedAt()));
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
        // the name whole: the value gives way (and wraps) where the pane is narrow
        n.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        Label v = new Label(value);
        v.setWrapText(true);
        v.getStyleClass().add("field-value");
        detailGrid.addRow(row, n, v);
        return row + 1;
    }

    private void showTaxId() {
        ClaimRow row = model.selectedProperty().get();
        String revealed = model.revealedTaxIdProperty().get();
        taxIdValue.setText(revealed != null ? revealed : row == null ? "" : row.taxIdMasked());
        // "***-**-2333" read aloud is stars: say what it is
        taxIdValue.setAccessibleText(revealed != null || row == null || row.taxIdMasked().length() < 4 ? null
                : "tax id ending " + row.taxIdMasked().substring(row.taxIdMasked().length() - 4));
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
        ClaimsViewModel.Seen seen = model.seen();
        if (seen == null) {
            return;
        }
        ClaimRow row = seen.row();
        Optional<Dialogs.Answer> answer = Dialogs.confirmWithReason(window(), action.label(),
                model.confirmation(action, seen), action.label(), action.reasonRequired(),
                action.reasonRequired() ? "Why? (required)" : "Note for the audit trail (optional)",
                model.reasonToRetry(action, row.claimId()));
        answer.ifPresent(a -> model.perform(action, a.reason(), seen));
    }

    private void reveal() {
        ClaimRow row = model.selectedProperty().get();
        if (row == null) {
            return;
        }
        Dialogs.confirmWithReason(window(), "Reveal tax id",
                "Reveal the whole tax id of claim " + row.claimNumber() + "? The reveal is audited.", "Reveal",
                true, "Why do you need it? (required)", model.reasonToRetry(null, row.claimId()))
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
                .orElse(Keys.say("Ctrl+E edits the fields; Ctrl+S saves, Esc cancels.")));
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
        lockedLabel.textProperty().bind(editor.lockedNoticeProperty());
        lockedLabel.visibleProperty().bind(editor.lockedNoticeProperty().isNotNull());
        lockedLabel.managedProperty().bind(lockedLabel.visibleProperty());
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
        ClaimEditForm.bindEvidence(editor, evidenceTable, evidenceKindColumn, evidenceTitleColumn,
                evidenceSourceColumn, evidenceAddedColumn, evidenceKind, evidenceTitle, evidenceUrl,
                addEvidenceUrlButton, addEvidenceFileButton, withdrawEvidenceButton, evidenceSelected, evidenceHint,
                evidenceError);
    }

    /** The Claims page's keys for the edit: Ctrl+E edits the selected claim, Ctrl+S saves, Esc cancels. */
    void onPageKey(KeyEvent e) {
        ClaimEditViewModel editor = model.editor();
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
    }

    private void startEdit() {
        if (model.editor().startEdit()) {
            focusEdit();
        }
    }

    /** Focus into the edit form's first field (the Claims page switched to while a claim is being edited). */
    void focusEdit() {
        editGrid.getChildren().stream().filter(n -> n.getId() != null && n.getId().startsWith("edit-"))
                .findFirst().ifPresent(javafx.scene.Node::requestFocus);
    }

    /** Esc or Cancel: leaves edit mode; asks first when something was typed. */
    private void cancelEdit() {
        ClaimEditViewModel editor = model.editor();
        if (!editor.activeProperty().get() || editor.busyProperty().get()) {
            return;
        }
        ClaimRow row = model.selectedProperty().get();
        if (editor.dirtyProperty().get() && !Dialogs.confirm(window(), "Drop changes",
                "Drop your unsaved changes to claim " + (row == null ? "" : row.claimNumber())
                        + "? Nothing of them has been saved.", "Drop changes")) {
            return;
        }
        editor.cancel();
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
        EditableClaim seen = model.editor().shownClaim();
        if (seen == null) {
            return;
        }
        ClaimEditForm.askTaxId(window(), model.editor(), seen.claimNumber(), seen.claimId())
                .ifPresent(a -> model.editor().replaceTaxId(seen, a.taxId(), a.reason()));
    }

    /** An Esc that closes a drop-down list is for the list, not for the edit. */
    private static boolean popupShowing(KeyEvent e) {
        return e.getTarget() instanceof ComboBox<?> box && box.isShowing();
    }

}
