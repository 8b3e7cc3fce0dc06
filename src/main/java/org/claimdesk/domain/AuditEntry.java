package org.claimdesk.domain;

import java.time.Instant;

/** One line of the append-only audit trail. */
public record AuditEntry(
        long auditId,
        Instant at,
        String actor,
        String action,
        String subjectType,
        String subjectId,
        String reason,
        String details) {
}
