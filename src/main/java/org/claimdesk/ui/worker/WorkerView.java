package org.claimdesk.ui.worker;

import org.claimdesk.ui.common.Accessible;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.value.ObservableValue;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.chart.AreaChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.Tooltip;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.NoticeLabel;

/** The worker page: binds {@link WorkerViewModel} to the FXML and draws the per-second chart. */
public final class WorkerView {
    private final WorkerViewModel model;

    @FXML private javafx.scene.layout.BorderPane workerPage;
    @FXML private Label workerStateLabel;
    @FXML private Label workerEndpointLabel;
    @FXML private Button workerStartButton;
    @FXML private Button workerPauseButton;
    @FXML private Button workerResumeButton;
    @FXML private Button drainNowButton;
    @FXML private Label systemPauseBanner;
    @FXML private Label staffPauseBanner;
    @FXML private CheckBox startWithConsoleCheck;
    @FXML private ProgressBar drainProgress;
    @FXML private Label drainLabel;
    @FXML private Label countersLabel;
    @FXML private Label rateLabel;
    @FXML private Label pendingLabel;
    @FXML private Label dueLabel;
    @FXML private Label sentTotalLabel;
    @FXML private Label failedTotalLabel;
    @FXML private Label lastErrorLabel;
    @FXML private Spinner<Integer> concurrencySpinner;
    @FXML private Spinner<Integer> maxAttemptsSpinner;
    @FXML private Spinner<Integer> intervalSpinner;
    @FXML private Button applySettingsButton;
    @FXML private Button resetSettingsButton;
    @FXML private AreaChart<Number, Number> rateChart;
    @FXML private NumberAxis rateTimeAxis;
    @FXML private NumberAxis rateValueAxis;
    @FXML private Label workerNotice;

    private final XYChart.Series<Number, Number> sentSeries = new XYChart.Series<>();
    private final XYChart.Series<Number, Number> failedSeries = new XYChart.Series<>();

    public WorkerView(WorkerViewModel model) {
        this.model = model;
    }

    @FXML
    private void initialize() {
        Accessible.name(concurrencySpinner, "Concurrency");
        Accessible.name(maxAttemptsSpinner, "Max attempts");
        Accessible.name(intervalSpinner, "Interval");
        // What changes with every snapshot is shown only while this page is: JavaFX repaints the whole window
        // for a change to a node that is not drawn, and the worker reports several times a second.
        ObservableValue<Boolean> shown = workerPage.visibleProperty();
        workerStateLabel.textProperty().bind(model.stateTextProperty().when(shown));
        model.runStateProperty().when(shown).addListener((obs, old, state) -> styleState());
        model.heldProperty().when(shown).addListener((obs, old, held) -> styleState());
        styleState();
        workerEndpointLabel.textProperty().bind(model.endpointProperty().map(e -> e.isBlank() ? "" : "Endpoint: " + e));
        workerStartButton.disableProperty().bind(model.canStartProperty().not().when(shown));
        workerPauseButton.disableProperty().bind(model.canPauseProperty().not().when(shown));
        workerResumeButton.disableProperty().bind(model.canResumeProperty().not().when(shown));
        workerStartButton.setOnAction(e -> model.start());
        workerPauseButton.setOnAction(e -> Dialogs.confirmWithReason(workerPage.getScene().getWindow(),
                "Pause the delivery worker", "Pause deliveries to the state? Deliveries under way finish. The worker"
                        + " stays paused, also after a restart and on other consoles started on this database, until"
                        + " someone resumes it.", "Pause", true, "Why (shown in the status bar and the audit trail)")
                .ifPresent(a -> model.pause(a.reason())));
        workerResumeButton.setOnAction(e -> Dialogs.confirmWithReason(workerPage.getScene().getWindow(),
                "Resume the delivery worker", "Resume deliveries to the state?"
                        + (model.staffPauseProperty().get() == null ? "" : "\n" + model.staffPauseProperty().get()),
                "Resume", false, "Why (optional)")
                .ifPresent(a -> model.resume(a.reason())));
        drainNowButton.setOnAction(e -> model.drainNow());
        drainNowButton.disableProperty().bind(model.runStateProperty().isNotEqualTo(WorkerSnapshot.RunState.RUNNING)
                .or(model.heldProperty()).when(shown));

        ObservableValue<String> systemPause = model.systemPauseProperty().when(shown);
        systemPauseBanner.textProperty().bind(systemPause.map(
                r -> "The worker paused itself: " + r + ". Fix the cause (credentials, network, the state's service), then Resume."));
        systemPauseBanner.visibleProperty().bind(systemPause.map(r -> true).orElse(false));
        systemPauseBanner.managedProperty().bind(systemPauseBanner.visibleProperty());
        ObservableValue<String> staffPause = model.staffPauseProperty().when(shown);
        staffPauseBanner.textProperty().bind(staffPause.map(p -> p + ". Submissions wait until the worker is resumed."));
        staffPauseBanner.visibleProperty().bind(staffPause.map(p -> true).orElse(false));
        staffPauseBanner.managedProperty().bind(staffPauseBanner.visibleProperty());

        startWithConsoleCheck.setSelected(model.startWithConsoleProperty().get());
        model.startWithConsoleProperty().addListener((obs, old, on) -> startWithConsoleCheck.setSelected(on));
        startWithConsoleCheck.setOnAction(e -> model.setStartWithConsole(startWithConsoleCheck.isSelected()));
        // one change at a time: a second click before the first is kept would race it to the settings and the audit
        startWithConsoleCheck.disableProperty().bind(model.keepingStartProperty());

        drainProgress.progressProperty().bind(model.drainProgressProperty().when(shown));
        drainLabel.textProperty().bind(model.drainTextProperty().when(shown));
        countersLabel.textProperty().bind(model.countersTextProperty().when(shown));
        rateLabel.textProperty().bind(model.rateTextProperty().when(shown));
        ObservableValue<WorkerSnapshot> snapshot = model.snapshotProperty().when(shown);
        pendingLabel.textProperty().bind(snapshot.map(s -> Formats.count(s.pending())));
        dueLabel.textProperty().bind(snapshot.map(s -> Formats.count(s.due())));
        sentTotalLabel.textProperty().bind(snapshot.map(s -> Formats.count(s.sentTotal())));
        failedTotalLabel.textProperty().bind(snapshot.map(s -> Formats.count(s.failedTotal())));
        // one line, the whole text in its tooltip: a wrapped error would change the card's height, and the
        // chart's below it, with each error
        ObservableValue<String> lastError = model.lastErrorProperty().when(shown);
        lastErrorLabel.textProperty().bind(lastError.map(e -> "Last error: " + e));
        lastErrorLabel.visibleProperty().bind(lastError.map(e -> true).orElse(false));
        Tooltip lastErrorTip = new Tooltip();
        lastErrorTip.textProperty().bind(lastErrorLabel.textProperty());
        lastErrorTip.setWrapText(true);
        lastErrorTip.setMaxWidth(600);
        lastErrorLabel.setTooltip(lastErrorTip);

        concurrencySpinner.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 256, 1));
        maxAttemptsSpinner.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 100, 1));
        intervalSpinner.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(100, 600_000, 1000, 100));
        bindSpinner(concurrencySpinner, model.concurrencyProperty());
        bindSpinner(maxAttemptsSpinner, model.maxAttemptsProperty());
        bindSpinner(intervalSpinner, model.intervalMillisProperty());
        applySettingsButton.setOnAction(e -> {
            commit(concurrencySpinner);
            commit(maxAttemptsSpinner);
            commit(intervalSpinner);
            model.applySettings();
        });
        resetSettingsButton.setOnAction(e -> model.resetSettingsForm());

        rateValueAxis.setTickLabelFormatter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Number n) {
                return n.doubleValue() == Math.rint(n.doubleValue()) ? Long.toString(n.longValue()) : "";
            }

            @Override
            public Number fromString(String s) {
                return Double.valueOf(s);
            }
        });
        rateValueAxis.setMinorTickVisible(false);
        // bounds set by redraw: autoranging collapses the axis to 0..0 while every rate is zero
        rateValueAxis.setAutoRanging(false);
        rateValueAxis.setLowerBound(0);
        rateValueAxis.setUpperBound(rateAxisTop(0));
        rateValueAxis.setTickUnit(rateAxisTop(0) / 5);
        rateTimeAxis.setMinorTickVisible(false);
        sentSeries.setName("Sent");
        failedSeries.setName("Failed attempts");
        rateChart.getData().add(sentSeries);
        rateChart.getData().add(failedSeries);
        // The chart is redrawn only while its page is on screen: a hidden chart would still be laid out.
        model.rates().addListener((ListChangeListener<RateHistory.Point>) c -> {
            if (workerPage.isVisible()) {
                redraw();
            }
        });
        workerPage.visibleProperty().addListener((obs, old, visible) -> {
            if (visible) {
                model.shown();
                redraw();
            }
        });
        NoticeLabel.bind(workerNotice, model.noticeProperty().when(shown));
    }

    /** The page switched to: the first of Start, Pause, Resume and Drain now that can be used. */
    public void focusMain() {
        java.util.stream.Stream.of(workerStartButton, workerPauseButton, workerResumeButton, drainNowButton)
                .filter(b -> !b.isDisabled()).findFirst().orElse(applySettingsButton).requestFocus();
    }

    /** The state's badge: running, held by the state (in the paused colour), paused or stopped. */
    private void styleState() {
        WorkerSnapshot.RunState state = model.runStateProperty().get();
        workerStateLabel.getStyleClass().removeIf(c -> c.startsWith("badge-"));
        workerStateLabel.getStyleClass().add("badge-worker-" + (model.heldProperty().get() ? "held"
                : state == null ? "stopped" : state.name().toLowerCase(java.util.Locale.ROOT)));
    }

    private static void bindSpinner(Spinner<Integer> spinner, javafx.beans.property.IntegerProperty value) {
        spinner.getValueFactory().setValue(value.get());
        value.addListener((obs, old, v) -> spinner.getValueFactory().setValue(v.intValue()));
        spinner.valueProperty().addListener((obs, old, v) -> {
            if (v != null) {
                value.set(v);
            }
        });
    }

    /** Takes what was typed into an editable spinner; text that is not a number is put back. */
    private static void commit(Spinner<Integer> spinner) {
        String text = spinner.getEditor().getText();
        try {
            spinner.getValueFactory().setValue(Integer.parseInt(text.strip().replace(",", "")));
        } catch (NumberFormatException e) {
            spinner.getEditor().setText(String.valueOf(spinner.getValue()));
        }
    }

    /** Rebuilds the two series once per finished second, with x as seconds before now. */
    private void redraw() {
        List<RateHistory.Point> points = model.rates();
        long now = points.isEmpty() ? Instant.now().getEpochSecond() : points.get(points.size() - 1).epochSecond();
        List<XYChart.Data<Number, Number>> sent = new ArrayList<>(points.size());
        List<XYChart.Data<Number, Number>> failed = new ArrayList<>(points.size());
        for (RateHistory.Point p : points) {
            long x = p.epochSecond() - now;
            sent.add(new XYChart.Data<>(x, p.sent()));
            failed.add(new XYChart.Data<>(x, p.failed()));
        }
        sentSeries.getData().setAll(sent);
        failedSeries.getData().setAll(failed);
        int span = timeSpan(points.size());
        rateTimeAxis.setLowerBound(-span);
        rateTimeAxis.setTickUnit(span <= 60 ? 10 : 30);
        double highest = 0;
        for (RateHistory.Point p : points) {
            highest = Math.max(highest, Math.max(p.sent(), p.failed()));
        }
        double top = rateAxisTop(highest);
        rateValueAxis.setUpperBound(top);
        rateValueAxis.setTickUnit(top / 5);
    }

    /**
     * How many seconds the time axis shows for a history of {@code seconds}: one minute, then growing with the
     * history in steps of the axis's 30-second ticks up to the last five minutes. The axis's ticks start at its
     * lower bound, so a bound that moved every second would move every label with it (-73, -43, -13, then -74,
     * -44, -14) and give the axis new labels to style each second.
     */
    static int timeSpan(int seconds) {
        if (seconds <= 60) {
            return 60;
        }
        return Math.min(WorkerViewModel.CHART_SECONDS, (seconds + 29) / 30 * 30);
    }

    /** The rate axis's top: at least 10 per second, above the highest rate, at 1, 2 or 5 times a power of ten. */
    static double rateAxisTop(double highest) {
        double wanted = Math.max(10, highest * 1.1);
        double power = Math.pow(10, Math.floor(Math.log10(wanted)));
        for (int step : new int[] {1, 2, 5}) {
            if (step * power >= wanted) {
                return step * power;
            }
        }
        return 10 * power;
    }
}
