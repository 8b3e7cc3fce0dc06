package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TabPane;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.EvidenceKind;
import org.testfx.matcher.control.LabeledMatchers;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.Test;

/** The claim detail pane's edit mode with the real FXML: Ctrl+E, a broken field shown, fixed, Ctrl+S. */
class ClaimEditFxTest extends ConsoleFxTest {

    @Test
    void aBrokenFieldShowsItsRuleAndTheFixedClaimIsSavedWithCtrlS() throws Exception {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.EVIDENCE_PENDING);
        selectClaim(claim);
        waitUntil("the edit button is enabled", () -> !robot.lookup("#editButton").queryButton().isDisabled());

        robot.press(KeyCode.CONTROL, KeyCode.E).release(KeyCode.E, KeyCode.CONTROL);
        waitUntil("the edit form shows", () -> visible(robot.lookup("#editForm").query()));
        TextField propertyId = robot.lookup("#edit-statePropertyId").queryAs(TextField.class);
        Label error = robot.lookup("#error-statePropertyId").queryAs(Label.class);
        Button save = robot.lookup("#saveEditButton").queryButton();
        assertThat(propertyId.getText()).isEqualTo(claim.statePropertyId());
        assertThat(visible(error)).isFalse();

        robot.doubleClickOn(propertyId).eraseText(claim.statePropertyId().length() + 2).write("12AB");
        waitUntil("the rule's message shows next to the field", () -> visible(error)
                && error.getText().equals("State property id must be 7 to 9 digits"));
        assertThat(propertyId.getPseudoClassStates()).anyMatch(p -> p.getPseudoClassName().equals("danger"));
        robot.clickOn("#editReason").write("property id from the holder's report");
        waitUntil("save stays disabled", () -> save.isDisabled()
                && robot.lookup("#saveHintLabel").queryAs(Label.class).getText().equals("Fix State property id"));
        snapshot("claim-edit");

        robot.doubleClickOn(propertyId).eraseText(6).write("123456789");
        waitUntil("the message is gone", () -> !visible(error) && !save.isDisabled());
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL);

        waitUntil("the edit form closes", () -> !visible(robot.lookup("#editForm").query()));
        waitUntil("the save is reported", () -> robot.lookup("#claimsNotice").queryAs(Label.class).getText()
                .contains("saved: 1 field changed"));
        waitUntil("the focus goes back to the claims", () -> robot.lookup("#claimsTable").query().isFocused());
        Claim stored = queries.claim(claim.claimId()).orElseThrow();
        assertThat(stored.statePropertyId()).isEqualTo("123456789");
        assertThat(stored.version()).isEqualTo(claim.version() + 1);
        assertThat(queries.audit(Long.toString(claim.claimId()), null, "claim.edit", 0, 0)).singleElement()
                .satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("property id from the holder's report");
                    assertThat(a.details()).contains("\"field\":\"statePropertyId\"")
                            .contains("\"before\":\"" + claim.statePropertyId() + "\"")
                            .contains("\"after\":\"123456789\"");
                });
        waitUntil("the detail shows the new value", () -> robot.lookup("#detailGrid .label")
                .match(LabeledMatchers.hasText("123456789")).tryQuery().isPresent());
        chooseDetailTab("Audit");
        waitUntil("the claim's audit shows the field's change", () -> robot.lookup("#claimAuditTable .table-cell")
                .match(LabeledMatchers.hasText("statePropertyId: " + claim.statePropertyId() + " → 123456789"))
                .tryQuery().isPresent());
    }

    @Test
    void escLeavesAtOnceWhenNothingWasTypedAndAsksBeforeDroppingChanges() {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.IDENTITY_PENDING);
        selectClaim(claim);
        robot.clickOn("#editButton");
        waitUntil("the edit form shows", () -> visible(robot.lookup("#editForm").query()));
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the form closes without a question", () -> !visible(robot.lookup("#editForm").query()));
        assertThat(robot.lookup("#dialogOkButton").tryQuery()).isEmpty();

        robot.press(KeyCode.CONTROL, KeyCode.E).release(KeyCode.E, KeyCode.CONTROL);
        waitUntil("the edit form shows", () -> visible(robot.lookup("#editForm").query()));
        TextField holder = robot.lookup("#edit-holderName").queryAs(TextField.class);
        robot.clickOn(holder).type(KeyCode.END).write(" (successor)");
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("it asks first", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        // Esc again answers the question with Cancel: the edit and what was typed stay
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the question closes", () -> robot.lookup("#dialogOkButton").tryQuery().isEmpty());
        assertThat(visible(robot.lookup("#editForm").query())).isTrue();
        assertThat(holder.getText()).isEqualTo(claim.holderName() + " (successor)");

        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("it asks again", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        robot.clickOn("#dialogOkButton");
        waitUntil("the form closes", () -> !visible(robot.lookup("#editForm").query()));
        assertThat(holder.getText()).isEqualTo(claim.holderName());
        assertThat(queries.claim(claim.claimId()).orElseThrow().version()).isEqualTo(claim.version());
    }

    /** The first claim in {@code status}, selected, its edit form open (Ctrl+E). */
    private Claim editing(ClaimStatus status) {
        waitReady();
        Claim claim = firstClaim(status);
        selectClaim(claim);
        robot.press(KeyCode.CONTROL, KeyCode.E).release(KeyCode.E, KeyCode.CONTROL);
        waitUntil("the edit form shows", () -> visible(robot.lookup("#editForm").query()));
        return claim;
    }

    @Test
    void quittingWithAnEditNotSavedAsksFirstAndCancelKeepsTheWindowAndWhatWasTyped() {
        Claim claim = editing(ClaimStatus.IDENTITY_PENDING);
        TextField holder = robot.lookup("#edit-holderName").queryAs(TextField.class);
        robot.clickOn(holder).type(KeyCode.END).write(" (successor)");
        javafx.stage.Window main = onFx(() -> window.scene().getWindow());

        robot.press(KeyCode.CONTROL, KeyCode.Q).release(KeyCode.Q, KeyCode.CONTROL);
        waitUntil("it asks first", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        assertThat(onFx(() -> ((javafx.scene.control.Labeled) robot.lookup(".dialog-pane .header-panel .label")
                .query()).getText())).contains("The claim being edited has changes not saved");
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the question closes", () -> robot.lookup("#dialogOkButton").tryQuery().isEmpty());
        assertThat(onFx(main::isShowing)).as("the console stays open").isTrue();
        assertThat(visible(robot.lookup("#editForm").query())).isTrue();
        assertThat(holder.getText()).isEqualTo(claim.holderName() + " (successor)");
        assertThat(onFx(window::unfinishedWork)).isNotNull();

        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("it asks about the edit", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        robot.clickOn("#dialogOkButton");
        waitUntil("the form closes", () -> !visible(robot.lookup("#editForm").query()));
        assertThat(onFx(window::unfinishedWork)).as("nothing left to lose").isNull();
    }

    @Test
    void aClaimChangedMeanwhileShowsWhoChangedItAndKeepsWhatWasTyped() {
        Claim claim = editing(ClaimStatus.READY_FOR_SUBMISSION);
        services.workflow().editing().edit(claim.claimId(), claim.version(), Map.of("holderName", "Other Bank NA"),
                "r.okafor", "holder merged");

        TextField holderId = robot.lookup("#edit-holderId").queryAs(TextField.class);
        robot.doubleClickOn(holderId).eraseText(claim.holderId().length() + 2).write("HLD-424242");
        robot.clickOn("#editReason").write("holder id from the state's registry");
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL);

        Label conflict = robot.lookup("#conflictLabel").queryAs(Label.class);
        waitUntil("the conflict names who changed the claim", () -> visible(conflict)
                && conflict.getText().contains("was changed by r.okafor")
                && conflict.getText().contains("nothing was saved"));
        assertThat(visible(robot.lookup("#editForm").query())).isTrue();
        assertThat(holderId.getText()).isEqualTo("HLD-424242");
        assertThat(robot.lookup("#saveEditButton").queryButton().isDisabled()).isTrue();
        Claim stored = queries.claim(claim.claimId()).orElseThrow();
        assertThat(stored.holderId()).isEqualTo(claim.holderId());
        assertThat(stored.holderName()).isEqualTo("Other Bank NA");

        robot.clickOn("#reloadAfterConflictButton");
        TextField holderName = robot.lookup("#edit-holderName").queryAs(TextField.class);
        waitUntil("the edit goes on from the new version", () -> !visible(conflict)
                && holderName.getText().equals("Other Bank NA"));
        assertThat(visible(robot.lookup("#editForm").query())).isTrue();
        assertThat(holderId.getText()).isEqualTo("HLD-424242");
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL);
        waitUntil("the typed change is saved on the new version", () ->
                queries.claim(claim.claimId()).orElseThrow().holderId().equals("HLD-424242"));
        assertThat(queries.claim(claim.claimId()).orElseThrow().holderName()).isEqualTo("Other Bank NA");
    }

    /** While the state asks for information, the fields naming its case are disabled, said once why; the rest edits. */
    @Test
    void whileTheStateAsksForInformationTheCaseFieldsAreDisabledAndSaySo() throws Exception {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.NEEDS_INFO);
        selectClaim(claim);
        waitUntil("the edit button is enabled", () -> !robot.lookup("#editButton").queryButton().isDisabled());

        robot.press(KeyCode.CONTROL, KeyCode.E).release(KeyCode.E, KeyCode.CONTROL);
        waitUntil("the edit form shows", () -> visible(robot.lookup("#editForm").query()));
        for (String locked : java.util.List.of("holderId", "statePropertyId", "amountCents", "jurisdiction")) {
            assertThat(robot.lookup("#edit-" + locked).query().isDisabled()).as(locked).isTrue();
        }
        Label why = robot.lookup("#lockedLabel").queryAs(Label.class);
        assertThat(visible(why)).isTrue();
        assertThat(why.getText()).startsWith("Greyed fields cannot be changed while the state asks for information");
        TextField address = robot.lookup("#edit-claimantAddress").queryAs(TextField.class);
        assertThat(address.isDisabled()).isFalse();
        robot.doubleClickOn(address).eraseText(address.getText().length() + 2).write("12 Elm St, Fresno CA 93721");
        robot.clickOn("#editReason").write("the state asked for the current address");
        snapshot("claim-edit-needs-info");
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL);

        waitUntil("the edit form closes", () -> !visible(robot.lookup("#editForm").query()));
        assertThat(queries.claim(claim.claimId()).orElseThrow().claimantAddress()).isEqualTo("12 Elm St, Fresno CA 93721");
    }

    @Test
    void theEditorOpensAtTheFieldTheStateRefused() throws Exception {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.READY_FOR_SUBMISSION);
        fx(() -> window.claimsModel().editAtField(claim.claimId(), "holderId",
                "holder id is not in the state's holder registry"));

        waitUntil("the edit form shows for the claim", () -> visible(robot.lookup("#editForm").query())
                && window.claimsModel().selectedProperty().get().claimId() == claim.claimId());
        Label banner = robot.lookup("#faultLabel").queryAs(Label.class);
        Label fault = robot.lookup("#fault-holderId").queryAs(Label.class);
        TextField holderId = robot.lookup("#edit-holderId").queryAs(TextField.class);
        waitUntil("the field is marked and has the focus", () -> visible(banner) && visible(fault)
                && holderId.isFocused());
        assertThat(banner.getText()).isEqualTo("The state refused Holder id: holder id is not in the state's holder registry");
        assertThat(fault.getText()).isEqualTo("The state: holder id is not in the state's holder registry");
        assertThat(holderId.getPseudoClassStates()).anyMatch(p -> p.getPseudoClassName().equals("danger"));
        snapshot("claim-edit-refused");

        fx(() -> window.claimsModel().editAtField(claim.claimId(), "evidence.address", "proof of address required"));
        TabPane tabs = robot.lookup("#detailTabs").queryAs(TabPane.class);
        waitUntil("the Evidence tab shows with the kind chosen", () -> tabs.getSelectionModel().getSelectedItem()
                .getText().equals("Evidence")
                && robot.lookup("#evidenceKind").tryQuery().map(k -> ((ComboBox<?>) k).getValue() == EvidenceKind.ADDRESS)
                        .orElse(false)
                && visible(robot.lookup("#evidenceFault").query()));
        assertThat(robot.lookup("#evidenceUrl").query().isFocused()).as("the address to type, focused").isTrue();
        assertThat(robot.lookup("#evidenceFault").queryAs(Label.class).getText())
                .isEqualTo("The state refused Proof of address evidence: proof of address required");
    }

    /**
     * A reference added by mistake is withdrawn from the Evidence tab after staff say why: it stays listed, marked
     * withdrawn, is audited, and what was being typed for an add stays. Delete asks the same question; cancelled, it
     * changes nothing.
     */
    @Test
    void aReferenceAddedByMistakeIsWithdrawnAfterAskingWhyAndStaysListedMarked() throws Exception {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.NEEDS_INFO);
        org.claimdesk.domain.Evidence wrong = services.workflow().evidence().addUrl(claim.claimId(), "identity",
                "https://ids.example.gov/ana-ruiz", "Ana Ruiz license", "kim");
        selectClaim(claim);
        javafx.scene.control.ScrollPane detail = robot.lookup("#detailScroll").queryAs(javafx.scene.control.ScrollPane.class);
        fx(() -> detail.setVvalue(1.0));
        robot.clickOn("Evidence");
        Button withdraw = robot.lookup("#withdrawEvidenceButton").queryButton();
        waitUntil("the reference is drawn", () -> robot.lookup("#evidenceTable .table-cell")
                .match(LabeledMatchers.hasText("Ana Ruiz license")).tryQuery().isPresent());
        assertThat(withdraw.isDisabled()).as("nothing selected").isTrue();
        robot.clickOn("#evidenceUrl").write("https://records.example.gov/u/7");

        robot.clickOn(robot.lookup("#evidenceTable .table-cell").match(LabeledMatchers.hasText("Ana Ruiz license"))
                .queryLabeled());
        waitUntil("Withdraw… is offered for it", () -> !withdraw.isDisabled());
        robot.press(KeyCode.DELETE).release(KeyCode.DELETE);
        waitUntil("Delete asks first", () -> robot.lookup("#dialogOkButton").tryQuery().isPresent());
        assertThat(robot.lookup("#dialogOkButton").query().isDisabled()).as("a reason is required").isTrue();
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the question closes", () -> robot.lookup("#dialogOkButton").tryQuery().isEmpty());
        assertThat(services.workflow().evidence().list(claim.claimId())).contains(wrong);

        robot.clickOn(withdraw);
        typeReason("another claimant's license");
        assertThat(onFx(() -> ((Label) robot.lookup(".dialog-pane .header-panel .label").query()).getText()))
                .startsWith("Withdraw Identity \"Ana Ruiz license\" from the claim?");
        robot.clickOn("#dialogOkButton");

        waitUntil("the row is marked withdrawn", () -> robot.lookup("#evidenceTable .table-cell")
                .match(LabeledMatchers.hasText("withdrawn · web address")).tryQuery().isPresent());
        assertThat(services.workflow().evidence().list(claim.claimId())).filteredOn(e -> e.evidenceId()
                == wrong.evidenceId()).singleElement().satisfies(e -> {
                    assertThat(e.withdrawal().reason()).isEqualTo("another claimant's license");
                    assertThat(e.withdrawal().by()).isEqualTo(org.claimdesk.app.Operators.osUser());
                });
        assertThat(queries.audit(Long.toString(claim.claimId()), null,
                org.claimdesk.domain.AuditActions.EVIDENCE_WITHDRAW, 0, 10)).hasSize(1);
        assertThat(robot.lookup("#evidenceTable .table-row-cell").<javafx.scene.Node>queryAll())
                .anyMatch(r -> r.getPseudoClassStates().stream().anyMatch(p -> p.getPseudoClassName().equals("withdrawn")));
        assertThat(robot.lookup("#evidenceUrl").queryAs(TextField.class).getText())
                .as("the address being typed stays").isEqualTo("https://records.example.gov/u/7");
        robot.clickOn(robot.lookup("#evidenceTable .table-cell").match(LabeledMatchers.hasText("Ana Ruiz license"))
                .queryLabeled());
        waitUntil("a withdrawn reference is not withdrawn again", withdraw::isDisabled);
        assertThat(robot.lookup("#evidenceSelected").queryAs(Label.class).getText())
                .as("who, when and why, on screen").startsWith("https://ids.example.gov/ana-ruiz. Withdrawn by ")
                .endsWith(": another claimant's license");
        snapshot("claim-evidence-withdrawn");
    }

    @Test
    void theEvidenceTabSaysWhatIsWrongWithAnAddressAndAddsAGoodOne() throws Exception {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.NEEDS_INFO);
        selectClaim(claim);
        // the tabs are below the fields: scrolled into view as staff would
        javafx.scene.control.ScrollPane detail = robot.lookup("#detailScroll").queryAs(javafx.scene.control.ScrollPane.class);
        fx(() -> detail.setVvalue(1.0));
        int before = services.workflow().evidence().list(claim.claimId()).size();
        robot.clickOn("Evidence");
        @SuppressWarnings("unchecked")
        ComboBox<EvidenceKind> kind = robot.lookup("#evidenceKind").queryAs(ComboBox.class);
        fx(() -> kind.setValue(EvidenceKind.ADDRESS));
        Button add = robot.lookup("#addEvidenceUrlButton").queryButton();
        Label error = robot.lookup("#evidenceError").queryAs(Label.class);

        robot.clickOn("#evidenceUrl").write("ftp://records.example.gov/u/1");
        waitUntil("the address's rule shows and Add stays disabled", () -> visible(error) && add.isDisabled()
                && error.getText().startsWith("Address must be an http or https address"));

        TextField url = robot.lookup("#evidenceUrl").queryAs(TextField.class);
        fx(() -> url.setText("https://records.example.gov/u/1"));
        robot.clickOn("#evidenceTitle").write("Utility bill, March");
        waitUntil("the message goes", () -> !visible(error) && !add.isDisabled());
        robot.clickOn(add);

        javafx.scene.control.TableView<?> table = robot.lookup("#evidenceTable").queryTableView();
        waitUntil("the reference is listed", () -> table.getItems().size() == before + 1 && url.getText().isEmpty());
        waitUntil("the row is drawn", () -> robot.lookup("#evidenceTable .table-cell")
                .match(LabeledMatchers.hasText("Utility bill, March")).tryQuery().isPresent());
        assertThat(services.workflow().evidence().list(claim.claimId())).hasSize(before + 1).last()
                .satisfies(e -> assertThat(e.url()).isEqualTo("https://records.example.gov/u/1"));
        snapshot("claim-evidence");

        // a file whose copy is not in this workstation's folder (added elsewhere, a share not mounted): marked
        org.claimdesk.domain.Evidence deed = services.workflow().evidence().addFile(claim.claimId(), "ownership",
                java.nio.file.Files.writeString(dir.resolve("deed.pdf"), "deed of trust"), "Deed of trust", "kim");
        java.nio.file.Files.delete(services.workflow().evidence().fileOf(deed));
        fx(() -> window.claimsModel().reloadDetail());
        waitUntil("the file is listed as missing here", () -> robot.lookup("#evidenceTable .table-cell")
                .match(LabeledMatchers.hasText("missing here · file, 13 bytes")).tryQuery().isPresent());
        snapshot("claim-evidence-not-here");
    }

    @Test
    void theTaxIdIsReplacedWholeWithAReasonAndAuditedMasked() {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.IDENTITY_PENDING);
        selectClaim(claim);
        robot.clickOn("#replaceTaxIdButton");
        waitUntil("the question shows", () -> robot.lookup("#newTaxIdField").tryQuery().isPresent());
        Button ok = robot.lookup("#dialogOkButton").queryButton();
        Label error = robot.lookup("#newTaxIdError").queryAs(Label.class);

        robot.clickOn("#newTaxIdField").write("12-34");
        typeReason("corrected from the claimant's W-9");
        waitUntil("the tax id rule shows and Replace stays disabled", () -> visible(error) && ok.isDisabled()
                && error.getText().equals("Tax id must be an SSN or ITIN written 123-45-6789 or an EIN written 12-3456789"));
        robot.doubleClickOn("#newTaxIdField").eraseText(5).write("987-65-4321");
        waitUntil("the message goes", () -> !visible(error) && !ok.isDisabled());
        robot.clickOn(ok);

        Label shown = robot.lookup("#taxIdValue").queryAs(Label.class);
        waitUntil("the detail shows the new tax id masked", () -> shown.getText().equals("***-**-4321"));
        assertThat(queries.claim(claim.claimId()).orElseThrow().taxId()).isEqualTo("987-65-4321");
        assertThat(robot.lookup("#claimsNotice").queryAs(Label.class).getText()).doesNotContain("987-65");
        assertThat(queries.audit(Long.toString(claim.claimId()), null, "claim.replace_tax_id", 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("corrected from the claimant's W-9");
                    assertThat(a.details()).contains("***-**-4321").doesNotContain("987-65");
                });
    }

    @Test
    void aPaidClaimIsReadOnlyWithTheReason() {
        waitReady();
        selectClaim(firstClaim(ClaimStatus.PAID));
        waitUntil("the reason shows", () -> robot.lookup("#readOnlyLabel").queryAs(Label.class).getText()
                .equals("Read-only: the claim is paid; its data is final"));
        assertThat(robot.lookup("#editButton").queryButton().isDisabled()).isTrue();
        robot.press(KeyCode.CONTROL, KeyCode.E).release(KeyCode.E, KeyCode.CONTROL);
        waitUntil("a notice says why", () -> robot.lookup("#claimsNotice").queryAs(Label.class).getText()
                .endsWith("is read-only: the claim is paid; its data is final"));
        assertThat(visible(robot.lookup("#editForm").query())).isFalse();
    }

    @Test
    void aClaimWhoseSubmissionIsOnItsWayIsReadOnlyWithTheReason() throws Exception {
        waitReady();
        Claim ready = firstClaim(ClaimStatus.READY_FOR_SUBMISSION);
        // the worker is off in these tests: the row stays pending
        TestDatabases.workflow(db).submit(ready.claimId(), "s.patel", null);
        selectClaim(ready);
        waitUntil("the reason shows", () -> robot.lookup("#readOnlyLabel").queryAs(Label.class).getText()
                .equals("Read-only: " + ClaimStatus.SUBMISSION_PENDING_REFUSAL));
        assertThat(robot.lookup("#editButton").queryButton().isDisabled()).isTrue();
        snapshot("claim-submission-pending");
    }
}
