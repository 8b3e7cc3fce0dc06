package org.claimdesk.domain;

import java.util.Locale;

/** Where an outbox row stands; stored in lower case. */
public enum DeliveryState {
    PENDING, SENT, FAILED, ABANDONED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DeliveryState fromDb(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
