package org.claimdesk.app;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.HostName;
import org.claimdesk.store.Json;

/** Who works at this console: chosen at first start (the OS user by default), kept in the console's settings. */
public final class Operators {
    /** Environment variable (or system property {@code claimdesk.operator}) that sets the operator without asking. */
    public static final String OPERATOR_ENV = "CLAIMDESK_OPERATOR";

    private Operators() {
    }

    /** The operator given by the environment, or null. */
    public static String fromEnvironment() {
        String value = System.getProperty("claimdesk.operator", System.getenv(OPERATOR_ENV));
        return value == null || value.isBlank() ? null : value.strip();
    }

    /**
     * Who a command run without an operator of its own (backup, the move-in) is audited as: the operator the
     * environment names, else the system account.
     */
    public static String commandLineActor() {
        String named = fromEnvironment();
        return named != null ? named : osUser();
    }

    /** The default offered at first start: the OS user. */
    public static String osUser() {
        return System.getProperty("user.name", "staff");
    }

    /**
     * This workstation's name as the audit trail gives it: the host name (which may ask the resolver: call
     * off the FX thread), else "this workstation".
     */
    public static String workstation() {
        return HostName.orElse("this workstation");
    }

    /** Checks a name the way every audited action does; returns it trimmed. */
    public static String check(String name) {
        return Inputs.actor(name);
    }

    /**
     * Writes the choice of operator to the audit trail (a settings change), with the system account and the
     * workstation it was made on: the name is typed, they say who typed it. Asks the resolver: call off the FX thread.
     */
    public static void recordChoice(Database database, Clock clock, String operator, String previous) {
        String who = Inputs.actor(operator);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("operator", who);
        details.put("previous", previous);
        details.put("systemUser", osUser());
        details.put("workstation", workstation());
        database.useTransaction(h -> new AuditStore().append(h, clock.instant(), who, AuditActions.SETTINGS_CHANGE,
                AuditActions.SUBJECT_SETTINGS, "operator", previous == null ? "first start" : "operator changed",
                Json.write(details)));
    }
}
