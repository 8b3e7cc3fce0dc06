package org.claimdesk.ui.outbox;

import java.time.Instant;
import java.util.function.Supplier;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.ui.common.Formats;

/** One error group: its row count as a badge, the signature (wrapped) and when it was last seen. */
final class ErrorGroupCell extends ListCell<FailureGroup> {
    private final Label count = new Label();
    private final Label signature = new Label();
    private final Label seen = new Label();
    private final VBox box;
    private final Tooltip tooltip = new Tooltip();
    /** Now in the database's time, which the groups' last-seen times are written in. */
    private final Supplier<Instant> now;

    ErrorGroupCell(Supplier<Instant> now) {
        this.now = now;
        count.getStyleClass().addAll("badge", "badge-failed");
        signature.setWrapText(true);
        signature.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        signature.getStyleClass().add("group-signature");
        seen.getStyleClass().addAll("text-muted", "text-small");
        box = new VBox(3, new HBox(6, count, seen), signature);
        box.getStyleClass().add("error-group");
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(560);
        setPrefWidth(0);
        listViewProperty().addListener((obs, old, list) -> {
            signature.prefWidthProperty().unbind();
            if (list != null) {
                signature.prefWidthProperty().bind(list.widthProperty().subtract(34));
            }
        });
    }

    @Override
    protected void updateItem(FailureGroup group, boolean empty) {
        super.updateItem(group, empty);
        setText(null);
        if (empty || group == null) {
            setGraphic(null);
            setTooltip(null);
            setAccessibleText(null);
            return;
        }
        count.setText(Formats.count(group.count()));
        String shown = group.shown();
        signature.setText(shown);
        seen.setText("last seen " + Formats.ago(group.lastSeen(), now.get()));
        tooltip.setText(shown + "\n\nLatest: " + group.sampleError() + "\nFirst seen "
                + Formats.time(group.firstSeen()) + ", last seen " + Formats.time(group.lastSeen()));
        setTooltip(tooltip);
        setGraphic(box);
        // the cell's text is its graphic's three lines: a screen reader gets them as one
        setAccessibleText(Formats.count(group.count()) + " failed rows: " + shown + ", last seen "
                + Formats.ago(group.lastSeen(), now.get()));
    }
}
