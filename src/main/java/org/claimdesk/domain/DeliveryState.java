package org.claimdesk.domain;

import java.util.Locale;

/**
 * Where an outbox row stands; stored in lower case. {@code SUPERSEDED}: a failed row whose claim was corrected
 * and resubmitted as a new row (named by the old row's {@code supersededBy}); kept with its attempts.
 */
public enum DeliveryState {
    PENDING, SENT, FAILED, ABANDONED, SUPERSEDED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DeliveryState fromDb(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
