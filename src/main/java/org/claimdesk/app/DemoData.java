package org.claimdesk.app;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.store.Json;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Database;
import org.claimdesk.store.SearchIndex;

/**
 * Synthetic claims that look like a real office's: jurisdictions, holders, NAUPA property types,
 * log-normal amounts (median $100, mean about $1,600), claim types, a realistic status mix, status
 * histories, and SUBMITTING claims whose outbox rows are pending or failed with attempt histories.
 * Tax ids are non-issuable (group 00). The same seed and the same {@code today} give the same data.
 */
public final class DemoData {
    private static final String[] JURISDICTIONS = {"CA", "NY", "TX", "FL", "IL", "WA", "UT", "CO", "KY", "NC", "HI"};
    private static final int[] JURISDICTION_WEIGHTS = {30, 17, 13, 11, 6, 5, 4, 4, 4, 4, 2};

    private static final String[][] HOLDERS = {
        {"Wells Fargo Bank NA", "AC01"}, {"Bank of America NA", "AC02"}, {"JPMorgan Chase Bank NA", "AC01"},
        {"Citibank NA", "AC02"}, {"U.S. Bank NA", "CK01"}, {"Pacific Gas and Electric Co", "UT01"},
        {"Southern California Edison", "UT01"}, {"Duke Energy Carolinas LLC", "UT01"},
        {"State Farm Mutual Automobile Ins", "IN04"}, {"Metropolitan Life Insurance Co", "IN04"},
        {"Prudential Insurance Co of America", "IN04"}, {"Walmart Inc Payroll", "MS01"},
        {"Home Depot USA Inc Payroll", "MS01"}, {"Kaiser Foundation Health Plan", "MS11"},
        {"Comcast Cable Communications", "MS11"}, {"Verizon Wireless", "MS11"},
        {"Sysco Corporation Accounts Payable", "CK13"}, {"McKesson Corp Vendor Payments", "CK13"},
        {"Computershare Trust Co NA", "SC"}, {"Equiniti Trust Co", "SC"}, {"Fidelity Investments", "SC"},
        {"First Republic Safe Deposit", "SD01"},
    };
    private static final String[] FIRST = {"Maria", "James", "Mei", "Oluwaseun", "Robert", "Aisha", "José", "Linda",
        "Nguyễn", "Patricia", "Michael", "Zoë", "Dmitri", "Sofía", "William", "Priya", "Kenji", "Fatima", "Seán",
        "Elizabeth", "David", "Chloé", "Tomás", "Grace", "Hiroshi", "Amara", "Ingrid", "Mohammed", "Rosa", "Thomas"};
    private static final String[] LAST = {"Garcia", "Johnson", "Chen", "Adeyemi", "Smith", "Khan", "Hernández",
        "Williams", "Văn An", "Brown", "O'Brien", "Ångström", "Ivanov", "Martínez", "Davis", "Patel", "Tanaka",
        "Al-Sayed", "Murphy", "Wilson", "Nakamura", "Okafor", "Lefèvre", "Rodríguez", "Kim", "Lee", "Nguyen",
        "Thompson", "Moore", "Jackson"};
    private static final String[] BUSINESSES = {"Harbor Dental Group LLC", "Sunrise Bakery Inc", "Cedar & Pine Builders",
        "Mesa Verde Logistics Co", "Blue Heron Veterinary PC", "Northgate Hardware Inc"};
    private static final String[] ACTORS = {"m.alvarez", "j.chen", "r.okafor", "s.patel", "supervisor.kim"};

    /** Failure texts as the worker records them, for failed demo rows: {last error, outcome, http status}. */
    private static final String[][] FAILURES = {
        {"422 invalid_claim: holder id %s not found in the holder's %d report", "PERMANENT", "422"},
        {"422 invalid_claim: state property id %s was already paid to another claimant", "PERMANENT", "422"},
        {"400 missing_field: proof of address link required for claims over $%d", "PERMANENT", "400"},
        {"503 Service Unavailable: state portal maintenance window (gave up after %d attempts)", "TRANSIENT", "503"},
        {"timeout: no reply from the state within 15000 ms (gave up after %d attempts)", "TRANSIENT", ""},
        {"429 rate_limited: Retry-After 120 s (gave up after %d attempts)", "TRANSIENT", "429"},
    };

    private final Database database;
    private final LocalDate today;
    private final Deadlines deadlines;

    public DemoData(Database database, LocalDate today, Deadlines deadlines) {
        this.database = database;
        this.today = today;
        this.deadlines = deadlines;
    }

    /** Counts of what {@link #generate} wrote. */
    public record Summary(int claims, int outboxRows, int attempts, int historyRows, long millis) {
    }

    /**
     * Writes {@code count} claims in one transaction. Refused when the database already holds claims.
     *
     * @param progress told the number of claims written so far, every 1% or so
     */
    public Summary generate(int count, long seed, IntConsumer progress) {
        if (count < 1 || count > 5_000_000) {
            throw new ClaimDeskException("the number of demo claims must be between 1 and 5,000,000, got " + count);
        }
        long started = System.nanoTime();
        return database.inTransaction(h -> {
            int existing = h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one();
            if (existing > 0) {
                throw new ClaimDeskException("the database already holds " + existing
                        + " claims; demo data goes only into an empty database");
            }
            Summary s = SearchIndex.bulkLoad(h, () -> {
                try {
                    return write(h.getConnection(), count, seed, progress);
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot write demo data: " + e.getMessage(), e);
                }
            });
            return new Summary(s.claims, s.outboxRows, s.attempts, s.historyRows,
                    (System.nanoTime() - started) / 1_000_000);
        });
    }

    private static final ClaimStatus[] PATH = {ClaimStatus.IDENTITY_PENDING, ClaimStatus.EVIDENCE_PENDING,
        ClaimStatus.READY_FOR_SUBMISSION, ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE};

    private Summary write(Connection c, int count, long seed, IntConsumer progress) throws SQLException {
        SplittableRandom random = new SplittableRandom(seed);
        int outboxRows = 0;
        int attempts = 0;
        int historyRows = 0;
        long eventId = 0;
        try (PreparedStatement claim = c.prepareStatement("""
                INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, holder_id,
                    property_type, claim_type, claimant_name, tax_id, amount_cents, status, state_case_id, filed_on,
                    decision_due_on, version, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
             PreparedStatement history = c.prepareStatement("""
                INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
                VALUES (?, ?, ?, ?, ?, ?)""");
             PreparedStatement outbox = c.prepareStatement("""
                INSERT INTO outbox_event (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts,
                    last_error, idempotency_key, next_attempt_at, created_at, sent_at, state_case_id, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
             PreparedStatement attempt = c.prepareStatement("""
                INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                    http_status, detail, worker_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")) {
            int step = Math.max(1, count / 100);
            for (int i = 1; i <= count; i++) {
                String jurisdiction = pick(random, JURISDICTIONS, JURISDICTION_WEIGHTS);
                String[] holder = HOLDERS[random.nextInt(HOLDERS.length)];
                PropertyType propertyType = random.nextInt(5) == 0
                        ? PropertyType.values()[random.nextInt(PropertyType.values().length)]
                        : PropertyType.valueOf(holder[1]);
                ClaimType claimType = claimType(random);
                String claimant = claimType == ClaimType.BUSINESS ? BUSINESSES[random.nextInt(BUSINESSES.length)]
                        : FIRST[random.nextInt(FIRST.length)] + " " + LAST[random.nextInt(LAST.length)];
                if (claimType == ClaimType.HEIR) {
                    claimant = claimant + " (heir of " + LAST[random.nextInt(LAST.length)] + " estate)";
                }
                LocalDate filedOn = today.minusDays(random.nextInt(420));
                ClaimStatus status = status(random);
                long amount = amountCents(random);
                String statePropertyId = Long.toString(1_000_000L + random.nextLong(998_999_999L));
                String taxId = String.format(Locale.ROOT, "%03d-00-%04d", 1 + random.nextInt(665), 1 + random.nextInt(9999));
                String claimNumber = String.format(Locale.ROOT, "UPC-%d-%06d", filedOn.getYear(), i);
                Instant filedAt = filedOn.atTime(9 + random.nextInt(8), random.nextInt(60)).toInstant(ZoneOffset.UTC);

                List<ClaimStatus> path = path(status, random);
                Instant at = filedAt;
                ClaimStatus previous = null;
                LocalDate submittedOn = null;
                for (ClaimStatus next : path) {
                    history.setLong(1, i);
                    history.setString(2, previous == null ? null : previous.name());
                    history.setString(3, next.name());
                    history.setString(4, previous == null ? "intake" : ACTORS[random.nextInt(ACTORS.length)]);
                    history.setString(5, reasonFor(next));
                    history.setLong(6, at.toEpochMilli());
                    history.addBatch();
                    historyRows++;
                    if (next == ClaimStatus.SUBMITTED_TO_STATE && submittedOn == null) {
                        submittedOn = LocalDate.ofInstant(at, ZoneOffset.UTC);
                    }
                    previous = next;
                    at = stepForward(at, random);
                }
                Instant updatedAt = at;
                String caseId = submittedOn == null ? null
                        : jurisdiction + "-" + submittedOn.getYear() + "-" + (100_000 + random.nextInt(900_000));
                LocalDate dueOn = submittedOn == null ? null : deadlines.dueDate(jurisdiction, submittedOn);

                claim.setLong(1, i);
                claim.setString(2, claimNumber);
                claim.setString(3, jurisdiction);
                claim.setString(4, statePropertyId);
                claim.setString(5, holder[0]);
                claim.setString(6, "HLD-" + (100_000 + Math.abs(holder[0].hashCode() % 900_000)));
                claim.setString(7, propertyType.name());
                claim.setString(8, claimType.name());
                claim.setString(9, claimant);
                claim.setString(10, taxId);
                claim.setLong(11, amount);
                claim.setString(12, status.name());
                claim.setString(13, caseId);
                claim.setString(14, filedOn.toString());
                claim.setString(15, dueOn == null ? null : dueOn.toString());
                claim.setLong(16, path.size() - 1L);
                claim.setLong(17, filedAt.toEpochMilli());
                claim.setLong(18, updatedAt.toEpochMilli());
                claim.addBatch();

                if (path.contains(ClaimStatus.SUBMITTING)) {
                    eventId++;
                    String key = String.format(Locale.ROOT, "sub-demo-%d-%08x", seed, i * 2654435761L & 0xffffffffL);
                    SubmissionPayload payload = new SubmissionPayload(i, key, claimNumber, jurisdiction, statePropertyId,
                            holder[0], "HLD", propertyType.name(), claimType.name(), claimant,
                            taxId.substring(taxId.length() - 4), amount, filedOn.toString());
                    Instant created = submittedOn != null ? submittedOn.atStartOfDay().toInstant(ZoneOffset.UTC) : updatedAt;
                    outbox.setLong(1, eventId);
                    outbox.setLong(2, i);
                    outbox.setString(3, OutboxEvent.SUBMISSION_REQUESTED);
                    outbox.setString(4, Json.write(payload));
                    outbox.setLong(7, 0);
                    outbox.setString(8, key);
                    outbox.setLong(10, created.toEpochMilli());
                    int tries;
                    if (status != ClaimStatus.SUBMITTING) {
                        tries = 1;
                        outbox.setString(5, "sent");
                        outbox.setNull(7, Types.VARCHAR);
                        outbox.setLong(9, created.toEpochMilli());
                        outbox.setLong(11, created.toEpochMilli() + 400);
                        outbox.setString(12, caseId);
                        addAttempt(attempt, eventId, 1, created, AttemptOutcome.DELIVERED, 201,
                                "{\"caseId\":\"" + caseId + "\"}", random);
                    } else if (random.nextInt(100) < 55) {
                        tries = random.nextInt(3);
                        outbox.setString(5, "pending");
                        outbox.setString(7, tries == 0 ? null : "503 Service Unavailable: state portal busy");
                        outbox.setLong(9, updatedAt.toEpochMilli() + random.nextInt(120_000));
                        outbox.setNull(11, Types.INTEGER);
                        outbox.setNull(12, Types.VARCHAR);
                        for (int n = 1; n <= tries; n++) {
                            addAttempt(attempt, eventId, n, created.plusSeconds(n * 30L), AttemptOutcome.TRANSIENT, 503,
                                    "{\"error\":\"unavailable\",\"message\":\"state portal busy\"}", random);
                        }
                    } else {
                        String[] failure = FAILURES[random.nextInt(FAILURES.length)];
                        boolean permanent = failure[1].equals("PERMANENT");
                        tries = permanent ? 1 + random.nextInt(3) : 8;
                        String error = failure[0].contains("holder id")
                                ? String.format(Locale.ROOT, failure[0], "HLD-" + (100_000 + random.nextInt(900_000)), filedOn.getYear() - 1)
                                : failure[0].contains("property id")
                                ? String.format(Locale.ROOT, failure[0], statePropertyId)
                                : failure[0].contains("$%d")
                                ? String.format(Locale.ROOT, failure[0], 1000)
                                : String.format(Locale.ROOT, failure[0], tries);
                        outbox.setString(5, "failed");
                        outbox.setString(7, error);
                        outbox.setLong(9, updatedAt.toEpochMilli());
                        outbox.setNull(11, Types.INTEGER);
                        outbox.setNull(12, Types.VARCHAR);
                        Instant t = created;
                        for (int n = 1; n <= tries; n++) {
                            boolean last = n == tries;
                            AttemptOutcome outcome = last && permanent ? AttemptOutcome.PERMANENT : AttemptOutcome.TRANSIENT;
                            Integer http = last ? (failure[2].isEmpty() ? null : Integer.valueOf(failure[2])) : Integer.valueOf(503);
                            addAttempt(attempt, eventId, n, t, outcome, http,
                                    last ? error : "503 Service Unavailable: state portal busy", random);
                            t = t.plusSeconds(2L << Math.min(n, 9));
                        }
                    }
                    outbox.setInt(6, tries);
                    outbox.setLong(13, updatedAt.toEpochMilli());
                    outbox.addBatch();
                    outboxRows++;
                    attempts += tries;
                }
                if (i % 2_000 == 0 || i == count) {
                    claim.executeBatch();
                    history.executeBatch();
                    outbox.executeBatch();
                    attempt.executeBatch();
                }
                if (i % step == 0 || i == count) {
                    progress.accept(i);
                }
            }
        }
        return new Summary(count, outboxRows, attempts, historyRows, 0);
    }

    private static void addAttempt(PreparedStatement attempt, long eventId, int no, Instant started,
            AttemptOutcome outcome, Integer http, String detail, SplittableRandom random) throws SQLException {
        attempt.setLong(1, eventId);
        attempt.setInt(2, no);
        attempt.setLong(3, started.toEpochMilli());
        attempt.setLong(4, 80 + random.nextInt(900));
        attempt.setString(5, outcome.name());
        if (http == null) {
            attempt.setNull(6, Types.INTEGER);
        } else {
            attempt.setInt(6, http);
        }
        attempt.setString(7, detail);
        attempt.setString(8, "worker-demo");
        attempt.addBatch();
    }

    /** The statuses a claim went through to reach {@code status}, first to last. */
    private static List<ClaimStatus> path(ClaimStatus status, SplittableRandom random) {
        List<ClaimStatus> path = new ArrayList<>();
        switch (status) {
            case IDENTITY_PENDING, EVIDENCE_PENDING, READY_FOR_SUBMISSION, SUBMITTING, SUBMITTED_TO_STATE -> {
                for (ClaimStatus s : PATH) {
                    path.add(s);
                    if (s == status) {
                        break;
                    }
                }
            }
            case NEEDS_INFO, APPROVED, REJECTED -> {
                path.addAll(List.of(PATH));
                path.add(status);
            }
            case PAID -> {
                path.addAll(List.of(PATH));
                path.add(ClaimStatus.APPROVED);
                path.add(ClaimStatus.PAID);
            }
            case WITHDRAWN -> {
                int reached = 1 + random.nextInt(3);
                for (int k = 0; k < reached; k++) {
                    path.add(PATH[k]);
                }
                path.add(ClaimStatus.WITHDRAWN);
            }
            default -> throw new IllegalStateException("unhandled status " + status);
        }
        return path;
    }

    private static String reasonFor(ClaimStatus status) {
        return switch (status) {
            case EVIDENCE_PENDING -> "photo ID and SSN verified";
            case READY_FOR_SUBMISSION -> "proof of address link and ownership received";
            case NEEDS_INFO -> "state requested notarized claim form";
            case REJECTED -> "state: insufficient proof of ownership (R-12)";
            case WITHDRAWN -> "claimant withdrew in writing";
            case PAID -> "warrant issued";
            default -> null;
        };
    }

    private static Instant stepForward(Instant at, SplittableRandom random) {
        return at.plusSeconds(3_600L * (2 + random.nextInt(24 * 12)));
    }

    private static ClaimStatus status(SplittableRandom random) {
        int r = random.nextInt(100);
        if (r < 12) return ClaimStatus.IDENTITY_PENDING;
        if (r < 30) return ClaimStatus.EVIDENCE_PENDING;
        if (r < 38) return ClaimStatus.READY_FOR_SUBMISSION;
        if (r < 43) return ClaimStatus.SUBMITTING;
        if (r < 58) return ClaimStatus.SUBMITTED_TO_STATE;
        if (r < 64) return ClaimStatus.NEEDS_INFO;
        if (r < 71) return ClaimStatus.APPROVED;
        if (r < 92) return ClaimStatus.PAID;
        if (r < 97) return ClaimStatus.REJECTED;
        return ClaimStatus.WITHDRAWN;
    }

    private static ClaimType claimType(SplittableRandom random) {
        int r = random.nextInt(100);
        if (r < 78) return ClaimType.OWNER;
        if (r < 90) return ClaimType.HEIR;
        if (r < 96) return ClaimType.ON_BEHALF;
        return ClaimType.BUSINESS;
    }

    /** Log-normal with mu = ln 100 and sigma 2.36 (dollars), clamped to $5 to $250,000. */
    static long amountCents(SplittableRandom random) {
        double z = gaussian(random);
        double dollars = Math.exp(Math.log(100) + 2.36 * z);
        dollars = Math.max(5, Math.min(250_000, dollars));
        return Math.round(dollars * 100);
    }

    private static double gaussian(SplittableRandom random) {
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private static String pick(SplittableRandom random, String[] values, int[] weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = random.nextInt(total);
        for (int k = 0; k < values.length; k++) {
            r -= weights[k];
            if (r < 0) {
                return values[k];
            }
        }
        return values[values.length - 1];
    }
}
