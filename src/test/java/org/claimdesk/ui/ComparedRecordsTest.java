package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.claimdesk.ui.common.RecordMethods;
import org.junit.jupiter.api.Test;

class ComparedRecordsTest {

    @Test
    void everyRecordTheConsoleBindsAtStartCanBeMadeWithDefaults() {
        assertThat(ConsoleWindow.COMPARED_ON_FX_THREAD).isNotEmpty();
        ConsoleWindow.COMPARED_ON_FX_THREAD.forEach(RecordMethods::bind);
    }
}
