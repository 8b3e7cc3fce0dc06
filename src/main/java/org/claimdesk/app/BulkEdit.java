package org.claimdesk.app;

import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.claimdesk.domain.Checked;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKeyRepeatedException;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.OutboxStamp;
import org.claimdesk.store.OutboxStore;

/**
 * One field set to one value across many claims, e.g. every claim of an error group the state refused for the
 * same holder id. The value is read once by the field's rule ({@link ClaimField}); a preview lists, per claim,
 * the value now and the new one, and the claims left alone with the reason (a status that does not allow edits,
 * the value already set). Applying edits each previewed claim through {@link ClaimEditing} at the version the
 * preview saw, one claim per transaction: a claim changed since is skipped and reported, never overwritten, and
 * each claim gets the audit entry an edit writes, with the one reason. Staff can stop between two claims; what
 * was done stays done and is reported.
 */
public final class BulkEdit {

    /** A claim the preview would change: its version as seen, and the value now and after, as they may be shown. */
    public record Target(long claimId, String claimNumber, long version, String before, String after) {
    }

    /** A claim left alone, and why, in one line. */
    public record Skipped(long claimId, String claimNumber, String reason) {
    }

    /**
     * What setting {@code field} to {@code value} would do right now.
     *
     * @param value the value as its rule read it, written back as text (what each edit is given)
     * @param shownValue the value as it may be shown
     */
    public record Preview(String field, String label, String value, String shownValue, List<Target> targets,
            List<Skipped> skipped) {
        public Preview {
            targets = List.copyOf(targets);
            skipped = List.copyOf(skipped);
        }

        public int eligible() {
            return targets.size();
        }

        /** "3 claims: holderId will be set to HLD-100200; 1 skipped (…)". */
        public String describe() {
            return eligible() + " claim(s) will have " + field + " set to " + (shownValue.isEmpty() ? "(none)" : shownValue)
                    + (skipped.isEmpty() ? "" : "; " + skipped.size() + " skipped");
        }
    }

    /**
     * What applying a preview did.
     *
     * @param changed the claims edited, as previewed
     * @param skipped the claims the preview left alone
     * @param changedSince claims changed by someone else after the preview (or no longer editable): left alone
     * @param refused claims the value would have made repeat another claim (its jurisdiction, state property id and
     *        claimant): left alone, whatever the preview; see each one's reason
     * @param notReached claims not handled because staff cancelled or the database failed
     * @param failure why the database stopped the run, with the claims before kept; null when it did not
     */
    public record Result(String field, String shownValue, int previewed, List<Target> changed, List<Skipped> skipped,
            List<Skipped> changedSince, List<Skipped> refused, int notReached, boolean cancelled, String failure) {
        public Result {
            changed = List.copyOf(changed);
            skipped = List.copyOf(skipped);
            changedSince = List.copyOf(changedSince);
            refused = List.copyOf(refused);
        }

        public List<Long> changedIds() {
            return changed.stream().map(Target::claimId).toList();
        }

        /** "12 of 40 claim(s) changed, cancelled: 28 not reached; 1 changed by someone else since the preview". */
        public String describe() {
            StringBuilder s = new StringBuilder(changed.size() + " of " + previewed + " claim(s) changed (" + field
                    + " → " + (shownValue.isEmpty() ? "(none)" : shownValue) + ")");
            if (cancelled) {
                s.append(", cancelled: ").append(notReached).append(" not reached");
            }
            if (failure != null) {
                s.append(", then stopped (").append(notReached).append(" not reached): ").append(failure);
            }
            if (!changedSince.isEmpty()) {
                s.append("; ").append(changedSince.size()).append(" skipped because they changed since the preview");
            }
            if (!refused.isEmpty()) {
                s.append("; ").append(refused.size()).append(" skipped because the value would make them repeat another"
                        + " claim");
            }
            if (!skipped.isEmpty()) {
                s.append("; ").append(skipped.size()).append(" skipped at the preview");
            }
            return s.toString();
        }
    }

    private final Database database;
    private final Clock clock;
    private final ClaimEditing editing;
    private final ClaimStore claims = new ClaimStore();
    private final OutboxStore outbox = new OutboxStore();

    public BulkEdit(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
        this.editing = new ClaimEditing(database, clock);
    }

    /** The fields staff may set across many claims: every claim field but the tax id. */
    public static List<ClaimField<?>> fields() {
        return ClaimField.all().stream().filter(f -> refusal(f) == null).toList();
    }

    /** The rule that keeps personal data out of bulk edits, as a field rule reads ("taxId cannot be …"). */
    static final String PERSONAL_RULE = "cannot be set on many claims at once: each claimant has their own, replaced"
            + " whole one claim at a time, audited: Replace… on the claim, or claims edit ID --tax-id-stdin";

    /** Why {@code field} cannot be set in bulk; null when it can. */
    public static String refusal(ClaimField<?> field) {
        return field.personal() ? field.name() + " " + PERSONAL_RULE : null;
    }

    /**
     * What staff typed for {@code fieldName}, read by its rule: the value as text (empty for none), or the
     * broken rule naming the field. The tax id is refused.
     */
    public Checked<String> check(String fieldName, String value) {
        Optional<FieldViolation> refused = fieldRefused(fieldName);
        if (refused.isPresent()) {
            return Checked.broken(refused.get());
        }
        return asText(ClaimField.byName(fieldName).orElseThrow(), value);
    }

    /**
     * Why no value of {@code fieldName} can be set on many claims, whatever it is: not a claim field, or the tax id;
     * empty when the field can be set. Asked before any database is opened.
     */
    public static Optional<FieldViolation> fieldRefused(String fieldName) {
        Optional<ClaimField<?>> field = ClaimField.byName(fieldName);
        if (field.isEmpty()) {
            return Optional.of(new FieldViolation(fieldName == null ? "" : fieldName, "Field",
                    "is not a claim field; the fields are " + ClaimField.names()));
        }
        if (refusal(field.get()) != null) {
            return Optional.of(new FieldViolation(field.get().name(), field.get().label(), PERSONAL_RULE));
        }
        return Optional.empty();
    }

    private <T> Checked<String> asText(ClaimField<T> field, String value) {
        Checked<T> checked = field.check(value, LocalDate.now(clock));
        return checked.isOk() ? Checked.ok(field.text(checked.value())) : new Checked<>(null, checked.violations());
    }

    /**
     * The preview of setting {@code fieldName} to {@code value} on {@code claimIds}; nothing is changed.
     *
     * @throws InvalidFieldsException when the value breaks the field's rule (or the field is the tax id, or unknown)
     * @throws NotFoundException when a claim does not exist
     */
    public Preview preview(String fieldName, String value, Collection<Long> claimIds) {
        Checked<String> checked = check(fieldName, value);
        if (!checked.isOk()) {
            throw new InvalidFieldsException(checked.violations());
        }
        if (claimIds == null || claimIds.isEmpty()) {
            throw new ClaimDeskException("name at least one claim");
        }
        ClaimField<?> field = ClaimField.byName(fieldName).orElseThrow();
        List<Long> ids = List.copyOf(new LinkedHashSet<>(claimIds));
        return database.read(h -> {
            Map<Long, Claim> found = claims.findAll(h, ids);
            Set<Long> pending = outbox.withPending(h, ids);
            List<Target> targets = new ArrayList<>();
            List<Skipped> skipped = new ArrayList<>();
            for (long id : ids) {
                Claim claim = found.get(id);
                if (claim == null) {
                    throw new NotFoundException("no claim with id " + id);
                }
                sort(field, checked.value(), claim, pending.contains(id), targets, skipped);
            }
            return new Preview(field.name(), field.label(), checked.value(), shown(field, checked.value()), targets,
                    skipped);
        });
    }

    /** The preview for the claims of the failed rows among those {@code rows} selects ({@link OutboxQuery#failedAmong}). */
    public Preview preview(String fieldName, String value, OutboxQuery rows) {
        Objects.requireNonNull(rows, "rows");
        List<Long> claimIds = rows.failedAmong().map(failed -> database.read(h -> outbox.stamps(h, failed)))
                .orElse(List.of()).stream().map(OutboxStamp::claimId).distinct().toList();
        if (claimIds.isEmpty()) {
            throw new ClaimDeskException("no failed outbox row matches: there is no claim to change");
        }
        return preview(fieldName, value, claimIds);
    }

    private static <T> void sort(ClaimField<T> field, String text, Claim claim, boolean submissionPending,
            List<Target> targets, List<Skipped> skipped) {
        Optional<String> notEditable = claim.status().editRefusal(submissionPending);
        if (notEditable.isPresent()) {
            skipped.add(new Skipped(claim.claimId(), claim.claimNumber(),
                    "cannot be edited in " + claim.status() + ": " + notEditable.get()));
            return;
        }
        Optional<String> locked = claim.status().fieldRefusal(field);
        if (locked.isPresent()) {
            skipped.add(new Skipped(claim.claimId(), claim.claimNumber(), field.name() + " " + locked.get()));
            return;
        }
        String before = field.textOf(claim);
        if (before.equals(text)) {
            skipped.add(new Skipped(claim.claimId(), claim.claimNumber(),
                    field.name() + " is already " + (text.isEmpty() ? "(none)" : field.shown(field.valueOf(claim)))));
            return;
        }
        targets.add(new Target(claim.claimId(), claim.claimNumber(), claim.version(),
                field.shown(field.valueOf(claim)), shown(field, text)));
    }

    private static String shown(ClaimField<?> field, String text) {
        return field.personal() ? "" : text;
    }

    /**
     * Applies {@code preview}: each target edited through {@link ClaimEditing} at the version the preview saw, in
     * its own transaction, with one required reason.
     *
     * @param progress told how many targets were handled so far, after each; may be null
     * @param cancelled asked before each claim: once it says so, the claims not reached are left alone; may be null
     */
    public Result apply(Preview preview, String actor, String reason, IntConsumer progress, BooleanSupplier cancelled) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        List<Target> changed = new ArrayList<>();
        List<Skipped> changedSince = new ArrayList<>();
        List<Skipped> refused = new ArrayList<>();
        List<Target> targets = preview.targets();
        int handled = 0;
        boolean stopped = false;
        String failure = null;
        for (Target t : targets) {
            if (cancelled != null && cancelled.getAsBoolean()) {
                stopped = true;
                break;
            }
            try {
                EditResult edited = editing.edit(t.claimId(), t.version(), Map.of(preview.field(), preview.value()),
                        who, why);
                if (edited.changes().isEmpty()) {
                    changedSince.add(new Skipped(t.claimId(), t.claimNumber(), preview.field() + " was already set"));
                } else {
                    changed.add(t);
                }
            } catch (DatabaseException e) {
                failure = e.getMessage();
                break;
            } catch (ClaimKeyRepeatedException e) {
                refused.add(new Skipped(t.claimId(), t.claimNumber(), e.getMessage()));
            } catch (ClaimDeskException e) {
                // a conflict (someone changed the claim since the preview), a status that no longer allows edits, or a
                // claim deleted
                changedSince.add(new Skipped(t.claimId(), t.claimNumber(), e.getMessage()));
            }
            handled++;
            if (progress != null) {
                progress.accept(handled);
            }
        }
        return new Result(preview.field(), preview.shownValue(), targets.size(), changed, preview.skipped(),
                changedSince, refused, targets.size() - handled, stopped, failure);
    }
}
