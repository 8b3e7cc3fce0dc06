package org.claimdesk.domain;

import java.util.List;

/**
 * The action names written to the audit trail: what staff do. What the delivery worker does is recorded
 * in each claim's status history and in the outbox row's attempts.
 */
public final class AuditActions {
    /** A claim entered by hand; details carry its number, starting status and fields (the tax id masked). */
    public static final String CLAIM_CREATE = "claim.create";
    /** One import of a claims file: details carry the file's name, SHA-256 and counts. */
    public static final String CLAIMS_IMPORT = "claims.import";
    /**
     * An import of several batches begun, written with its first batch's claims: what an import stopped halfway
     * (killed, the power cut) leaves in the audit trail. Details as {@link #CLAIMS_IMPORT}'s, without the counts.
     */
    public static final String CLAIMS_IMPORT_BEGIN = "claims.import_begin";
    /** An export of claims with their tax ids whole: details carry the file's name, the filters and the count. */
    public static final String CLAIMS_EXPORT_TAX_IDS = "claims.export_tax_ids";
    public static final String CLAIM_ADVANCE = "claim.advance";
    public static final String CLAIM_SUBMIT = "claim.submit";
    public static final String TAX_ID_REVEAL = "claim.reveal_tax_id";
    /** One field of a claim changed: details carry the field, before and after (the tax id masked). */
    public static final String CLAIM_EDIT = "claim.edit";
    /** The tax id replaced whole; details carry the masked numbers before and after. */
    public static final String TAX_ID_REPLACE = "claim.replace_tax_id";
    public static final String EVIDENCE_ADD = "claim.evidence_add";
    public static final String EVIDENCE_WITHDRAW = "claim.evidence_withdraw";
    public static final String OUTBOX_REQUEUE = "outbox.requeue";
    public static final String OUTBOX_ABANDON = "outbox.abandon";
    public static final String OUTBOX_RECONCILE = "outbox.reconcile";
    public static final String OUTBOX_RESUBMIT = "outbox.resubmit";
    public static final String SETTINGS_CHANGE = "settings.change";
    /** A workstation's database file moved into this team database ({@code migrate}): the file and the rows copied. */
    public static final String DATABASE_MOVE_IN = "database.move_in";
    /**
     * A desk's whole database copied ({@code backup}), tax ids included: written before the copy (which holds it), by
     * the operator the environment names or the system account; details carry the file, the system account and the
     * workstation.
     */
    public static final String DATABASE_BACKUP = "database.backup";
    public static final String WORKER_PAUSE = "worker.pause";
    public static final String WORKER_RESUME = "worker.resume";
    /** A drain told to deliver although staff paused the worker ({@code drain --even-if-paused}); the pause stays. */
    public static final String WORKER_PAUSE_OVERRIDE = "worker.pause_override";

    public static final String SUBJECT_CLAIM = "claim";
    public static final String SUBJECT_OUTBOX = "outbox_event";
    public static final String SUBJECT_SETTINGS = "settings";
    /** The subject of an import's entry: the imported file, by its SHA-256. */
    public static final String SUBJECT_IMPORT = "import";
    /** The subject of an export's entry: the file written, by its name. */
    public static final String SUBJECT_EXPORT = "export";
    public static final String SUBJECT_WORKER = "worker";
    public static final String SUBJECT_DATABASE = "database";
    /** The subject id of every entry about the delivery worker: its settings, pauses and resumptions. */
    public static final String WORKER_ID = "worker";

    /**
     * Every action above, in the order the audit page offers them: claims, outbox, worker, settings and database. A new
     * action goes here too (DomainRulesTest checks that none is missing).
     */
    public static final List<String> ALL = List.of(CLAIM_CREATE, CLAIMS_IMPORT_BEGIN, CLAIMS_IMPORT, CLAIMS_EXPORT_TAX_IDS, CLAIM_ADVANCE,
            CLAIM_SUBMIT, CLAIM_EDIT, TAX_ID_REVEAL, TAX_ID_REPLACE, EVIDENCE_ADD, EVIDENCE_WITHDRAW,
            OUTBOX_REQUEUE, OUTBOX_ABANDON,
            OUTBOX_RECONCILE, OUTBOX_RESUBMIT, WORKER_PAUSE, WORKER_RESUME, WORKER_PAUSE_OVERRIDE, SETTINGS_CHANGE,
            DATABASE_MOVE_IN, DATABASE_BACKUP);

    private AuditActions() {
    }
}
