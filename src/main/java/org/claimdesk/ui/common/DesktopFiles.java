package org.claimdesk.ui.common;

import java.awt.Desktop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.claimdesk.domain.ClaimDeskException;

/**
 * Opens a file the console wrote (an errors file, an export) with the desktop's program for it, or its folder
 * when the desktop opens only folders. Never on the FX thread: the desktop may take a while to answer. A system
 * without a desktop (a server, a headless session) is a {@link ClaimDeskException} naming the file, so staff can
 * find it themselves.
 */
public final class DesktopFiles {
    private DesktopFiles() {
    }

    public static void open(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new ClaimDeskException("there is no file " + file + " any more");
        }
        Desktop desktop = Desktop.isDesktopSupported() ? Desktop.getDesktop() : null;
        if (desktop != null && desktop.isSupported(Desktop.Action.OPEN)) {
            desktop.open(file.toFile());
        } else if (desktop != null && desktop.isSupported(Desktop.Action.BROWSE_FILE_DIR)) {
            desktop.browseFileDirectory(file.toFile());
        } else {
            throw new ClaimDeskException("this system has no desktop to open files with; the file is " + file);
        }
    }
}
