package org.claimdesk.ui.claims;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.ui.common.Coalescer;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * File › Import claims…: a CSV file chosen, with its encoding and whether the import is strict; a preview of its
 * first rows read by the field rules and a dry run's counts, before anything is written; then the import with its
 * progress and Cancel; then the result (counts, conflicts, rejected rules, the errors file). Reading and importing
 * run through the {@link TaskRunner}; the import's progress, told on the worker thread, reaches the UI thread
 * coalesced. A file-level problem (not in the encoding, not CSV, a column missing) is {@link #problemProperty()},
 * and nothing is written.
 */
public final class ClaimImportViewModel {
    /** The rows a preview shows. */
    public static final int SAMPLE_ROWS = 20;

    /** The encodings staff choose from. */
    public enum Encoding {
        UTF_8("UTF-8", StandardCharsets.UTF_8),
        WINDOWS_1252("Windows-1252 (Excel \"CSV\")", Charset.forName(ClaimImport.WINDOWS_1252));

        private final String label;
        private final Charset charset;

        Encoding(String label, Charset charset) {
            this.label = label;
            this.charset = charset;
        }

        public String label() {
            return label;
        }

        public Charset charset() {
            return charset;
        }
    }

    /** Where the dialog is: nothing chosen, reading the preview, previewed, importing, done. */
    public enum Step { CHOOSE, PREVIEWING, PREVIEWED, IMPORTING, DONE }

    /** Opens a file with the desktop's program for it; called off the UI thread. */
    @FunctionalInterface
    public interface FileOpener {
        void open(Path file) throws Exception;
    }

    private final ClaimImport imports;
    private final TaskRunner tasks;
    private final String actor;
    private final FileOpener opener;

    private final ObjectProperty<Path> file = new SimpleObjectProperty<>();
    private final ObjectProperty<Encoding> encoding = new SimpleObjectProperty<>(Encoding.UTF_8);
    private final BooleanProperty strict = new SimpleBooleanProperty();
    private final ReadOnlyObjectWrapper<Step> step = new ReadOnlyObjectWrapper<>(Step.CHOOSE);
    private final ReadOnlyObjectWrapper<ClaimImport.Preview> preview = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<ClaimImport.Progress> progress = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<ClaimImport.Report> report = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private Runnable onImported = () -> { };
    /** The preview or import under way (the newest one); its answers alone are shown. */
    private Watch watch;

    public ClaimImportViewModel(ClaimImport imports, TaskRunner tasks, String actor, FileOpener opener) {
        this.imports = imports;
        this.tasks = tasks;
        this.actor = actor;
        this.opener = opener;
        file.addListener((obs, old, f) -> preview());
        encoding.addListener((obs, old, e) -> preview());
    }

    /** Told after an import wrote claims (whole, cancelled or failed half-way), so the pages showing them reload. */
    public void setOnImported(Runnable onImported) {
        this.onImported = onImported == null ? () -> { } : onImported;
    }

    // ---- properties ---------------------------------------------------------------------------------

    /** The file to import; setting it reads its preview. */
    public ObjectProperty<Path> fileProperty() {
        return file;
    }

    /** The file's encoding; changing it reads the preview again. */
    public ObjectProperty<Encoding> encodingProperty() {
        return encoding;
    }

    /** Import nothing when a row is invalid. */
    public BooleanProperty strictProperty() {
        return strict;
    }

    public ReadOnlyObjectProperty<Step> stepProperty() {
        return step.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<ClaimImport.Preview> previewProperty() {
        return preview.getReadOnlyProperty();
    }

    /** How far the preview's dry run or the import is; null when neither runs. */
    public ReadOnlyObjectProperty<ClaimImport.Progress> progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** What the import did; null until it is done. */
    public ReadOnlyObjectProperty<ClaimImport.Report> reportProperty() {
        return report.getReadOnlyProperty();
    }

    /** Why the file cannot be imported as chosen (nothing was written); null when it can. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    public String actor() {
        return actor;
    }

    /** True while a preview or an import runs (Cancel stops it; the dialog stays open). */
    public boolean running() {
        return step.get() == Step.PREVIEWING || step.get() == Step.IMPORTING;
    }

    // ---- commands -----------------------------------------------------------------------------------

    /** Starts over, nothing chosen (keeps the encoding and strictness chosen last). Ignored while one runs. */
    public void reset() {
        if (running()) {
            return;
        }
        watch = null;
        file.set(null);
        clear();
        step.set(Step.CHOOSE);
    }

    /** The path staff typed: a file to preview, or a notice saying why it is not one. */
    public void choosePath(String typed) {
        if (typed == null || typed.isBlank()) {
            return;
        }
        try {
            Path chosen = Path.of(typed.strip());
            if (chosen.equals(file.get())) {
                preview();
            } else {
                file.set(chosen);
            }
        } catch (java.nio.file.InvalidPathException e) {
            notice.set(Notice.warning("\"" + typed.strip() + "\" is not a file path"));
        }
    }

    /** Reads the chosen file's first rows and a dry run's counts off the UI thread; writes nothing. */
    public void preview() {
        if (step.get() == Step.IMPORTING) {
            return;
        }
        Path chosen = file.get();
        if (running() && watch != null) {
            watch.stop.set(true);
        }
        clear();
        if (chosen == null) {
            watch = null;
            step.set(Step.CHOOSE);
            return;
        }
        Encoding enc = encoding.get();
        Watch mine = new Watch();
        watch = mine;
        step.set(Step.PREVIEWING);
        tasks.submit("preview claims import", p -> imports.preview(chosen, actor, enc.charset(), SAMPLE_ROWS, mine),
                found -> {
                    if (mine != watch) {
                        return;
                    }
                    progress.set(null);
                    if (found.report().cancelled()) {
                        step.set(Step.CHOOSE);
                        notice.set(Notice.info("Preview cancelled: nothing was imported"));
                        return;
                    }
                    preview.set(found);
                    step.set(Step.PREVIEWED);
                }, e -> {
                    if (mine != watch) {
                        return;
                    }
                    progress.set(null);
                    step.set(Step.CHOOSE);
                    problem.set(problem(chosen, enc, e));
                });
    }

    /** Imports the previewed file off the UI thread, in batches, with progress; {@link #cancel()} stops it. */
    public void importFile() {
        ClaimImport.Preview seen = preview.get();
        Path chosen = file.get();
        if (seen == null || chosen == null || step.get() != Step.PREVIEWED) {
            return;
        }
        ClaimImport.Options options = new ClaimImport.Options(false, strict.get(), encoding.get().charset());
        Watch mine = new Watch();
        watch = mine;
        notice.set(null);
        step.set(Step.IMPORTING);
        tasks.submit("import claims", p -> imports.run(chosen, actor, options, mine), done -> {
            if (mine != watch) {
                return;
            }
            progress.set(null);
            report.set(done);
            step.set(Step.DONE);
            onImported.run();
        }, e -> {
            if (mine != watch) {
                return;
            }
            progress.set(null);
            preview.set(null);
            step.set(Step.CHOOSE);
            problem.set(problem(chosen, encoding.get(), e));
            onImported.run();
        });
    }

    /** Stops the preview or the import at its next batch: an import keeps the batches it wrote. */
    public void cancel() {
        if (running() && watch != null) {
            watch.stop.set(true);
        }
    }

    /** Opens the errors file of the import done, off the UI thread; a system without a desktop says so. */
    public void openErrorsFile() {
        ClaimImport.Report done = report.get();
        if (done == null || done.errorsFile() == null) {
            return;
        }
        Path errors = Path.of(done.errorsFile());
        tasks.submit("open the errors file", p -> {
            opener.open(errors);
            return errors;
        }, opened -> notice.set(Notice.info("Opened " + opened)),
                e -> notice.set(Notice.error("open the errors file " + errors, e)));
    }

    private void clear() {
        preview.set(null);
        report.set(null);
        progress.set(null);
        problem.set(null);
        notice.set(null);
    }

    // ---- words --------------------------------------------------------------------------------------

    /** "6 to import, 1 already present, 1 conflict(s), 1 invalid": what the preview's dry run found. */
    public static String counts(ClaimImport.Report dry) {
        return Formats.count(dry.imported()) + " to import, " + Formats.count(dry.alreadyPresent())
                + " already present, " + Formats.count(dry.conflictCount()) + " conflict(s), "
                + Formats.count(dry.rejectedRows()) + " invalid";
    }

    /** What an import did, in one sentence. */
    public static String describe(ClaimImport.Report r) {
        String kept = r.keptErrorsFile() == null ? ""
                : "; " + ClaimImport.keptSentence(Path.of(r.keptErrorsFile()).getFileName());
        return outcome(r) + kept;
    }

    private static String outcome(ClaimImport.Report r) {
        if (r.cancelled()) {
            return r.sha256() == null
                    ? "Cancelled while the file was checked: nothing was imported"
                    : "Cancelled: " + Formats.count(r.imported()) + " claims imported in whole batches; import the"
                            + " file again to complete it";
        }
        if (r.refused()) {
            return "Nothing imported: the import is strict and " + Formats.count(r.rejectedRows())
                    + " row(s) are invalid; correct them in the errors file and import it";
        }
        return Formats.count(r.imported()) + " imported, " + Formats.count(r.alreadyPresent()) + " already present, "
                + Formats.count(r.conflictCount()) + " conflict(s), " + Formats.count(r.rejectedRows()) + " invalid";
    }

    /** What the progress bar says: the phase and the rows read. */
    public static String describe(ClaimImport.Progress p) {
        return p.phase() == ClaimImport.Phase.CHECKING
                ? "Checking: " + Formats.count(p.rows()) + " rows read"
                : "Importing: " + Formats.count(p.rows()) + " rows read, " + Formats.count(p.imported())
                        + " claims imported";
    }

    /** A file-level problem in words staff can act on in this dialog. */
    static String problem(Path file, Encoding enc, Throwable e) {
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        if (e instanceof ClaimImport.Utf8Text) {
            // the check's refusal, before anything was imported
            return name + " is UTF-8 text, not " + enc.label() + ", so nothing was imported. Choose the encoding "
                    + Encoding.UTF_8.label() + " above.";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CharacterCodingException) {
                return name + " is not " + enc.label() + " text, so nothing was imported. " + (enc == Encoding.UTF_8
                        ? "Excel saves plain \"CSV\" on Windows as Windows-1252: choose the encoding "
                                + Encoding.WINDOWS_1252.label() + " above, or save the file as \"CSV UTF-8\"."
                        : "Choose the file's encoding above (UTF-8 unless it came from Excel's plain \"CSV\").");
            }
        }
        if (e instanceof ClaimDeskException) {
            return e.getMessage();
        }
        return Notice.error("read " + name, e).text();
    }

    /** Watches one preview or import: its progress to the UI thread, coalesced; asked between batches to stop. */
    private final class Watch implements ClaimImport.Monitor {
        final AtomicBoolean stop = new AtomicBoolean();
        private final Coalescer<ClaimImport.Progress> toUi = new Coalescer<>(tasks.uiThread(), p -> {
            if (this == watch && running()) {
                progress.set(p);
            }
        });

        @Override
        public void progress(ClaimImport.Progress p) {
            toUi.offer(p);
        }

        @Override
        public boolean cancelled() {
            return stop.get();
        }
    }
}
