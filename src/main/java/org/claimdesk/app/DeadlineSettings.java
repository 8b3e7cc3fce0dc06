package org.claimdesk.app;

import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;

/**
 * The decision deadlines in force: California 180 days, Hawaii 120, the revised-act states 90, with the office's
 * own figures for other jurisdictions, e.g. {@code NY=150,*=120}. On a team database the office sets them once for
 * every workstation, on the database ({@code claimdesk.deadline_days}, {@link Database#officeDeadlineDays()}): a
 * claim's due date then does not depend on the workstation whose worker delivered it. A desk's file, and a team
 * database that sets none, take this workstation's {@code CLAIMDESK_DEADLINE_DAYS} (or the system property
 * {@code claimdesk.deadlineDays}).
 */
public final class DeadlineSettings {
    public static final String ENV = "CLAIMDESK_DEADLINE_DAYS";
    public static final String PROPERTY = "claimdesk.deadlineDays";

    private DeadlineSettings() {
    }

    /**
     * The deadlines {@code database}'s claims are dated with. Throws {@link IllegalArgumentException} naming where the
     * setting comes from (the team database, this workstation's variable or property) and the bad pair, when the
     * setting cannot be read.
     */
    public static Deadlines current(Database database) {
        String office = database.officeDeadlineDays();
        if (office == null) {
            try {
                return Deadlines.statutory().withOverrides(workstationSetting());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("this workstation's " + (System.getProperty(PROPERTY) != null
                        ? PROPERTY : ENV) + ": " + e.getMessage(), e);
            }
        }
        try {
            return Deadlines.statutory().withOverrides(office);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the team database's " + Database.officeDeadlineDaysSetting() + ": "
                    + e.getMessage() + "; IT corrects it on the database (docs/operations.md)", e);
        }
    }

    /** This workstation's setting as written ({@value #PROPERTY}, else {@value #ENV}); null when there is none. */
    public static String workstationSetting() {
        return System.getProperty(PROPERTY, System.getenv(ENV));
    }
}
