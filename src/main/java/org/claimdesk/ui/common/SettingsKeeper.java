package org.claimdesk.ui.common;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Keeps what staff just changed in this workstation's settings file at once, not only when the console closes: each
 * change is written off the FX thread, in order however the background threads run them (a change superseded before
 * its turn is not written; the one after it holds it).
 */
public final class SettingsKeeper {
    private final UiSettingsStore store;
    private final Executor background;
    private final Consumer<RuntimeException> failed;
    private final AtomicLong changes = new AtomicLong();

    /**
     * @param store the settings file
     * @param background where the file is written
     * @param failed told, on the background thread, when the file cannot be written
     */
    public SettingsKeeper(UiSettingsStore store, Executor background, Consumer<RuntimeException> failed) {
        this.store = store;
        this.background = background;
        this.failed = failed;
    }

    /** Applies {@code change} to the settings kept in the file (read again first), off the calling thread. */
    public void keep(Consumer<UiSettings> change) {
        long mine = changes.incrementAndGet();
        background.execute(() -> {
            synchronized (changes) {
                if (mine != changes.get()) {
                    return;
                }
                try {
                    store.update(change);
                } catch (RuntimeException e) {
                    failed.accept(e);
                }
            }
        });
    }
}
