package org.claimdesk.ui.common;

/** Every FXML file of the console, next to its controller class. */
public enum Fxml {
    MAIN("/org/claimdesk/ui/main/Main.fxml"),
    CLAIMS("/org/claimdesk/ui/claims/Claims.fxml"),
    /** The selected claim's detail, built apart from the Claims page (see {@code ClaimsView.prepareDetail}). */
    CLAIM_DETAIL("/org/claimdesk/ui/claims/ClaimDetail.fxml"),
    OUTBOX("/org/claimdesk/ui/outbox/Outbox.fxml"),
    WORKER("/org/claimdesk/ui/worker/Worker.fxml"),
    AUDIT("/org/claimdesk/ui/audit/Audit.fxml");

    private final String resource;

    Fxml(String resource) {
        this.resource = resource;
    }

    public String resource() {
        return resource;
    }
}
