package org.claimdesk.ui.claims;

import org.claimdesk.ui.common.Accessible;
import java.io.File;
import java.util.List;
import javafx.application.Platform;
import javafx.event.ActionEvent;
import javafx.fxml.FXML;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Modality;
import javafx.stage.Screen;
import javafx.stage.Window;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.Transitions;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.ReasonKeys;

/**
 * The New claim dialog (NewClaimDialog.fxml, File › New claim…): the fields through {@link FieldForm} (input
 * {@code #new-FIELD}, its rule's message {@code #newError-FIELD}), the claim already open with a link to it, the
 * evidence rows, the starting status and the reason. Binds a {@link NewClaimViewModel}; does no IO. The dialog does
 * not block the console, so staff can look at the claim already open while the form keeps what they typed.
 */
public final class NewClaimDialogView {
    /** The claimant's fields, then the property's, as the form's two columns show them. */
    static final List<ClaimField<?>> CLAIMANT = List.of(ClaimField.CLAIMANT_NAME, ClaimField.CLAIM_TYPE,
            ClaimField.TAX_ID, ClaimField.CLAIMANT_EMAIL, ClaimField.CLAIMANT_PHONE, ClaimField.CLAIMANT_ADDRESS);
    static final List<ClaimField<?>> PROPERTY = List.of(ClaimField.JURISDICTION, ClaimField.STATE_PROPERTY_ID,
            ClaimField.PROPERTY_TYPE, ClaimField.HOLDER_NAME, ClaimField.HOLDER_ID, ClaimField.AMOUNT_CENTS,
            ClaimField.FILED_ON);

    @FXML private VBox newClaimPane;
    @FXML private HBox duplicateBox;
    @FXML private Label duplicateLabel;
    @FXML private Hyperlink duplicateLink;
    @FXML private Label problemLabel;
    @FXML private GridPane claimantGrid;
    @FXML private GridPane propertyGrid;
    @FXML private Button addEvidenceButton;
    @FXML private VBox evidenceRows;
    @FXML private Label evidencePlaceholder;
    @FXML private ComboBox<ClaimStatus> startStatusChoice;
    @FXML private Label startStatusHint;
    @FXML private Label reasonName;
    @FXML private TextArea newClaimReason;
    @FXML private Label createHintLabel;

    private NewClaimViewModel model;

    /**
     * Opens the dialog on {@code model} beside {@code owner} and returns it (shown, not waited for). Create keeps the
     * dialog open until the claim and its references are in; closing it with something typed asks first.
     */
    public static Dialog<ButtonType> open(Window owner, NewClaimViewModel model) {
        NewClaimDialogView view = Dialogs.loadController(NewClaimDialogView.class, "NewClaimDialog.fxml");
        view.bind(model);
        return view.show(owner);
    }

    private void bind(NewClaimViewModel form) {
        Accessible.name(startStatusChoice, "Starting status");
        Accessible.name(newClaimReason, "Reason");
        this.model = form;
        FieldForm.build(CLAIMANT.stream().map(form::field).toList(), claimantGrid, FieldForm.Ids.NEW);
        FieldForm.build(PROPERTY.stream().map(form::field).toList(), propertyGrid, FieldForm.Ids.NEW);
        claimantGrid.disableProperty().bind(form.createdProperty().isNotNull().or(form.busyProperty()));
        propertyGrid.disableProperty().bind(claimantGrid.disableProperty());

        duplicateLabel.textProperty().bind(form.duplicateProperty().map(NewClaimViewModel.Duplicate::message));
        duplicateLink.textProperty().bind(form.duplicateProperty().map(d -> "Open " + d.claimNumber()));
        duplicateLink.setOnAction(e -> {
            form.openDuplicate();
            duplicateLink.setVisited(false);
        });
        duplicateLink.setMinWidth(Region.USE_PREF_SIZE);
        duplicateLink.setTooltip(new Tooltip("Shows the claim in the Claims page; this form keeps what you typed"));
        duplicateBox.visibleProperty().bind(form.duplicateProperty().isNotNull().and(form.createdProperty().isNull()));
        duplicateBox.managedProperty().bind(duplicateBox.visibleProperty());
        problemLabel.textProperty().bind(form.problemProperty());
        problemLabel.visibleProperty().bind(form.problemProperty().isNotNull());
        problemLabel.managedProperty().bind(problemLabel.visibleProperty());

        addEvidenceButton.setOnAction(e -> {
            form.addEvidence();
            Platform.runLater(() -> lastRowKind().ifPresent(Node::requestFocus));
        });
        addEvidenceButton.disableProperty().bind(form.busyProperty());
        form.evidence().addListener((javafx.collections.ListChangeListener<NewClaimViewModel.EvidenceDraft>) c ->
                showEvidence());
        showEvidence();

        startStatusChoice.getItems().setAll(form.startStatuses());
        startStatusChoice.setCellFactory(list -> statusCell());
        startStatusChoice.setButtonCell(statusCell());
        startStatusChoice.valueProperty().bindBidirectional(form.startStatusProperty());
        startStatusChoice.disableProperty().bind(claimantGrid.disableProperty());
        startStatusHint.textProperty().bind(form.startStatusProperty().map(s -> s == Transitions.FIRST
                ? "Where every claim starts: identity not yet verified"
                : "For a claim whose checks were done before it was entered; needs a reason"));
        newClaimReason.textProperty().bindBidirectional(form.reasonProperty());
        ReasonKeys.tabMovesOn(newClaimReason);
        newClaimReason.promptTextProperty().bind(form.reasonPromptProperty());
        newClaimReason.disableProperty().bind(claimantGrid.disableProperty());
        newClaimReason.visibleProperty().bind(form.reasonRequiredProperty());
        newClaimReason.managedProperty().bind(newClaimReason.visibleProperty());
        reasonName.visibleProperty().bind(newClaimReason.visibleProperty());
        reasonName.managedProperty().bind(newClaimReason.visibleProperty());
        createHintLabel.textProperty().bind(form.createHintProperty());
        createHintLabel.visibleProperty().bind(form.createHintProperty().isNotEmpty());
        createHintLabel.managedProperty().bind(createHintLabel.visibleProperty());
    }

    private Dialog<ButtonType> show(Window owner) {
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.initModality(Modality.NONE);
        dialog.setTitle("New claim");
        dialog.setHeaderText("Enter a claim by hand. Each field is checked by its rule as you type; the claim gets"
                + " the next claim number and starts in " + Transitions.FIRST.label() + ".");
        dialog.setResizable(true);
        // the console's stylesheet for the whole dialog: the theme keeps dialogs narrower than this form
        dialog.getDialogPane().getStylesheets().setAll(newClaimPane.getStylesheets());
        dialog.getDialogPane().getStyleClass().add("new-claim-dialog");
        ButtonType create = new ButtonType("Create", ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(create, ButtonType.CANCEL);
        ScrollPane scroll = new ScrollPane(newClaimPane);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("edge-to-edge");
        scroll.setPrefViewportWidth(newClaimPane.getPrefWidth());
        scroll.setPrefViewportHeight(Region.USE_COMPUTED_SIZE);
        dialog.getDialogPane().setContent(scroll);
        Button createButton = (Button) dialog.getDialogPane().lookupButton(create);
        createButton.setId("newClaimCreateButton");
        createButton.textProperty().bind(model.createdProperty().map(c -> "Add evidence").orElse("Create"));
        createButton.disableProperty().bind(model.canCreateProperty().not());
        // Create runs in the background and the dialog stays until the claim is in: closing is the model's call
        createButton.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume();
            model.create();
        });
        Node cancel = dialog.getDialogPane().lookupButton(ButtonType.CANCEL);
        cancel.setId("newClaimCancelButton");
        cancel.disableProperty().bind(model.busyProperty());
        dialog.setOnCloseRequest(e -> {
            if (model.doneProperty().get()) {
                return;
            }
            if (model.busyProperty().get() || model.dirty() && !Dialogs.confirm(dialog.getDialogPane().getScene()
                    .getWindow(), "Drop the new claim", model.dropQuestion(), "Drop it")) {
                e.consume();
                return;
            }
            // closed by staff (not with the console as it quits): a claim created shows in the Claims page
            model.closed();
        });
        model.doneProperty().addListener((obs, was, done) -> {
            if (done) {
                dialog.close();
            }
        });
        dialog.show();
        Window window = dialog.getDialogPane().getScene().getWindow();
        newClaimPane.heightProperty().addListener((obs, old, height) ->
                Platform.runLater(() -> growToFit(window, scroll)));
        Platform.runLater(() -> newClaimPane.lookup("#new-" + ClaimField.CLAIMANT_NAME.name()).requestFocus());
        return dialog;
    }

    /**
     * Makes the dialog taller when the form grows (the claim already open, the reason, an evidence row), up to the
     * screen's height, moving it up where it would reach past the bottom; it scrolls beyond that. Never shrinks it.
     */
    private void growToFit(Window window, ScrollPane scroll) {
        double missing = newClaimPane.getHeight() - scroll.getViewportBounds().getHeight();
        if (missing <= 1 || !window.isShowing()) {
            return;
        }
        Rectangle2D screen = Screen.getScreensForRectangle(window.getX(), window.getY(), window.getWidth(),
                window.getHeight()).stream().findFirst().orElse(Screen.getPrimary()).getVisualBounds();
        double height = Math.min(window.getHeight() + missing, screen.getHeight());
        window.setHeight(height);
        if (window.getY() + height > screen.getMaxY()) {
            window.setY(Math.max(screen.getMinY(), screen.getMaxY() - height));
        }
    }

    private java.util.Optional<Node> lastRowKind() {
        int last = model.evidence().size() - 1;
        return java.util.Optional.ofNullable(newClaimPane.lookup("#newEvidenceKind-" + last));
    }

    /** One row per evidence reference: kind, address or file, title, remove; its rule's message under it. */
    private void showEvidence() {
        evidenceRows.getChildren().clear();
        List<NewClaimViewModel.EvidenceDraft> rows = model.evidence();
        for (int i = 0; i < rows.size(); i++) {
            evidenceRows.getChildren().add(evidenceRow(rows.get(i), i));
        }
        evidencePlaceholder.setVisible(rows.isEmpty());
        evidencePlaceholder.setManaged(rows.isEmpty());
    }

    private VBox evidenceRow(NewClaimViewModel.EvidenceDraft row, int index) {
        ComboBox<EvidenceKind> kind = new ComboBox<>();
        kind.setId("newEvidenceKind-" + index);
        kind.getItems().setAll(EvidenceKind.values());
        kind.setCellFactory(list -> FieldForm.kindCell());
        kind.setButtonCell(FieldForm.kindCell());
        kind.setPromptText("What it proves");
        kind.getStyleClass().add("evidence-kind");
        Accessible.name(kind, "Reference " + (index + 1) + ": what it proves");
        kind.valueProperty().bindBidirectional(row.kindProperty());
        TextField url = new TextField();
        url.setId("newEvidenceUrl-" + index);
        url.setPromptText("https://… web address, or choose a file");
        url.textProperty().bindBidirectional(row.urlProperty());
        HBox.setHgrow(url, Priority.ALWAYS);
        Accessible.name(url, "Reference " + (index + 1) + ": web address");
        Label file = new Label();
        file.setId("newEvidenceFile-" + index);
        file.getStyleClass().add("evidence-file");
        file.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(file, Priority.ALWAYS);
        file.textProperty().bind(row.fileProperty().map(f -> f.getFileName() + " · "
                + EvidenceRules.size(row.fileBytes())));
        file.visibleProperty().bind(row.fileProperty().isNotNull());
        file.managedProperty().bind(file.visibleProperty());
        url.visibleProperty().bind(row.fileProperty().isNull());
        url.managedProperty().bind(url.visibleProperty());
        Button choose = new Button("File…");
        choose.setMinWidth(Region.USE_PREF_SIZE);
        choose.setAccessibleText("Choose a file for reference " + (index + 1));
        choose.setId("newEvidenceChoose-" + index);
        choose.getStyleClass().add("button-outlined");
        choose.setTooltip(new Tooltip("Choose a file of at most 25 MB; it is copied in when the claim is created"));
        choose.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Evidence for the new claim");
            File chosen = chooser.showOpenDialog(newClaimPane.getScene().getWindow());
            if (chosen != null) {
                model.chooseFile(row, chosen.toPath());
            }
        });
        TextField title = new TextField();
        title.setId("newEvidenceTitle-" + index);
        title.setPromptText("Title (optional)");
        title.getStyleClass().add("evidence-title");
        Accessible.name(title, "Reference " + (index + 1) + ": title (optional)");
        title.textProperty().bindBidirectional(row.titleProperty());
        Button remove = new Button("Remove");
        remove.setMinWidth(Region.USE_PREF_SIZE);
        remove.setAccessibleText("Remove reference " + (index + 1));
        remove.setId("newEvidenceRemove-" + index);
        remove.getStyleClass().addAll("flat", "danger");
        remove.setOnAction(e -> {
            model.removeEvidence(row);
            // the rows are built again: the focus goes to the row now in this place, or Add reference when none is
            Platform.runLater(() -> java.util.Optional.ofNullable(newClaimPane.lookup("#newEvidenceKind-"
                    + Math.min(index, model.evidence().size() - 1))).orElse(addEvidenceButton).requestFocus());
        });
        HBox line = new HBox(8, kind, url, file, choose, title, remove);
        line.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        line.disableProperty().bind(model.busyProperty());
        Label error = new Label();
        error.setId("newEvidenceError-" + index);
        error.getStyleClass().add("field-error");
        error.setWrapText(true);
        error.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> row.failureProperty().get() != null ? row.failureProperty().get() : row.errorProperty().get(),
                row.failureProperty(), row.errorProperty()));
        error.visibleProperty().bind(error.textProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        javafx.beans.binding.BooleanBinding marked = error.textProperty().isNotEmpty();
        marked.addListener((obs, old, on) -> url.pseudoClassStateChanged(FieldForm.DANGER, on));
        url.pseudoClassStateChanged(FieldForm.DANGER, marked.get());
        url.getProperties().put(FieldForm.class, marked);
        return new VBox(2, line, error);
    }

    private static ListCell<ClaimStatus> statusCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(ClaimStatus status, boolean empty) {
                super.updateItem(status, empty);
                setText(empty || status == null ? null : status.label());
            }
        };
    }
}
