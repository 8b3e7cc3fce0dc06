package org.claimdesk.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.domain.StatusChange;
import org.jdbi.v3.core.mapper.RowMapper;

/** Row mappers from the schema's columns to the domain records. */
public final class Rows {
    private Rows() {
    }

    public static final RowMapper<Claim> CLAIM = (rs, ctx) -> new Claim(
            rs.getLong("claim_id"),
            rs.getString("claim_number"),
            rs.getString("jurisdiction"),
            rs.getString("state_property_id"),
            rs.getString("holder_name"),
            rs.getString("holder_id"),
            PropertyType.valueOf(rs.getString("property_type")),
            ClaimType.valueOf(rs.getString("claim_type")),
            rs.getString("claimant_name"),
            rs.getString("claimant_email"),
            rs.getString("claimant_phone"),
            rs.getString("claimant_address"),
            rs.getString("tax_id"),
            rs.getLong("amount_cents"),
            ClaimStatus.valueOf(rs.getString("status")),
            rs.getString("state_case_id"),
            date(rs, "filed_on"),
            date(rs, "decision_due_on"),
            rs.getLong("version"),
            instant(rs, "created_at"),
            instant(rs, "updated_at"));

    public static final RowMapper<OutboxEvent> OUTBOX_EVENT = (rs, ctx) -> new OutboxEvent(
            rs.getLong("outbox_event_id"),
            rs.getLong("aggregate_id"),
            rs.getString("event_type"),
            rs.getString("payload"),
            DeliveryState.fromDb(rs.getString("delivery_state")),
            rs.getInt("attempts"),
            rs.getString("last_error"),
            rs.getString("idempotency_key"),
            instant(rs, "next_attempt_at"),
            rs.getString("lease_owner"),
            instant(rs, "lease_expires_at"),
            instant(rs, "created_at"),
            instant(rs, "sent_at"),
            rs.getString("state_case_id"),
            instant(rs, "updated_at"),
            nullableLong(rs, "superseded_by"));

    public static final RowMapper<DeliveryAttempt> DELIVERY_ATTEMPT = (rs, ctx) -> new DeliveryAttempt(
            rs.getLong("attempt_id"),
            rs.getLong("outbox_event_id"),
            rs.getInt("attempt_no"),
            instant(rs, "started_at"),
            rs.getLong("duration_ms"),
            AttemptOutcome.valueOf(rs.getString("outcome")),
            nullableInt(rs, "http_status"),
            rs.getString("detail"),
            rs.getString("worker_id"),
            rs.getString("field"));

    public static final RowMapper<AuditEntry> AUDIT_ENTRY = (rs, ctx) -> new AuditEntry(
            rs.getLong("audit_id"),
            instant(rs, "at"),
            rs.getString("actor"),
            rs.getString("action"),
            rs.getString("subject_type"),
            rs.getString("subject_id"),
            rs.getString("reason"),
            rs.getString("details"));

    public static final RowMapper<StatusChange> STATUS_CHANGE = (rs, ctx) -> new StatusChange(
            rs.getLong("claim_id"),
            rs.getString("from_status") == null ? null : ClaimStatus.valueOf(rs.getString("from_status")),
            ClaimStatus.valueOf(rs.getString("to_status")),
            rs.getString("actor"),
            rs.getString("reason"),
            instant(rs, "at"));

    public static final RowMapper<Evidence> EVIDENCE = (rs, ctx) -> new Evidence(
            rs.getLong("evidence_id"),
            rs.getLong("claim_id"),
            EvidenceKind.fromCode(rs.getString("kind")),
            rs.getString("title"),
            rs.getString("url"),
            rs.getString("file_name"),
            rs.getString("stored_name"),
            nullableLong(rs, "size_bytes"),
            rs.getString("sha256"),
            rs.getString("added_by"),
            instant(rs, "added_at"),
            rs.getString("withdrawn_by") == null ? null : new Evidence.Withdrawal(rs.getString("withdrawn_by"),
                    instant(rs, "withdrawn_at"), rs.getString("withdrawn_reason")));

    static Instant instant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    static LocalDate date(ResultSet rs, String column) throws SQLException {
        String text = rs.getString(column);
        return text == null ? null : LocalDate.parse(text);
    }

    static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }

    static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    public static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }
}
