package org.claimdesk.ui.common;

import java.util.HashMap;
import java.util.Map;

/**
 * What staff typed for an action that did not go through (a conflict, a lost connection), by what it was for (an
 * action on a claim, on outbox rows): asked again for the same thing, the question shows it instead of an empty box.
 * An action that goes through forgets it. Lives with the page's view model, on the FX thread.
 */
public final class RetryReasons {
    private final Map<String, String> kept = new HashMap<>();

    /** {@code text} was given for {@code what} and the action failed: offer it again. */
    public void failed(String what, String text) {
        if (text == null || text.isBlank()) {
            kept.remove(what);
        } else {
            kept.put(what, text);
        }
    }

    /** The action for {@code what} went through: nothing to offer again. */
    public void succeeded(String what) {
        kept.remove(what);
    }

    /** The text to offer again for {@code what}; empty when there is none. */
    public String recall(String what) {
        return kept.getOrDefault(what, "");
    }
}
