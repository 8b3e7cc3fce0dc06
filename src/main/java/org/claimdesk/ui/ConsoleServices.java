package org.claimdesk.ui;

import java.time.Clock;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Workflow;
import org.claimdesk.delivery.WorkerControl;
import org.claimdesk.store.Database;
import org.claimdesk.ui.outbox.OutboxTriage;

/**
 * What the console works with: one open database, its read and write use cases, the delivery worker and
 * the outbox triage operations, who is signed in, and the state endpoint's name for the status bar.
 */
public record ConsoleServices(
        Database database,
        Queries queries,
        Workflow workflow,
        WorkerControl worker,
        OutboxTriage triage,
        String actor,
        String endpoint,
        Clock clock) implements AutoCloseable {

    /** Stops the worker (finishing or releasing its leases), then closes the database. */
    @Override
    public void close() {
        try {
            worker.close();
        } finally {
            database.close();
        }
    }
}
