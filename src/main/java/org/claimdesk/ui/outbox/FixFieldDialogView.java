package org.claimdesk.ui.outbox;

import org.claimdesk.ui.common.Accessible;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableStringValue;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.claimdesk.app.BulkEdit;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.NoticeLabel;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.ReasonKeys;

/**
 * The content of the "Fix a field…" dialog (FixFieldDialog.fxml): the field and its new value with the rule's
 * message next to it, the preview (claim, now → after, skipped), the reason, Apply with progress and Cancel, then
 * "Resubmit N corrected rows". Binds a {@link FixFieldViewModel}; does no IO.
 */
public final class FixFieldDialogView {
    @FXML private VBox fixFieldPane;
    @FXML private Label fixTitle;
    @FXML private ComboBox<ClaimField<?>> fixFieldChoice;
    @FXML private TextField fixValueField;
    @FXML private Button fixPreviewButton;
    @FXML private Label fixValueError;
    @FXML private TableView<BulkEdit.Target> fixPreviewTable;
    @FXML private TableColumn<BulkEdit.Target, String> fixClaimColumn;
    @FXML private TableColumn<BulkEdit.Target, String> fixBeforeColumn;
    @FXML private TableColumn<BulkEdit.Target, String> fixAfterColumn;
    @FXML private ListView<String> fixSkippedList;
    @FXML private TextArea fixReasonField;
    @FXML private Button fixApplyButton;
    @FXML private ProgressBar fixProgress;
    @FXML private Label fixProgressLabel;
    @FXML private Button fixCancelButton;
    @FXML private Label fixNotice;
    @FXML private VBox resubmitBox;
    @FXML private Label resubmitSummary;
    @FXML private TextArea resubmitReasonField;
    @FXML private Button resubmitCorrectedButton;

    /** Loads the dialog's FXML and binds it to {@code model}. */
    public static FixFieldDialogView load(FixFieldViewModel model) {
        FixFieldDialogView view = Dialogs.loadController(FixFieldDialogView.class, "FixFieldDialog.fxml");
        view.bind(model);
        return view;
    }

    public VBox root() {
        return fixFieldPane;
    }

    @FXML
    private void initialize() {
        Accessible.name(fixFieldChoice, "Field to set");
        Accessible.name(fixValueField, "New value");
        Accessible.name(fixReasonField, "Reason for the change (required)");
        Accessible.name(resubmitReasonField, "Reason to resubmit (required)");
        fixClaimColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().claimNumber()));
        fixBeforeColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(shown(c.getValue().before())));
        fixAfterColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(shown(c.getValue().after())));
        fixFieldChoice.setConverter(new StringConverter<>() {
            @Override
            public String toString(ClaimField<?> field) {
                return field == null ? "" : field.label() + " (" + field.name() + ")";
            }

            @Override
            public ClaimField<?> fromString(String text) {
                return null;
            }
        });
    }

    private void bind(FixFieldViewModel model) {
        fixTitle.textProperty().bind(model.scopeProperty().map(s -> "Fix a field on the claims of " + s));
        fixFieldChoice.getItems().setAll(model.fields());
        fixFieldChoice.valueProperty().bindBidirectional(model.fieldProperty());
        fixValueField.textProperty().bindBidirectional(model.valueProperty());
        fixValueField.setOnAction(e -> model.preview());
        // what the change under way was previewed with stays as it is until it ends
        fixValueField.disableProperty().bind(model.runningProperty());
        fixFieldChoice.disableProperty().bind(model.runningProperty());
        fixValueError.textProperty().bind(model.valueErrorProperty());
        fixValueError.visibleProperty().bind(model.valueErrorProperty().isNotNull());
        fixValueError.managedProperty().bind(fixValueError.visibleProperty());
        fixPreviewButton.setOnAction(e -> model.preview());
        fixPreviewButton.disableProperty().bind(model.busyProperty().or(model.valueErrorProperty().isNotNull())
                .or(blank(model.valueProperty())));

        model.previewProperty().addListener((obs, old, p) -> showPreview(p));
        showPreview(model.previewProperty().get());
        model.editResultProperty().addListener((obs, old, r) -> {
            if (r != null) {
                fixSkippedList.getItems().setAll(java.util.stream.Stream.concat(r.changedSince().stream()
                        .map(s -> s.claimNumber() + ": changed since the preview: " + s.reason()),
                        r.refused().stream().map(s -> s.claimNumber() + ": " + s.reason())).toList());
            }
        });
        fixApplyButton.setOnAction(e -> model.apply(fixReasonField.getText()));
        ReasonKeys.tabMovesOn(fixReasonField);
        ReasonKeys.tabMovesOn(resubmitReasonField);
        fixApplyButton.disableProperty().bind(model.busyProperty().or(model.previewProperty().isNull())
                .or(blank(fixReasonField.textProperty())));

        fixProgress.visibleProperty().bind(model.progressProperty().isNotNull());
        fixProgressLabel.visibleProperty().bind(model.progressProperty().isNotNull());
        model.progressProperty().addListener((obs, old, p) -> {
            if (p != null) {
                fixProgress.setProgress(p.total() > 0 ? p.fraction() : ProgressBar.INDETERMINATE_PROGRESS);
                fixProgressLabel.setText(Formats.count(p.done()) + " / " + Formats.count(p.total())
                        + (p.message() == null ? "" : " " + p.message()));
            }
        });
        fixCancelButton.visibleProperty().bind(model.runningProperty());
        fixCancelButton.managedProperty().bind(fixCancelButton.visibleProperty());
        fixCancelButton.setOnAction(e -> model.cancel());
        NoticeLabel.bind(fixNotice, model.noticeProperty());

        resubmitBox.visibleProperty().bind(model.resubmitPreviewProperty().isNotNull()
                .or(model.resubmitResultProperty().isNotNull()));
        resubmitBox.managedProperty().bind(resubmitBox.visibleProperty());
        resubmitSummary.textProperty().bind(Bindings.createStringBinding(() -> resubmitText(
                model.resubmitPreviewProperty().get(), model.resubmitResultProperty().get()),
                model.resubmitPreviewProperty(), model.resubmitResultProperty()));
        resubmitCorrectedButton.textProperty().bind(model.resubmitPreviewProperty().map(p ->
                "Resubmit " + Formats.count(p.eligible()) + " corrected row(s)").orElse("Resubmit corrected rows"));
        resubmitCorrectedButton.disableProperty().bind(model.busyProperty()
                .or(Bindings.createBooleanBinding(() -> model.resubmitPreviewProperty().get() == null
                        || model.resubmitPreviewProperty().get().eligible() == 0, model.resubmitPreviewProperty()))
                .or(blank(resubmitReasonField.textProperty())));
        resubmitReasonField.visibleProperty().bind(model.resubmitPreviewProperty().isNotNull());
        resubmitReasonField.managedProperty().bind(resubmitReasonField.visibleProperty());
        resubmitCorrectedButton.visibleProperty().bind(model.resubmitPreviewProperty().isNotNull());
        resubmitCorrectedButton.managedProperty().bind(resubmitCorrectedButton.visibleProperty());
        resubmitCorrectedButton.setOnAction(e -> model.resubmit(resubmitReasonField.getText()));
        model.resubmitPreviewProperty().addListener((obs, old, p) -> {
            if (p != null && resubmitReasonField.getText().isBlank()) {
                resubmitReasonField.setText(fixReasonField.getText().strip());
            }
        });
    }

    /**
     * What the view holds of itself, cleared for a new opening (the model is started over by its {@code open}): the
     * reasons typed and the claims skipped last time belong to another group's fix.
     */
    public void startOver() {
        fixReasonField.clear();
        resubmitReasonField.clear();
        fixSkippedList.getItems().clear();
    }

    private static BooleanBinding blank(ObservableStringValue text) {
        return Bindings.createBooleanBinding(() -> text.get() == null || text.get().isBlank(), text);
    }

    private void showPreview(BulkEdit.Preview p) {
        if (p == null) {
            fixPreviewTable.getItems().clear();
            fixSkippedList.getItems().clear();
            fixApplyButton.setText("Apply");
            return;
        }
        fixPreviewTable.getItems().setAll(p.targets());
        fixSkippedList.getItems().setAll(p.skipped().stream().map(s -> s.claimNumber() + ": " + s.reason()).toList());
        fixApplyButton.setText("Apply to " + Formats.count(p.eligible()) + " claim(s)");
    }

    static String resubmitText(Resubmission.BulkPreview preview, Resubmission.BulkResult result) {
        if (preview != null) {
            return preview.eligible() == 0
                    ? "No row to resubmit: " + preview.skipped().size() + " row(s) not failed, or their claim unchanged"
                    : "Then resubmit them together: " + preview.describe()
                            + ". Each failed row is superseded by a new row under a new idempotency key.";
        }
        return result == null ? "" : result.describe();
    }

    private static String shown(String value) {
        return value == null || value.isEmpty() ? "(none)" : value;
    }
}
