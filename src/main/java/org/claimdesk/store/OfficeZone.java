package org.claimdesk.store;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The office's time zone on a team database: the one whose calendar days a decision's due date, "today" and
 * "overdue" are counted in, whichever workstation counts them. Workstations of one office may keep other zones (a
 * colleague working from another state, {@code claimdesk drain} on a server left at UTC): counted in each one's own,
 * one claim's due date would depend on the worker that delivered it, and a list of overdue claims on the workstation
 * that asked.
 *
 * <p>IT sets it on the database ({@code ALTER DATABASE claimdesk SET timezone TO 'America/Los_Angeles'},
 * docs/operations.md). It is read from the database's settings, not from the session: the PostgreSQL driver gives
 * every session the workstation's own zone.
 */
public record OfficeZone(ZoneId zone, String configured, String problem) {
    private static final Logger LOG = LoggerFactory.getLogger(OfficeZone.class);

    /** Whether the database names a zone this workstation counts in. */
    public boolean set() {
        return configured != null && problem == null;
    }

    /** A desk's file: its one workstation's zone. */
    static OfficeZone workstation() {
        return new OfficeZone(ZoneId.systemDefault(), null, null);
    }

    /**
     * The zone the database names, else the workstation's, with {@link #problem} saying why: none named, or a name
     * Java does not know.
     */
    static OfficeZone of(Map<String, String> databaseSettings) {
        Optional<String> configured = Optional.ofNullable(databaseSettings.get(DatabaseSettings.TIME_ZONE))
                .filter(zone -> !zone.isEmpty());
        if (configured.isEmpty()) {
            return new OfficeZone(ZoneId.systemDefault(), null, "the team database names no time zone");
        }
        Optional<ZoneId> region = region(configured.get());
        if (region.isPresent()) {
            return new OfficeZone(region.get(), configured.get(), null);
        }
        LOG.warn("the team database's time zone {} is not a region ClaimDesk reads; this workstation counts days in its"
                + " own ({})", configured.get(), ZoneId.systemDefault());
        return new OfficeZone(ZoneId.systemDefault(), configured.get(), "the team database's time zone "
                + configured.get() + " is not a region name ClaimDesk reads (such as America/Los_Angeles)");
    }

    /**
     * A region of the time zone database by its name, in any case, as PostgreSQL reads it: an offset or POSIX form
     * ({@code UTC+5}, {@code +5}) is none, since PostgreSQL counts its hours west of Greenwich where Java counts them
     * east, ten hours apart.
     */
    static Optional<ZoneId> region(String name) {
        // Java's region ids hold no offset form (UTC+5 is a prefix and an offset to ZoneId.of, not a region)
        Optional<ZoneId> region = ZoneId.getAvailableZoneIds().stream().filter(id -> id.equalsIgnoreCase(name))
                .findFirst().map(ZoneId::of);
        if (region.isPresent()) {
            return region;
        }
        // names PostgreSQL's zone files hold that Java's does not: fixed offsets west of Greenwich, and Greenwich
        String upper = name.toUpperCase(Locale.ROOT);
        if (upper.equals("EST") || upper.equals("MST") || upper.equals("HST")) {
            return Optional.of(ZoneId.of(upper, ZoneId.SHORT_IDS));
        }
        return upper.equals("GMT+0") || upper.equals("GMT-0") ? Optional.of(ZoneOffset.UTC) : Optional.empty();
    }
}
