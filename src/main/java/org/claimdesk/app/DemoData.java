package org.claimdesk.app;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import org.claimdesk.delivery.Backoff;
import org.claimdesk.delivery.HolderRegistry;
import org.claimdesk.delivery.PropertyLedger;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.StateAnswer;
import org.claimdesk.delivery.StateRules;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.Amounts;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimNumbers;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.BulkLoader;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.store.Json;

/**
 * Synthetic claims that look like a real office's: jurisdictions, holders, NAUPA property types,
 * log-normal amounts (median $100, mean about $1,600), claim types, a realistic status mix, status
 * histories, and SUBMITTING claims whose outbox rows are pending or failed with attempt histories.
 * Tax ids are non-issuable (group 00). The same seed and the same clock give the same data.
 *
 * <p>Everything lies in the past of the clock's now: claims were filed over the past fourteen months
 * and each moved through its workflow steps after that; a claim whose next step would come after now
 * stays where it is. Staff steps carry their audit entries as {@link Workflow} writes them; the
 * delivery worker's step to SUBMITTED_TO_STATE is in the history only, as in the product. Outbox rows
 * follow the worker's pace with the default {@link WorkerSettings}: delivered rows were sent within
 * seconds of their submission, pending rows were submitted or re-queued by staff in the last two days
 * and are due now or within their backoff, failed rows wait for staff.
 *
 * <p>The claims agree with the simulated state's rules ({@link StateRules}): they name holders of its
 * registry, open property ids of its ledger, the owner's tax id where the ledger holds an owner record,
 * and carry a proof of address where the amount needs one. A row that failed for good failed because its
 * claim really breaks one rule (an unregistered holder id, a property already paid, a missing proof of
 * address, a tax id that differs from the owner record), and its error is the state's own answer to that
 * payload: sent again unchanged it is refused the same way; corrected, it is accepted.
 */
public final class DemoData {
    private static final String[] JURISDICTIONS = {"CA", "NY", "TX", "FL", "IL", "WA", "UT", "CO", "KY", "NC", "HI"};
    private static final int[] JURISDICTION_WEIGHTS = {30, 17, 13, 11, 6, 5, 4, 4, 4, 4, 2};

    /** The simulated state's holder registry: demo claims name registered holders by their ids. */
    private static final HolderRegistry REGISTRY = HolderRegistry.standard();
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

    /**
     * Transient failures as the worker records them when it gives up: {last error, http status}. Never a
     * 429: the state's "slow down" holds the worker and is not counted toward a row's attempts.
     */
    private static final String[][] GAVE_UP = {
        {"503 Service Unavailable: state portal maintenance window (gave up after %d attempts)", "503"},
        {"timeout: no reply from the state within 15000 ms (gave up after %d attempts)", ""},
    };

    private static final String INTAKE = "intake";
    private static final String WORKER = "worker-demo";
    private static final String BUSY = "503 Service Unavailable: state portal busy";
    private static final String BUSY_DETAIL = "{\"error\":\"unavailable\",\"message\":\"state portal busy\"}";
    private static final String REQUEUE_REASON = "state portal back after maintenance; sending again";
    /** How far back pending rows were submitted or re-queued: a worker that runs leaves none older. */
    private static final Duration RECENT = Duration.ofHours(48);
    private static final int DAYS_OF_FILINGS = 420;

    private final Database database;
    private final Clock clock;
    private final Deadlines deadlines;
    private final WorkerSettings pace = WorkerSettings.defaults();

    /** Demo data that ends at the clock's now. */
    public DemoData(Database database, Clock clock, Deadlines deadlines) {
        this.database = database;
        this.clock = clock;
        this.deadlines = deadlines;
    }

    /** Demo data as of {@code today} ({@link #asOf}, against the database's clock). */
    public DemoData(Database database, LocalDate today, Deadlines deadlines) {
        this(database, asOf(today, database.clock()), deadlines);
    }

    /**
     * The clock demo data "as of {@code day}" ends at: {@code clock} itself when {@code day} is its
     * today, the last millisecond of {@code day} when it is earlier. A later day is refused: demo data
     * describes the past.
     */
    public static Clock asOf(LocalDate day, Clock clock) {
        ZoneId zone = clock.getZone();
        LocalDate today = LocalDate.ofInstant(clock.instant(), zone);
        if (day.isAfter(today)) {
            throw new ClaimDeskException("demo data ends today (" + today + "); " + day
                    + " lies in the future: give today or an earlier day");
        }
        return day.equals(today) ? clock
                : Clock.fixed(day.plusDays(1).atStartOfDay(zone).toInstant().minusMillis(1), zone);
    }

    /** Counts of what {@link #generate} wrote. */
    public record Summary(int claims, int outboxRows, int attempts, int historyRows, int auditEntries, long millis) {
    }

    /**
     * Writes {@code count} claims in one transaction, handed to the database {@value #BATCH_CLAIMS} claims with their
     * rows at a time ({@link BulkLoader}): memory does not grow with {@code count}. Refused when the database already
     * holds claims.
     *
     * @param progress told the number of claims generated so far, every 1% or so (they are committed together at the end)
     */
    public Summary generate(int count, long seed, IntConsumer progress) {
        return generate(count, seed, progress, BulkLoader.Access.SHARED);
    }

    /** Refuses a number of demo claims out of range (1 to 5,000,000). */
    public static void checkCount(int count) {
        if (count < 1 || count > 5_000_000) {
            throw new ClaimDeskException("the number of demo claims must be between 1 and 5,000,000, got " + count);
        }
    }

    /**
     * As {@link #generate(int, long, IntConsumer)}, with the database's other users as {@code access} says: a command
     * that fills a file nobody else uses has it to itself ({@link BulkLoader.Access#SOLE}), the console's first start
     * shares it.
     */
    public Summary generate(int count, long seed, IntConsumer progress, BulkLoader.Access access) {
        checkCount(count);
        long started = System.nanoTime();
        int existing = database.read(h -> new ClaimStore().count(h, ClaimQuery.all()));
        if (existing > 0) {
            throw new ClaimDeskException("the database already holds " + existing
                    + " claims; demo data goes only into an empty database");
        }
        try (BulkLoader loader = BulkLoader.open(database, access)) {
            Summary s = new Generator(loader, seed).write(count, progress);
            return new Summary(s.claims, s.outboxRows, s.attempts, s.historyRows, s.auditEntries,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    /**
     * The claims made before they are handed to the database. While the loader writes one batch the generator makes
     * the next, so twice this many claims with their rows are in memory at most.
     */
    static final int BATCH_CLAIMS = 2_500;

    private static final ClaimStatus[] PATH = {ClaimStatus.IDENTITY_PENDING, ClaimStatus.EVIDENCE_PENDING,
        ClaimStatus.READY_FOR_SUBMISSION, ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE};

    /** One delivery attempt as the worker records it. */
    private record Attempt(Instant started, long durationMs, AttemptOutcome outcome, Integer httpStatus, String detail,
            String field) {
        Attempt(Instant started, long durationMs, AttemptOutcome outcome, Integer httpStatus, String detail) {
            this(started, durationMs, outcome, httpStatus, detail, null);
        }

        Instant ended() {
            return started.plusMillis(durationMs);
        }
    }

    /**
     * A claim's submission: its outbox row as it stands now and the attempts made for it.
     *
     * @param requeuedBy the staff member who re-queued the failed row, or null
     * @param claim the claim's data as it was submitted (for a row refused for good, data that breaks a rule)
     * @param evidence its evidence references as they were submitted
     */
    private record Submission(Instant submittedAt, String actor, String key, DeliveryState state, List<Attempt> attempts,
            int retryCount, String lastError, Instant nextAttemptAt, Instant sentAt, String caseId, Instant updatedAt,
            String requeuedBy, Claim claim, List<Evidence> evidence) {
    }

    /** The rule a demo claim refused for good breaks. */
    private enum Breach { UNREGISTERED_HOLDER, ALREADY_PAID, NO_PROOF_OF_ADDRESS, OTHER_TAX_ID }

    /** One run of {@link #generate}: the random draws, the clock's now and what was written. */
    private final class Generator {
        private final BulkLoader loader;
        private final long seed;
        private final SplittableRandom random;
        private final Instant now;
        private final ZoneId zone;
        private final LocalDate today;
        /** Staff actions of every claim; the loader numbers them in time order at the end. */
        private int auditEntries;
        private int outboxRows;
        private int attempts;
        private int historyRows;
        private long eventId;
        private long evidenceId;
        /** Asked for the answer to each payload that breaks a rule, as the worker would have been. */
        private final SimulatedStateAdapter state = new SimulatedStateAdapter(
                new SimulatedState(SimulatedState.Config.reliable()));

        Generator(BulkLoader loader, long seed) {
            this.loader = loader;
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            this.now = clock.instant();
            this.zone = clock.getZone();
            this.today = LocalDate.ofInstant(now, zone);
        }

        Summary write(int count, IntConsumer progress) {
            int step = Math.max(1, count / 100);
            for (int i = 1; i <= count; i++) {
                claim(i);
                if (loader.heldClaims() >= BATCH_CLAIMS) {
                    loader.flush();
                }
                if (i % step == 0 || i == count) {
                    progress.accept(i);
                }
            }
            loader.finish();
            return new Summary(count, outboxRows, attempts, historyRows, auditEntries, 0);
        }

        private void claim(long id) {
            String jurisdiction = pick(random, JURISDICTIONS, JURISDICTION_WEIGHTS);
            List<HolderRegistry.Holder> holders = REGISTRY.holdersFor(jurisdiction);
            HolderRegistry.Holder holder = holders.get(random.nextInt(holders.size()));
            PropertyType propertyType = random.nextInt(5) == 0
                    ? PropertyType.values()[random.nextInt(PropertyType.values().length)]
                    : holder.propertyType();
            ClaimType claimType = claimType(random);
            String claimant = claimType == ClaimType.BUSINESS ? BUSINESSES[random.nextInt(BUSINESSES.length)]
                    : FIRST[random.nextInt(FIRST.length)] + " " + LAST[random.nextInt(LAST.length)];
            if (claimType == ClaimType.HEIR) {
                claimant = claimant + " (heir of " + LAST[random.nextInt(LAST.length)] + " estate)";
            }
            LocalDate filedOn = today.minusDays(random.nextInt(DAYS_OF_FILINGS));
            ClaimStatus headedFor = status(random);
            long amount = amountCents(random);
            String statePropertyId;
            String taxIdLast4;
            if (random.nextInt(20) == 0) {
                statePropertyId = PropertyLedger.ownerRecordedPropertyId(jurisdiction, id);
                taxIdLast4 = PropertyLedger.ownerTaxIdLast4(jurisdiction, statePropertyId).orElseThrow();
            } else {
                statePropertyId = PropertyLedger.openPropertyId(jurisdiction, id);
                taxIdLast4 = digits(1 + random.nextInt(9999), 4);
            }
            String taxId = digits(1 + random.nextInt(665), 3) + "-00-" + taxIdLast4;
            String claimNumber = ClaimNumbers.format(filedOn.getYear(), id);
            Instant filedAt = earliest(filedOn.atTime(9 + random.nextInt(8), random.nextInt(60)).atZone(zone).toInstant(),
                    now);
            Claim filed = new Claim(id, claimNumber, jurisdiction, statePropertyId, holder.name(), holder.id(),
                    propertyType, claimType, claimant, taxId, amount, ClaimStatus.IDENTITY_PENDING, null, filedOn, null,
                    0, filedAt, filedAt);

            List<ClaimStatus> plan = path(headedFor, random);
            List<StatusChange> history = new ArrayList<>();
            history.add(new StatusChange(id, null, ClaimStatus.IDENTITY_PENDING, INTAKE, null, filedAt));
            Submission submission = null;
            List<Evidence> evidence = List.of();
            Instant at = filedAt;
            for (int k = 1; k < plan.size(); k++) {
                ClaimStatus from = plan.get(k - 1);
                ClaimStatus to = plan.get(k);
                if (to == ClaimStatus.SUBMITTING) {
                    submission = submission(filed, evidence, at, plan.get(plan.size() - 1) != ClaimStatus.SUBMITTING);
                    if (submission == null) {
                        break;
                    }
                    at = submission.submittedAt();
                    history.add(new StatusChange(id, from, to, submission.actor(), null, at));
                } else if (to == ClaimStatus.SUBMITTED_TO_STATE) {
                    at = submission.sentAt();
                    history.add(new StatusChange(id, from, to, DeliveryStore.ACTOR, "state case id " + submission.caseId(),
                            at));
                } else {
                    Instant next = stepForward(at, random);
                    if (next.isAfter(now)) {
                        break;
                    }
                    at = next;
                    String actor = staff();
                    history.add(new StatusChange(id, from, to, actor, reasonFor(to, id, filed.amountCents()), at));
                    if (to == ClaimStatus.READY_FOR_SUBMISSION) {
                        evidence = evidence(filed, actor, at);
                    }
                }
            }
            if (submission != null) {
                filed = submission.claim();
                evidence = submission.evidence();
            }

            StatusChange last = history.get(history.size() - 1);
            boolean delivered = submission != null && submission.sentAt() != null;
            Claim claim = new Claim(id, claimNumber, jurisdiction, filed.statePropertyId(), filed.holderName(),
                    filed.holderId(), propertyType, claimType, claimant, filed.taxId(), filed.amountCents(), last.toStatus(),
                    delivered ? submission.caseId() : null, filedOn,
                    delivered ? deadlines.dueDate(jurisdiction, LocalDate.ofInstant(submission.sentAt(), zone)) : null,
                    history.size() - 1L, filedAt, last.at());
            loader.claim(claim);
            for (StatusChange change : history) {
                loader.statusChange(change);
            }
            historyRows += history.size();
            for (Evidence e : evidence) {
                loader.evidence(e);
                auditEvidence(claim, e);
            }
            long outboxEventId = submission == null ? 0 : writeSubmission(claim, submission);
            auditStaffSteps(claim, history, submission, outboxEventId);
        }

        /**
         * The evidence a claim carries once staff found it ready: an identity document, and a proof of
         * address when its amount needs one.
         */
        private List<Evidence> evidence(Claim claim, String actor, Instant at) {
            List<Evidence> made = new ArrayList<>(2);
            made.add(evidenceOf(claim, EvidenceKind.IDENTITY, "Driver's license, front and back", actor, at));
            if (claim.amountCents() >= StateRules.addressEvidenceThresholdCents(claim.jurisdiction())) {
                made.add(evidenceOf(claim, EvidenceKind.ADDRESS, "Utility bill at the claimant's address", actor, at));
            }
            return made;
        }

        private Evidence evidenceOf(Claim claim, EvidenceKind kind, String title, String actor, Instant at) {
            long evidenceNo = ++evidenceId;
            String url = "https://docs.claims-office.example/" + claim.claimNumber() + "/" + kind.code() + "-" + evidenceNo;
            return new Evidence(evidenceNo, claim.claimId(), kind, title, url, null, null, null, null, actor, at);
        }

        /** The audit entry of an evidence reference, as {@link ClaimEvidence} writes it. */
        private void auditEvidence(Claim claim, Evidence e) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("claimNumber", claim.claimNumber());
            details.put("evidenceId", e.evidenceId());
            details.put("kind", e.kind().code());
            details.put("title", e.title());
            details.put("url", e.url());
            audit(new AuditEntry(0, e.addedAt(), e.addedBy(), AuditActions.EVIDENCE_ADD, AuditActions.SUBJECT_CLAIM,
                    Long.toString(claim.claimId()), null, Json.write(details)));
        }

        /** One audit entry per history row a staff member wrote, as {@link Workflow} writes it. */
        private void auditStaffSteps(Claim claim, List<StatusChange> history, Submission submission,
                long outboxEventId) {
            String subject = Long.toString(claim.claimId());
            for (StatusChange change : history) {
                if (change.fromStatus() == null || change.actor().equals(DeliveryStore.ACTOR)) {
                    continue;
                }
                Map<String, Object> details = new LinkedHashMap<>();
                String action;
                if (change.toStatus() == ClaimStatus.SUBMITTING) {
                    action = AuditActions.CLAIM_SUBMIT;
                    details.put("outboxEventId", outboxEventId);
                    details.put("idempotencyKey", submission.key());
                } else {
                    action = AuditActions.CLAIM_ADVANCE;
                    details.put("from", change.fromStatus().name());
                    details.put("to", change.toStatus().name());
                }
                details.put("claimNumber", claim.claimNumber());
                audit(new AuditEntry(0, change.at(), change.actor(), action, AuditActions.SUBJECT_CLAIM, subject,
                        change.reason(), Json.write(details)));
            }
        }

        /** Writes the claim's outbox row and its attempts; returns the row's id. */
        private long writeSubmission(Claim claim, Submission s) {
            eventId++;
            String payload = Json.write(SubmissionPayload.of(claim, s.evidence(), s.key()));
            loader.outboxRow(new OutboxEvent(eventId, claim.claimId(), OutboxEvent.SUBMISSION_REQUESTED, payload, s.state(),
                    s.attempts().size(), s.lastError(), s.key(), s.nextAttemptAt(), null, null, s.submittedAt(),
                    s.sentAt(), s.caseId(), s.updatedAt()), s.retryCount());
            int no = 0;
            for (Attempt a : s.attempts()) {
                loader.attempt(new DeliveryAttempt(0, eventId, ++no, a.started(), a.durationMs(), a.outcome(),
                        a.httpStatus(), a.detail(), WORKER, a.field()));
            }
            outboxRows++;
            attempts += no;
            if (s.requeuedBy() != null) {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("claimId", claim.claimId());
                details.put("previousError", s.lastError());
                audit(new AuditEntry(0, s.updatedAt(), s.requeuedBy(), AuditActions.OUTBOX_REQUEUE,
                        AuditActions.SUBJECT_OUTBOX, Long.toString(eventId), REQUEUE_REASON, Json.write(details)));
            }
            return eventId;
        }

        /**
         * The submission of a claim that became ready at {@code readyAt}, or null when it would come after
         * now. A {@code delivered} one was sent within seconds; otherwise the row is pending (submitted or
         * re-queued recently) or failed.
         */
        private Submission submission(Claim claim, List<Evidence> evidence, Instant readyAt, boolean delivered) {
            // "sub-demo-%d-%08x", written without the formatter's parser: a million claims make a million keys
            String key = "sub-demo-" + seed + "-"
                    + Long.toHexString(0x1_0000_0000L | (claim.claimId() * 2654435761L & 0xffffffffL)).substring(1);
            String actor = staff();
            if (delivered) {
                Instant submittedAt = stepForward(readyAt, random);
                Attempt sent = attemptAt(submittedAt.plusMillis(random.nextLong(pace.interval().toMillis())),
                        AttemptOutcome.DELIVERED, 201, null);
                if (sent.ended().isAfter(now)) {
                    return null;
                }
                String caseId = claim.jurisdiction() + "-" + LocalDate.ofInstant(sent.ended(), zone).getYear() + "-"
                        + (100_000 + random.nextInt(900_000));
                sent = new Attempt(sent.started(), sent.durationMs(), sent.outcome(), sent.httpStatus(),
                        "{\"caseId\":\"" + caseId + "\"}");
                return new Submission(submittedAt, actor, key, DeliveryState.SENT, List.of(sent), 0, null, submittedAt,
                        sent.ended(), caseId, sent.ended(), null, claim, evidence);
            }
            int r = random.nextInt(100);
            if (r < 45) {
                return pending(readyAt, actor, key, claim, evidence);
            }
            boolean requeued = r < 55;
            boolean permanent = !requeued && random.nextBoolean();
            int tries;
            String error;
            Attempt finalAnswer;
            if (permanent) {
                Breach breach = Breach.values()[random.nextInt(Breach.values().length)];
                claim = breaking(claim, breach);
                if (breach == Breach.NO_PROOF_OF_ADDRESS) {
                    evidence = evidence.stream().filter(e -> e.kind() != EvidenceKind.ADDRESS).toList();
                }
                StateAnswer answer = refusal(claim, evidence, key);
                tries = 1 + random.nextInt(3);
                error = answer.message();
                finalAnswer = new Attempt(Instant.EPOCH, 0, AttemptOutcome.PERMANENT, answer.httpStatus(),
                        answer.attemptDetail(), answer.field());
            } else {
                String[] gaveUp = GAVE_UP[random.nextInt(GAVE_UP.length)];
                tries = pace.maxAttempts();
                error = String.format(Locale.ROOT, gaveUp[0], tries);
                finalAnswer = new Attempt(Instant.EPOCH, 0, AttemptOutcome.TRANSIENT,
                        gaveUp[1].isEmpty() ? null : Integer.valueOf(gaveUp[1]), error);
            }
            List<Attempt> schedule = failing(Instant.EPOCH, tries, finalAnswer);
            long span = schedule.get(schedule.size() - 1).ended().toEpochMilli();
            Instant submittedAt = within(stepForward(readyAt, random), readyAt, now.minusMillis(span));
            if (submittedAt == null) {
                return null;
            }
            List<Attempt> made = shift(schedule, submittedAt);
            Attempt lastAttempt = made.get(made.size() - 1);
            if (!requeued) {
                return new Submission(submittedAt, actor, key, DeliveryState.FAILED, made, tries, error,
                        lastAttempt.started(), null, null, lastAttempt.ended(), null, claim, evidence);
            }
            Instant requeuedAt = recent(lastAttempt.ended());
            return new Submission(submittedAt, actor, key, DeliveryState.PENDING, made, 0, error, requeuedAt, null, null,
                    requeuedAt, staff(), claim, evidence);
        }

        /** {@code claim} with data that breaks {@code breach}'s rule, as a mistake at intake would. */
        private Claim breaking(Claim claim, Breach breach) {
            String jurisdiction = claim.jurisdiction();
            String propertyId = claim.statePropertyId();
            String holderId = claim.holderId();
            String taxId = claim.taxId();
            long amount = claim.amountCents();
            switch (breach) {
                case UNREGISTERED_HOLDER -> holderId = REGISTRY.unregisteredHolderId(claim.claimId());
                case ALREADY_PAID -> propertyId = PropertyLedger.paidPropertyId(jurisdiction, claim.claimId());
                case NO_PROOF_OF_ADDRESS -> {
                    long threshold = StateRules.addressEvidenceThresholdCents(jurisdiction);
                    amount = Math.max(amount, threshold + random.nextLong(threshold));
                }
                case OTHER_TAX_ID -> {
                    propertyId = PropertyLedger.ownerRecordedPropertyId(jurisdiction, claim.claimId());
                    String owner = PropertyLedger.ownerTaxIdLast4(jurisdiction, propertyId).orElseThrow();
                    taxId = taxId.substring(0, taxId.length() - 4) + PropertyLedger.otherTaxIdLast4(owner);
                }
                default -> throw new IllegalStateException("unknown breach " + breach);
            }
            return new Claim(claim.claimId(), claim.claimNumber(), jurisdiction, propertyId, claim.holderName(), holderId,
                    claim.propertyType(), claim.claimType(), claim.claimantName(), taxId, amount, claim.status(),
                    claim.stateCaseId(), claim.filedOn(), claim.decisionDueOn(), claim.version(), claim.createdAt(),
                    claim.updatedAt());
        }

        /** The simulated state's answer to this claim's payload, which must be a refusal for good. */
        private StateAnswer refusal(Claim claim, List<Evidence> evidence, String key) {
            SubmissionPayload payload = SubmissionPayload.of(claim, evidence, key);
            StateAnswer answer = state.submit(key, payload, Json.write(payload));
            if (answer.outcome() != AttemptOutcome.PERMANENT) {
                throw new IllegalStateException("demo claim " + claim.claimNumber() + " was meant to be refused, but the"
                        + " simulated state answered " + answer.message());
            }
            return answer;
        }

        /**
         * A row submitted in the last two days: none, one or two attempts answered 503, each after the
         * backoff of the one before, and due now or when its backoff ends.
         */
        private Submission pending(Instant readyAt, String actor, String key, Claim claim, List<Evidence> evidence) {
            Instant submittedAt = recent(readyAt);
            int tries = random.nextInt(3);
            List<Attempt> made = new ArrayList<>();
            Instant due = submittedAt;
            for (int n = 1; n <= tries; n++) {
                Attempt a = attemptAt(n == 1 ? due.plusMillis(random.nextLong(pace.interval().toMillis())) : due,
                        AttemptOutcome.TRANSIENT, 503, BUSY_DETAIL);
                if (a.ended().isAfter(now)) {
                    break;
                }
                made.add(a);
                due = a.ended().plus(backoff(n));
            }
            Instant updatedAt = made.isEmpty() ? submittedAt : made.get(made.size() - 1).ended();
            return new Submission(submittedAt, actor, key, DeliveryState.PENDING, made, made.size(),
                    made.isEmpty() ? null : BUSY, due, null, null, updatedAt, null, claim, evidence);
        }

        /**
         * Attempts of a delivery that failed for good, the first picked up at {@code start}: 503 and the
         * backoff until the last one, which gets the final answer.
         */
        private List<Attempt> failing(Instant start, int tries, Attempt finalAnswer) {
            List<Attempt> made = new ArrayList<>(tries);
            Instant at = start.plusMillis(random.nextLong(pace.interval().toMillis()));
            for (int n = 1; n <= tries; n++) {
                Attempt a = attemptAt(at, AttemptOutcome.TRANSIENT, 503, BUSY_DETAIL);
                if (n == tries) {
                    a = new Attempt(a.started(), a.durationMs(), finalAnswer.outcome(), finalAnswer.httpStatus(),
                            finalAnswer.detail(), finalAnswer.field());
                }
                made.add(a);
                at = a.ended().plus(backoff(n));
            }
            return made;
        }

        private Attempt attemptAt(Instant started, AttemptOutcome outcome, Integer httpStatus, String detail) {
            return new Attempt(started, 80 + random.nextInt(900), outcome, httpStatus, detail);
        }

        /** The worker's wait after its {@code retry}-th counted failure (503: no Retry-After). */
        private Duration backoff(int retry) {
            return Backoff.delay(retry, pace.backoffBase(), pace.backoffCap(), null, random::nextDouble);
        }

        /** A moment between {@code notBefore} and now, within the last two days when {@code notBefore} allows. */
        private Instant recent(Instant notBefore) {
            Instant from = latest(notBefore, now.minus(RECENT));
            return from.plusMillis(random.nextLong(Duration.between(from, now).toMillis() + 1));
        }

        /**
         * {@code wanted} when it is no later than {@code latest}; else a moment between {@code earliest}
         * and {@code latest}; null when {@code latest} comes before {@code earliest}.
         */
        private Instant within(Instant wanted, Instant earliest, Instant latest) {
            if (!wanted.isAfter(latest)) {
                return wanted;
            }
            if (latest.isBefore(earliest)) {
                return null;
            }
            return earliest.plusMillis(random.nextLong(Duration.between(earliest, latest).toMillis() + 1));
        }

        private void audit(AuditEntry entry) {
            loader.auditEntry(entry);
            auditEntries++;
        }

        private String staff() {
            return ACTORS[random.nextInt(ACTORS.length)];
        }
    }

    private static List<Attempt> shift(List<Attempt> schedule, Instant start) {
        List<Attempt> shifted = new ArrayList<>(schedule.size());
        for (Attempt a : schedule) {
            shifted.add(new Attempt(start.plusMillis(a.started().toEpochMilli()), a.durationMs(), a.outcome(),
                    a.httpStatus(), a.detail(), a.field()));
        }
        return shifted;
    }

    /** {@code value} (0 ≤ value < 10^width) in {@code width} digits, zeros first, as {@code %0<width>d} writes it. */
    static String digits(int value, int width) {
        return Integer.toString(value + (int) Math.pow(10, width)).substring(1);
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
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

    /**
     * What staff wrote for a step, as the workflow asks it (an approval says in full or in part and the amount, a
     * payment the warrant, the amount paid and the offset); drawn from the claim's id, not the random sequence, so
     * that the rest of the data stays what it is for a seed.
     */
    private static String reasonFor(ClaimStatus status, long claimId, long amountCents) {
        boolean inPart = claimId % 7 == 0;
        long approved = inPart ? Math.max(1, amountCents * 3 / 4) : amountCents;
        return switch (status) {
            case EVIDENCE_PENDING -> "photo ID and SSN verified";
            case READY_FOR_SUBMISSION -> "proof of address link and ownership received";
            case NEEDS_INFO -> "state requested notarized claim form";
            case REJECTED -> "state: insufficient proof of ownership (R-12)";
            case WITHDRAWN -> "claimant withdrew in writing";
            case APPROVED -> inPart ? "approved in part: " + Amounts.dollars(approved) + " of "
                    + Amounts.dollars(amountCents) : "approved in full: " + Amounts.dollars(amountCents);
            case PAID -> "warrant W-" + (4_000_000 + claimId) + ", " + Amounts.dollars(approved) + " paid, no offset";
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
