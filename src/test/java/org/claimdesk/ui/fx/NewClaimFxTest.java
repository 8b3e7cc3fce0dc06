package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.main.Page;
import org.junit.jupiter.api.Test;

/** File › New claim… with the real FXML: Ctrl+N, rule messages as staff type, the claim already open, Create. */
class NewClaimFxTest extends ConsoleFxTest {
    static final String CLAIMANT = "Ana Lucia Ferreira";

    /** The fields staff type for a claim (the claim type and filing date keep the form's defaults). */
    private static Map<String, String> fields(String jurisdiction, String propertyId, String claimant) {
        return Map.of("claimantName", claimant, "taxId", "123-00-4567", "jurisdiction", jurisdiction,
                "statePropertyId", propertyId, "holderName", "Wells Fargo Bank NA", "holderId", "HLD-100200",
                "amountCents", "48213");
    }

    private void openForm() {
        robot.press(KeyCode.CONTROL, KeyCode.N).release(KeyCode.N, KeyCode.CONTROL);
        waitUntil("the form shows", () -> robot.lookup("#newClaimPane").tryQuery().isPresent()
                && robot.lookup("#new-claimantName").queryAs(TextField.class).isFocused());
    }

    private void type(String field, String text) {
        TextField input = robot.lookup("#new-" + field).queryAs(TextField.class);
        robot.clickOn(input).write(text);
    }

    private void fill(Map<String, String> fields) {
        // in the order the form shows them, so typing never scrolls away from a field
        for (String name : List.of("claimantName", "taxId", "jurisdiction", "statePropertyId", "holderName",
                "holderId", "amountCents")) {
            if (fields.containsKey(name)) {
                type(name, fields.get(name));
            }
        }
        @SuppressWarnings("unchecked")
        ComboBox<String> propertyType = robot.lookup("#new-propertyType").queryAs(ComboBox.class);
        fx(() -> propertyType.setValue("AC01"));
    }

    private Button create() {
        return robot.lookup("#newClaimCreateButton").queryButton();
    }

    private Scene formScene() {
        return robot.lookup("#newClaimPane").query().getScene();
    }

    private void waitClosed(Scene form) {
        waitUntil("the form closes", () -> !form.getWindow().isShowing());
    }

    /** The Claims page on screen with {@code claim} selected in the table and its detail shown. */
    private void waitSelected(String claimNumber) {
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        waitUntil("claim " + claimNumber + " is selected in the Claims page", () ->
                window.mainModel().pageProperty().get() == Page.CLAIMS
                        && table.getSelectionModel().getSelectedItem() != null
                        && table.getSelectionModel().getSelectedItem().claimNumber().equals(claimNumber)
                        && window.claimsModel().detailProperty().get() != null
                        && window.claimsModel().detailProperty().get().claim().claimNumber().equals(claimNumber)
                        && robot.lookup("#detailTitle").queryAs(Label.class).getText().equals(claimNumber));
    }

    private Claim stored(String claimant) {
        return queries.claims(ClaimQuery.all().withSearch(claimant)).stream()
                .filter(c -> c.claimantName().equals(claimant)).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void ctrlNOpensTheFormABrokenRuleDisablesCreateAndTheNewClaimOpensSelected() throws Exception {
        waitReady();
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        waitUntil("the Outbox page shows", () -> window.mainModel().pageProperty().get() == Page.OUTBOX);
        openForm();
        assertThat(create().isDisabled()).isTrue();
        Label createHint = robot.lookup("#createHintLabel").queryAs(Label.class);
        assertThat(createHint.getText()).startsWith("Fill in Claimant name");

        fill(fields("NY", "12AB", CLAIMANT));
        Label error = robot.lookup("#newError-statePropertyId").queryAs(Label.class);
        TextField propertyId = robot.lookup("#new-statePropertyId").queryAs(TextField.class);
        waitUntil("the rule's message shows under the field and Create is disabled", () -> visible(error)
                && error.getText().equals("State property id must be 7 to 9 digits") && create().isDisabled()
                && createHint.getText().equals("Fix State property id"));
        assertThat(propertyId.getPseudoClassStates()).anyMatch(p -> p.getPseudoClassName().equals("danger"));
        assertThat(visible(robot.lookup("#newError-claimantName").query())).isFalse();

        robot.clickOn("#addEvidenceButton");
        @SuppressWarnings("unchecked")
        ComboBox<EvidenceKind> kind = robot.lookup("#newEvidenceKind-0").queryAs(ComboBox.class);
        fx(() -> kind.setValue(EvidenceKind.IDENTITY));
        robot.clickOn("#newEvidenceUrl-0").write("ftp://dmv.example.gov/id/88");
        Label evidenceError = robot.lookup("#newEvidenceError-0").queryAs(Label.class);
        waitUntil("the address's rule shows", () -> visible(evidenceError)
                && evidenceError.getText().startsWith("Address must be an http or https address"));
        snapshot("new-claim", formScene());

        TextField url = robot.lookup("#newEvidenceUrl-0").queryAs(TextField.class);
        fx(() -> url.setText("https://dmv.example.gov/id/88"));
        robot.clickOn("#newEvidenceTitle-0").write("Driver license, front and back");
        robot.doubleClickOn(propertyId).eraseText(6).write("58210447");
        waitUntil("every rule is kept and Create is enabled", () -> !visible(error) && !visible(evidenceError)
                && !create().isDisabled());
        Scene form = formScene();
        robot.clickOn(create());

        waitClosed(form);
        Claim claim = stored(CLAIMANT);
        assertThat(claim.claimNumber()).matches("UPC-" + queries.today().getYear() + "-\\d{6}");
        assertThat(claim.status()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(claim.statePropertyId()).isEqualTo("58210447");
        assertThat(claim.jurisdiction()).isEqualTo("NY");
        assertThat(queries.history(claim.claimId())).singleElement()
                .satisfies(h -> assertThat(h.toStatus()).isEqualTo(ClaimStatus.IDENTITY_PENDING));
        assertThat(queries.audit(Long.toString(claim.claimId()), null, AuditActions.CLAIM_CREATE, 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.actor()).isEqualTo(services.actor());
                    assertThat(a.details()).contains("***-**-4567").doesNotContain("123-00-4567");
                });
        assertThat(services.workflow().evidence().list(claim.claimId())).singleElement()
                .satisfies(e -> assertThat(e.title()).isEqualTo("Driver license, front and back"));
        waitSelected(claim.claimNumber());
        waitUntil("the page says so", () -> robot.lookup("#claimsNotice").queryAs(Label.class).getText()
                .equals("Claim " + claim.claimNumber() + " created in Identity pending"));
    }

    @Test
    void aClaimAlreadyOpenIsLinkedAndCreatingAnotherNeedsAReason() throws Exception {
        waitReady();
        Claim present = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.EVIDENCE_PENDING))
                .withPage(0, 1)).get(0);
        openForm();
        fill(fields(present.jurisdiction(), present.statePropertyId(), present.claimantName()));

        Label duplicate = robot.lookup("#duplicateLabel").queryAs(Label.class);
        waitUntil("the claim already open is named", () -> visible(duplicate) && duplicate.getText()
                .equals("Claim " + present.claimNumber() + " is already open for this property and claimant"));
        TextArea reason = robot.lookup("#newClaimReason").queryAs(TextArea.class);
        assertThat(visible(reason)).isTrue();
        assertThat(create().isDisabled()).isTrue();
        assertThat(robot.lookup("#createHintLabel").queryAs(Label.class).getText())
                .isEqualTo("Say why another claim is needed for this property and claimant");
        snapshot("new-claim-duplicate", formScene());

        robot.clickOn("#duplicateLink");
        waitSelected(present.claimNumber());
        assertThat(formScene().getWindow().isShowing()).as("the form stays, with what was typed").isTrue();
        assertThat(robot.lookup("#new-claimantName").queryAs(TextField.class).getText())
                .isEqualTo(present.claimantName());

        robot.clickOn(reason).write("second heir files separately");
        waitUntil("Create is enabled", () -> !create().isDisabled());
        Scene form = formScene();
        robot.clickOn(create());

        waitClosed(form);
        Claim claim = queries.claims(ClaimQuery.all().withSearch(present.claimantName())).stream()
                .filter(c -> c.claimId() != present.claimId() && c.statePropertyId().equals(present.statePropertyId()))
                .findFirst().orElseThrow();
        assertThat(queries.audit(Long.toString(claim.claimId()), null, AuditActions.CLAIM_CREATE, 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("second heir files separately");
                    assertThat(a.details()).contains("\"duplicateOf\":\"" + present.claimNumber() + "\"");
                });
        waitSelected(claim.claimNumber());
    }

    @Test
    void aLaterStartingStatusNeedsAReason() {
        waitReady();
        openForm();
        fill(fields("TX", "77120934", "Robert Okafor Jr"));
        waitUntil("Create is enabled", () -> !create().isDisabled());
        TextArea reason = robot.lookup("#newClaimReason").queryAs(TextArea.class);
        assertThat(visible(reason)).isFalse();

        @SuppressWarnings("unchecked")
        ComboBox<ClaimStatus> start = robot.lookup("#startStatusChoice").queryAs(ComboBox.class);
        assertThat(start.getValue()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(start.getItems()).contains(ClaimStatus.EVIDENCE_PENDING, ClaimStatus.READY_FOR_SUBMISSION)
                .doesNotContain(ClaimStatus.SUBMITTING);
        fx(() -> start.setValue(ClaimStatus.EVIDENCE_PENDING));
        waitUntil("a reason is asked for and Create waits for it", () -> visible(reason) && create().isDisabled()
                && reason.getPromptText().startsWith("Why does it start in Evidence pending?"));
        robot.clickOn(reason).write("photo ID and SSN card verified at the counter");
        waitUntil("Create is enabled", () -> !create().isDisabled());
        Scene form = formScene();
        robot.clickOn(create());

        waitClosed(form);
        Claim claim = stored("Robert Okafor Jr");
        assertThat(claim.status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(queries.history(claim.claimId())).singleElement()
                .satisfies(h -> assertThat(h.reason()).isEqualTo("photo ID and SSN card verified at the counter"));
        waitSelected(claim.claimNumber());
    }

    @Test
    void closingWithSomethingTypedAsksFirst() {
        waitReady();
        openForm();
        type("claimantName", CLAIMANT);
        Scene form = formScene();
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("it asks first", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the question closes", () -> robot.lookup("#dialogOkButton").tryQuery().isEmpty());
        assertThat(form.getWindow().isShowing()).isTrue();
        assertThat(robot.lookup("#new-claimantName").queryAs(TextField.class).getText()).isEqualTo(CLAIMANT);

        robot.clickOn("#newClaimCancelButton");
        waitUntil("it asks again", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        robot.clickOn("#dialogOkButton");
        waitClosed(form);
        assertThat(queries.claims(ClaimQuery.all().withSearch(CLAIMANT))).isEmpty();
    }

    @Test
    void removingAnEvidenceRowKeepsTheFocusInTheEvidence() {
        waitReady();
        openForm();
        Scene form = formScene();
        robot.clickOn("#addEvidenceButton");
        robot.clickOn("#addEvidenceButton");
        waitUntil("two rows", () -> robot.lookup("#newEvidenceRemove-1").tryQuery().isPresent());
        fx(() -> robot.lookup("#newEvidenceRemove-0").query().requestFocus());
        robot.type(KeyCode.SPACE);
        waitUntil("the row now first has the focus", () -> form.getFocusOwner() != null
                && "newEvidenceKind-0".equals(form.getFocusOwner().getId())
                && robot.lookup("#newEvidenceRemove-1").tryQuery().isEmpty());
        fx(() -> robot.lookup("#newEvidenceRemove-0").query().requestFocus());
        robot.type(KeyCode.SPACE);
        waitUntil("with no row left, Add reference has it", () -> form.getFocusOwner() != null
                && "addEvidenceButton".equals(form.getFocusOwner().getId()));
    }
}
