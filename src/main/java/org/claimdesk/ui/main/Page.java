package org.claimdesk.ui.main;

/** The console's four pages, in navigation order (Ctrl+1 to Ctrl+4). */
public enum Page {
    CLAIMS("Claims"),
    OUTBOX("Outbox"),
    WORKER("Worker"),
    AUDIT("Audit");

    private final String title;

    Page(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    public static Page parse(String name) {
        for (Page p : values()) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        return CLAIMS;
    }
}
