package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javafx.beans.property.SimpleStringProperty;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javax.xml.parsers.DocumentBuilderFactory;
import org.claimdesk.ui.testing.FxThread;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;

/**
 * The shortcut key is named as staff's keyboard names it: "Cmd+" on macOS (JavaFX's Shortcut is the Command key
 * there), "Ctrl+" elsewhere, in notices and in what the FXML files say.
 */
class KeysTest {

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @Test
    void theShortcutKeyIsCommandOnMacOsAndCtrlElsewhere() {
        assertThat(Keys.say("save them (Ctrl+S) or cancel them (Esc)", true))
                .isEqualTo("save them (Cmd+S) or cancel them (Esc)");
        assertThat(Keys.say("Ctrl+Shift+E, then Ctrl+Enter", true)).isEqualTo("Cmd+Shift+E, then Cmd+Enter");
        assertThat(Keys.say("save them (Ctrl+S)", false)).isEqualTo("save them (Ctrl+S)");
        assertThat(Keys.say(null, true)).isNull();
        // a notice names the key as this machine's keyboard does
        boolean mac = System.getProperty("os.name", "").startsWith("Mac");
        assertThat(Notice.warning("save them (Ctrl+S)").text()).isEqualTo(mac ? "save them (Cmd+S)" : "save them (Ctrl+S)");
    }

    @Test
    void whatAnFxmlFileMadeNamesTheKeyButATextBoundToAModelIsLeftToIt() throws Exception {
        List<String> said = FxThread.call(() -> {
            Button button = new Button("Re-queue (Ctrl+R)");
            button.setTooltip(new Tooltip("Send again (Ctrl+R for the selected rows)"));
            TextField search = new TextField();
            search.setPromptText("Search  (Ctrl+F)");
            Label bound = new Label();
            bound.textProperty().bind(new SimpleStringProperty("Ctrl+E edits"));
            Keys.sayIn(List.of(button, search, bound, "not a control"), true);
            return List.of(button.getText(), button.getTooltip().getText(), search.getPromptText(), bound.getText());
        });
        assertThat(said).containsExactly("Re-queue (Cmd+R)", "Send again (Cmd+R for the selected rows)",
                "Search  (Cmd+F)", "Ctrl+E edits");
    }

    /**
     * {@link Keys#sayIn} reaches what a loader's namespace holds: every text of an FXML file that names a shortcut is
     * on an element with an {@code fx:id}, or on the tooltip of one.
     */
    @Test
    void everyFxmlTextNamingAShortcutIsOnAnElementTheLoaderNames() throws Exception {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Path.of("src/main/resources/org/claimdesk/ui"))) {
            files = all.filter(p -> p.toString().endsWith(".fxml")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(5);
        List<String> named = new ArrayList<>();
        List<String> unreached = new ArrayList<>();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        for (Path file : files) {
            NodeList elements = factory.newDocumentBuilder().parse(file.toFile()).getElementsByTagName("*");
            for (int i = 0; i < elements.getLength(); i++) {
                Element element = (Element) elements.item(i);
                NamedNodeMap attributes = element.getAttributes();
                for (int a = 0; a < attributes.getLength(); a++) {
                    String value = attributes.item(a).getNodeValue();
                    if (!value.contains("Ctrl+")) {
                        continue;
                    }
                    String where = file.getFileName() + ": " + element.getTagName() + " " + value;
                    named.add(where);
                    if (!reached(element)) {
                        unreached.add(where);
                    }
                }
            }
        }
        assertThat(named).as("the FXML files name shortcuts").isNotEmpty();
        assertThat(unreached).isEmpty();
    }

    private static boolean reached(Element element) {
        if (element.hasAttribute("fx:id")) {
            return true;
        }
        return element.getTagName().equals("Tooltip") && element.getParentNode() instanceof Element property
                && property.getTagName().equals("tooltip") && property.getParentNode() instanceof Element owner
                && owner.hasAttribute("fx:id");
    }
}
