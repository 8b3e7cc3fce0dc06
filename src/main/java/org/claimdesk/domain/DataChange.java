package org.claimdesk.domain;

import java.util.Locale;
import java.util.Optional;

/**
 * What kind of data a workstation changed, as the other workstations on a team database hear of it: the
 * pages showing that kind of data read it again.
 */
public enum DataChange {
    /** Claims, their status history and their evidence. */
    CLAIMS,
    /** Outbox rows and their delivery attempts. */
    OUTBOX,
    /** The audit trail. */
    AUDIT,
    /** The delivery worker's pause by staff. */
    WORKER;

    /** The name this change goes by in the database's notifications. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The change a notification names, if it names one. */
    public static Optional<DataChange> ofWireName(String name) {
        for (DataChange c : values()) {
            if (c.wireName().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
