package org.claimdesk.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.domain.TransitionRefusedException;
import org.claimdesk.domain.Transitions;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;

/** SQL for the {@code claim} and {@code claim_status_history} tables. Every method runs on the caller's handle. */
public final class ClaimStore {
    private static final String INSERT = """
            INSERT INTO claim (claim_number, jurisdiction, state_property_id, holder_name, holder_id, property_type,
                claim_type, claimant_name, claimant_email, claimant_phone, claimant_address, tax_id, amount_cents, status,
                state_case_id, filed_on, decision_due_on, version, created_at, updated_at)
            VALUES (:claimNumber, :jurisdiction, :statePropertyId, :holderName, :holderId, :propertyType, :claimType,
                :claimantName, :claimantEmail, :claimantPhone, :claimantAddress, :taxId, :amountCents, :status,
                :stateCaseId, :filedOn, :decisionDueOn, 0, :now, :now)
            """;

    public long insert(Handle handle, NewClaim claim, Instant now) {
        return bind(handle.createUpdate(INSERT), claim, now)
                .executeAndReturnGeneratedKeys("claim_id")
                .mapTo(Long.class)
                .one();
    }

    private static <S extends SqlStatement<S>> S bind(S statement, NewClaim claim, Instant now) {
        return statement
                .bind("claimNumber", claim.claimNumber())
                .bind("jurisdiction", claim.jurisdiction())
                .bind("statePropertyId", claim.statePropertyId())
                .bind("holderName", claim.holderName())
                .bind("holderId", claim.holderId())
                .bind("propertyType", claim.propertyType().name())
                .bind("claimType", claim.claimType().name())
                .bind("claimantName", claim.claimantName())
                .bind("claimantEmail", claim.claimantEmail())
                .bind("claimantPhone", claim.claimantPhone())
                .bind("claimantAddress", claim.claimantAddress())
                .bind("taxId", claim.taxId())
                .bind("amountCents", claim.amountCents())
                .bind("status", claim.status().name())
                .bind("stateCaseId", claim.stateCaseId())
                .bind("filedOn", claim.filedOn().toString())
                .bind("decisionDueOn", claim.decisionDueOn() == null ? null : claim.decisionDueOn().toString())
                .bind("now", now.toEpochMilli());
    }

    /**
     * Inserts a new claim in its starting status ({@link Transitions#checkStart}) with its first history row
     * (from no status, by {@code actor}, with {@code reason}); {@code claim.claimNumber()} comes from {@link
     * #reserveNumbers}. Returns the claim's id.
     */
    public long create(Handle handle, NewClaim claim, String actor, String reason, Instant now) {
        Transitions.checkStart(claim.status());
        long claimId = insert(handle, claim, now);
        insertHistory(handle, claimId, null, claim.status(), actor, reason, now);
        return claimId;
    }

    /**
     * Takes {@code count} numbers of the claim number sequence and returns the first: the numbers {@code first}
     * to {@code first + count - 1} are the caller's. The sequence never goes back, and stays above every claim id
     * (demo claims are numbered by their ids).
     */
    public long reserveNumbers(Handle handle, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("reserve at least one claim number, not " + count);
        }
        handle.createUpdate("""
                UPDATE claim_number_sequence
                SET last = %s + :count WHERE id = 1
                """.formatted(Dialect.of(handle).greatest("last", "(SELECT coalesce(max(claim_id), 0) FROM claim)")))
                .bind("count", count).execute();
        return handle.createQuery("SELECT last FROM claim_number_sequence WHERE id = 1")
                .mapTo(Long.class).one() - count + 1;
    }

    /**
     * Inserts many new claims as {@link #create} does, each with its reason: the claims (with the ids SQLite would
     * give them, from the highest present up), then their first history rows, each through multi-row statements;
     * the search index takes the claims in one statement ({@link SearchIndex#append}). Every claim starts in a
     * starting status ({@link Transitions#checkStart}).
     */
    public void createAll(Handle handle, List<NewClaim> newClaims, List<String> reasons, String actor, Instant now) {
        if (newClaims.size() != reasons.size()) {
            throw new IllegalArgumentException("one reason per claim: " + newClaims.size() + " claims, "
                    + reasons.size() + " reasons");
        }
        if (newClaims.isEmpty()) {
            return;
        }
        newClaims.forEach(c -> Transitions.checkStart(c.status()));
        SearchIndex.append(handle, () -> {
            List<Long> ids = Dialect.of(handle).newIds(handle, "claim", "claim_id", newClaims.size());
            List<Integer> rows = new ArrayList<>(newClaims.size());
            for (int i = 0; i < newClaims.size(); i++) {
                rows.add(i);
            }
            long at = now.toEpochMilli();
            try (MultiRowStatement claims = new MultiRowStatement(handle.getConnection(), INSERT_MANY, 1, 18);
                    MultiRowStatement history = new MultiRowStatement(handle.getConnection(), INSERT_HISTORY_MANY, 2,
                            3)) {
                claims.run(rows, new Object[] {at}, (ps, p, i) -> bind(ps, p, ids.get(i), newClaims.get(i)), null);
                history.run(rows, new Object[] {actor, at}, (ps, p, i) -> {
                    ps.setLong(p, ids.get(i));
                    ps.setString(p + 1, newClaims.get(i).status().name());
                    ps.setString(p + 2, reasons.get(i));
                }, null);
            } catch (SQLException e) {
                throw new DatabaseException("cannot insert the claims: " + e.getMessage(), e);
            }
            return null;
        });
    }

    /** ?1 now; rows of 18 (claim_id, then the fields of a {@link NewClaim} in {@link #bind(PreparedStatement, int, long, NewClaim)}'s order). */
    private static final String INSERT_MANY = """
            INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, holder_id,
                property_type, claim_type, claimant_name, claimant_email, claimant_phone, claimant_address, tax_id,
                amount_cents, status, state_case_id, filed_on, decision_due_on, version, created_at, updated_at)
            SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, v.column9,
                v.column10, v.column11, v.column12, v.column13, v.column14, v.column15, v.column16, v.column17,
                v.column18, 0, ?1, ?1
            FROM (VALUES %s) AS v""";

    /** ?1 actor, ?2 at; rows (claim_id, to_status, reason). */
    private static final String INSERT_HISTORY_MANY = """
            INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
            SELECT v.column1, NULL, v.column2, ?1, v.column3, ?2 FROM (VALUES %s) AS v""";

    private static void bind(PreparedStatement ps, int p, long claimId, NewClaim c) throws SQLException {
        ps.setLong(p, claimId);
        ps.setString(p + 1, c.claimNumber());
        ps.setString(p + 2, c.jurisdiction());
        ps.setString(p + 3, c.statePropertyId());
        ps.setString(p + 4, c.holderName());
        ps.setString(p + 5, c.holderId());
        ps.setString(p + 6, c.propertyType().name());
        ps.setString(p + 7, c.claimType().name());
        ps.setString(p + 8, c.claimantName());
        ps.setString(p + 9, c.claimantEmail());
        ps.setString(p + 10, c.claimantPhone());
        ps.setString(p + 11, c.claimantAddress());
        ps.setString(p + 12, c.taxId());
        ps.setLong(p + 13, c.amountCents());
        ps.setString(p + 14, c.status().name());
        ps.setString(p + 15, c.stateCaseId());
        ps.setString(p + 16, c.filedOn().toString());
        ps.setString(p + 17, c.decisionDueOn() == null ? null : c.decisionDueOn().toString());
    }

    /**
     * Makes the caller's transaction the only one adding claims by key (an import's batch, a claim entered by hand)
     * until it ends, so that two workstations adding the same claim at once cannot both find it absent. Call before
     * looking the keys up.
     */
    public void lockNewClaims(Handle handle) {
        Dialect.of(handle).serialize(handle, "claimdesk.new-claims");
    }

    /** The oldest claim with this key, as {@link #findByKeys} finds it. */
    public Optional<Claim> findByKey(Handle handle, ClaimKey key) {
        return findByKeys(handle, List.of(key)).getOrDefault(key, List.of()).stream().findFirst();
    }

    /**
     * The claims of each of {@code keys} that has any, oldest first, in one query: the claims of the keys' property ids
     * (the property id index finds the few there are), the claimant's name compared in its {@linkplain
     * ClaimKey#matchForm match form} (claims entered as repeats, or written two ways before names were so compared,
     * share a key). The property ids go in as one JSON array (SQLite's {@code json_each}): thousands of keys are one
     * parameter, not thousands.
     */
    public Map<ClaimKey, List<Claim>> findByKeys(Handle handle, Collection<ClaimKey> keys) {
        Map<ClaimKey, List<Claim>> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        Set<ClaimKey> wanted = new HashSet<>(keys);
        handle.createQuery("""
                SELECT * FROM claim WHERE %s
                ORDER BY claim_id""".formatted(Dialect.of(handle).inList("state_property_id", "ids", false)))
                .bind("ids", Json.write(wanted.stream().map(ClaimKey::statePropertyId).distinct().toList()))
                .map(Rows.CLAIM)
                .forEach(c -> {
                    ClaimKey key = ClaimKey.of(c);
                    if (wanted.contains(key)) {
                        found.computeIfAbsent(key, k -> new ArrayList<>(1)).add(c);
                    }
                });
        return found;
    }

    public Optional<Claim> find(Handle handle, long claimId) {
        return handle.createQuery("SELECT * FROM claim WHERE claim_id = :id")
                .bind("id", claimId).map(Rows.CLAIM).findOne();
    }

    /**
     * The claim, held against other workstations' writes until the transaction ends: what a change checked
     * against the version staff saw reads, so that the check and the write see the same claim.
     */
    public Optional<Claim> findForUpdate(Handle handle, long claimId) {
        return handle.createQuery("SELECT * FROM claim WHERE claim_id = :id" + Dialect.of(handle).lockRow())
                .bind("id", claimId).map(Rows.CLAIM).findOne();
    }

    /** The claims among {@code claimIds} that exist, by id: one query for a page of rows that name them. */
    public Map<Long, Claim> findAll(Handle handle, Collection<Long> claimIds) {
        Map<Long, Claim> found = new HashMap<>();
        if (claimIds.isEmpty()) {
            return found;
        }
        // one JSON array, not a parameter per id: a bulk edit's group may name more claims than a statement takes
        handle.createQuery("SELECT * FROM claim WHERE " + Dialect.of(handle).inList("claim_id", "ids", true))
                .bind("ids", Json.write(List.copyOf(new LinkedHashSet<>(claimIds))))
                .map(Rows.CLAIM).forEach(c -> found.put(c.claimId(), c));
        return found;
    }

    public Optional<Claim> findByNumber(Handle handle, String claimNumber) {
        return handle.createQuery("SELECT * FROM claim WHERE claim_number = :n")
                .bind("n", claimNumber).map(Rows.CLAIM).findOne();
    }

    /**
     * Moves {@code claim} (as the caller read it) to {@code to} and records the change in its history: the one
     * write of a claim's status on the paths staff drive (the workflow, abandoning and reconciling outbox
     * rows). The transition table decides first ({@link TransitionRefusedException}); then a claim changed by
     * someone else since it was read is a {@link ConflictException}. The delivery worker's own change is
     * written in {@link DeliveryStore}'s batch, from a change taken from the same table.
     *
     * @param stateCaseId set when not null
     * @param decisionDueOn set when not null
     */
    public void changeStatus(Handle handle, Claim claim, ClaimStatus to, String stateCaseId, LocalDate decisionDueOn,
            String actor, String reason, Instant now) {
        Transitions.check(claim.status(), to);
        int changed = handle.createUpdate("""
                UPDATE claim SET status = :to, version = version + 1, updated_at = :now,
                    state_case_id = coalesce(:caseId, state_case_id),
                    decision_due_on = coalesce(:dueOn, decision_due_on)
                WHERE claim_id = :id AND version = :version AND status = :from
                """)
                .bind("to", to.name())
                .bind("now", now.toEpochMilli())
                .bind("caseId", stateCaseId)
                .bind("dueOn", decisionDueOn == null ? null : decisionDueOn.toString())
                .bind("id", claim.claimId())
                .bind("version", claim.version())
                .bind("from", claim.status().name())
                .execute();
        if (changed != 1) {
            throw new ConflictException("claim " + claim.claimNumber() + " was changed by someone else; reload it and try again");
        }
        insertHistory(handle, claim.claimId(), claim.status(), to, actor, reason, now);
    }

    /** The column of each claim field staff edit. */
    private static final Map<ClaimField<?>, String> COLUMNS = Map.ofEntries(
            Map.entry(ClaimField.CLAIMANT_NAME, "claimant_name"),
            Map.entry(ClaimField.CLAIMANT_EMAIL, "claimant_email"),
            Map.entry(ClaimField.CLAIMANT_PHONE, "claimant_phone"),
            Map.entry(ClaimField.CLAIMANT_ADDRESS, "claimant_address"),
            Map.entry(ClaimField.CLAIM_TYPE, "claim_type"),
            Map.entry(ClaimField.HOLDER_NAME, "holder_name"),
            Map.entry(ClaimField.HOLDER_ID, "holder_id"),
            Map.entry(ClaimField.STATE_PROPERTY_ID, "state_property_id"),
            Map.entry(ClaimField.PROPERTY_TYPE, "property_type"),
            Map.entry(ClaimField.AMOUNT_CENTS, "amount_cents"),
            Map.entry(ClaimField.JURISDICTION, "jurisdiction"),
            Map.entry(ClaimField.FILED_ON, "filed_on"),
            Map.entry(ClaimField.TAX_ID, "tax_id"));

    /**
     * Writes {@code values} (each already checked by its field's rule) if the claim is still at {@code
     * expectedVersion}, bumping the version; returns false when someone else changed it first.
     */
    public boolean updateFields(Handle handle, long claimId, long expectedVersion, Map<ClaimField<?>, Object> values,
            Instant now) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no fields to update");
        }
        StringBuilder sql = new StringBuilder("UPDATE claim SET version = version + 1, updated_at = :now");
        List<Binding> bindings = new ArrayList<>();
        int n = 0;
        for (Map.Entry<ClaimField<?>, Object> e : values.entrySet()) {
            String column = COLUMNS.get(e.getKey());
            if (column == null) {
                throw new IllegalArgumentException("the field " + e.getKey().name() + " has no column");
            }
            String name = "v" + n++;
            sql.append(", ").append(column).append(" = :").append(name);
            bindings.add(new Binding(name, columnValue(e.getValue())));
        }
        sql.append(" WHERE claim_id = :id AND version = :version");
        org.jdbi.v3.core.statement.Update update = handle.createUpdate(sql.toString())
                .bind("now", now.toEpochMilli()).bind("id", claimId).bind("version", expectedVersion);
        bindings.forEach(b -> update.bind(b.name, b.value));
        return update.execute() == 1;
    }

    private static Object columnValue(Object value) {
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof LocalDate d) {
            return d.toString();
        }
        return value;
    }

    /** The claim's newest status change, if any. */
    public Optional<StatusChange> lastStatusChange(Handle handle, long claimId) {
        return handle.createQuery("""
                SELECT * FROM claim_status_history WHERE claim_id = :id ORDER BY history_id DESC LIMIT 1""")
                .bind("id", claimId).map(Rows.STATUS_CHANGE).findOne();
    }

    /**
     * Records in the claim's history an event that keeps its status (e.g. a resubmission while SUBMITTING): a row
     * from and to the current status with {@code reason}, and the claim's version moved on, so that a writer who
     * read the claim before this sees a conflict. A claim changed by someone else since it was read is a {@link
     * ConflictException}.
     */
    public void note(Handle handle, Claim claim, String actor, String reason, Instant now) {
        int changed = handle.createUpdate("""
                UPDATE claim SET version = version + 1, updated_at = :now
                WHERE claim_id = :id AND version = :version
                """)
                .bind("now", now.toEpochMilli())
                .bind("id", claim.claimId())
                .bind("version", claim.version())
                .execute();
        if (changed != 1) {
            throw new ConflictException("claim " + claim.claimNumber() + " was changed by someone else; reload it and try again");
        }
        insertHistory(handle, claim.claimId(), claim.status(), claim.status(), actor, reason, now);
    }

    private static void insertHistory(Handle handle, long claimId, ClaimStatus from, ClaimStatus to, String actor,
            String reason, Instant at) {
        handle.createUpdate("""
                INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
                VALUES (:id, :from, :to, :actor, :reason, :at)
                """)
                .bind("id", claimId)
                .bind("from", from == null ? null : from.name())
                .bind("to", to.name())
                .bind("actor", actor)
                .bind("reason", reason)
                .bind("at", at.toEpochMilli())
                .execute();
    }

    public List<StatusChange> history(Handle handle, long claimId) {
        return handle.createQuery("SELECT * FROM claim_status_history WHERE claim_id = :id ORDER BY history_id")
                .bind("id", claimId).map(Rows.STATUS_CHANGE).list();
    }

    /** The {@code ORDER BY} of {@code query}'s sort: its column, claims without a value first ascending, then by id. */
    static String orderBy(Dialect dialect, ClaimQuery query) {
        StringBuilder order = new StringBuilder(" ORDER BY ")
                .append(query.sort() == ClaimQuery.Sort.CLAIMANT ? dialect.claimantOrder() : query.sort().column)
                .append(query.descending() ? " DESC" : " ASC");
        if (query.sort().nullable()) {
            order.append(dialect.nullsAsSqlite(query.descending()));
        }
        if (query.sort() != ClaimQuery.Sort.CLAIM_ID) {
            order.append(", claim_id").append(query.descending() ? " DESC" : " ASC");
        }
        return order.toString();
    }

    public List<Claim> list(Handle handle, ClaimQuery query) {
        Dialect dialect = Dialect.of(handle);
        String order = orderBy(dialect, query);
        if (searchedPageInIdOrder(query)) {
            // each engine's own read of such a page (Dialect.searchedPage), then the page's rows
            String text = query.search().trim();
            StringBuilder others = new StringBuilder();
            Map<String, Object> bindings = new java.util.LinkedHashMap<>();
            where(dialect, query.withSearch(null), others).forEach(b -> bindings.put(b.name, b.value));
            List<Long> ids = dialect.searchedPage(handle, text,
                    others.isEmpty() ? "" : others.substring(" WHERE ".length()), bindings, query.descending(),
                    query.offset(), query.limit());
            return handle.createQuery("SELECT * FROM claim WHERE " + dialect.inList("claim_id", "ids", true)
                    + order).bind("ids", Json.write(ids)).map(Rows.CLAIM).list();
        }
        // A page reads its ids first, ordered and cut with only the sort columns in hand, then its rows: a search
        // matching 12,000 claims sorts 200 whole rows, not 12,000.
        boolean paged = query.limit() > 0;
        String from = query.sort() == ClaimQuery.Sort.DECISION_DUE_ON ? claims(dialect, query) : "claim";
        StringBuilder sql = new StringBuilder(paged
                ? "SELECT * FROM claim WHERE claim_id IN (SELECT claim_id FROM " + from : "SELECT * FROM " + from);
        List<Binding> bindings = where(dialect, query, sql);
        if (paged) {
            sql.append(order).append(" LIMIT ").append(query.limit()).append(" OFFSET ").append(query.offset()).append(')');
        }
        sql.append(order);
        Query q = handle.createQuery(sql.toString());
        bindings.forEach(b -> q.bind(b.name, b.value));
        return q.map(Rows.CLAIM).list();
    }

    /** A page in id order of a text search long enough for the trigram indexes. */
    private static boolean searchedPageInIdOrder(ClaimQuery query) {
        return query.limit() > 0 && query.sort() == ClaimQuery.Sort.CLAIM_ID && query.search() != null
                && Trigrams.indexable(query.search().trim());
    }

    /**
     * The claims matching {@code query}'s filters (its sort and page ignored) whose id is above {@code afterClaimId},
     * by id, at most {@code limit}: pages read one after the other this way neither skip nor repeat a claim when
     * claims change between them.
     */
    public List<Claim> listAfter(Handle handle, ClaimQuery query, long afterClaimId, int limit) {
        StringBuilder sql = new StringBuilder("SELECT * FROM claim");
        int unfiltered = sql.length();
        List<Binding> bindings = where(Dialect.of(handle), query, sql);
        sql.append(sql.length() == unfiltered ? " WHERE " : " AND ")
                .append("claim_id > :after ORDER BY claim_id LIMIT :limit");
        Query q = handle.createQuery(sql.toString());
        bindings.forEach(b -> q.bind(b.name, b.value));
        return q.bind("after", afterClaimId).bind("limit", limit).map(Rows.CLAIM).list();
    }

    /** Whether the database holds any claim: one probe of the primary key instead of a count of every claim. */
    public boolean any(Handle handle) {
        return handle.createQuery("SELECT 1 FROM claim LIMIT 1").mapTo(Integer.class).findOne().isPresent();
    }

    public int count(Handle handle, ClaimQuery query) {
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM " + claims(Dialect.of(handle), query));
        List<Binding> bindings = where(Dialect.of(handle), query, sql);
        Query q = handle.createQuery(sql.toString());
        bindings.forEach(b -> q.bind(b.name, b.value));
        return q.mapTo(Integer.class).one();
    }

    /** Matches per status for the query's other filters (its own status filter ignored). */
    public Map<ClaimStatus, Integer> countByStatus(Handle handle, ClaimQuery query) {
        Query q = countByStatusQuery(handle, query, "");
        Map<ClaimStatus, Integer> counts = new EnumMap<>(ClaimStatus.class);
        for (ClaimStatus s : ClaimStatus.values()) {
            counts.put(s, 0);
        }
        q.map((rs, ctx) -> Map.entry(ClaimStatus.valueOf(rs.getString("status")), rs.getInt("n")))
                .forEach(e -> counts.put(e.getKey(), e.getValue()));
        return counts;
    }

    /**
     * {@link #countByStatus}'s statement, bound, after {@code prefix} (empty, or {@code EXPLAIN …}). Under a
     * jurisdiction alone it reads the jurisdiction's index, which holds each claim's status (schema version 19).
     */
    static Query countByStatusQuery(Handle handle, ClaimQuery query, String prefix) {
        Dialect dialect = Dialect.of(handle);
        StringBuilder sql = new StringBuilder("SELECT status, count(*) AS n FROM " + claims(dialect, query));
        List<Binding> bindings = where(dialect, query.withStatuses(null), sql);
        boolean everyClaim = sql.indexOf(" WHERE ") < 0;
        sql.append(" GROUP BY ").append(dialect.statusGroup(query.searching()));
        Query q = handle.createQuery(prefix + (everyClaim ? dialect.claimCountsQuery() : sql.toString()));
        bindings.forEach(b -> q.bind(b.name, b.value));
        return q;
    }

    public List<String> jurisdictions(Handle handle) {
        // one index probe per jurisdiction (a few dozen) instead of reading every claim's entry: at 1,000,000
        // claims 2 ms instead of a second on PostgreSQL, 10 ms instead of 120 on SQLite
        return handle.createQuery("""
                WITH RECURSIVE j (jurisdiction) AS (
                    SELECT min(jurisdiction) FROM claim
                    UNION ALL
                    SELECT (SELECT min(c.jurisdiction) FROM claim c WHERE c.jurisdiction > j.jurisdiction)
                    FROM j WHERE j.jurisdiction IS NOT NULL)
                SELECT jurisdiction FROM j WHERE jurisdiction IS NOT NULL""")
                .mapTo(String.class).list();
    }

    private record Binding(String name, Object value) {
    }

    /**
     * The claims awaiting the state's decision ({@link Deadlines#awaitsDecision}), word for word as schema version 22's
     * index of them by due date names them: SQLite uses a partial index only for a statement that names its condition.
     * Should the rule's statuses change, a migration must index them anew ({@code OverdueReadsPlanTest} compares them).
     */
    static final String AWAITING_DECISION = statusIn(
            Arrays.stream(ClaimStatus.values()).filter(Deadlines::awaitsDecision).toList());

    /** {@code status IN (…)} of {@code statuses}, named in the order given. */
    static String statusIn(Collection<ClaimStatus> statuses) {
        return "status IN (" + statuses.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", ")) + ")";
    }

    /**
     * The claims' table for {@code query}'s total, counts per status or page by due date: the overdue claims narrowed
     * by nothing else but their status are read from their index ({@link Dialect#overdueClaims}); under a jurisdiction
     * the jurisdiction's index reads fewer, and a search reads its own matches.
     */
    private static String claims(Dialect dialect, ClaimQuery query) {
        boolean overdueAlone = query.overdueOn() != null && !query.inJurisdiction() && !query.searching();
        return overdueAlone ? dialect.overdueClaims() : "claim";
    }

    private static List<Binding> where(Dialect dialect, ClaimQuery query, StringBuilder sql) {
        List<String> clauses = new ArrayList<>();
        List<Binding> bindings = new ArrayList<>();
        if (!query.statuses().isEmpty()) {
            clauses.add(statusIn(query.statuses()));
        }
        if (query.inJurisdiction()) {
            clauses.add("jurisdiction = :jurisdiction");
            bindings.add(new Binding("jurisdiction", query.jurisdiction().trim().toUpperCase(java.util.Locale.ROOT)));
        }
        if (query.searching()) {
            String text = query.search().trim();
            List<Object[]> extra = new ArrayList<>();
            dialect.search(text, clauses, extra);
            extra.forEach(b -> bindings.add(new Binding((String) b[0], b[1])));
            bindings.add(new Binding("search", Like.contains(text)));
        }
        if (query.overdueOn() != null) {
            clauses.add(AWAITING_DECISION + " AND decision_due_on < :overdueOn");
            bindings.add(new Binding("overdueOn", query.overdueOn().toString()));
        }
        if (!clauses.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", clauses));
        }
        return bindings;
    }
}
