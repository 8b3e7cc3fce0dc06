package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import javafx.collections.ListChangeListener;
import org.claimdesk.domain.ClaimDeskException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommonTest {
    @TempDir
    Path dir;

    @Test
    void pagingDescribesAndClampsPages() {
        Paging p = Paging.first(200).withTotal(450);
        assertThat(p.describe()).isEqualTo("1–200 of 450");
        assertThat(p.next().next().describe()).isEqualTo("401–450 of 450");
        assertThat(p.next().next().hasNext()).isFalse();
        assertThat(p.lastPage().offset()).isEqualTo(400);
        assertThat(p.lastPage().withTotal(150).offset()).as("a shrunken result moves back to its last page").isZero();
        assertThat(Paging.first(200).describe()).as("rows may be on screen before they are counted")
                .isEqualTo("counting…");
        assertThat(Paging.first(200).hasNext()).isFalse();
        assertThat(Paging.first(200).withTotal(0).describe()).isEqualTo("no rows");
    }

    @Test
    void aFreshPageIsShownAsUpdatesOfTheChangedPositionsNeverAsAReplace() {
        RowList<String> list = new RowList<>();
        List<String> changes = new ArrayList<>();
        list.addListener((ListChangeListener<String>) c -> {
            while (c.next()) {
                changes.add(c.wasReplaced() ? "replaced " + c.getFrom()
                        : c.wasUpdated() ? "updated " + c.getFrom() + ".." + c.getTo()
                        : c.wasAdded() ? "added " + c.getFrom() + ".." + c.getTo()
                        : c.wasRemoved() ? "removed " + c.getFrom() + " " + c.getRemoved() : "other");
            }
        });

        assertThat(list.showInPlace(List.of("a1", "b1", "c1"))).isEqualTo(3);
        assertThat(changes).containsExactly("added 0..3");

        changes.clear();
        assertThat(list.showInPlace(List.of("a1", "b2", "c1"))).isEqualTo(1);
        assertThat(list).containsExactly("a1", "b2", "c1");
        assertThat(changes).as("one changed row: one update").containsExactly("updated 1..2");

        changes.clear();
        assertThat(list.showInPlace(List.of("a1", "b2", "c1"))).isZero();
        assertThat(changes).as("nothing changed: no event").isEmpty();

        changes.clear();
        assertThat(list.showInPlace(List.of("x1", "y1"))).isEqualTo(3);
        assertThat(list).containsExactly("x1", "y1");
        assertThat(changes).as("other rows in fewer positions").containsExactlyInAnyOrder("updated 0..2", "removed 2 [c1]");

        changes.clear();
        assertThat(list.showInPlace(List.of("x1", "y2", "z1", "w1"))).isEqualTo(3);
        assertThat(list).containsExactly("x1", "y2", "z1", "w1");
        assertThat(changes).containsExactlyInAnyOrder("updated 1..2", "added 2..4");

        changes.clear();
        assertThat(list.showInPlace(List.of())).isEqualTo(4);
        assertThat(list).isEmpty();
        assertThat(changes).containsExactly("removed 0 [x1, y2, z1, w1]");
    }

    @Test
    void readsStaffWaitOnRunAboveTheBackgroundPool() throws Exception {
        try (ConsoleExecutors executors = new ConsoleExecutors()) {
            int interactive = executors.interactive().submit(() -> Thread.currentThread().getPriority()).get();
            int background = executors.background().submit(() -> Thread.currentThread().getPriority()).get();
            assertThat(interactive).isEqualTo(Thread.NORM_PRIORITY);
            assertThat(background).isLessThan(interactive).isGreaterThan(Thread.MIN_PRIORITY);
        }
    }

    /** A tick that failed with an error (a full heap) does not cancel the ticks after it, as it would on its own. */
    @Test
    void aPeriodicTickStillRunsAfterOneFailedWithAnError() {
        java.util.concurrent.atomic.AtomicInteger ticks = new java.util.concurrent.atomic.AtomicInteger();
        try (ConsoleExecutors executors = new ConsoleExecutors()) {
            executors.every(10, "test", () -> {
                if (ticks.incrementAndGet() == 1) {
                    throw new OutOfMemoryError("test");
                }
            });
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> ticks.get() >= 3);
        }
    }

    @Test
    void coalescerHandsOverOnlyTheNewestValue() {
        List<Runnable> scheduled = new ArrayList<>();
        List<Integer> received = new ArrayList<>();
        Coalescer<Integer> c = new Coalescer<>(scheduled::add, received::add);
        c.offer(1);
        c.offer(2);
        c.offer(3);
        assertThat(scheduled).hasSize(1);
        scheduled.get(0).run();
        assertThat(received).containsExactly(3);
        c.offer(4);
        assertThat(scheduled).hasSize(2);
    }

    @Test
    void settingsSurviveARoundTripAndABrokenFileGivesDefaults() throws Exception {
        UiSettingsStore store = new UiSettingsStore(dir);
        UiSettings s = new UiSettings();
        s.width = 1234;
        s.dark = true;
        s.page = "OUTBOX";
        s.dividers.put("claims", new double[] {0.4});
        s.columns.put("claims", List.of(new UiSettings.Column("amount", 120, false)));
        store.save(s);
        UiSettings back = store.load();
        assertThat(back.width).isEqualTo(1234);
        assertThat(back.dark).isTrue();
        assertThat(back.page).isEqualTo("OUTBOX");
        assertThat(back.dividers.get("claims")).containsExactly(0.4);
        assertThat(back.columns.get("claims").get(0).visible).isFalse();
        // owner-only (they name the operator), and no temporary file left beside them
        assertThat(Files.getPosixFilePermissions(store.file()))
                .containsExactlyInAnyOrder(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        try (java.util.stream.Stream<Path> beside = Files.list(store.file().getParent())) {
            assertThat(beside).containsExactly(store.file());
        }
        // two consoles of one user saving at once: each save is whole
        UiSettingsStore other = new UiSettingsStore(dir);
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<?>> saves = new java.util.ArrayList<>();
            for (int i = 0; i < 50; i++) {
                saves.add(two.submit(() -> store.save(s)));
                saves.add(two.submit(() -> other.save(s)));
            }
            for (java.util.concurrent.Future<?> save : saves) {
                save.get();
            }
        } finally {
            two.shutdown();
        }
        assertThat(store.load().width).isEqualTo(1234);

        Files.writeString(store.file(), "{ not json");
        assertThat(store.load().width).isEqualTo(new UiSettings().width);
        // a change kept at once is refused rather than written over the defaults (which would lose the operator)
        assertThatThrownBy(() -> store.update(kept -> kept.textSize = 150)).isInstanceOf(ClaimDeskException.class)
                .hasMessageStartingWith("cannot read the console settings in " + store.file());
        assertThat(Files.readString(store.file())).isEqualTo("{ not json");
    }

    /**
     * Changes kept at once are written in order, the last one last, and a change after {@link SettingsKeeper#stop()}
     * (the console's close, whose own save must not be overwritten) is dropped; who works here is left as the file has
     * it.
     */
    @Test
    void aKeeperWritesTheLastChangeAndNothingOnceStopped() throws Exception {
        UiSettingsStore store = new UiSettingsStore(dir);
        store.update(kept -> kept.operator = "kim");
        List<RuntimeException> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger written = new java.util.concurrent.atomic.AtomicInteger();
        SettingsKeeper keeper = new SettingsKeeper(store, failures::add, written::incrementAndGet);
        for (int size : List.of(110, 125, 150, 175)) {
            keeper.keep(kept -> kept.textSize = size);
        }
        org.awaitility.Awaitility.await().until(() -> store.load().textSize == 175);
        org.awaitility.Awaitility.await().until(() -> written.get() >= 1);
        keeper.stop();
        // a change after the close is not kept (the close's own save holds the window as it was left)
        keeper.keep(kept -> kept.textSize = 80);
        assertThat(store.load().textSize).isEqualTo(175);
        assertThat(store.load().operator).isEqualTo("kim");
        assertThat(failures).isEmpty();
    }

    @Test
    void noticesExplainKnownErrorsAndPointToTheLogForOthers() {
        assertThat(Notice.error("move claim", new CompletionException(new ClaimDeskException("claim X is final"))).text())
                .isEqualTo("Could not move claim: claim X is final");
        assertThat(Notice.error("load", new NullPointerException()).text()).contains("details are in the log");
        // a file system failure says what went wrong with which file, not the exception's name
        assertThat(Notice.error("export the outbox rows", new java.io.UncheckedIOException("cannot write /x/rows.csv: "
                + org.claimdesk.store.IoErrors.describe(new java.nio.file.AccessDeniedException("/x/.rows.csv.part")),
                new java.nio.file.AccessDeniedException("/x/.rows.csv.part"))).text())
                .isEqualTo("Could not export the outbox rows: cannot write /x/rows.csv: no permission for"
                        + " /x/.rows.csv.part (check the folder's and the file's permissions)");
        assertThat(Notice.error("attach the file", new java.nio.file.NoSuchFileException("/x/id.pdf")).text())
                .isEqualTo("Could not attach the file: /x/id.pdf does not exist");
    }

    @Test
    void formatsForStaff() {
        assertThat(Formats.money(123456)).isEqualTo("$1,234.56");
        assertThat(Formats.label("READY_FOR_SUBMISSION")).isEqualTo("Ready for submission");
        assertThat(Formats.oneLine("a\n  b", 10)).isEqualTo("a b");
        assertThat(Formats.oneLine("abcdefghijkl", 5)).isEqualTo("abcd…");
        java.time.Instant now = java.time.Instant.parse("2026-11-30T10:00:00Z");
        assertThat(Formats.ago(now.minusSeconds(3 * 86_400 + 60), now)).isEqualTo("3 d ago");
        assertThat(Formats.ago(now.plusSeconds(60), now)).isEqualTo("just now");
        assertThat(Formats.age(now.plusSeconds(7200), now)).isEqualTo("in 2 h");
    }
}
