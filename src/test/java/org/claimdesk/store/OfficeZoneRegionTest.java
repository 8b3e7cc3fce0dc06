package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** The names of a team database's time zone ClaimDesk reads as PostgreSQL does, and those it leaves to doctor. */
class OfficeZoneRegionTest {

    @Test
    void regionsInAnyCaseAreReadAndOffsetFormsAreNot() {
        assertThat(OfficeZone.region("America/Los_Angeles")).contains(ZoneId.of("America/Los_Angeles"));
        assertThat(OfficeZone.region("america/los_angeles")).contains(ZoneId.of("America/Los_Angeles"));
        assertThat(OfficeZone.region("UTC")).contains(ZoneId.of("UTC"));
        // the time zone database's own name: hours west, as in PostgreSQL
        assertThat(OfficeZone.region("Etc/GMT+12")).contains(ZoneId.of("Etc/GMT+12"));
        // PostgreSQL's fixed zones, which Java's zone file does not hold
        assertThat(OfficeZone.region("EST")).contains(ZoneId.of("-05:00"));
        assertThat(OfficeZone.region("hst")).contains(ZoneId.of("-10:00"));
        assertThat(OfficeZone.region("GMT+0")).contains(java.time.ZoneOffset.UTC);
        // PostgreSQL reads these as POSIX, hours west; Java would read them east, ten hours apart
        for (String offset : new String[] {"UTC+5", "GMT+5", "+5", "-08:00", "PST8PDT-x", "nowhere/city"}) {
            assertThat(OfficeZone.region(offset)).as(offset).isEmpty();
        }
    }
}
