package org.claimdesk.ui.testing;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;

/** Work run on the FX thread from a test's thread, its result or failure handed back. */
public final class FxThread {
    private FxThread() {
    }

    /** Runs {@code work} on the FX thread and returns what it returned, waiting at most 10 s. */
    public static <T> T call(Callable<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }
}
