package org.claimdesk.testing;

import org.jdbi.v3.core.Handle;

/** A class outside store that runs SQL itself, for ArchitectureTest to catch. */
public final class SqlOutsideStore {
    private SqlOutsideStore() {
    }

    static int count(Handle h) {
        return h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one();
    }
}
