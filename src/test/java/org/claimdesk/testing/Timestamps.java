package org.claimdesk.testing;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.claimdesk.store.Database;

/** Every time a ClaimDesk database records, checked against a moment. */
public final class Timestamps {
    /** Each recorded time, as the SQL that counts its values after {@code :now}. */
    private static final Map<String, String> AFTER_NOW = new LinkedHashMap<>();

    static {
        AFTER_NOW.put("claim.created_at", "SELECT count(*) FROM claim WHERE created_at > :now");
        AFTER_NOW.put("claim.updated_at", "SELECT count(*) FROM claim WHERE updated_at > :now");
        AFTER_NOW.put("claim.filed_on", "SELECT count(*) FROM claim WHERE filed_on > :today");
        AFTER_NOW.put("claim_status_history.at", "SELECT count(*) FROM claim_status_history WHERE at > :now");
        AFTER_NOW.put("outbox_event.created_at", "SELECT count(*) FROM outbox_event WHERE created_at > :now");
        AFTER_NOW.put("outbox_event.updated_at", "SELECT count(*) FROM outbox_event WHERE updated_at > :now");
        AFTER_NOW.put("outbox_event.sent_at", "SELECT count(*) FROM outbox_event WHERE sent_at > :now");
        AFTER_NOW.put("outbox_event.next_attempt_at (not pending)",
                "SELECT count(*) FROM outbox_event WHERE delivery_state <> 'pending' AND next_attempt_at > :now");
        AFTER_NOW.put("outbox_event.lease_expires_at", "SELECT count(*) FROM outbox_event WHERE lease_expires_at > :now");
        AFTER_NOW.put("delivery_attempt.started_at + duration_ms",
                "SELECT count(*) FROM delivery_attempt WHERE started_at + duration_ms > :now");
        AFTER_NOW.put("audit_log.at", "SELECT count(*) FROM audit_log WHERE at > :now");
        AFTER_NOW.put("request_key.at", "SELECT count(*) FROM request_key WHERE at > :now");
    }

    private Timestamps() {
    }

    /**
     * For each recorded time, how many values lie after {@code now} (dates: after its day in {@code zone}).
     * A pending outbox row's next attempt is left out: it may lie ahead by its backoff.
     */
    public static Map<String, Integer> afterNow(Database db, Instant now, ZoneId zone) {
        String today = LocalDate.ofInstant(now, zone).toString();
        return db.read(h -> {
            Map<String, Integer> counts = new LinkedHashMap<>();
            AFTER_NOW.forEach((name, sql) -> counts.put(name, (sql.contains(":today")
                    ? h.createQuery(sql).bind("today", today) : h.createQuery(sql).bind("now", now.toEpochMilli()))
                    .mapTo(Integer.class).one()));
            return counts;
        });
    }
}
