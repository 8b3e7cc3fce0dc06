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

    /**
     * This table with the overrides of {@code spec}: comma-separated {@code JURISDICTION=DAYS} pairs, with
     * {@code *} for every jurisdiction not named (e.g. {@code "NY=150,TX=120,*=100"}). Blank keeps the table.
     */
    public Deadlines withOverrides(String spec) {
        Deadlines result = this;
        if (spec == null || spec.isBlank()) {
            return result;
        }
        for (String pair : spec.split(",")) {
            String[] parts = pair.split("=", -1);
            if (parts.length != 2 || parts[0].isBlank()) {
                throw new IllegalArgumentException("decision deadline setting '" + pair.strip()
                        + "' is not JURISDICTION=DAYS (e.g. NY=150, or *=120 for every other jurisdiction)");
            }
            int days;
            try {
                days = Integer.parseInt(parts[1].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("decision deadline setting '" + pair.strip()
                        + "': the days must be a whole number");
            }
            String jurisdiction = parts[0].strip().toUpperCase(Locale.ROOT);
            if (!jurisdiction.equals("*") && !ClaimField.JURISDICTIONS.contains(jurisdiction)) {
                throw new IllegalArgumentException("decision deadline setting '" + pair.strip() + "': " + jurisdiction
                        + " is no jurisdiction (two letters, e.g. NY, or * for every other jurisdiction)");
            }
            if (STATUTE.daysByJurisdiction.containsKey(jurisdiction)) {
                throw new IllegalArgumentException("decision deadline setting '" + pair.strip() + "': " + jurisdiction
                        + "'s " + STATUTE.daysFor(jurisdiction) + " days are set by statute; the setting is for other"
                        + " jurisdictions");
            }
            result = result.with(jurisdiction, days);
        }
        return result;
    }

    private static final Deadlines STATUTE = statutory();

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
