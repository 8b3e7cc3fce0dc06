package org.claimdesk.ui.claims;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.ClaimIntake;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.DuplicateClaimException;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.Transitions;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The new-claim form (File › New claim…): every field of a claim checked as staff type by its one rule
 * ({@link ClaimField}), the evidence references to add, the starting status, and the claim already open for the
 * same jurisdiction, state property id and claimant, looked up in the background as soon as those three keep their
 * rules. Create writes the claim ({@link ClaimIntake}), then adds the references ({@link ClaimEvidence}); a
 * refusal keeps everything typed. Every read and write runs through the {@link TaskRunner}.
 */
public final class NewClaimViewModel {

    /** Shows a claim in the Claims page: the one just created, or the one already open. */
    @FunctionalInterface
    public interface Opener {
        /** @param created what to tell staff about the claim just created; null for the claim already open */
        void open(long claimId, String claimNumber, String created);
    }

    /** The claim already present with the key typed. */
    public record Duplicate(long claimId, String claimNumber, ClaimStatus status) {
        static Duplicate of(Claim claim) {
            return new Duplicate(claim.claimId(), claim.claimNumber(), claim.status());
        }

        /** "Claim UPC-2026-000042 is already open for this property and claimant". */
        public String message() {
            return status != null && status.isFinal()
                    ? "Claim " + claimNumber + " (" + status.label() + ") is already on file for this property and claimant"
                    : "Claim " + claimNumber + " is already open for this property and claimant";
        }
    }

    /**
     * One evidence reference to add once the claim exists: what it proves and a web address or a file. Its rules
     * are those of {@link EvidenceRules}; a file is copied in only when the claim is created.
     */
    public static final class EvidenceDraft {
        private final ObjectProperty<EvidenceKind> kind = new SimpleObjectProperty<>();
        private final StringProperty url = new SimpleStringProperty("");
        private final StringProperty title = new SimpleStringProperty("");
        private final ReadOnlyObjectWrapper<Path> file = new ReadOnlyObjectWrapper<>();
        private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
        private final ReadOnlyStringWrapper failure = new ReadOnlyStringWrapper();
        private long fileBytes;
        private boolean valid;

        private EvidenceDraft(Runnable onChange) {
            kind.addListener((obs, old, k) -> changed(onChange));
            url.addListener((obs, old, u) -> changed(onChange));
            title.addListener((obs, old, t) -> changed(onChange));
            file.addListener((obs, old, f) -> changed(onChange));
            check();
        }

        public ObjectProperty<EvidenceKind> kindProperty() {
            return kind;
        }

        /** The web address; not used once a file is chosen. */
        public StringProperty urlProperty() {
            return url;
        }

        public StringProperty titleProperty() {
            return title;
        }

        /** The file chosen, or null for a web address. */
        public ReadOnlyObjectProperty<Path> fileProperty() {
            return file.getReadOnlyProperty();
        }

        public long fileBytes() {
            return fileBytes;
        }

        /** The rule the reference breaks, once something is typed or chosen; null when it keeps them. */
        public ReadOnlyStringProperty errorProperty() {
            return error.getReadOnlyProperty();
        }

        /** Why adding it to the created claim failed (a file gone, ...); null otherwise. */
        public ReadOnlyStringProperty failureProperty() {
            return failure.getReadOnlyProperty();
        }

        /** Chooses a file of {@code bytes} as the reference, in place of an address. */
        void chooseFile(Path chosen, long bytes) {
            fileBytes = bytes;
            file.set(null);
            file.set(chosen);
        }

        boolean valid() {
            return valid;
        }

        private boolean blank() {
            return kind.get() == null && file.get() == null && isBlank(url.get()) && isBlank(title.get());
        }

        private void changed(Runnable onChange) {
            failure.set(null);
            check();
            onChange.run();
        }

        private void check() {
            List<FieldViolation> broken = new ArrayList<>();
            broken.addAll(EvidenceRules.kind(kind.get() == null ? null : kind.get().code()).violations());
            String fallback;
            if (file.get() != null) {
                FieldViolation size = EvidenceRules.fileSize(fileBytes);
                if (size != null) {
                    broken.add(size);
                }
                fallback = file.get().getFileName().toString();
            } else {
                broken.addAll(EvidenceRules.url(url.get()).violations());
                fallback = url.get();
            }
            broken.addAll(EvidenceRules.title(title.get(), fallback).violations());
            valid = broken.isEmpty();
            // an empty row is not yet wrong; one being filled in says what it still needs
            error.set(blank() ? null : FieldEditor.firstMessage(broken));
        }

        private Ref ref(int index) {
            return new Ref(index, kind.get(), isBlank(url.get()) ? null : url.get(), file.get(), title.get());
        }
    }

    /** An evidence reference as handed to the background: plain values, no properties. */
    private record Ref(int index, EvidenceKind kind, String url, Path file, String title) {
    }

    /** What a Create came to: the claim (and the references that could not be added), or why it was refused. */
    private record Outcome(Claim claim, Map<Integer, String> evidenceFailures, List<FieldViolation> invalid,
            Duplicate duplicate) {
    }

    private final ClaimIntake intake;
    private final ClaimEvidence evidenceCases;
    private final TaskRunner tasks;
    private final String actor;
    private final Opener opener;

    private final Map<ClaimField<?>, FieldEditor> fields = new LinkedHashMap<>();
    private final ObservableList<EvidenceDraft> evidence = FXCollections.observableArrayList();
    private final ObjectProperty<ClaimStatus> startStatus = new SimpleObjectProperty<>(Transitions.FIRST);
    private final StringProperty reason = new SimpleStringProperty("");
    private final ReadOnlyBooleanWrapper reasonRequired = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper reasonPrompt = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Duplicate> duplicate = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper checkingDuplicate = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canCreate = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper createHint = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<Claim> created = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper done = new ReadOnlyBooleanWrapper();

    private final Supplier<LocalDate> today;

    /** The key last looked up (null for none), and the newest lookup: an older answer is dropped. */
    private ClaimKey lookedUp;
    private long lookup;

    /**
     * @param today the day the filing date defaults to and is checked against
     * @param opener shows a claim in the Claims page (the one created, or the one already open)
     */
    public NewClaimViewModel(ClaimIntake intake, ClaimEvidence evidence, TaskRunner tasks, String actor,
            Supplier<LocalDate> today, Opener opener) {
        this.today = today;
        this.intake = intake;
        this.evidenceCases = evidence;
        this.tasks = tasks;
        this.actor = actor;
        this.opener = opener;
        for (ClaimField<?> field : ClaimField.all()) {
            fields.put(field, new FieldEditor(field, today, this::fieldChanged));
        }
        field(ClaimField.CLAIM_TYPE).reset(ClaimType.OWNER.name());
        field(ClaimField.FILED_ON).reset(today.get().toString());
        startStatus.addListener((obs, old, s) -> update());
        reason.addListener((obs, old, r) -> update());
        this.evidence.addListener((javafx.collections.ListChangeListener<EvidenceDraft>) c -> update());
        update();
    }

    // ---- state --------------------------------------------------------------------------------------

    /** Every field of a claim, the tax id included, in {@link ClaimField#all()} order. */
    public List<FieldEditor> fields() {
        return List.copyOf(fields.values());
    }

    public FieldEditor field(ClaimField<?> field) {
        return fields.get(field);
    }

    public ObservableList<EvidenceDraft> evidence() {
        return evidence;
    }

    /** The statuses a new claim may start in; the first is the default, a later one needs a reason. */
    public List<ClaimStatus> startStatuses() {
        return List.copyOf(Transitions.startingStatuses());
    }

    public ObjectProperty<ClaimStatus> startStatusProperty() {
        return startStatus;
    }

    /** Why the claim starts later, or repeats one already open; written to the audit trail. */
    public StringProperty reasonProperty() {
        return reason;
    }

    /** A reason is needed: the claim repeats one already open, or starts after IDENTITY_PENDING. */
    public ReadOnlyBooleanProperty reasonRequiredProperty() {
        return reasonRequired.getReadOnlyProperty();
    }

    /** What the reason is asked for, in words; empty when none is needed. */
    public ReadOnlyStringProperty reasonPromptProperty() {
        return reasonPrompt.getReadOnlyProperty();
    }

    /** The claim already present with the jurisdiction, state property id and claimant typed; null when none is. */
    public ReadOnlyObjectProperty<Duplicate> duplicateProperty() {
        return duplicate.getReadOnlyProperty();
    }

    /** True while the claim already open is being looked up. */
    public ReadOnlyBooleanProperty checkingDuplicateProperty() {
        return checkingDuplicate.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canCreateProperty() {
        return canCreate.getReadOnlyProperty();
    }

    /** What keeps Create disabled, in words ("Fill in Claimant name, Tax id", ...); empty when it may create. */
    public ReadOnlyStringProperty createHintProperty() {
        return createHint.getReadOnlyProperty();
    }

    /** Why the last Create did not go through (or only in part), for the form's banner; null when none. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** The claim once created; the fields are then fixed and only evidence that failed remains to add. */
    public ReadOnlyObjectProperty<Claim> createdProperty() {
        return created.getReadOnlyProperty();
    }

    /** True once the claim and all its references are in: the form closes. */
    public ReadOnlyBooleanProperty doneProperty() {
        return done.getReadOnlyProperty();
    }

    /**
     * Something was typed or chosen that is not saved: closing the form would lose it (before Create, the whole
     * claim; once the claim is in, the evidence references that could not be added).
     */
    public boolean dirty() {
        if (created.get() != null) {
            return !done.get() && !evidence.isEmpty();
        }
        return fields.values().stream().anyMatch(FieldEditor::changed)
                || !evidence.isEmpty() || !isBlank(reason.get()) || startStatus.get() != Transitions.FIRST;
    }

    /** What closing the form would lose, in words ("the new claim's form is filled in and not created"); null: nothing. */
    public String unsaved() {
        if (!dirty()) {
            return null;
        }
        Claim claim = created.get();
        return claim == null ? "the new claim's form is filled in and not created"
                : "evidence references of claim " + claim.claimNumber() + " are not added";
    }

    /** The question before the form is closed with {@link #unsaved} work in it. */
    public String dropQuestion() {
        Claim claim = created.get();
        return claim == null ? "Drop the claim you were entering? Nothing of it has been saved."
                : "Drop the evidence references not added? Claim " + claim.claimNumber() + " is saved; they can"
                        + " be added later from its Evidence tab.";
    }

    /**
     * The form was closed: a claim created without all its references is shown in the Claims page (as one created
     * whole is when the form closes itself), saying what was not added.
     */
    public void closed() {
        Claim claim = created.get();
        if (claim == null || done.get()) {
            return;
        }
        int left = evidence.size();
        opener.open(claim.claimId(), claim.claimNumber(), "Claim " + claim.claimNumber() + " created in "
                + claim.status().label() + (left == 0 ? "" : "; " + left + (left == 1 ? " evidence reference was"
                        : " evidence references were") + " not added: add them from its Evidence tab"));
    }

    // ---- commands -----------------------------------------------------------------------------------

    /** Adds an empty evidence row and returns it. */
    public EvidenceDraft addEvidence() {
        EvidenceDraft row = new EvidenceDraft(this::update);
        evidence.add(row);
        return row;
    }

    public void removeEvidence(EvidenceDraft row) {
        evidence.remove(row);
    }

    /**
     * Uses {@code file} as {@code row}'s reference, in place of an address: its size is read in the background and
     * checked by {@link EvidenceRules#fileSize}. The file is copied in when the claim is created.
     */
    public void chooseFile(EvidenceDraft row, Path file) {
        if (row == null || file == null) {
            return;
        }
        tasks.submit("read the evidence file's size", p -> java.nio.file.Files.size(file),
                (Long bytes) -> row.chooseFile(file, bytes),
                e -> row.failure.set(Notice.error("read " + file.getFileName(), e).text()));
    }

    /** The claim already open, in the Claims page (what was typed stays in the form). */
    public void openDuplicate() {
        Duplicate d = duplicate.get();
        if (d != null) {
            opener.open(d.claimId(), d.claimNumber(), null);
        }
    }

    /**
     * The filing date staff did not touch follows the day: a form opened late and left open overnight files the claim
     * today, not on the day it was opened. A date typed stays as typed. Called at Create and when the form is brought
     * forward.
     */
    public void keepFilingDateToday() {
        FieldEditor filed = field(ClaimField.FILED_ON);
        String now = today.get().toString();
        if (created.get() == null && !filed.changed() && !now.equals(filed.textProperty().get())) {
            filed.reset(now);
        }
    }

    /**
     * Creates the claim with its evidence references, in one transaction; or, once the claim exists, adds the
     * references that were refused. Ends with the form done (and the claim opened), or with what went wrong shown in
     * the form.
     */
    public void create() {
        keepFilingDateToday();
        if (!canCreate.get()) {
            return;
        }
        List<Ref> refs = new ArrayList<>();
        for (int i = 0; i < evidence.size(); i++) {
            refs.add(evidence.get(i).ref(i));
        }
        busy.set(true);
        problem.set(null);
        update();
        Claim existing = created.get();
        if (existing != null) {
            tasks.submit("add evidence to the new claim", p -> addAll(existing, refs), this::evidenceAdded, this::failed);
            return;
        }
        Map<String, String> typed = new LinkedHashMap<>();
        fields.forEach((field, editor) -> typed.put(field.name(), editor.textProperty().get()));
        ClaimStatus start = startStatus.get();
        String why = reasonRequired.get() ? reason.get().strip() : null;
        Duplicate seen = duplicate.get();
        String repeats = seen == null ? null : seen.claimNumber();
        ClaimKey key = key();
        tasks.submit("create claim", p -> {
            ClaimEvidence.Created made;
            try {
                made = evidenceCases.createWith(intake, typed, start, actor, why, repeats,
                        refs.stream().map(r -> new ClaimEvidence.Draft(r.kind().code(), r.url(), r.file(), r.title()))
                                .toList());
            } catch (InvalidFieldsException e) {
                return new Outcome(null, Map.of(), e.violations(), null);
            } catch (DuplicateClaimException e) {
                Optional<Claim> present = key == null ? Optional.empty() : intake.duplicateOf(key);
                return new Outcome(null, Map.of(), List.of(), present.map(Duplicate::of)
                        .orElse(new Duplicate(e.existingClaimId(), e.existingClaimNumber(), null)));
            }
            Map<Integer, String> refused = new LinkedHashMap<>();
            made.refused().forEach((i, e) -> refused.put(refs.get(i).index(), Notice.error("add this reference", e).text()));
            return new Outcome(made.claim(), refused, List.of(), null);
        }, (Outcome o) -> {
            if (o.claim() != null) {
                created.set(o.claim());
                evidenceAdded(o.evidenceFailures());
            } else if (o.duplicate() != null) {
                busy.set(false);
                lookedUp = key;
                lookup++;
                duplicate.set(o.duplicate());
                update();
            } else {
                busy.set(false);
                for (FieldViolation v : o.invalid()) {
                    ClaimField.byName(v.field()).map(fields::get).ifPresent(f -> f.markBroken(v.message()));
                }
                problem.set("The claim was not created: fix the fields marked in red");
                update();
            }
        }, this::failed);
    }

    // ---- internals ----------------------------------------------------------------------------------

    /** Adds each reference to {@code claim}; the ones that fail, by row, with the reason. Background thread. */
    private Map<Integer, String> addAll(Claim claim, List<Ref> refs) {
        Map<Integer, String> failures = new LinkedHashMap<>();
        for (Ref r : refs) {
            try {
                if (r.file() != null) {
                    evidenceCases.addFile(claim.claimId(), r.kind().code(), r.file(), r.title(), actor);
                } else {
                    evidenceCases.addUrl(claim.claimId(), r.kind().code(), r.url(), r.title(), actor);
                }
            } catch (RuntimeException e) {
                failures.put(r.index(), Notice.error("add this reference", e).text());
            }
        }
        return failures;
    }

    private void evidenceAdded(Map<Integer, String> failures) {
        busy.set(false);
        Claim claim = created.get();
        List<EvidenceDraft> kept = new ArrayList<>();
        failures.forEach((index, why) -> {
            EvidenceDraft row = evidence.get(index);
            row.failure.set(why);
            kept.add(row);
        });
        evidence.setAll(kept);
        if (kept.isEmpty()) {
            update();
            done.set(true);
            opener.open(claim.claimId(), claim.claimNumber(), "Claim " + claim.claimNumber() + " created in "
                    + claim.status().label() + (claim.status() == Transitions.FIRST ? "" : " (the reason is in its audit entry)"));
            return;
        }
        problem.set("Claim " + claim.claimNumber() + " was created, but " + kept.size()
                + (kept.size() == 1 ? " evidence reference was" : " evidence references were")
                + " not added: correct and add again, or remove it and add it later from the claim's Evidence tab");
        update();
    }

    private void failed(Throwable e) {
        busy.set(false);
        Claim claim = created.get();
        problem.set(Notice.error(claim == null ? "create the claim" : "add evidence to claim " + claim.claimNumber(),
                e).text());
        update();
    }

    private void fieldChanged() {
        if (created.get() != null) {
            return;
        }
        lookForDuplicate();
        update();
    }

    /** The key typed, once jurisdiction, state property id and claimant name keep their rules; else null. */
    private ClaimKey key() {
        Object jurisdiction = field(ClaimField.JURISDICTION).value();
        Object propertyId = field(ClaimField.STATE_PROPERTY_ID).value();
        Object claimant = field(ClaimField.CLAIMANT_NAME).value();
        return jurisdiction == null || propertyId == null || claimant == null ? null
                : new ClaimKey((String) jurisdiction, (String) propertyId, (String) claimant);
    }

    private void lookForDuplicate() {
        ClaimKey key = key();
        if (Objects.equals(key, lookedUp)) {
            return;
        }
        lookedUp = key;
        long request = ++lookup;
        duplicate.set(null);
        if (key == null) {
            checkingDuplicate.set(false);
            return;
        }
        checkingDuplicate.set(true);
        tasks.submitInteractive("look for a claim already open", p -> intake.duplicateOf(key), (Optional<Claim> found) -> {
            if (request == lookup) {
                checkingDuplicate.set(false);
                duplicate.set(found.map(Duplicate::of).orElse(null));
                update();
            }
        }, e -> {
            if (request == lookup) {
                // Create still refuses a repeated claim without a reason; the lookup is tried again on the next change
                checkingDuplicate.set(false);
                lookedUp = null;
                problem.set(Notice.error("look for a claim already open", e).text());
                update();
            }
        });
    }

    private void update() {
        boolean needsReason = duplicate.get() != null || startStatus.get() != Transitions.FIRST;
        reasonRequired.set(needsReason);
        reasonPrompt.set(duplicate.get() != null
                ? "Why another claim for this property and claimant? (required; audited)"
                : startStatus.get() != Transitions.FIRST
                ? "Why does it start in " + startStatus.get().label() + "? (required; audited)" : "");
        List<String> blank = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        if (created.get() == null) {
            for (FieldEditor editor : fields.values()) {
                if (!editor.valid() || editor.errorProperty().get() != null) {
                    String text = editor.textProperty().get();
                    (isBlank(text) && editor.errorProperty().get() == null ? blank : broken).add(editor.field().label());
                }
            }
        }
        List<String> parts = new ArrayList<>();
        if (!blank.isEmpty()) {
            parts.add("Fill in " + String.join(", ", blank));
        }
        if (!broken.isEmpty()) {
            parts.add((parts.isEmpty() ? "Fix " : "fix ") + String.join(", ", broken));
        }
        for (int i = 0; i < evidence.size(); i++) {
            if (!evidence.get(i).valid()) {
                parts.add((parts.isEmpty() ? "Complete" : "complete") + " or remove evidence reference " + (i + 1));
                break;
            }
        }
        String hint = String.join("; ", parts);
        if (hint.isEmpty() && created.get() == null) {
            if (checkingDuplicate.get()) {
                hint = "Looking for a claim already open for this property and claimant…";
            } else if (needsReason && isBlank(reason.get())) {
                hint = duplicate.get() != null ? "Say why another claim is needed for this property and claimant"
                        : "Say why the claim starts in " + startStatus.get().label();
            }
        }
        createHint.set(hint);
        canCreate.set(!busy.get() && !done.get() && hint.isEmpty());
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }
}
