package org.claimdesk.store;

/**
 * Told of each schema version a database is brought to while it opens, on the thread opening it, before that
 * version's statements run (on PostgreSQL inside the version's transaction, where Flyway tells its callbacks: a
 * listener returns at once). Most openings apply nothing; after an upgrade of ClaimDesk one version may take
 * seconds on a large database, and the console and the command line say what is going on meanwhile.
 */
@FunctionalInterface
public interface SchemaProgress {
    SchemaProgress NONE = (found, version, latest) -> { };

    /**
     * @param found   the version the database was at when it opened; 0 for a new database
     * @param version the version about to be applied
     * @param latest  the version this build brings it to
     */
    void applying(int found, int version, int latest);

    /** One line for staff: what is being applied, and from which version. */
    static String describe(int found, int version, int latest) {
        if (found == 0) {
            return "Creating the database (schema version " + version + " of " + latest + ")";
        }
        return "Bringing the database up to date for this ClaimDesk: schema version " + version + " of " + latest
                + " (it was at " + found + ")";
    }
}
