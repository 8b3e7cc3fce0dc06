package org.claimdesk.ui.common;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Holds back what a page would redraw while it is out of sight. JavaFX styles and lays out a hidden page
 * like a shown one: a page of fresh rows reaching the hidden Claims table (a search cleared just before
 * staff switched to Outbox) cost about 100 ms on the FX thread while the drain ran on the page on screen.
 * Off screen, the latest update of each kind is kept and run when the page is shown again, in the order
 * they came. The first update of each kind always runs at once: a page filled at start-up, while nothing
 * else needs the FX thread, has its cells made before staff first open it (filling it then instead made
 * that first visit, at the drain's start in the benchmark, cost over 100 ms). On the FX thread only (no
 * locking).
 */
public final class OnScreen {
    private boolean shown = true;
    private final Map<String, Runnable> held = new LinkedHashMap<>();
    private final Set<String> ran = new HashSet<>();

    /**
     * Runs {@code update} now if the page is on screen or nothing of {@code kind} ran yet; otherwise keeps
     * it, replacing an earlier one of {@code kind}.
     */
    public void run(String kind, Runnable update) {
        boolean first = ran.add(kind);
        if (shown || first) {
            held.remove(kind);
            update.run();
        } else {
            held.remove(kind);
            held.put(kind, update);
        }
    }

    /** Called as the page is shown or hidden; showing it runs what was held back. */
    public void setShown(boolean shown) {
        this.shown = shown;
        if (shown && !held.isEmpty()) {
            List<Runnable> due = new ArrayList<>(held.values());
            held.clear();
            due.forEach(Runnable::run);
        }
    }

    public boolean shown() {
        return shown;
    }

    /** How many updates wait for the page to be shown. */
    public int held() {
        return held.size();
    }
}
