package org.claimdesk.domain;

import java.time.LocalDate;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Statutory decision deadlines per jurisdiction. California decides within 180 days of filing,
 * Hawaii within 120, the states that enacted the 2016 revised act within 90; every other
 * jurisdiction uses a configurable default.
 */
public final class Deadlines {
    public static final int DEFAULT_DAYS = 120;

    private final Map<String, Integer> daysByJurisdiction;
    private final int defaultDays;

    private Deadlines(Map<String, Integer> daysByJurisdiction, int defaultDays) {
        this.daysByJurisdiction = Map.copyOf(daysByJurisdiction);
        this.defaultDays = defaultDays;
    }

    public static Deadlines statutory() {
        Map<String, Integer> days = new TreeMap<>();
        days.put("CA", 180);
        days.put("HI", 120);
        for (String revisedAct : new String[] {"UT", "CO", "KY"}) {
            days.put(revisedAct, 90);
        }
        return new Deadlines(days, DEFAULT_DAYS);
    }

    /** A copy with {@code jurisdiction} (or, for {@code "*"}, the default) set to {@code days}. */
    public Deadlines with(String jurisdiction, int days) {
        if (days <= 0) {
            throw new IllegalArgumentException("deadline days must be positive, got " + days);
        }
        if ("*".equals(jurisdiction)) {
            return new Deadlines(daysByJurisdiction, days);
        }
        Map<String, Integer> copy = new TreeMap<>(daysByJurisdiction);
        copy.put(jurisdiction.toUpperCase(Locale.ROOT), days);
        return new Deadlines(copy, defaultDays);
    }

    public int daysFor(String jurisdiction) {
        return daysByJurisdiction.getOrDefault(jurisdiction.toUpperCase(Locale.ROOT), defaultDays);
    }

    public LocalDate dueDate(String jurisdiction, LocalDate filedOn) {
        return filedOn.plusDays(daysFor(jurisdiction));
    }

    /** Statuses in which the claim waits for the state's decision. */
    public static boolean awaitsDecision(ClaimStatus status) {
        return status == ClaimStatus.SUBMITTED_TO_STATE || status == ClaimStatus.NEEDS_INFO;
    }
}
