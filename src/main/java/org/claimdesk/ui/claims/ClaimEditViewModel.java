package org.claimdesk.ui.claims;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.claimdesk.app.ClaimEditing;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.EditResult;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKeyRepeatedException;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.StateFields;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.RetryReasons;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The edit mode of the claim detail pane and its Evidence tab. Each field is checked as staff type by its
 * one rule ({@link ClaimField}); a save applies to the version staff started from, and a claim changed
 * meanwhile is shown as a conflict naming who changed it, with nothing overwritten. Every read and write runs
 * through the {@link TaskRunner}.
 */
public final class ClaimEditViewModel {

    /**
     * The field the state refused, as {@link #focusField} marked it.
     *
     * @param field the name as the state and {@code claims show --json} write it: {@code holderId},
     *        {@code taxId}, {@code evidence.address}
     * @param label the field as staff read it: "Holder id", "Tax id", "Proof of address evidence"
     * @param message what the state said, e.g. "holder id not in the registry for CA"
     */
    public record Fault(String field, String label, String message) {
        private static final String EVIDENCE = StateFields.EVIDENCE;

        /** For {@code evidence.KIND}: the kind of evidence the state asked for. */
        public Optional<EvidenceKind> evidenceKind() {
            if (!field.startsWith(EVIDENCE + ".")) {
                return Optional.empty();
            }
            try {
                return Optional.of(EvidenceKind.fromCode(field.substring(EVIDENCE.length() + 1)));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }

        /** The state asked for evidence ({@code evidence} or {@code evidence.KIND}). */
        public boolean evidence() {
            return StateFields.isEvidence(field);
        }

        /** The tax id: replaced whole through its own audited action, not in the form. */
        public boolean taxId() {
            return field.equals(ClaimField.TAX_ID.name());
        }

        /** One line for the form's banner: "The state refused Holder id: holder id not in the registry". */
        public String describe() {
            return "The state refused " + (label.isBlank() ? "this claim" : label)
                    + (message == null || message.isBlank() ? "" : ": " + message.strip());
        }

        static Fault of(String field, String message) {
            String name = org.claimdesk.domain.StateFields.onTheClaim(field);
            Fault bare = new Fault(name, name, message);
            String label = bare.evidence()
                    ? bare.evidenceKind().map(k -> k.label() + " evidence").orElse("the evidence")
                    : ClaimField.byName(name).map(ClaimField::label).orElse(name);
            return new Fault(ClaimField.byName(name).map(ClaimField::name).orElse(name), label, message);
        }
    }

    private final ClaimEditing editing;
    private final ClaimEvidence evidenceCases;
    private final TaskRunner tasks;
    private final String actor;
    private final Supplier<LocalDate> today;
    private final Consumer<Notice> notices;
    private final Runnable reload;

    private final Map<ClaimField<?>, FieldEditor> fields = new LinkedHashMap<>();
    private final StringProperty reason = new SimpleStringProperty("");
    private final RetryReasons retry = new RetryReasons();
    /** The key fields marked by the last save's refusal as repeating another claim. */
    private final List<FieldEditor> repeatMarked = new ArrayList<>();
    private final ReadOnlyBooleanWrapper active = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canEdit = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper dirty = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<Fault> fault = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper saveHint = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper readOnlyReason = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper lockedNotice = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper conflict = new ReadOnlyStringWrapper();
    private final ObservableList<Evidence> evidence = FXCollections.observableArrayList();
    /**
     * The file references listed whose copies are not whole in this workstation's evidence folder (missing, damaged,
     * unreadable), by id; empty until the folder was looked in, in the background.
     */
    private Map<Long, EvidenceCopy> filesAway = Map.of();
    /** Counts the evidence lists shown: a look in the folder applies only to the list it was made for. */
    private long evidenceShown;
    private final ReadOnlyBooleanWrapper evidenceBusy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper evidenceError = new ReadOnlyStringWrapper();
    private final javafx.beans.property.ReadOnlyLongWrapper evidenceAdds = new javafx.beans.property.ReadOnlyLongWrapper();

    /** The claim as last read; the one being edited keeps the version staff started from. */
    private EditableClaim shown;
    private EditableClaim base;
    /** "Reload claim" after a conflict: the next newer version read becomes the edit's base, what was typed kept. */
    private boolean rebasing;

    /**
     * @param notices where a save's or an evidence add's outcome goes (the page's notice line)
     * @param reload reads the selected claim again (its row and detail) after a change
     */
    public ClaimEditViewModel(ClaimEditing editing, ClaimEvidence evidence, TaskRunner tasks, String actor,
            Supplier<LocalDate> today, Consumer<Notice> notices, Runnable reload) {
        this.editing = editing;
        this.evidenceCases = evidence;
        this.tasks = tasks;
        this.actor = actor;
        this.today = today;
        this.notices = notices;
        this.reload = reload;
        for (ClaimField<?> field : ClaimField.all()) {
            if (!field.personal()) {
                fields.put(field, new FieldEditor(field, today, this::update));
            }
        }
        reason.addListener((obs, old, text) -> update());
        // a repeat of another claim's key ends when any of the three changes: the others' marks go with it
        for (ClaimField<?> key : List.of(ClaimField.JURISDICTION, ClaimField.STATE_PROPERTY_ID,
                ClaimField.CLAIMANT_NAME)) {
            java.util.Optional.ofNullable(fields.get(key)).ifPresent(f -> f.textProperty().addListener(
                    (obs, old, text) -> {
                        repeatMarked.forEach(marked -> marked.markFault(null));
                        repeatMarked.clear();
                    }));
        }
    }

    // ---- state --------------------------------------------------------------------------------------

    /** The editable fields in the order the form shows them. */
    public List<FieldEditor> fields() {
        return List.copyOf(fields.values());
    }

    public FieldEditor field(ClaimField<?> field) {
        return fields.get(field);
    }

    /** Why the claim's changes are made; required, written to the audit trail with each field. */
    public StringProperty reasonProperty() {
        return reason;
    }

    /** True in edit mode. */
    public ReadOnlyBooleanProperty activeProperty() {
        return active.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** A claim is shown and its status allows editing. */
    public ReadOnlyBooleanProperty canEditProperty() {
        return canEdit.getReadOnlyProperty();
    }

    /** True in edit mode when a field differs from the claim as read, or a reason has been typed. */
    public ReadOnlyBooleanProperty dirtyProperty() {
        return dirty.getReadOnlyProperty();
    }

    /**
     * The field the state refused, as {@link #focusField} last marked it; null when none is. The view brings
     * the field (or the Evidence tab, or the tax id's Replace action) into focus when it changes.
     */
    public ReadOnlyObjectProperty<Fault> faultProperty() {
        return fault.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** What keeps Save disabled, in words ("Fix the fields marked in red", ...); empty when it may save. */
    public ReadOnlyStringProperty saveHintProperty() {
        return saveHint.getReadOnlyProperty();
    }

    /**
     * Why the form's greyed fields cannot change though the claim can be edited (NEEDS_INFO: the fields naming the
     * state's case), said once above them; null when every field can change.
     */
    public ReadOnlyStringProperty lockedNoticeProperty() {
        return lockedNotice.getReadOnlyProperty();
    }

    /** Why the shown claim's fields are read-only; null when they can be edited. */
    public ReadOnlyStringProperty readOnlyReasonProperty() {
        return readOnlyReason.getReadOnlyProperty();
    }

    /** The last save's conflict (who changed the claim meanwhile, and when); null when there is none. */
    public ReadOnlyStringProperty conflictProperty() {
        return conflict.getReadOnlyProperty();
    }

    public ObservableList<Evidence> evidence() {
        return evidence;
    }

    public ReadOnlyBooleanProperty evidenceBusyProperty() {
        return evidenceBusy.getReadOnlyProperty();
    }

    /** How many evidence adds went through: the add's inputs are cleared at each. */
    public javafx.beans.property.ReadOnlyLongProperty evidenceAddsProperty() {
        return evidenceAdds.getReadOnlyProperty();
    }

    /**
     * Why the last evidence add or withdrawal was refused (a missing, unreadable or too large file, ...); null after a
     * success.
     */
    public ReadOnlyStringProperty evidenceErrorProperty() {
        return evidenceError.getReadOnlyProperty();
    }

    /** The evidence address rule (the one in {@link EvidenceRules#url}) for the field as typed: its message, or null. */
    public String urlRule(String text) {
        return firstMessage(EvidenceRules.url(text).violations());
    }

    // ---- commands -----------------------------------------------------------------------------------

    /**
     * The claim shown in the detail pane (null for none). In edit mode the fields keep what staff typed. Its file
     * references' copies are then looked for in this workstation's evidence folder in the background (a share may
     * answer slowly: the detail does not wait for it).
     */
    public void show(EditableClaim claim, List<Evidence> references) {
        boolean sameClaim = claim != null && shown != null && claim.claimId() == shown.claimId();
        if (!sameClaim && active.get()) {
            leave();
        }
        if (!sameClaim) {
            fault.set(null);
        }
        shown = claim;
        showEvidence(claim == null ? List.of() : references, Map.of());
        lookForFiles();
        if (!sameClaim) {
            evidenceError.set(null);
        }
        readOnlyReason.set(claim == null ? null : claim.editRefusal().orElse(null));
        canEdit.set(claim != null && readOnlyReason.get() == null);
        fields.forEach((field, editor) -> editor.lock(claim == null ? null
                : claim.status().fieldRefusal(field).orElse(null)));
        lockedNotice.set(fields.values().stream().map(f -> f.lockProperty().get()).filter(java.util.Objects::nonNull)
                .findFirst().map(reason -> "Greyed fields " + reason + ".").orElse(null));
        if (!active.get()) {
            fill(claim);
        } else if (sameClaim && rebasing && claim.version() != base.version()) {
            rebase(claim);
        }
        update();
    }

    /** Ctrl+E: edit the shown claim; returns false (and says why) when its status does not allow it. */
    public boolean startEdit() {
        if (shown == null || active.get()) {
            return active.get();
        }
        if (readOnlyReason.get() != null) {
            notices.accept(Notice.warning("Claim " + shown.claimNumber() + " is read-only: " + readOnlyReason.get()));
            return false;
        }
        base = shown;
        fill(base);
        reason.set("");
        conflict.set(null);
        active.set(true);
        update();
        return true;
    }

    /**
     * Opens the editor with {@code fieldName} marked as the field the state refused, so staff go straight to
     * it: enters edit mode (when not in it already; what was typed stays) and shows {@code message} next to the
     * field. For {@code evidence.KIND} the Evidence tab is the place, for {@code taxId} its Replace action.
     *
     * @param fieldName the field as the state names it: {@code holderId}, {@code amountCents},
     *        {@code evidence.address}, {@code taxIdLast4} (the tax id), {@code evidence[0].kind}
     *        ({@link org.claimdesk.domain.StateFields})
     * @param message the state's message for the field; null or blank shows the field's name only
     * @return true with the field marked (in edit mode, except for {@code taxId}: the form does not hold it);
     *         false when no claim is shown or its status does not allow editing (a notice then says why)
     */
    public boolean focusField(String fieldName, String message) {
        Fault marked = Fault.of(fieldName, message);
        if (marked.taxId()) {
            // replaced whole through its own audited action, outside the form
            if (shown == null || readOnlyReason.get() != null) {
                return startEdit();
            }
            fault.set(null);
            fault.set(marked);
            return true;
        }
        if (!startEdit()) {
            return false;
        }
        fields.values().forEach(f -> f.markFault(null));
        ClaimField.byName(marked.field()).map(fields::get)
                .ifPresent(f -> f.markFault(marked.message() == null || marked.message().isBlank()
                        ? "The state refused this field" : "The state: " + marked.message().strip()));
        fault.set(null);
        fault.set(marked);
        return true;
    }

    /** As {@link #focusField(String, String)}, without the state's message. */
    public boolean focusField(String fieldName) {
        return focusField(fieldName, null);
    }

    /** Esc: leave edit mode; what was typed is dropped. */
    public void cancel() {
        if (active.get()) {
            leave();
            fill(shown);
            update();
        }
    }

    /**
     * After a conflict: reads the claim again and goes on editing its new version with what was typed kept; a
     * field typed in that was also changed meanwhile keeps the text typed and says the value it has now. A claim
     * whose new status no longer allows editing ends the edit, with a notice saying nothing was saved.
     */
    public void reloadAfterConflict() {
        rebasing = active.get();
        reload.run();
    }

    /** Ctrl+S: saves the changed fields against the version edited; ends in a notice, a conflict or marked fields. */
    public void save() {
        if (!canSave.get()) {
            if (active.get() && !saveHint.get().isEmpty()) {
                notices.accept(Notice.warning(saveHint.get() + "; nothing was saved"));
            }
            return;
        }
        EditableClaim claim = base;
        Map<String, String> changes = new LinkedHashMap<>();
        fields.values().stream().filter(FieldEditor::changed)
                .forEach(f -> changes.put(f.field().name(), f.textProperty().get()));
        String why = reason.get();
        busy.set(true);
        update();
        tasks.submit("save claim edit", p -> editing.edit(claim.claimId(), claim.version(), changes, actor, why),
                (EditResult r) -> {
                    busy.set(false);
                    leave();
                    notices.accept(Notice.success("Claim " + r.claimNumber() + " saved: " + r.changes().size()
                            + (r.changes().size() == 1 ? " field" : " fields") + " changed (version " + r.version() + ")"));
                    reload.run();
                }, e -> {
                    busy.set(false);
                    if (e instanceof ConflictException c) {
                        conflict.set(c.getMessage());
                    } else if (e instanceof ClaimKeyRepeatedException repeated) {
                        // no field's own rule: marked to look at, and changing any of them may end it
                        for (FieldViolation v : repeated.violations()) {
                            ClaimField.byName(v.field()).map(fields::get).ifPresent(f -> {
                                f.markFault(v.message());
                                repeatMarked.add(f);
                            });
                        }
                        notices.accept(Notice.error("save claim " + claim.claimNumber(), e));
                    } else if (e instanceof InvalidFieldsException invalid) {
                        for (FieldViolation v : invalid.violations()) {
                            ClaimField.byName(v.field()).map(fields::get).ifPresent(f -> f.markBroken(v.message()));
                        }
                        notices.accept(Notice.error("save claim " + claim.claimNumber(), e));
                    } else {
                        notices.accept(Notice.error("save claim " + claim.claimNumber(), e));
                    }
                    update();
                });
    }

    /** The tax id rule (the one in {@link ClaimField#TAX_ID}) for the Replace dialog: its message, or null. */
    public String taxIdRule(String text) {
        return firstMessage(ClaimField.TAX_ID.check(text, today.get()).violations());
    }

    /** The claim the form shows, as last read; null when none. */
    public EditableClaim shownClaim() {
        return shown;
    }

    /**
     * Replaces the tax id of the claim staff saw when they chose Replace… ({@code seen}, {@link #shownClaim} then)
     * whole, against that version, not one a refresh may have shown while they typed (a change from another
     * workstation then ends in a conflict naming who made it); audited with the reason and masked to its last four
     * digits. Not while the fields are being edited (the edit would then be on an old version).
     */
    public void replaceTaxId(EditableClaim seen, String taxId, String why) {
        EditableClaim claim = seen;
        if (claim == null || active.get() || busy.get()) {
            return;
        }
        if (shown == null || shown.claimId() != claim.claimId()) {
            notices.accept(Notice.warning("Claim " + claim.claimNumber() + " is no longer the one shown; its tax id"
                    + " was not replaced"));
            return;
        }
        if (readOnlyReason.get() != null) {
            notices.accept(Notice.warning("Claim " + claim.claimNumber() + " is read-only: " + readOnlyReason.get()));
            return;
        }
        String broken = taxIdRule(taxId);
        if (broken != null) {
            notices.accept(Notice.warning(broken + "; the tax id was not replaced"));
            return;
        }
        if (why == null || why.isBlank()) {
            notices.accept(Notice.warning("Replacing a tax id needs a reason; it was not replaced"));
            return;
        }
        busy.set(true);
        update();
        String what = "taxId:" + claim.claimId() + ":reason";
        tasks.submit("replace tax id", p -> editing.replaceTaxId(claim.claimId(), claim.version(), taxId, actor, why),
                (EditResult r) -> {
                    busy.set(false);
                    update();
                    retry.succeeded(what);
                    if (fault.get() != null && fault.get().taxId()) {
                        fault.set(null);
                    }
                    notices.accept(r.changes().isEmpty()
                            ? Notice.info("Claim " + r.claimNumber() + " already has that tax id; nothing changed")
                            : Notice.success("Tax id of claim " + r.claimNumber() + " replaced (now "
                                    + r.changes().get(0).after() + "); the change is in the audit trail"));
                    reload.run();
                }, e -> {
                    busy.set(false);
                    update();
                    // the reason, not the tax id: a whole tax id is not kept beyond its question
                    retry.failed(what, why);
                    notices.accept(Notice.error("replace the tax id of claim " + claim.claimNumber(), e));
                });
    }

    /**
     * The reason typed for claim {@code claimId}'s Replace… when it last failed (a change elsewhere, a lost
     * connection), for the question to offer again; empty when there is none.
     */
    public String taxIdReasonToRetry(long claimId) {
        return retry.recall("taxId:" + claimId + ":reason");
    }

    /** Adds a web address as evidence of the shown claim. */
    public void addUrl(EvidenceKind kind, String url, String title) {
        EditableClaim claim = shown;
        if (claim == null || kind == null) {
            return;
        }
        addEvidence(claim, "add an address to claim " + claim.claimNumber(),
                () -> evidenceCases.addUrl(claim.claimId(), kind.code(), url, title, actor));
    }

    /** Copies {@code file} in as evidence of the shown claim (in the background: it may be 25 MB). */
    public void addFile(EvidenceKind kind, Path file, String title) {
        EditableClaim claim = shown;
        if (claim == null || kind == null || file == null) {
            return;
        }
        addEvidence(claim, "add " + file.getFileName() + " to claim " + claim.claimNumber(),
                () -> evidenceCases.addFile(claim.claimId(), kind.code(), file, title, actor));
    }

    private void addEvidence(EditableClaim claim, String doing, Supplier<Evidence> add) {
        changeEvidence(claim.claimId(), "add evidence", doing, add, added -> {
            if (fault.get() != null && fault.get().evidenceKind().filter(added.kind()::equals).isPresent()) {
                fault.set(null);
            }
            evidenceAdds.set(evidenceAdds.get() + 1);
            return "Evidence added to claim " + claim.claimNumber() + ": " + added.kind().label() + ", "
                    + added.title();
        }, null);
    }

    /**
     * Withdraws {@code reference} (added by mistake) from its claim, with staff's {@code reason}; audited. It stays
     * listed, marked withdrawn. A withdrawal that fails keeps the reason for the question asked again.
     */
    public void withdraw(Evidence reference, String reason) {
        if (reference == null || reference.isWithdrawn()) {
            return;
        }
        // the reference's own claim, whatever is shown by the time staff answered (a refresh may have moved on)
        long claimId = reference.claimId();
        String what = withdrawKey(reference);
        ClaimEvidence.Withdrawn[] done = {null};
        changeEvidence(claimId, "withdraw evidence", "withdraw evidence " + reference.evidenceId(), () -> {
            done[0] = evidenceCases.withdraw(claimId, reference.evidenceId(), reason, actor);
            return done[0].evidence();
        }, withdrawn -> {
            retry.succeeded(what);
            // the claim's audit tab and detail read with the withdrawal, as after a save
            reload.run();
            return "Evidence withdrawn from claim " + done[0].claimNumber() + ": " + withdrawn.kind().label() + ", "
                    + withdrawn.title() + " (not sent to the state from now on)"
                    + done[0].stateNotice().map(n -> "; " + n).orElse("");
        }, () -> retry.failed(what, reason));
    }

    /** The reason given for withdrawing {@code reference} when that last failed, to offer again; empty when none. */
    public String withdrawReasonToRetry(Evidence reference) {
        return retry.recall(withdrawKey(reference));
    }

    private static String withdrawKey(Evidence reference) {
        return "evidence:" + reference.evidenceId() + ":withdraw";
    }

    /**
     * Runs an evidence change of claim {@code claimId} in the background, then shows the claim's evidence read again; {@code
     * told} gives the notice of the change done (on the FX thread), {@code failed} (may be null) runs when it failed.
     */
    private void changeEvidence(long claimId, String task, String doing, Supplier<Evidence> change,
            java.util.function.Function<Evidence, String> told, Runnable failed) {
        evidenceBusy.set(true);
        evidenceError.set(null);
        tasks.submit(task, p -> {
            Evidence changed = change.get();
            try {
                List<Evidence> all = evidenceCases.list(claimId);
                // the change is in: the look at its files' copies goes along
                return new Changed(changed, all, filesAway(evidenceCases, all), null);
            } catch (RuntimeException listNotRead) {
                // the change is saved: told as a failure, it would be made again (an add: a second reference)
                return new Changed(changed, null, null, Notice.error("read the claim's evidence again", listNotRead));
            }
        }, (Changed c) -> {
            evidenceBusy.set(false);
            if (c.all() != null && shown != null && shown.claimId() == claimId) {
                showEvidence(c.all(), c.away());
            }
            String text = told.apply(c.changed());
            notices.accept(c.listNotRead() == null ? Notice.success(text)
                    : Notice.warning(text + ". " + c.listNotRead().text() + "; refresh (F5) to see it"));
        }, e -> {
            // the error first: the form keeps what was typed when the change ends with one
            Notice refused = Notice.error(doing, e);
            evidenceError.set(refused.text());
            evidenceBusy.set(false);
            if (failed != null) {
                failed.run();
            }
            notices.accept(refused);
        });
    }

    /**
     * A change saved; {@code all} and {@code away} null, and {@code listNotRead} said, when the list was not read again.
     */
    private record Changed(Evidence changed, List<Evidence> all, Map<Long, EvidenceCopy> away, Notice listNotRead) {
    }

    /** A look for the evidence files' copies is under way; on the UI thread, as the two below. */
    private boolean lookingForFiles;
    /** Evidence was shown while the look was under way: it is looked at when that one ends. */
    private boolean lookAgain;

    private void showEvidence(List<Evidence> references, Map<Long, EvidenceCopy> away) {
        evidenceShown++;
        filesAway = away;
        evidence.setAll(references);
    }

    /**
     * Looks for the listed file references' copies in the background; marks those not whole when it has. One look at
     * a time: a share that stops answering holds one background thread, not one for every time the detail is read
     * again (a live refresh, a change elsewhere), which would take every thread the console's other work needs. A
     * list shown while a look is under way is looked at once that one ends.
     */
    private void lookForFiles() {
        List<Evidence> listed = List.copyOf(evidence);
        if (listed.stream().noneMatch(Evidence::isFile)) {
            return;
        }
        if (lookingForFiles) {
            lookAgain = true;
            return;
        }
        lookingForFiles = true;
        long lookedFor = evidenceShown;
        tasks.submit("look for evidence files", p -> filesAway(evidenceCases, listed), away -> {
            if (lookedFor == evidenceShown && !away.isEmpty()) {
                showEvidence(listed, away);
            }
            lookEnded();
        }, e -> {
            // the task runner logs it; the list stays as it is, unmarked
            lookEnded();
        });
    }

    private void lookEnded() {
        lookingForFiles = false;
        if (lookAgain) {
            lookAgain = false;
            lookForFiles();
        }
    }

    /**
     * The file references among {@code references} whose copies are not whole in {@code evidence}'s folder, with what
     * was found: read from the file system, so off the FX thread.
     */
    static Map<Long, EvidenceCopy> filesAway(ClaimEvidence evidence, List<Evidence> references) {
        Map<Long, EvidenceCopy> away = new java.util.HashMap<>(evidence.copies(references));
        away.values().removeIf(EvidenceCopy.WHOLE::equals);
        return Map.copyOf(away);
    }

    /**
     * What was found of a listed file reference's copy in this workstation's evidence folder when it is not whole
     * (missing, damaged, unreadable); empty when it is whole, not looked for yet, or an address.
     */
    public Optional<EvidenceCopy> away(Evidence reference) {
        return Optional.ofNullable(filesAway.get(reference.evidenceId()));
    }

    /** This workstation's evidence folder, as a file reference not found there names it. */
    public Path evidenceFolder() {
        return evidenceCases.folder();
    }

    /** Where a file reference's copy is kept, to open it. */
    public Path fileOf(Evidence reference) {
        return evidenceCases.fileOf(reference);
    }

    // ---- internals ----------------------------------------------------------------------------------

    /** The edit goes on from {@code claim}, the version read after a conflict (see {@link #reloadAfterConflict}). */
    private void rebase(EditableClaim claim) {
        rebasing = false;
        if (claim.editRefusal().isPresent()) {
            leave();
            fill(claim);
            notices.accept(Notice.warning("Claim " + claim.claimNumber() + " can no longer be edited ("
                    + claim.editRefusal().get() + "); your changes were not saved"));
            return;
        }
        EditableClaim before = base;
        Map<FieldEditor, String> typed = new LinkedHashMap<>();
        Map<FieldEditor, String> marks = new LinkedHashMap<>();
        for (FieldEditor editor : fields.values()) {
            if (editor.changed()) {
                typed.put(editor, editor.textProperty().get());
            }
            if (editor.faultProperty().get() != null) {
                marks.put(editor, editor.faultProperty().get());
            }
        }
        base = claim;
        fill(base);
        List<String> changedMeanwhile = new ArrayList<>();
        typed.forEach((editor, text) -> {
            editor.textProperty().set(text);
            String now = claim.texts().getOrDefault(editor.field(), "");
            if (!now.equals(before.texts().getOrDefault(editor.field(), "")) && !now.equals(text)) {
                editor.markFault("Changed meanwhile to " + (now.isEmpty() ? "nothing" : "\u201c" + now + "\u201d")
                        + "; yours is kept: check it before saving");
                changedMeanwhile.add(editor.field().label());
            }
        });
        // the marks staff had (the state's refusal) stay where no new one was put, but not on a field typed in that
        // now holds what was typed (its "changed meanwhile" mark would name a value it no longer has)
        marks.keySet().removeIf(editor -> typed.containsKey(editor) && !editor.changed());
        marks.forEach((editor, mark) -> {
            if (editor.faultProperty().get() == null) {
                editor.markFault(mark);
            }
        });
        conflict.set(null);
        notices.accept(Notice.info("Claim " + claim.claimNumber() + " read again at version " + claim.version()
                + ": your changes are kept" + (changedMeanwhile.isEmpty() ? ""
                        : "; also changed meanwhile: " + String.join(", ", changedMeanwhile) + " (marked)")));
    }

    private void leave() {
        rebasing = false;
        active.set(false);
        conflict.set(null);
        fault.set(null);
        fields.values().forEach(f -> f.markFault(null));
        base = null;
        reason.set("");
    }

    private void fill(EditableClaim claim) {
        for (FieldEditor editor : fields.values()) {
            editor.reset(claim == null ? "" : claim.texts().getOrDefault(editor.field(), ""));
        }
    }

    private void update() {
        List<String> broken = new ArrayList<>();
        boolean changed = false;
        for (FieldEditor editor : fields.values()) {
            if (editor.errorProperty().get() != null) {
                broken.add(editor.field().label());
            }
            changed |= editor.changed();
        }
        String hint;
        if (!active.get()) {
            hint = "";
        } else if (!broken.isEmpty()) {
            hint = "Fix " + String.join(", ", broken);
        } else if (!changed) {
            hint = "Nothing changed yet";
        } else if (reason.get() == null || reason.get().isBlank()) {
            hint = "Say why you change it";
        } else if (conflict.get() != null) {
            hint = "Reload the claim to edit its new version";
        } else {
            hint = "";
        }
        saveHint.set(hint);
        dirty.set(active.get() && (changed || (reason.get() != null && !reason.get().isBlank())));
        canSave.set(active.get() && !busy.get() && hint.isEmpty());
    }

    private static String firstMessage(List<FieldViolation> violations) {
        return FieldEditor.firstMessage(violations);
    }
}
