package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.testing.LockHolder;
import org.junit.jupiter.api.Test;

/**
 * Another program holds the database's write lock: the console stays responsive, says in the status
 * bar that an action is waiting, and the action completes once the lock is released.
 */
class LockedDatabaseTest extends ConsoleFxTest {

    @Test
    void anActionWaitingForALockedDatabaseShowsThatItWaitsAndThenCompletes() throws Exception {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.IDENTITY_PENDING);
        selectClaim(claim);
        Process holder = LockHolder.hold(db.path(), 60);
        try {
            robot.clickOn("#action-EVIDENCE_PENDING");
            typeReason("ID checked while the database was busy");
            robot.clickOn("#dialogOkButton");

            Label busy = robot.lookup("#busyStatus").queryAs(Label.class);
            waitUntil("the status bar says the action is waiting", () -> busy.isVisible()
                    && busy.getText().startsWith("Working: "));
            robot.clickOn("#claimSearch").write("still responsive");
            waitUntil("typing still works", () -> robot.lookup("#claimSearch").queryTextInputControl().getText()
                    .endsWith("still responsive"));

            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            waitUntil("the advance is stored once the lock is gone", () ->
                    queries.claim(claim.claimId()).orElseThrow().status() == ClaimStatus.EVIDENCE_PENDING);
            waitUntil("the status bar is clear again", () -> !busy.isVisible());
        } finally {
            holder.destroyForcibly();
        }
    }
}
