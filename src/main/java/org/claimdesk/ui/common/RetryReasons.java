package org.claimdesk.ui.common;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What staff typed for an action that did not go through (a conflict, a lost connection), by what it was for (an
 * action on a claim, on outbox rows): asked again for the same thing, the question shows it instead of an empty box.
 * An action that goes through forgets it, and so does time: a reason is offered for {@link #KEPT_FOR} after its try,
 * not the next week in a console left open, when it no longer says why. Lives with the page's view model, on the FX
 * thread.
 */
public final class RetryReasons {
    /** How long a reason is offered again after the try that failed. */
    public static final Duration KEPT_FOR = Duration.ofHours(1);

    private record Kept(String text, long atNanos) {
    }

    private final Map<String, Kept> kept = new LinkedHashMap<>();
    private final LongSupplier nanoClock;

    public RetryReasons() {
        this(System::nanoTime);
    }

    /** With {@code nanoClock} for the time reasons are kept by (tests). */
    RetryReasons(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** {@code text} was given for {@code what} and the action failed: offer it again. */
    public void failed(String what, String text) {
        forgetOld();
        if (text == null || text.isBlank()) {
            kept.remove(what);
        } else {
            kept.put(what, new Kept(text, nanoClock.getAsLong()));
        }
    }

    /** The action for {@code what} went through: nothing to offer again. */
    public void succeeded(String what) {
        kept.remove(what);
    }

    /** The text to offer again for {@code what}; empty when there is none, or it is older than {@link #KEPT_FOR}. */
    public String recall(String what) {
        forgetOld();
        Kept k = kept.get(what);
        return k == null ? "" : k.text();
    }

    private void forgetOld() {
        long now = nanoClock.getAsLong();
        kept.values().removeIf(k -> now - k.atNanos() > KEPT_FOR.toNanos());
    }
}
