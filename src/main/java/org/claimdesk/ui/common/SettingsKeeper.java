package org.claimdesk.ui.common;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Keeps what staff just changed in this workstation's settings file at once, not only when the console closes: each
 * change is written on a thread of its own (never behind the console's database reads), the last change last (a
 * change superseded before its turn is not written; the one after it holds it).
 */
public final class SettingsKeeper {
    private final UiSettingsStore store;
    private final Consumer<RuntimeException> failed;
    private final Runnable written;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "claimdesk-settings");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong changes = new AtomicLong();

    /**
     * @param store the settings file
     * @param failed told, on the writing thread, when the file cannot be read or written
     * @param written told, on the writing thread, when a change is written
     */
    public SettingsKeeper(UiSettingsStore store, Consumer<RuntimeException> failed, Runnable written) {
        this.store = store;
        this.failed = failed;
        this.written = written;
    }

    /**
     * Applies {@code change} to the settings kept in the file (read again first), off the calling thread; nothing once
     * stopped.
     */
    public void keep(Consumer<UiSettings> change) {
        if (writer.isShutdown()) {
            return;
        }
        long mine = changes.incrementAndGet();
        writer.execute(() -> {
            synchronized (changes) {
                if (mine != changes.get()) {
                    return;
                }
                try {
                    store.update(change);
                } catch (RuntimeException e) {
                    failed.accept(e);
                    return;
                }
                written.run();
            }
        });
    }

    /**
     * Writes nothing more: waits for a write under way, drops those queued, so that a save made after this (the
     * console's close) is not overwritten by an older change.
     */
    public void stop() {
        synchronized (changes) {
            changes.incrementAndGet();
        }
        writer.shutdown();
    }
}
