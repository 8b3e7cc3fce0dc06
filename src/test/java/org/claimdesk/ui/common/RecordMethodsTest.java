package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.outbox.OutboxRow;
import org.junit.jupiter.api.Test;

class RecordMethodsTest {
    record Every(boolean b, char c, byte by, short s, int i, long l, float f, double d, String text, Instant at) {
    }

    @Test
    void samplesHaveEveryComponentAtItsDefaultAndCompareEqual() {
        Every sample = RecordMethods.sample(Every.class);
        assertThat(sample).isEqualTo(new Every(false, '\0', (byte) 0, (short) 0, 0, 0L, 0f, 0.0, null, null));
        assertThat(sample).isEqualTo(RecordMethods.sample(Every.class))
                .hasSameHashCodeAs(RecordMethods.sample(Every.class));
    }

    @Test
    void theConsoleRowTypesCanBeBound() {
        RecordMethods.bind(ClaimRow.class, OutboxRow.class, OutboxEvent.class, Every.class);
        assertThat(RecordMethods.sample(OutboxRow.class).event()).isNull();
    }

    record Checked(int size) {
        Checked {
            if (size <= 0) {
                throw new IllegalArgumentException("size must be positive");
            }
        }
    }

    @Test
    void aTypeWhoseConstructorRefusesDefaultsIsReportedByName() {
        assertThatThrownBy(() -> RecordMethods.bind(Checked.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Checked");
    }
}
