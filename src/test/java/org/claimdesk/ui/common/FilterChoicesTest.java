package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.control.ComboBox;
import org.claimdesk.ui.testing.FxThread;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * A filter's list read again (a state's first claim entered since) changes the box's items, and its selection for a
 * moment: that move is not handed on as staff's pick, so no filter is applied, and the choice stays.
 */
class FilterChoicesTest {

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @Test
    void aListReadAgainKeepsTheChoiceAndAppliesNoFilter() throws Exception {
        List<String> applied = FxThread.call(() -> {
            ObservableList<String> states = FXCollections.observableArrayList("CA", "NY");
            String[] chosen = {null};
            ComboBox<String> box = new ComboBox<>(FXCollections.observableArrayList());
            List<String> filters = new ArrayList<>();
            FilterChoices.follow(box, states, () -> chosen[0], v -> {
                chosen[0] = v;
                filters.add(String.valueOf(v));
            });
            assertThat(box.getItems()).containsExactly(null, "CA", "NY");

            box.getSelectionModel().select(0);
            states.setAll("AK", "CA", "NY");
            assertThat(box.getItems()).containsExactly(null, "AK", "CA", "NY");
            assertThat(box.getValue()).as("all jurisdictions, still").isNull();

            box.getSelectionModel().select("NY");
            states.setAll("AK", "CA", "NY", "TX");
            assertThat(box.getValue()).isEqualTo("NY");
            return filters;
        });

        assertThat(applied).as("only staff's own choice applied a filter").containsExactly("NY");
    }
}
