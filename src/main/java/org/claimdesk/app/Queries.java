package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.OutboxStore;

/** The read side: claims, outbox rows, attempts and the audit trail, each query one short read. */
public final class Queries {
    private final Database database;
    private final Clock clock;
    private final ClaimStore claims = new ClaimStore();
    private final OutboxStore outbox = new OutboxStore();
    private final AuditStore audit = new AuditStore();

    public Queries(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** Now in the database's time ({@code Database#clock}): what the console's ages and due times count from. */
    public Instant now() {
        return clock.instant();
    }

    public LocalDate today() {
        return LocalDate.now(clock);
    }

    public List<Claim> claims(ClaimQuery query) {
        return database.read(h -> claims.list(h, query));
    }

    /** Whether the database holds any claim, without counting them. */
    public boolean hasClaims() {
        return database.read(claims::any);
    }

    public int countClaims(ClaimQuery query) {
        return database.read(h -> claims.count(h, query));
    }

    public Map<ClaimStatus, Integer> countClaimsByStatus(ClaimQuery query) {
        return database.read(h -> claims.countByStatus(h, query));
    }

    /** As {@link #countClaimsByStatus(ClaimQuery)}; stops with CancellationException once {@code cancelled} says so. */
    public Map<ClaimStatus, Integer> countClaimsByStatus(ClaimQuery query, java.util.function.BooleanSupplier cancelled) {
        return database.read(h -> claims.countByStatus(h, query), cancelled);
    }

    public Optional<Claim> claim(long claimId) {
        return database.read(h -> claims.find(h, claimId));
    }

    /** The claims among {@code claimIds} that exist, by id, in one read. */
    public Map<Long, Claim> claims(Collection<Long> claimIds) {
        return claimIds.isEmpty() ? Map.of() : database.read(h -> claims.findAll(h, claimIds));
    }

    /** The claims among {@code claimIds} with a pending outbox row: their submission is on its way. */
    public Set<Long> withPendingSubmission(Collection<Long> claimIds) {
        return claimIds.isEmpty() ? Set.of() : database.read(h -> outbox.withPending(h, claimIds));
    }

    /** By numeric id or by claim number (e.g. UPC-2026-004217). */
    public Optional<Claim> claim(String idOrNumber) {
        String text = idOrNumber.trim();
        if (text.chars().allMatch(Character::isDigit) && !text.isEmpty() && text.length() < 19) {
            return claim(Long.parseLong(text));
        }
        // claim numbers are written in capitals (ClaimNumbers.FORMAT); "upc-2026-000042" typed names the same claim
        String number = text.toUpperCase(java.util.Locale.ROOT);
        return database.read(h -> claims.findByNumber(h, number));
    }

    public List<String> jurisdictions() {
        return database.read(claims::jurisdictions);
    }

    public List<StatusChange> history(long claimId) {
        return database.read(h -> claims.history(h, claimId));
    }

    /**
     * Runs {@code reads} made through these queries on one state of the database, whatever others commit meanwhile
     * (an export's pages and its count agree); nothing may be written within ({@link Database#snapshotOfReads}).
     */
    public <T> T snapshot(java.util.function.Supplier<T> reads) {
        return database.snapshotOfReads(reads);
    }

    public List<OutboxEvent> outbox(OutboxQuery query) {
        return database.read(h -> outbox.list(h, query));
    }

    /**
     * Every row {@code query} selects, by id, at most its page's limit (0: every one), handed to {@code each} a page at
     * a time: any number in bounded memory, each page a short read (outside a {@link #snapshot}, no transaction held
     * while {@code each} writes).
     */
    public void eachOutbox(OutboxQuery query, java.util.function.Consumer<OutboxEvent> each) {
        eachOutboxPage(query, page -> page.forEach(each));
    }

    /**
     * As {@link #eachOutbox}, a page at a time: each page read past the last row's id of the one before, so that the
     * last page of a large outbox costs what the first does (a page at an offset reads every row before it).
     */
    public void eachOutboxPage(OutboxQuery query, java.util.function.Consumer<List<OutboxEvent>> each) {
        inPages(0, query.limit(), (after, size) -> database.read(h -> outbox.pageAfter(h, query, after, size)),
                OutboxEvent::outboxEventId, each);
    }

    /**
     * Every claim {@code query}'s filters select (its sort and page ignored), by id, handed to {@code each} a page at
     * a time, at most {@code limit} (0: every one): any number in bounded memory.
     */
    public void eachClaimPage(ClaimQuery query, int limit, java.util.function.Consumer<List<Claim>> each) {
        inPages(0, limit, (after, size) -> database.read(h -> claims.listAfter(h, query, after, size)),
                Claim::claimId, each);
    }

    /** A read of at most {@code size} rows past the key {@code from} (above it, or below it for newest first). */
    @FunctionalInterface
    private interface PageRead<T> {
        List<T> read(long from, int size);
    }

    /**
     * Reads pages of {@link #PAGE} rows, each past the last key of the one before (from {@code start}), at most
     * {@code limit} rows in all (0: every one), and hands each page that holds rows to {@code each}.
     */
    private static <T> void inPages(long start, int limit, PageRead<T> read,
            java.util.function.ToLongFunction<T> key, java.util.function.Consumer<List<T>> each) {
        long from = start;
        int left = limit > 0 ? limit : Integer.MAX_VALUE;
        while (left > 0) {
            int size = Math.min(PAGE, left);
            List<T> page = read.read(from, size);
            if (!page.isEmpty()) {
                each.accept(page);
            }
            if (page.size() < size) {
                return;
            }
            left -= page.size();
            from = key.applyAsLong(page.get(page.size() - 1));
        }
    }

    /** Rows a read by pages takes at a time. */
    static final int PAGE = 1_000;

    public int countOutbox(OutboxQuery query) {
        return database.read(h -> outbox.count(h, query));
    }

    /** Whether any outbox row matches {@code query}. */
    public boolean anyOutbox(OutboxQuery query) {
        return database.read(h -> outbox.any(h, query));
    }

    public Map<DeliveryState, Integer> countOutboxByState() {
        return database.read(outbox::countByState);
    }

    public Optional<OutboxEvent> outboxEvent(long outboxEventId) {
        return database.read(h -> outbox.find(h, outboxEventId));
    }

    /** The outbox rows among {@code outboxEventIds} that exist, in the order of the ids, in one read. */
    public List<OutboxEvent> outboxEvents(List<Long> outboxEventIds) {
        return outboxEventIds.isEmpty() ? List.of() : database.read(h -> outbox.findAll(h, outboxEventIds));
    }

    public List<OutboxEvent> outboxForClaim(long claimId) {
        return database.read(h -> outbox.forClaim(h, claimId));
    }

    public List<DeliveryAttempt> attempts(long outboxEventId) {
        return database.read(h -> outbox.attempts(h, outboxEventId));
    }

    /**
     * Audit entries, newest first, filtered by subject, actor and action (null or blank: any).
     *
     * @param subject the subject as staff type it ({@link #auditSubject}): a claim number, "claim ID", "outbox row
     *        ID", or the id of any subject
     */
    public List<AuditEntry> audit(String subject, String actor, String action, int offset, int limit) {
        return audit(subject, actor, action, null, offset, limit);
    }

    /** As {@link #audit}, among the entries up to {@code atMostId} (null: every one), newest first. */
    public List<AuditEntry> audit(String subject, String actor, String action, Long atMostId, int offset, int limit) {
        return database.read(h -> auditSubject(h, subject)
                .map(s -> audit.entries(h, s, actor, action, atMostId, offset, limit)).orElse(List.of()));
    }

    private static final java.util.regex.Pattern CLAIM_PREFIX = java.util.regex.Pattern.compile("(?i)^claim\\s+");
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("\\d{1,18}");
    private static final java.util.regex.Pattern ROW_SUBJECT =
            java.util.regex.Pattern.compile("(?i)(?:outbox\\s+)?row\\s+(\\d{1,18})");

    /**
     * The audit filter's subject as staff type it, on the console's Audit page and in {@code audit list --subject}: a
     * claim number (any case) or "claim ID" for that claim's entries, "outbox row ID" (or "row ID") for that row's,
     * anything else the id of any subject (a claim's or a row's id, "worker"). Empty when it is a claim number no
     * claim has: nothing matches.
     */
    private Optional<AuditStore.Subject> auditSubject(org.jdbi.v3.core.Handle h, String typed) {
        if (typed == null || typed.isBlank()) {
            return Optional.of(AuditStore.Subject.any(null));
        }
        String text = typed.strip();
        // "claim UPC-…" (as the Audit page's Subject column writes it) or "claim ID"; a claim number alone too
        java.util.regex.Matcher prefix = CLAIM_PREFIX.matcher(text);
        boolean named = prefix.find();
        String bare = named ? text.substring(prefix.end()) : text;
        String number = bare.toUpperCase(java.util.Locale.ROOT);
        if (org.claimdesk.domain.ClaimNumbers.FORMAT.matcher(number).matches()) {
            return claims.findByNumber(h, number).map(c -> new AuditStore.Subject(AuditActions.SUBJECT_CLAIM,
                    Long.toString(c.claimId())));
        }
        if (named && ID.matcher(bare).matches()) {
            // as ids are written: "claim 042" is claim 42
            return Optional.of(new AuditStore.Subject(AuditActions.SUBJECT_CLAIM, Long.toString(Long.parseLong(bare))));
        }
        java.util.regex.Matcher row = ROW_SUBJECT.matcher(text);
        if (row.matches()) {
            return Optional.of(new AuditStore.Subject(AuditActions.SUBJECT_OUTBOX,
                    Long.toString(Long.parseLong(row.group(1)))));
        }
        return Optional.of(AuditStore.Subject.any(text));
    }

    /** The claim numbers of the claims among {@code claimIds} that exist, by id, in one read (an audit page's). */
    public Map<Long, String> claimNumbers(Collection<Long> claimIds) {
        if (claimIds.isEmpty()) {
            return Map.of();
        }
        Map<Long, String> numbers = new java.util.HashMap<>();
        database.read(h -> claims.findAll(h, claimIds)).forEach((id, claim) -> numbers.put(id, claim.claimNumber()));
        return numbers;
    }

    /**
     * {@link #audit}'s entries from the newest, at most {@code limit} (0: every one), handed to {@code each} a page at a
     * time, each page a short read.
     */
    public void eachAudit(String subjectId, String actor, String action, int limit,
            java.util.function.Consumer<AuditEntry> each) {
        Optional<AuditStore.Subject> subject = database.read(h -> auditSubject(h, subjectId));
        if (subject.isEmpty()) {
            return;
        }
        inPages(Long.MAX_VALUE, limit,
                (before, size) -> database.read(h -> audit.entriesBefore(h, subject.get(), actor, action, before, size)),
                AuditEntry::auditId, page -> page.forEach(each));
    }

    /** The newest {@code limit} audit entries about one claim, newest first. */
    public List<AuditEntry> claimAudit(long claimId, int limit) {
        return database.read(h -> audit.ofSubject(h, AuditActions.SUBJECT_CLAIM, Long.toString(claimId), limit));
    }
}
