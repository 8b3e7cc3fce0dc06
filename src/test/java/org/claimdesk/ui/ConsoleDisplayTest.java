package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whether a refusal at start can be shown in a window: not on an X11 or Wayland system without a display. */
class ConsoleDisplayTest {
    @Test
    void aLinuxStartWithoutADisplayHasNoWindowToShowARefusalIn() {
        assertThat(Console.noDisplay("Linux", Map.of())).isTrue();
        assertThat(Console.noDisplay("Linux", Map.of("DISPLAY", " "))).isTrue();
        assertThat(Console.noDisplay("Linux", Map.of("DISPLAY", ":0"))).isFalse();
        assertThat(Console.noDisplay("Linux", Map.of("WAYLAND_DISPLAY", "wayland-0"))).isFalse();
        assertThat(Console.noDisplay("FreeBSD", Map.of())).isTrue();
        assertThat(Console.noDisplay("Windows 11", Map.of())).isFalse();
        assertThat(Console.noDisplay("Mac OS X", Map.of())).isFalse();
    }
}
