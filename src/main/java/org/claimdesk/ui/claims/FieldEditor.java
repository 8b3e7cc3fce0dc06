package org.claimdesk.ui.claims;

import java.time.LocalDate;
import java.util.List;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.claimdesk.domain.Amounts;
import org.claimdesk.domain.Checked;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.FieldViolation;

/**
 * One claim field as staff type it, checked as they type by the field's one rule ({@link ClaimField#check}): the
 * text, the broken rule's message, a hint and what the state said about the field. The claim editor and the
 * new-claim form both hold their fields this way; {@link FieldForm} shows them.
 */
public final class FieldEditor {
    private final ClaimField<?> field;
    private final Supplier<LocalDate> today;
    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper hint = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper fault = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper lock = new ReadOnlyStringWrapper();
    private String original = "";
    private Checked<?> checked;

    /** @param onChange runs after each change of the text, once the rule has been applied */
    FieldEditor(ClaimField<?> field, Supplier<LocalDate> today, Runnable onChange) {
        this.field = field;
        this.today = today;
        this.checked = field.check("", today.get());
        text.addListener((obs, old, now) -> {
            fault.set(null);
            apply(now);
            error.set(firstMessage(checked.violations()));
            onChange.run();
        });
    }

    public ClaimField<?> field() {
        return field;
    }

    public StringProperty textProperty() {
        return text;
    }

    /** The broken rule's message, e.g. "State property id must be 7 to 9 digits"; null when the text is fine. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** What a valid value means, where the text alone does not say (the amount in dollars); null otherwise. */
    public ReadOnlyStringProperty hintProperty() {
        return hint.getReadOnlyProperty();
    }

    /**
     * What staff should look at in this field: what the state said about it when it refused the claim, or the value
     * another workstation gave it while staff were typing theirs; null when there is nothing. Typing in the field
     * clears it: staff have dealt with it.
     */
    public ReadOnlyStringProperty faultProperty() {
        return fault.getReadOnlyProperty();
    }

    /**
     * Why the claim's status keeps this field as it is though the rest of the claim can be edited (NEEDS_INFO:
     * {@link org.claimdesk.domain.ClaimStatus#fieldRefusal}); null when staff may change it. The form disables the
     * field; the editor's {@link ClaimEditViewModel#lockedNoticeProperty} says why, once for all.
     */
    public ReadOnlyStringProperty lockProperty() {
        return lock.getReadOnlyProperty();
    }

    /** Locks the field for {@code reason}, or frees it (null). */
    void lock(String reason) {
        lock.set(reason);
    }

    public boolean changed() {
        return !original.equals(text.get() == null ? "" : text.get());
    }

    /** The text keeps the field's rule (whether or not its message is shown yet). */
    public boolean valid() {
        return checked.isOk();
    }

    /** The value read from the text (stripped, parsed); null when the rule is broken or an optional field is blank. */
    public Object value() {
        return checked.isOk() ? checked.value() : null;
    }

    /** Starts again from {@code start}: no message shown until staff type, even when it breaks the rule. */
    void reset(String start) {
        original = start == null ? "" : start;
        text.set(original);
        apply(original);
        error.set(null);
        fault.set(null);
    }

    /** Shows a rule the text broke when it was saved (e.g. one the command refused). */
    void markBroken(String message) {
        error.set(message);
    }

    /** Shows what staff should look at in the field (null clears it): see {@link #faultProperty}. */
    void markFault(String message) {
        fault.set(message);
    }

    private void apply(String now) {
        checked = field.check(now, today.get());
        hint.set(field == ClaimField.AMOUNT_CENTS && checked.value() instanceof Long cents
                ? "= " + Amounts.dollars(cents) : null);
    }

    static String firstMessage(List<FieldViolation> violations) {
        return violations.isEmpty() ? null : violations.get(0).message();
    }
}
