package org.claimdesk.ui.main;

import java.util.Set;
import org.claimdesk.domain.DataChange;

/** The console's four pages, in navigation order (Ctrl+1 to Ctrl+4). */
public enum Page {
    CLAIMS("Claims", Set.of(DataChange.CLAIMS, DataChange.OUTBOX)),
    OUTBOX("Outbox", Set.of(DataChange.OUTBOX, DataChange.CLAIMS)),
    WORKER("Worker", Set.of(DataChange.OUTBOX, DataChange.WORKER)),
    AUDIT("Audit", Set.of(DataChange.AUDIT));

    private final String title;
    private final Set<DataChange> shows;

    Page(String title, Set<DataChange> shows) {
        this.title = title;
        this.shows = shows;
    }

    /** True when the page shows data of a kind in {@code changed}: it reads again when another workstation changed it. */
    public boolean shows(Set<DataChange> changed) {
        return changed.stream().anyMatch(shows::contains);
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
