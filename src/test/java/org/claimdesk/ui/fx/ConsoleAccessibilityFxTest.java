package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.AccessibleAttribute;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBoxBase;
import javafx.scene.control.Labeled;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextInputControl;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.ui.common.Accessible;
import org.junit.jupiter.api.Test;

/**
 * What a screen reader has to name the console's controls by, on every page and in a claim's detail: each input a
 * tied label (a text field, a combo box or a spinner reads its accessible text as its value), each button and progress
 * bar words, not a glyph.
 */
class ConsoleAccessibilityFxTest extends ConsoleFxTest {

    @Test
    void everyInputButtonAndProgressBarOfEveryPageHasAName() {
        waitReady();
        waitOtherPagesBuilt();
        selectClaim(firstClaim(ClaimStatus.NEEDS_INFO));
        chooseDetailTab("Evidence");
        waitUntil("the evidence form is built", () -> robot.lookup("#evidenceUrl").tryQuery().isPresent());

        List<String> unnamed = onFx(() -> {
            List<String> found = new ArrayList<>();
            walk(window.scene().getRoot(), found);
            return found;
        });

        assertThat(unnamed).as("controls a screen reader has no name for").isEmpty();
        assertThat(onFx(() -> Accessible.nameOf(robot.lookup("#claimSearch").query()))).isEqualTo("Search claims");
        assertThat(onFx(() -> robot.lookup("#firstPageButton").query()
                .queryAccessibleAttribute(AccessibleAttribute.TEXT))).isEqualTo("First page");
    }

    private static void walk(Node node, List<String> unnamed) {
        if (node instanceof TextInputControl || node instanceof ComboBoxBase<?> || node instanceof ChoiceBox<?>
                || node instanceof Spinner<?>) {
            if (Accessible.nameOf(node) == null) {
                unnamed.add(describe(node));
            }
            // an editable spinner's or combo box's own text field is read as the control
            return;
        }
        if (node instanceof ButtonBase b && node.getAccessibleText() == null && !hasWords(b.getText())
                && !(b.getGraphic() != null && b.getAccessibleText() != null)) {
            unnamed.add(describe(node));
        }
        if (node instanceof javafx.scene.control.ProgressBar && node.getAccessibleText() == null) {
            unnamed.add(describe(node));
        }
        if (node instanceof Parent p && !(node instanceof Labeled && node.getParent() instanceof ButtonBase)) {
            for (Node child : p.getChildrenUnmodifiable()) {
                walk(child, unnamed);
            }
        }
    }

    /** At least one letter: "«" or "⋮" alone says nothing aloud. */
    private static boolean hasWords(String text) {
        return text != null && text.codePoints().anyMatch(Character::isLetter);
    }

    private static String describe(Node node) {
        return node.getClass().getSimpleName() + (node.getId() == null ? "" : "#" + node.getId())
                + (node instanceof TextInputControl t && t.getPromptText() != null ? " \"" + t.getPromptText() + "\"" : "");
    }
}
