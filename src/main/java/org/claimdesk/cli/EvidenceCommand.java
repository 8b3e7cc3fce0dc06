package org.claimdesk.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.store.Database;
import org.claimdesk.store.EvidenceFiles;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "evidence", description = "Add, list and withdraw a claim's evidence references (web addresses or"
        + " files).", subcommands = {EvidenceCommand.Add.class, EvidenceCommand.ListEvidence.class,
            EvidenceCommand.Withdraw.class})
final class EvidenceCommand {

    /**
     * One reference as the CLI prints it in JSON; {@code file}: for a file, whether its copy is in this workstation's
     * evidence folder ({@code whole}, {@code missing}, {@code damaged} or {@code unreadable}); the {@code withdrawn}
     * fields: who withdrew it, when and why (null for a reference that counts).
     */
    record EvidenceView(long evidenceId, String kind, String title, String url, String fileName, Long sizeBytes,
            String sha256, String addedBy, Instant addedAt, String file, String withdrawnBy, Instant withdrawnAt,
            String withdrawnReason) {
        /** {@code copy}: what the folder has of a file's copy; null for an address or where it was not looked in. */
        static EvidenceView of(Evidence e, EvidenceCopy copy) {
            Evidence.Withdrawal w = e.withdrawal();
            return new EvidenceView(e.evidenceId(), e.kind().code(), e.title(), e.url(), e.fileName(), e.sizeBytes(),
                    e.sha256(), e.addedBy(), e.addedAt(), copy == null ? null : copy.word(), w == null ? null : w.by(),
                    w == null ? null : w.at(), w == null ? null : w.reason());
        }
    }

    /**
     * One reference as the CLI prints it; with {@code copy} (what the folder has of a file's copy), one not whole in
     * this workstation's folder says so ({@code [missing here]}, {@code [damaged here]}, {@code [unreadable here]}); a
     * withdrawn one says by whom, when and why.
     */
    static String line(Evidence e, EvidenceCopy copy, java.time.ZoneId zone) {
        String source = e.isFile() ? "file " + e.fileName() + ", " + EvidenceRules.size(e.sizeBytes()) + ", sha256 "
                + e.sha256().substring(0, 12) + "…" : e.url();
        String here = copy == null || copy == EvidenceCopy.WHOLE ? "" : "  [" + copy.word() + " here]";
        String withdrawn = e.isWithdrawn() ? "  [withdrawn by " + e.withdrawal().by() + ", "
                + CliSupport.shown(e.withdrawal().at(), zone) + ": " + e.withdrawal().reason() + "]" : "";
        return String.format("#%d %-9s %s  (added by %s, %s)%s%s", e.evidenceId(), e.kind().code(),
                e.title().equals(source) ? source : e.title() + "  " + source, e.addedBy(),
                CliSupport.shown(e.addedAt(), zone), here,
                withdrawn);
    }

    @Command(name = "add", description = "Add a web address or a copy of a file (at most 25 MB) as evidence.")
    static final class Add extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--kind", required = true, paramLabel = "KIND",
                description = "identity, address, ownership, heirship or business.")
        String kind;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Source source;

        static final class Source {
            @Option(names = "--url", paramLabel = "URL", description = "An http or https address.")
            String url;

            @Option(names = "--file", paramLabel = "PATH", description = "A file, copied into the evidence folder.")
            Path file;
        }

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--title", paramLabel = "TEXT", description = "What it is (default: the file name or address).")
        String title;

        @Option(names = "--evidence-dir", paramLabel = "FOLDER",
                description = {"For a team database: the shared folder its evidence files are copied to (default:",
                    "$CLAIMDESK_EVIDENCE_DIR). A database file keeps its evidence beside it."})
        String evidenceDir;

        @Option(names = "--json", description = "JSON.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                ClaimEvidence evidence = new ClaimEvidence(db, clock(db), DataDirectory.evidenceFiles(db, evidenceDir));
                Claim claim = ClaimsCommand.find(new Queries(db, clock(db)), id);
                Evidence added = source.file != null
                        ? evidence.addFile(claim.claimId(), kind, source.file, title, actor)
                        : evidence.addUrl(claim.claimId(), kind, source.url, title, actor);
                EvidenceCopy copy = evidence.copies(List.of(added)).get(added.evidenceId());
                if (json) {
                    printJson(EvidenceView.of(added, copy));
                } else {
                    out().printf("%s: evidence added %s%n", claim.claimNumber(), line(added, copy, clock(db).getZone()));
                }
            }
            return 0;
        }
    }

    @Command(name = "list", description = "A claim's evidence references, oldest first.")
    static final class ListEvidence extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--evidence-dir", paramLabel = "FOLDER",
                description = {"For a team database: the shared folder its evidence files are in (default:",
                    "$CLAIMDESK_EVIDENCE_DIR), looked in for each file's copy."})
        String evidenceDir;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                Claim claim = ClaimsCommand.find(new Queries(db, clock(db)), id);
                EvidenceFiles files = DataDirectory.evidenceFiles(db, evidenceDir);
                ClaimEvidence evidence = new ClaimEvidence(db, clock(db), files);
                List<Evidence> all = evidence.list(claim.claimId());
                // each file's copy looked for once (a share may answer slowly)
                Map<Long, EvidenceCopy> copies = evidence.copies(all);
                if (json) {
                    printJson(all.stream().map(e -> EvidenceView.of(e, copies.get(e.evidenceId()))).toList());
                } else {
                    all.forEach(e -> out().println(line(e, copies.get(e.evidenceId()), clock(db).getZone())));
                    long withdrawn = all.stream().filter(Evidence::isWithdrawn).count();
                    out().printf("%d evidence reference(s)%s%n", all.size(),
                            withdrawn == 0 ? "" : ", " + withdrawn + " withdrawn (not sent to the state)");
                    long away = copies.values().stream().filter(c -> c != EvidenceCopy.WHOLE).count();
                    if (away > 0) {
                        out().printf("%d file(s) not whole in this workstation's evidence folder %s%s%n", away,
                                files.folder(), db.onServer() && !files.isShared()
                                        ? ": files added on other workstations are in the office's shared folder"
                                                + " when IT sets " + DataDirectory.EVIDENCE_ENV
                                        : "");
                    }
                }
            }
            return 0;
        }
    }

    @Command(name = "withdraw", description = {"Withdraw an evidence reference added by mistake.",
        "It stays on the claim's record, marked with who withdrew it, when and why (the wrong claim, the wrong",
        "document), and its file stays in the evidence folder; from now on it is not sent to the state and does not",
        "count for the evidence checklist (a warning says when the state got it with an earlier submission: tell the",
        "state). Allowed while the claim can be edited; audited."})
    static final class Withdraw extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--evidence", required = true, paramLabel = "EVIDENCE_ID",
                description = "The reference's number, as evidence list shows it (#12: 12).")
        long evidenceId;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why it is withdrawn.")
        String reason;

        @Option(names = "--json", description = "JSON.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                Claim claim = ClaimsCommand.find(new Queries(db, clock(db)), id);
                ClaimEvidence.Withdrawn withdrawn = new ClaimEvidence(db, clock(db)).withdraw(claim.claimId(),
                        evidenceId, reason, actor);
                if (json) {
                    printJson(EvidenceView.of(withdrawn.evidence(), null));
                } else {
                    out().printf("%s: evidence withdrawn %s%n", claim.claimNumber(),
                            line(withdrawn.evidence(), null, clock(db).getZone()));
                }
                withdrawn.stateNotice().ifPresent(n -> {
                    err().println("warning: " + claim.claimNumber() + ": " + n);
                    err().flush();
                });
            }
            return 0;
        }
    }
}
