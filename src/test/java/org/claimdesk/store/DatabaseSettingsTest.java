package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A team database's settings as {@code pg_db_role_setting} lists them: {@code name=value}, the value as written. */
class DatabaseSettingsTest {

    @Test
    void namesAreReadInLowerCaseValuesAsWrittenTheFirstOfANameCounting() {
        assertThat(DatabaseSettings.parsed(List.of("TimeZone=America/Los_Angeles",
                "claimdesk.deadline_days=NY=150, *=100", "search_path=\"$user\", public", "timezone=UTC",
                "work_mem=\"64MB\"", "=orphan", "no-equals")))
                .containsEntry("timezone", "America/Los_Angeles")
                .containsEntry(DatabaseSettings.DEADLINE_DAYS, "NY=150, *=100")
                .containsEntry("search_path", "\"$user\", public")
                .containsEntry("work_mem", "64MB")
                .hasSize(4);
    }
}
