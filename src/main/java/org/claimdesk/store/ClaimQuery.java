package org.claimdesk.store;

import java.time.LocalDate;
import java.util.Set;
import org.claimdesk.domain.ClaimStatus;

/**
 * A filter, an order and a page over the claim table.
 *
 * @param statuses empty for every status
 * @param jurisdiction null for every jurisdiction
 * @param search text found in the claim number, the claimant's name or the state property id
 * @param overdueOn when not null, only claims awaiting a decision whose due date is before this day
 * @param limit at most this many rows; 0 or less for every match
 */
public record ClaimQuery(
        Set<ClaimStatus> statuses,
        String jurisdiction,
        String search,
        LocalDate overdueOn,
        Sort sort,
        boolean descending,
        int offset,
        int limit) {

    public enum Sort {
        CLAIM_ID("claim_id"),
        CLAIM_NUMBER("claim_number"),
        JURISDICTION("jurisdiction"),
        CLAIMANT("claimant_name COLLATE NOCASE"),
        PROPERTY_TYPE("property_type"),
        AMOUNT("amount_cents"),
        STATUS("status"),
        STATE_CASE_ID("state_case_id"),
        FILED_ON("filed_on"),
        DECISION_DUE_ON("decision_due_on");

        final String column;

        Sort(String column) {
            this.column = column;
        }

        /** Whether claims may have no value in this column (they sort first ascending, as SQLite puts nulls). */
        boolean nullable() {
            return this == STATE_CASE_ID || this == DECISION_DUE_ON;
        }
    }

    public ClaimQuery {
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        sort = sort == null ? Sort.CLAIM_ID : sort;
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative");
        }
    }

    /** Whether the claims are narrowed to one jurisdiction (a blank one narrows nothing). */
    public boolean inJurisdiction() {
        return jurisdiction != null && !jurisdiction.isBlank();
    }

    /** Whether the claims are narrowed by a search text (a blank one narrows nothing). */
    public boolean searching() {
        return search != null && !search.isBlank();
    }

    public static ClaimQuery all() {
        return new ClaimQuery(Set.of(), null, null, null, Sort.CLAIM_ID, false, 0, 0);
    }

    public ClaimQuery withStatuses(Set<ClaimStatus> value) {
        return new ClaimQuery(value, jurisdiction, search, overdueOn, sort, descending, offset, limit);
    }

    public ClaimQuery withJurisdiction(String value) {
        return new ClaimQuery(statuses, value, search, overdueOn, sort, descending, offset, limit);
    }

    public ClaimQuery withSearch(String value) {
        return new ClaimQuery(statuses, jurisdiction, value, overdueOn, sort, descending, offset, limit);
    }

    public ClaimQuery withOverdueOn(LocalDate value) {
        return new ClaimQuery(statuses, jurisdiction, search, value, sort, descending, offset, limit);
    }

    public ClaimQuery withSort(Sort value, boolean desc) {
        return new ClaimQuery(statuses, jurisdiction, search, overdueOn, value, desc, offset, limit);
    }

    public ClaimQuery withPage(int newOffset, int newLimit) {
        return new ClaimQuery(statuses, jurisdiction, search, overdueOn, sort, descending, newOffset, newLimit);
    }
}
