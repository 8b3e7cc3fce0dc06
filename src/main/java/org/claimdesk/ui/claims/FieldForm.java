package org.claimdesk.ui.claims;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javafx.beans.binding.BooleanBinding;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.ui.common.Formats;

/**
 * Shows {@link FieldEditor}s in a grid, the same way in the claim editor and the new-claim form: one row per field
 * (its label, required ones marked, and its input), and under the input the broken rule's message, what the state
 * said about the field, or a hint. Each field's input is made here and only here. Binds; no IO.
 */
final class FieldForm {
    /** AtlantaFX marks an input in error with this pseudo-class (a red border). */
    static final PseudoClass DANGER = PseudoClass.getPseudoClass("danger");

    /** What a valid value looks like, as the input's prompt; the rule itself is the field's. */
    private static final Map<ClaimField<?>, String> EXAMPLES = Map.of(
            ClaimField.CLAIMANT_EMAIL, "e.g. name@example.com",
            ClaimField.CLAIMANT_PHONE, "e.g. (916) 555-0142",
            ClaimField.HOLDER_ID, "e.g. HLD-100200",
            ClaimField.STATE_PROPERTY_ID, "7 to 9 digits",
            ClaimField.AMOUNT_CENTS, "in cents, e.g. 12500 for $125.00",
            ClaimField.JURISDICTION, "two letters, e.g. CA",
            ClaimField.FILED_ON, "YYYY-MM-DD",
            ClaimField.TAX_ID, "123-45-6789 or 12-3456789");

    /**
     * The node ids of one form's rows: {@code input + name} for the input, and so on. Two forms on screen at once
     * (the editor and the new-claim dialog) keep apart this way.
     */
    record Ids(String input, String error, String fault, String hint) {
        static final Ids EDIT = new Ids("edit-", "error-", "fault-", "hint-");
        static final Ids NEW = new Ids("new-", "newError-", "newFault-", "newHint-");
    }

    private FieldForm() {
    }

    /** Adds a row pair for each field to {@code grid}, from its first free row. */
    static void build(List<FieldEditor> fields, GridPane grid, Ids ids) {
        int row = grid.getRowCount();
        for (FieldEditor field : fields) {
            String name = field.field().name();
            Label label = new Label(field.field().label());
            label.getStyleClass().add("field-name");
            label.setMinWidth(Label.USE_PREF_SIZE);
            HBox heading = new HBox(2, label);
            if (field.field().required()) {
                Label mark = new Label("*");
                mark.getStyleClass().add("required-mark");
                mark.setTooltip(new Tooltip("Required"));
                heading.getChildren().add(mark);
            }
            heading.setMinWidth(HBox.USE_PREF_SIZE);
            heading.setAlignment(Pos.CENTER_LEFT);
            Control input = input(field);
            input.setId(ids.input() + name);
            input.disableProperty().bind(field.lockProperty().isNotNull());
            input.setMaxWidth(Double.MAX_VALUE);
            GridPane.setHgrow(input, Priority.ALWAYS);
            label.setLabelFor(input);
            Label error = new Label();
            error.setId(ids.error() + name);
            error.getStyleClass().add("field-error");
            error.setWrapText(true);
            error.textProperty().bind(field.errorProperty());
            error.visibleProperty().bind(field.errorProperty().isNotNull());
            error.managedProperty().bind(error.visibleProperty());
            Label fault = new Label();
            fault.setId(ids.fault() + name);
            fault.getStyleClass().add("field-error");
            fault.setWrapText(true);
            fault.textProperty().bind(field.faultProperty());
            fault.visibleProperty().bind(field.faultProperty().isNotNull().and(error.visibleProperty().not()));
            fault.managedProperty().bind(fault.visibleProperty());
            BooleanBinding marked = field.errorProperty().isNotNull().or(field.faultProperty().isNotNull());
            marked.addListener((obs, old, on) -> input.pseudoClassStateChanged(DANGER, on));
            input.pseudoClassStateChanged(DANGER, marked.get());
            input.getProperties().put(FieldForm.class, marked);
            Label hint = new Label();
            hint.setId(ids.hint() + name);
            hint.getStyleClass().addAll("text-muted", "text-small");
            hint.textProperty().bind(field.hintProperty());
            hint.visibleProperty().bind(field.hintProperty().isNotNull().and(error.visibleProperty().not()));
            hint.managedProperty().bind(hint.visibleProperty());
            grid.addRow(row++, heading, input);
            grid.add(new VBox(error, fault, hint), 1, row++);
        }
    }

    private static Control input(FieldEditor field) {
        List<String> codes = field.field() == ClaimField.CLAIM_TYPE
                ? Arrays.stream(ClaimType.values()).map(Enum::name).toList()
                : field.field() == ClaimField.PROPERTY_TYPE
                ? Arrays.stream(PropertyType.values()).map(Enum::name).toList()
                : null;
        if (codes == null) {
            TextField text = new TextField();
            text.textProperty().bindBidirectional(field.textProperty());
            String example = EXAMPLES.get(field.field());
            text.setPromptText((field.field().required() ? "required" : "optional")
                    + (example == null ? "" : " · " + example));
            return text;
        }
        ComboBox<String> choice = new ComboBox<>();
        choice.getItems().setAll(codes);
        choice.valueProperty().bindBidirectional(field.textProperty());
        choice.setPromptText(field.field().required() ? "required" : "optional");
        if (field.field() == ClaimField.PROPERTY_TYPE) {
            choice.setCellFactory(list -> propertyCell());
            choice.setButtonCell(propertyCell());
        } else {
            choice.setCellFactory(list -> claimTypeCell());
            choice.setButtonCell(claimTypeCell());
        }
        return choice;
    }

    private static ListCell<String> propertyCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String code, boolean empty) {
                super.updateItem(code, empty);
                setText(empty || code == null || code.isEmpty() ? null
                        : code + " · " + PropertyType.valueOf(code).description());
            }
        };
    }

    private static ListCell<String> claimTypeCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String code, boolean empty) {
                super.updateItem(code, empty);
                setText(empty || code == null || code.isEmpty() ? null : Formats.label(code));
            }
        };
    }

    /** A list cell showing an evidence kind by its label ("Proof of address"). */
    static ListCell<EvidenceKind> kindCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(EvidenceKind kind, boolean empty) {
                super.updateItem(kind, empty);
                setText(empty || kind == null ? null : kind.label());
            }
        };
    }
}
