package org.claimdesk.app;

import org.claimdesk.domain.Deadlines;

/**
 * The statutory decision deadlines in force: California 180 days, Hawaii 120, the revised-act states 90,
 * with the office's own settings for other jurisdictions from {@code CLAIMDESK_DEADLINE_DAYS} (or the
 * system property {@code claimdesk.deadlineDays}), e.g. {@code NY=150,*=120}.
 */
public final class DeadlineSettings {
    public static final String ENV = "CLAIMDESK_DEADLINE_DAYS";
    public static final String PROPERTY = "claimdesk.deadlineDays";

    private DeadlineSettings() {
    }

    /** Throws {@link IllegalArgumentException} naming the bad pair when the setting cannot be read. */
    public static Deadlines current() {
        return Deadlines.statutory().withOverrides(setting());
    }

    /** This workstation's setting as written ({@value #PROPERTY}, else {@value #ENV}); null when there is none. */
    public static String setting() {
        return System.getProperty(PROPERTY, System.getenv(ENV));
    }
}
