package org.claimdesk.bench.ui;

import com.sun.javafx.perf.PerformanceTracker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javafx.animation.AnimationTimer;
import javafx.scene.control.TableView;
import org.claimdesk.bench.ProcessMemory;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.ui.ConsoleWindow;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.common.Once;
import org.claimdesk.ui.main.Page;

/**
 * Measures a running console from inside, on the FX thread: the first frame, the first rows, text filters
 * until the table shows their result, and the longest gap between pulses while the worker drains rows and
 * the pages refresh live (the page on screen changes every few seconds).
 */
final class BenchProbe {
    static final String[] SEARCHES = {"UPC-2026-054321", "Okafor", "heir of", "48213", "no claim has this text"};
    /**
     * The Outbox page's filters measured after the claims' text filters: states and jurisdictions alone and together
     * (a jurisdiction is read through its claims), then a search of error texts that finds nothing, in any state and
     * among the sent rows (the most a search reads), each from applying it until its page is shown.
     */
    static final List<OutboxFilter> OUTBOX_FILTERS = List.of(new OutboxFilter(DeliveryState.SENT, "NY", ""),
            new OutboxFilter(DeliveryState.FAILED, "CA", ""), new OutboxFilter(null, "CA", ""),
            new OutboxFilter(DeliveryState.PENDING, null, ""), new OutboxFilter(DeliveryState.SENT, null, ""),
            new OutboxFilter(null, null, "no such answer"), new OutboxFilter(DeliveryState.SENT, null, "503"));
    static final long PAGE_SWITCH_NANOS = 3_000_000_000L;
    static final long DRAIN_LIMIT_NANOS = 600_000_000_000L;

    /** An Outbox page filter: a delivery state and a jurisdiction, either null for any, and the search's text. */
    record OutboxFilter(DeliveryState state, String jurisdiction, String errorText) {
        @Override
        public String toString() {
            return (state == null ? "any state" : state.dbValue()) + " / " + (jurisdiction == null ? "any" : jurisdiction)
                    + (errorText.isEmpty() ? "" : " / \"" + errorText + "\"");
        }
    }

    private final ConsoleWindow window;
    private final int drainRows;
    private final Consumer<Map<String, Object>> done;
    private final Map<String, Object> result = new LinkedHashMap<>();
    private final List<Runnable> afterNextPulse = new ArrayList<>();
    private final List<Runnable> afterNextLayout = new ArrayList<>();
    /**
     * Animation timers run at the start of a pulse, before its layout: a page that arrived is laid out in
     * the pulse that follows and painted after it. "Shown" is therefore the start of the pulse after the
     * one that laid the page out; what runs here (after a pulse's layout) must not change the scene.
     */
    private final Runnable layoutDone = () -> {
        if (!afterNextLayout.isEmpty()) {
            List<Runnable> due = new ArrayList<>(afterNextLayout);
            afterNextLayout.clear();
            due.forEach(Runnable::run);
        }
    };
    private final List<Long> filterMillis = new ArrayList<>();
    private final List<Long> filterRowsMillis = new ArrayList<>();
    private final List<Long> filterLaidOutMillis = new ArrayList<>();
    private final List<Long> filterFxCpuMillis = new ArrayList<>();
    private final Map<String, Long> outboxFilterMillis = new LinkedHashMap<>();
    private final Map<String, Long> outboxFilterRowsMillis = new LinkedHashMap<>();
    private final Map<String, Long> outboxFilterLaidOutMillis = new LinkedHashMap<>();
    private final Map<String, Long> outboxFilterFxCpuMillis = new LinkedHashMap<>();
    private int outboxFilterIndex;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    private long firstPulseWall;
    /** When the renderer finished painting the window's first frame (wall clock, ms), or 0. */
    private final AtomicLong firstFramePainted = new AtomicLong();
    private long lastPulse;
    private boolean measuringStalls;
    private long maxGapNanos;
    private long slowPulses;
    private long pulses;
    private long drainStarted;
    private long lastSwitch;
    private int searchIndex;

    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            pulse(now);
        }
    };

    BenchProbe(ConsoleWindow window, int drainRows, Consumer<Map<String, Object>> done) {
        this.window = window;
        this.drainRows = drainRows;
        this.done = done;
    }

    /** On the FX thread, right after the window was shown, before its first pulse. */
    void start() {
        watchPaintedFrames();
        timer.start();
        window.scene().addPostLayoutPulseListener(layoutDone);
        window.scene().addPostLayoutPulseListener(firstRowsLaidOut);
    }

    /**
     * The first rows are on screen at the start of the pulse after the first layout that found the Claims page's
     * table in the scene with rows, whichever came first, the page or its rows (the page's first read may end
     * before the page is built, even before the window is shown).
     */
    private final Runnable firstRowsLaidOut = new Runnable() {
        @Override
        public void run() {
            if (window.claimsView() == null || window.claimsModel().rows().isEmpty()) {
                return;
            }
            javafx.scene.Node table = window.scene().lookup("#claimsTable");
            if (table == null) {
                return;
            }
            for (javafx.scene.Node n = table; n != null; n = n.getParent()) {
                if (!n.isVisible()) {
                    return;
                }
            }
            window.scene().removePostLayoutPulseListener(this);
            afterNextPulse.add(() -> {
                result.put("firstRowsMs", System.currentTimeMillis() - jvmStart());
                // filters are measured once start-up work is over: every page built, no read or count running
                waitingForIdleThen = () -> {
                    result.put("idleMs", System.currentTimeMillis() - jvmStart());
                    nextSearch();
                };
            });
        }
    };

    /**
     * The first frame is on screen once the renderer has painted it, which on the software renderer comes a few
     * hundred milliseconds after the FX thread laid it out: JavaFX's scene tracker is told of every frame painted, on
     * the render thread. It is internal to JavaFX; where the runtime does not export it the report says so instead.
     */
    private void watchPaintedFrames() {
        try {
            PerformanceTracker tracker = PerformanceTracker.getSceneTracker(window.scene());
            tracker.setOnRenderedFrameTask(() -> {
                firstFramePainted.compareAndSet(0, System.currentTimeMillis());
                tracker.setOnRenderedFrameTask(null);
            });
        } catch (LinkageError | RuntimeException e) {
            result.put("firstFrameMs", "not measured: " + e);
        }
    }

    private static long jvmStart() {
        return ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    private void pulse(long now) {
        if (firstPulseWall == 0) {
            firstPulseWall = System.currentTimeMillis();
            result.put("firstPulseMs", firstPulseWall - jvmStart());
        }
        if (!result.containsKey("firstFrameMs") && firstFramePainted.get() != 0) {
            result.put("firstFrameMs", firstFramePainted.get() - jvmStart());
        }
        String inGap = gapWatch == null ? null : gapWatch.pulse(now);
        if (measuringStalls && lastPulse != 0) {
            long gap = now - lastPulse;
            sampleSchedules();
            if (fxSchedule != null) {
                longestFxWaitMillis = Math.max(longestFxWaitMillis, fxSchedule.waitedMillis());
            }
            if (switching) {
                // This gap holds the layout and first render of the page staff switched to: counted apart.
                maxSwitchNanos = Math.max(maxSwitchNanos, gap);
                switchLog.add(window.mainModel().pageProperty().get() + " " + Math.round(gap / 1e6) + " ms");
                switching = false;
            } else {
                maxGapNanos = Math.max(maxGapNanos, gap);
                pulses++;
                if (gap > 50_000_000L) {
                    slowPulses++;
                    long collecting = gcMillis() - gcAtLastPulse;
                    if (collecting > 20) {
                        slowPulsesWithGc++;
                    }
                    slowPulseLog.add(new SlowPulse(gap, window.mainModel().pageProperty().get(), now - lastSwitch,
                            scheduleOf(fxSchedule), scheduleOf(rendererSchedule), scheduleOf(displaySchedule),
                            scheduleOf(dispatcherSchedule),
                            processorIdle == null ? -1 : processorIdle.idleMillis(),
                            processorIdle == null ? -1 : processorIdle.stolenMillis(),
                            majorFaults == null ? -1 : majorFaults.sinceBefore(), collecting, collectorsSince(),
                            inGap));
                }
            }
        }
        lastPulse = now;
        if (measuringStalls) {
            gcAtLastPulse = gcMillis();
            for (int i = 0; i < COLLECTORS.size(); i++) {
                collectionsAtLastPulse[i] = COLLECTORS.get(i).getCollectionCount();
            }
        }
        if (!afterNextPulse.isEmpty()) {
            List<Runnable> due = new ArrayList<>(afterNextPulse);
            afterNextPulse.clear();
            due.forEach(Runnable::run);
        }
        if (waitingForIdleThen != null && whenIdle(now)) {
            Runnable next = waitingForIdleThen;
            waitingForIdleThen = null;
            next.run();
        }
        if (drainStarted != 0) {
            watchDrain(now);
        }
    }

    private long gcAtLastPulse;
    private long slowPulsesWithGc;
    private final List<SlowPulse> slowPulseLog = new ArrayList<>();

    /** The FX thread's and the renderer's schedules (null where the system does not report them). */
    private ThreadSchedule fxSchedule;
    private ThreadSchedule rendererSchedule;
    /** The X server's, which the renderer hands every frame to (Xvfb draws it on the same processors). */
    private ThreadSchedule displaySchedule;
    /**
     * The toolkit's hand-over thread on Linux: every pulse and every {@code runLater} reaches the FX thread's event
     * loop through it, one at a time ({@code InvokeLaterDispatcher}).
     */
    private ThreadSchedule dispatcherSchedule;
    private ProcessorIdle processorIdle;
    private MajorFaults majorFaults;
    /** Looks at the FX thread in a gap between pulses while the drain is measured. */
    private GapWatch gapWatch;
    private long longestFxWaitMillis;

    private void sampleSchedules() {
        if (processorIdle != null) {
            processorIdle.sample();
        }
        if (majorFaults != null) {
            majorFaults.sample();
        }
        if (fxSchedule != null) {
            fxSchedule.sample();
        }
        if (rendererSchedule != null) {
            rendererSchedule.sample();
        }
        if (displaySchedule != null) {
            displaySchedule.sample();
        }
        if (dispatcherSchedule != null) {
            dispatcherSchedule.sample();
        }
    }

    /** A thread's processor time and wait for a processor since the pulse before, in ms, or null. */
    private static long[] scheduleOf(ThreadSchedule schedule) {
        return schedule == null ? null : new long[] {schedule.ranMillis(), schedule.waitedMillis()};
    }

    /** Kept as numbers and written out at the end: formatting text inside the measured pulses would add to them. */
    private record SlowPulse(long gapNanos, Page page, long afterShownNanos, long[] fx, long[] renderer,
            long[] display, long[] dispatcher, long idleMillis, long stolenMillis, long majorFaults,
            long collectingMillis, List<String> collectors,
            String fxInGap) {
        String describe() {
            return Math.round(gapNanos / 1e6) + " ms on " + page + ", " + Math.round(afterShownNanos / 1e6)
                    + " ms after the page was shown" + schedule("FX thread", fx) + schedule("renderer", renderer)
                    + schedule("X server", display) + schedule("hand-over thread", dispatcher)
                    + (idleMillis < 0 ? "" : "; processors idle " + idleMillis + " ms in all")
                    + (stolenMillis <= 0 ? "" : ", taken by the host " + stolenMillis + " ms")
                    + (majorFaults < 0 ? "" : "; " + majorFaults + " major page fault(s) in the console")
                    + (collectors.isEmpty() ? "" : "; collections " + collectingMillis + " ms (" + String.join(", ",
                            collectors) + ")")
                    + (fxInGap == null ? "" : "; FX thread " + GapWatch.AFTER_MILLIS + " ms into the gap: " + fxInGap);
        }

        private static String schedule(String thread, long[] ranWaited) {
            return ranWaited == null ? ""
                    : "; " + thread + " ran " + ranWaited[0] + " ms, waited " + ranWaited[1] + " ms for a processor";
        }
    }

    /** Looked up once: a lookup on every pulse would take its own share of the FX thread. */
    private static final List<java.lang.management.GarbageCollectorMXBean> COLLECTORS =
            ManagementFactory.getGarbageCollectorMXBeans();

    /** Each collector's count of collections at the last pulse, in {@link #COLLECTORS}' order. */
    private final long[] collectionsAtLastPulse = new long[COLLECTORS.size()];

    /** The collectors that ran since the pulse before, by name ("PS Scavenge", "PS MarkSweep"). */
    private List<String> collectorsSince() {
        List<String> ran = new ArrayList<>();
        for (int i = 0; i < COLLECTORS.size(); i++) {
            if (COLLECTORS.get(i).getCollectionCount() > collectionsAtLastPulse[i]) {
                ran.add(COLLECTORS.get(i).getName());
            }
        }
        return ran;
    }

    /** Milliseconds spent in garbage collection since the JVM started. */
    private static long gcMillis() {
        long total = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : COLLECTORS) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    /** What to do once the console has been idle for half a second (the filters, then the drain). */
    private Runnable waitingForIdleThen;

    /** True once the console has had no background work for half a second, counted from this pulse on. */
    private boolean whenIdle(long now) {
        if (!window.idle()) {
            idleSince = 0;
            return false;
        }
        if (idleSince == 0) {
            idleSince = now;
            return false;
        }
        if (now - idleSince > 500_000_000L) {
            idleSince = 0;
            return true;
        }
        return false;
    }
    private boolean switching;
    private long maxSwitchNanos;
    /** Each switch's gap with the page switched to, in order. */
    private final List<String> switchLog = new ArrayList<>();
    private long idleSince;

    /** One text filter: from applying it until the pulse after the one that laid its page out in the table. */
    private void nextSearch() {
        if (searchIndex >= SEARCHES.length) {
            List<Long> sorted = new ArrayList<>(filterMillis);
            Collections.sort(sorted);
            result.put("filterMs", sorted.get(sorted.size() - 1));
            result.put("filterMedianMs", sorted.get(sorted.size() / 2));
            result.put("filterEachMs", List.copyOf(filterMillis));
            result.put("filterRowsEachMs", List.copyOf(filterRowsMillis));
            result.put("filterLaidOutEachMs", List.copyOf(filterLaidOutMillis));
            result.put("filterFxCpuEachMs", List.copyOf(filterFxCpuMillis));
            window.claimsModel().searchProperty().set("");
            window.claimsModel().applyFilters();
            // the Outbox page's filters, once it is shown and its first reads are done
            window.mainModel().show(Page.OUTBOX);
            waitingForIdleThen = this::nextOutboxFilter;
            return;
        }
        String text = SEARCHES[searchIndex++];
        long before = window.claimsModel().pagesShownProperty().get();
        Once.when(window.claimsModel().pagesShownProperty(), n -> n.longValue() > before, () -> {
            long started = startedNanos;
            filterRowsMillis.add((System.nanoTime() - started) / 1_000_000);
            long cpuAtStart = startedCpuNanos;
            afterNextLayout.add(() -> {
                filterLaidOutMillis.add((System.nanoTime() - started) / 1_000_000);
                filterFxCpuMillis.add((threads.getCurrentThreadCpuTime() - cpuAtStart) / 1_000_000);
                afterNextPulse.add(() -> {
                    filterMillis.add((System.nanoTime() - started) / 1_000_000);
                    nextSearch();
                });
            });
        });
        startedNanos = System.nanoTime();
        startedCpuNanos = threads.getCurrentThreadCpuTime();
        window.claimsModel().searchProperty().set(text);
        window.claimsModel().applyFilters();
    }

    private long startedNanos;
    private long startedCpuNanos;

    /** One Outbox page filter: from applying it until the pulse after the one that laid its rows out. */
    private void nextOutboxFilter() {
        if (outboxFilterIndex >= OUTBOX_FILTERS.size()) {
            result.put("outboxFilterMs", Collections.max(outboxFilterMillis.values()));
            result.put("outboxFilterEachMs", new LinkedHashMap<>(outboxFilterMillis));
            result.put("outboxFilterRowsEachMs", new LinkedHashMap<>(outboxFilterRowsMillis));
            result.put("outboxFilterLaidOutEachMs", new LinkedHashMap<>(outboxFilterLaidOutMillis));
            result.put("outboxFilterFxCpuEachMs", new LinkedHashMap<>(outboxFilterFxCpuMillis));
            window.outboxModel().stateProperty().set(null);
            window.outboxModel().jurisdictionProperty().set(null);
            window.outboxModel().errorTextProperty().set("");
            window.outboxModel().applyFilters();
            window.mainModel().show(Page.CLAIMS);
            // like the filters, the first selection and the drain start from a quiet console: reads done
            waitingForIdleThen = this::firstSelection;
            return;
        }
        OutboxFilter filter = OUTBOX_FILTERS.get(outboxFilterIndex++);
        long before = window.outboxModel().pagesShownProperty().get();
        Once.when(window.outboxModel().pagesShownProperty(), n -> n.longValue() > before, () -> {
            long started = startedNanos;
            outboxFilterRowsMillis.put(filter.toString(), (System.nanoTime() - started) / 1_000_000);
            long cpuAtStart = startedCpuNanos;
            afterNextLayout.add(() -> {
                outboxFilterLaidOutMillis.put(filter.toString(), (System.nanoTime() - started) / 1_000_000);
                outboxFilterFxCpuMillis.put(filter.toString(),
                        (threads.getCurrentThreadCpuTime() - cpuAtStart) / 1_000_000);
                afterNextPulse.add(() -> {
                    outboxFilterMillis.put(filter.toString(), (System.nanoTime() - started) / 1_000_000);
                    // the next filter from a quiet console: this one's total counted, its error groups read
                    waitingForIdleThen = this::nextOutboxFilter;
                });
            });
        });
        startedNanos = System.nanoTime();
        startedCpuNanos = threads.getCurrentThreadCpuTime();
        window.outboxModel().stateProperty().set(filter.state());
        window.outboxModel().jurisdictionProperty().set(filter.jurisdiction());
        window.outboxModel().errorTextProperty().set(filter.errorText());
        window.outboxModel().applyFilters();
    }

    /**
     * The first claim selected: from selecting the first row until the pulse after the one that laid out its
     * detail (the detail's controls join the scene then). The selection is cleared before the drain.
     */
    private void firstSelection() {
        @SuppressWarnings("unchecked")
        TableView<ClaimRow> table = (TableView<ClaimRow>) window.scene().lookup("#claimsTable");
        ClaimRow row = table.getItems().get(0);
        Once.when(window.claimsModel().detailProperty(),
                detail -> detail != null && detail.claim().claimId() == row.claimId(), () -> {
                    long started = startedNanos;
                    afterNextLayout.add(() -> afterNextPulse.add(() -> {
                        result.put("firstDetailMs", (System.nanoTime() - started) / 1_000_000);
                        table.getSelectionModel().clearSelection();
                        waitingForIdleThen = this::startDrain;
                    }));
                });
        startedNanos = System.nanoTime();
        table.getSelectionModel().select(0);
    }

    private void startDrain() {
        fxSchedule = ThreadSchedule.ofCurrentThread();
        rendererSchedule = ThreadSchedule.ofThreadNamed("QuantumRenderer");
        displaySchedule = ThreadSchedule.ofProcessNamed(java.util.Set.of("Xvfb", "Xorg", "Xwayland"));
        dispatcherSchedule = ThreadSchedule.ofThreadNamed("InvokeLaterDisp");
        ProcessorIdle idle = new ProcessorIdle();
        processorIdle = idle.sample() ? idle : null;
        MajorFaults faults = new MajorFaults();
        majorFaults = faults.sample() ? faults : null;
        gapWatch = new GapWatch();
        window.mainModel().show(Page.OUTBOX);
        window.outboxModel().stateProperty().set(DeliveryState.PENDING);
        window.outboxModel().applyFilters();
        measuringStalls = true;
        // the pulse that follows holds the switch to Outbox: counted apart, like the other switches
        switching = true;
        drainStarted = System.nanoTime();
        result.put("drainStartMs", System.currentTimeMillis() - jvmStart());
        lastSwitch = drainStarted;
        window.workerModel().start();
    }

    private void watchDrain(long now) {
        if (now - lastSwitch > PAGE_SWITCH_NANOS) {
            lastSwitch = now;
            Page next = switch (window.mainModel().pageProperty().get()) {
                case OUTBOX -> Page.WORKER;
                case WORKER -> Page.CLAIMS;
                default -> Page.OUTBOX;
            };
            window.mainModel().show(next);
            switching = true;
        }
        WorkerSnapshot s = window.workerModel().snapshotProperty().get();
        boolean finished = s != null && s.runState() == WorkerSnapshot.RunState.RUNNING
                && s.attemptsThisRun() >= drainRows && s.due() == 0 && s.inFlight() == 0;
        boolean timedOut = System.nanoTime() - drainStarted > DRAIN_LIMIT_NANOS;
        if (finished || timedOut) {
            finish(s, timedOut);
        }
    }

    private void finish(WorkerSnapshot s, boolean timedOut) {
        double seconds = (System.nanoTime() - drainStarted) / 1e9;
        drainStarted = 0;
        measuringStalls = false;
        gapWatch.close();
        gapWatch = null;
        timer.stop();
        window.scene().removePostLayoutPulseListener(layoutDone);
        if (firstFramePainted.get() != 0) {
            PerformanceTracker.releaseSceneTracker(window.scene());
        }
        result.put("maxFxStallMs", Math.round(maxGapNanos / 1e6));
        result.put("pulsesOver50Ms", slowPulses);
        result.put("slowPulsesDuringGc", slowPulsesWithGc);
        result.put("slowPulses", slowPulseLog.stream().map(SlowPulse::describe).toList());
        result.put("maxPageSwitchMs", Math.round(maxSwitchNanos / 1e6));
        result.put("pageSwitches", List.copyOf(switchLog));
        result.put("pulsesMeasured", pulses);
        if (fxSchedule != null) {
            result.put("fxThreadDuringDrain", "ran " + fxSchedule.ranInAllMillis() + " ms, waited "
                    + fxSchedule.waitedInAllMillis() + " ms for a processor, at most " + longestFxWaitMillis
                    + " ms between two pulses");
        }
        if (majorFaults != null) {
            result.put("majorFaultsDuringDrain", majorFaults.inAll());
        }
        if (processorIdle != null) {
            result.put("stolenByHostDuringDrainMs", processorIdle.stolenInAllMillis());
        }
        if (rendererSchedule != null) {
            result.put("rendererDuringDrain", "ran " + rendererSchedule.ranInAllMillis() + " ms, waited "
                    + rendererSchedule.waitedInAllMillis() + " ms for a processor");
        }
        if (displaySchedule != null) {
            result.put("xServerDuringDrain", "ran " + displaySchedule.ranInAllMillis() + " ms, waited "
                    + displaySchedule.waitedInAllMillis() + " ms for a processor");
        }
        result.put("drainSeconds", Math.round(seconds * 10) / 10.0);
        result.put("drainSent", s == null ? 0 : s.sentThisRun());
        result.put("drainFailedOrRetried", s == null ? 0 : s.failedThisRun() + s.retriedThisRun());
        result.put("drainEventsPerSecond", s == null ? 0 : Math.round((s.sentThisRun() + s.failedThisRun()) / seconds));
        result.put("drainTimedOut", timedOut);
        result.put("rssMb", ProcessMemory.statusMb("VmRSS"));
        result.put("peakRssMb", ProcessMemory.statusMb("VmHWM"));
        result.put("heapUsedMb", (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
        result.put("maxHeapMb", Runtime.getRuntime().maxMemory() >> 20);
        window.workerModel().pause();
        done.accept(result);
    }
}
