package org.claimdesk.app;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.store.Database;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.EvidenceStore;
import org.claimdesk.store.HealthStore;
import org.claimdesk.store.Migrations;
import org.claimdesk.store.OfficeZone;
import org.claimdesk.store.ServerClock;
import org.claimdesk.store.ServerHealthStore;
import org.jdbi.v3.core.Handle;

/**
 * Health checks of one database: integrity (a file) or the server's own findings (a team database), orphaned rows,
 * expired leases, rows stuck pending, claims whose status disagrees with their outbox rows, and whether the newest
 * evidence files are in the evidence folder. Reads only; changes nothing (a team database's shared evidence folder is
 * tried with a temporary file, removed at once).
 */
public final class Doctor {
    public enum Level {
        OK, WARN, FAIL
    }

    /** One check's outcome: a level, the check's name, and a plain sentence. */
    public record Finding(Level level, String check, String message) {
    }

    public record Report(String database, int schemaVersion, List<Finding> findings) {
        public boolean healthy() {
            return findings.stream().noneMatch(f -> f.level() == Level.FAIL);
        }
    }

    private final Database database;
    private final Clock clock;
    private final Duration stuckAfter;
    private final EvidenceFiles files;
    private final int evidenceChecked;
    /** The oldest PostgreSQL major version a team database is supported on (docs/operations.md). */
    static final int OLDEST_SERVER = 14;
    private static final int LISTED_AT_MOST = 8;
    /** How long a lease stays expired before it says its worker is gone. */
    static final Duration LEASE_GRACE = Duration.ofMinutes(1);

    /** How many of the newest evidence files doctor looks for in the evidence folder. */
    public static final int EVIDENCE_SAMPLE = 20;
    private static final int NAMED_AT_MOST = 3;

    private final HealthStore health = new HealthStore();
    private final EvidenceStore evidence = new EvidenceStore();
    private final ServerHealthStore serverHealth = new ServerHealthStore();

    public Doctor(Database database, Clock clock, Duration stuckAfter) {
        this(database, clock, stuckAfter, DataDirectory.evidenceFiles(database, null));
    }

    /** As {@link #Doctor(Database, Clock, Duration)}, with the evidence folder given. */
    public Doctor(Database database, Clock clock, Duration stuckAfter, EvidenceFiles files) {
        this(database, clock, stuckAfter, files, EVIDENCE_SAMPLE);
    }

    /**
     * @param evidenceChecked how many of the newest evidence files to look for ({@link Integer#MAX_VALUE}: every one,
     *        as after a restore of the evidence folder)
     */
    public Doctor(Database database, Clock clock, Duration stuckAfter, EvidenceFiles files, int evidenceChecked) {
        this.database = database;
        this.clock = clock;
        this.stuckAfter = stuckAfter;
        this.files = files;
        this.evidenceChecked = evidenceChecked;
    }

    /** As {@link #Doctor(Database, Clock, Duration)}, looking for every evidence file, not only the newest. */
    public static Doctor everyEvidenceFile(Database database, Clock clock, Duration stuckAfter) {
        return new Doctor(database, clock, stuckAfter, DataDirectory.evidenceFiles(database, null), Integer.MAX_VALUE);
    }

    public Report examine() {
        return examine(check -> { });
    }

    /**
     * As {@link #examine()}, telling {@code checking} the name of each check as it begins: the longest read the whole
     * database (a file's integrity: 40 s at 1,000,000 claims on a 2.3 GB file).
     */
    public Report examine(java.util.function.Consumer<String> checking) {
        return database.read(h -> {
            List<Finding> findings = new ArrayList<>();
            if (database.location() instanceof DatabaseLocation.Postgres server) {
                checking.accept("server");
                findings.addAll(serverFindings(server, serverHealth.facts(h)));
                findings.add(evidenceFolder(files));
                if (database.clock() instanceof ServerClock serverClock) {
                    findings.add(clockDistance(serverClock.offsetMillis()));
                }
                findings.add(officeZone(server, database.officeZone()));
                findings.add(deadlines(server, database.officeDeadlineDays(), DeadlineSettings.workstationSetting()));
            } else {
                checking.accept("integrity");
                integrity(h, findings);
                findings.add(fileSystem(database.path()));
                findings.add(deadlines(null, null, DeadlineSettings.workstationSetting()));
            }
            checking.accept("schema");
            schema(h, findings);
            checking.accept("triggers");
            triggers(h, findings, database.onServer());
            checking.accept("orphans");
            orphans(h, findings);
            checking.accept("leases");
            leases(h, findings);
            checking.accept("stuck");
            stuck(h, findings);
            checking.accept("workflow");
            consistency(h, findings);
            checking.accept("tally");
            tally(h, findings, database.onServer());
            checking.accept("files");
            findings.add(evidenceFiles(database, files, evidence.newestFiles(h, evidenceChecked),
                    evidenceChecked == Integer.MAX_VALUE));
            return new Report(database.location().describe(), database.schemaVersion(), findings);
        });
    }

    /**
     * Whether a desk's file is on this machine's own disk. SQLite's write-ahead log keeps its index in shared memory
     * beside the file, which only processes on one machine share: a file on a network file system (a share two
     * workstations open) can be corrupted. An office that shares claims uses a team database.
     */
    static Finding fileSystem(java.nio.file.Path file) {
        String type;
        try {
            type = java.nio.file.Files.getFileStore(file).type();
        } catch (java.io.IOException e) {
            return new Finding(Level.WARN, "file system", "cannot tell which file system holds " + file + ": "
                    + e.getMessage());
        }
        if (onTheNetwork(type)) {
            return new Finding(Level.WARN, "file system", file + " is on a network file system (" + type + "): a"
                    + " desk's file must be on this workstation's own disk, as SQLite shares its write-ahead log's index"
                    + " only between programs on one machine; an office sharing claims uses a team database"
                    + " (docs/operations.md)");
        }
        return new Finding(Level.OK, "file system", "the file is on this workstation's own disk (" + type + ")");
    }

    /** The file system types of network shares as Linux and macOS name them (mount's type column). */
    static boolean onTheNetwork(String type) {
        String t = type == null ? "" : type.toLowerCase(java.util.Locale.ROOT);
        return t.startsWith("nfs") || t.equals("cifs") || t.startsWith("smb") || t.equals("afpfs")
                || t.startsWith("fuse.sshfs") || t.equals("9p") || t.startsWith("fuse.smb") || t.equals("webdav")
                || t.equals("davfs");
    }

    /**
     * The decision deadlines claims are dated with. A team database ({@code server}): the office's, set on the database
     * for every workstation, else each workstation's own {@code CLAIMDESK_DEADLINE_DAYS}, which every workstation of
     * the office must then set alike, or one claim's due date depends on which workstation delivered it. A desk's file
     * ({@code server} and {@code office} null): this workstation's own.
     */
    static Finding deadlines(DatabaseLocation.Postgres server, String office, String workstation) {
        String setting = Database.officeDeadlineDaysSetting();
        String howToSet = server == null ? null : "IT sets the office's on the database for every workstation, as a"
                + " superuser: ALTER DATABASE " + sqlName(server.database()) + " SET " + setting
                + " TO 'NY=150,*=120' (docs/operations.md)";
        boolean workstationSets = workstation != null && !workstation.isBlank();
        if (office != null) {
            String problem = unreadable(office);
            if (problem != null) {
                return new Finding(Level.FAIL, "deadlines", "the team database's " + setting + "=" + office + " cannot"
                        + " be read (" + problem + "): ClaimDesk opens no console and dates or delivers no claim here"
                        + " until IT corrects it; " + howToSet);
            }
            String dates = "every workstation dates claims with the team database's " + setting + "=" + office.strip()
                    + " and the statutory deadlines";
            if (workstationSets) {
                return new Finding(Level.WARN, "deadlines", dates + "; this workstation's " + DeadlineSettings.ENV + "="
                        + workstation.strip() + " is not used: remove it, so that it misleads no one");
            }
            return new Finding(Level.OK, "deadlines", dates);
        }
        if (!workstationSets) {
            return new Finding(Level.OK, "deadlines", "the statutory decision deadlines, with " + Deadlines.DEFAULT_DAYS
                    + " days for the jurisdictions they do not name: " + (server == null ? "this workstation sets no "
                            : "the team database sets no " + setting + " and this workstation no ") + DeadlineSettings.ENV);
        }
        String problem = unreadable(workstation);
        if (problem != null) {
            return new Finding(Level.FAIL, "deadlines", "this workstation's " + DeadlineSettings.ENV + "="
                    + workstation.strip() + " cannot be read (" + problem + "): ClaimDesk opens no console and dates or"
                    + " delivers no claim on this workstation until it is corrected"
                    + (server == null ? " (docs/operations.md)" : "; " + howToSet));
        }
        if (server == null) {
            return new Finding(Level.OK, "deadlines", "claims are dated with " + DeadlineSettings.ENV + "="
                    + workstation.strip() + " and the statutory deadlines");
        }
        return new Finding(Level.WARN, "deadlines", "this workstation dates claims with " + DeadlineSettings.ENV + "="
                + workstation.strip() + ": each workstation dates the claims its worker delivers, so every workstation"
                + " of the office must set the same; " + howToSet);
    }

    /** Why decision deadline figures cannot be read; null when they can. */
    private static String unreadable(String figures) {
        try {
            Deadlines.statutory().withOverrides(figures);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** A database's name as SQL writes it, quoted: as it is, whatever its case, and a reserved word too. */
    static String sqlName(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** The zone a team database's days are counted in: the office's, set on the database, or each workstation's own. */
    static Finding officeZone(DatabaseLocation.Postgres server, OfficeZone office) {
        if (office.set()) {
            return new Finding(Level.OK, "time zone", "the office's time zone is " + office.configured() + ": due"
                    + " dates, today and overdue are counted in it on every workstation");
        }
        return new Finding(Level.WARN, "time zone", office.problem() + ": each workstation counts due dates, today and"
                + " overdue in its own zone (this one: " + java.time.ZoneId.systemDefault() + "), so they differ by a"
                + " day between workstations in other zones; IT sets the office's, e.g. ALTER DATABASE "
                + sqlName(server.database()) + " SET timezone TO 'America/Los_Angeles' (docs/operations.md)");
    }

    private void integrity(Handle h, List<Finding> findings) {
        List<String> problems = health.integrityProblems(h, 20);
        if (problems.size() == 1 && "ok".equals(problems.get(0))) {
            findings.add(new Finding(Level.OK, "integrity", "SQLite integrity check passed"));
        } else {
            findings.add(new Finding(Level.FAIL, "integrity", "SQLite integrity check found " + problems.size()
                    + " problem(s), first: " + problems.get(0) + "; restore from a backup"));
        }
    }

    /** What a team database's server says about itself and this connection, each with its level. */
    static List<Finding> serverFindings(DatabaseLocation.Postgres server, ServerHealthStore.ServerFacts facts) {
        List<Finding> findings = new ArrayList<>();
        String where = server.address();
        findings.add(facts.versionNumber() / 10_000 >= OLDEST_SERVER
                ? new Finding(Level.OK, "server", "PostgreSQL " + facts.version() + " on " + where + " (supported: "
                        + OLDEST_SERVER + " or later)")
                : new Finding(Level.WARN, "server", "PostgreSQL " + facts.version() + " on " + where + " is older than"
                        + " ClaimDesk supports (" + OLDEST_SERVER + " or later): IT upgrades the server"
                        + " (docs/operations.md)"));
        findings.add(facts.trigramSearch()
                ? new Finding(Level.OK, "pg_trgm", "the pg_trgm extension is installed: searches use the trigram"
                        + " indexes")
                : new Finding(Level.WARN, "pg_trgm", "the pg_trgm extension is missing, and with it the trigram"
                        + " indexes: every search reads all claims; IT creates the extension and the indexes again"
                        + " (docs/operations.md)"));
        if (facts.encrypted()) {
            findings.add(new Finding(Level.OK, "tls", "the connection is encrypted (" + facts.tlsVersion() + ")"));
        } else if (loopback(server.host())) {
            findings.add(new Finding(Level.OK, "tls", "the connection is not encrypted; it does not leave this"
                    + " machine (" + server.host() + ")"));
        } else {
            findings.add(new Finding(Level.WARN, "tls", "the connection to " + server.host() + " is not encrypted:"
                    + " claims cross the network in clear; add ?sslmode=verify-full to the address"
                    + " (docs/operations.md: connecting a workstation)"));
        }
        if (facts.superuser() || facts.ownsAuditTrail()) {
            findings.add(new Finding(Level.WARN, "role", "the role " + facts.role() + (facts.superuser()
                    ? " is a superuser" : " owns the audit trail (audit_log)") + ": it could drop the triggers that"
                    + " keep the audit trail append-only; staff connect as the staff role, the owner role is for IT"
                    + " (docs/operations.md: server and database)"));
        } else {
            findings.add(new Finding(Level.OK, "role", "the role " + facts.role() + " is neither a superuser nor the"
                    + " audit trail's owner: the audit trail's triggers are out of its reach"));
        }
        if (!facts.recordsOpen().isEmpty()) {
            findings.add(new Finding(Level.WARN, "grants", "the role " + facts.role() + " may change or remove records"
                    + " ClaimDesk keeps whole (" + String.join(", ", facts.recordsOpen()) + "): anyone with its password"
                    + " could rewrite what was done; IT narrows its grants to those staff's work needs"
                    + " (docs/operations.md: server and database)"));
        }
        findings.add(facts.definersUnpinned().isEmpty()
                ? new Finding(Level.OK, "definers", "the " + facts.definers() + " functions that run with the schema"
                        + " owner's rights find their tables in its schema alone")
                : new Finding(Level.FAIL, "definers", "functions that run with the schema owner's rights do not fix"
                        + " their search path (" + String.join(", ", facts.definersUnpinned()) + "): a session's"
                        + " temporary table of the same name would be used with the owner's rights; IT runs their"
                        + " script's ALTER FUNCTION … SET search_path as the owner (docs/operations.md: putting back a"
                        + " trigger)"));
        findings.add(new Finding(Level.OK, "sessions", sessions(facts.others())));
        return findings;
    }

    /**
     * Where this workstation puts the evidence files staff add on a team database: the office's shared folder
     * ({@value DataDirectory#EVIDENCE_ENV}), which must be there and take a file, or, when it is not set, a folder of
     * this workstation's own, whose files the other workstations list but cannot open.
     */
    static Finding evidenceFolder(EvidenceFiles files) {
        if (!files.isShared()) {
            return new Finding(Level.WARN, "evidence", DataDirectory.EVIDENCE_ENV + " is not set on this workstation:"
                    + " evidence files added here stay in " + files.folder() + ", where other workstations cannot open"
                    + " them; IT sets it to the office's shared folder (docs/operations.md: evidence files)");
        }
        return files.writeProblem()
                .map(problem -> new Finding(Level.FAIL, "evidence", problem
                        + "; staff cannot add evidence files until it is mended"))
                .orElseGet(() -> new Finding(Level.OK, "evidence", "evidence files go to the shared folder "
                        + files.folder() + ", which takes a new file"));
    }

    /**
     * Whether the newest evidence files ({@code newest}, at most {@link #EVIDENCE_SAMPLE}) are in the folder with the
     * size their rows record. Missing ones are a failure, except in a team workstation's own folder, where files other
     * workstations added are missing by design (the {@code evidence} check warns of that folder).
     */
    static Finding evidenceFiles(Database database, EvidenceFiles files, List<Evidence> newest, boolean every) {
        if (newest.isEmpty()) {
            return new Finding(Level.OK, "files", "no evidence file is recorded yet");
        }
        List<String> absent = new ArrayList<>();
        java.util.Map<String, EvidenceCopy> seen = new java.util.HashMap<>();
        for (Evidence e : newest) {
            // one look per stored copy: a document added to several claims is one file
            EvidenceCopy presence = seen.computeIfAbsent(e.storedName() + "/" + e.sizeBytes(), k -> files.presence(e));
            if (presence != EvidenceCopy.WHOLE) {
                absent.add("evidence " + e.evidenceId() + " of claim id " + e.claimId() + " (" + presence.word() + ")");
            }
        }
        String which = every ? "every one of the " + newest.size() : "the newest " + newest.size();
        if (absent.isEmpty()) {
            return new Finding(Level.OK, "files", which + " evidence file(s) are in " + files.folder()
                    + " with their recorded sizes" + (every ? "" : " (doctor --all-evidence looks for every one)"));
        }
        String what = absent.size() + " of " + which + " evidence file(s) are not whole in "
                + files.folder() + " (" + String.join(", ", absent.stream().limit(NAMED_AT_MOST).toList())
                + (absent.size() > NAMED_AT_MOST ? ", …" : "") + ")";
        if (!database.onServer()) {
            return new Finding(Level.FAIL, "files", what + ": put them back from the backup of the evidence folder"
                    + " (docs/operations.md: backups)");
        }
        if (files.isShared()) {
            return new Finding(Level.FAIL, "files", what + ": is this the office's share, mounted on this"
                    + " workstation? (docs/operations.md: evidence files)");
        }
        return new Finding(Level.WARN, "files", what + ": files added on other workstations stay in their own"
                + " folders until IT sets " + DataDirectory.EVIDENCE_ENV + " (docs/operations.md: evidence files)");
    }

    /** How far a workstation's clock may be from the server's before doctor warns of it. */
    static final Duration CLOCK_TOLERANCE = Duration.ofMinutes(1);

    /**
     * How far this workstation's clock is from the team database's server's ({@code serverAheadMillis}, the server
     * ahead): ClaimDesk keeps the server's time either way ({@link ServerClock}), but far off, the workstation's
     * other programs and its log's times disagree with the office's.
     */
    static Finding clockDistance(long serverAheadMillis) {
        Duration distance = Duration.ofMillis(Math.abs(serverAheadMillis));
        if (distance.compareTo(CLOCK_TOLERANCE) <= 0) {
            return new Finding(Level.OK, "clock", "this workstation's clock is within " + Math.max(1,
                    (distance.toMillis() + 999) / 1000) + " s of the server's; ClaimDesk keeps the server's time");
        }
        return new Finding(Level.WARN, "clock", "this workstation's clock is " + human(distance)
                + (serverAheadMillis > 0 ? " behind" : " ahead of") + " the server's: ClaimDesk keeps the server's time"
                + " for the office's work, but this workstation's log and other programs do not; IT sets its clock"
                + " right (time synchronisation)");
    }

    private static String sessions(List<ServerHealthStore.Session> others) {
        if (others.isEmpty()) {
            return "no other workstation or program is connected to this database";
        }
        int connections = others.stream().mapToInt(ServerHealthStore.Session::connections).sum();
        List<String> listed = others.stream().limit(LISTED_AT_MOST).map(s -> s.applicationName() + " as " + s.role()
                + (s.connections() > 1 ? " (" + s.connections() + " connections)" : "")).toList();
        return connections + " other connection(s) to this database: " + String.join(", ", listed)
                + (others.size() > LISTED_AT_MOST ? " and " + (others.size() - LISTED_AT_MOST) + " more" : "");
    }

    /** True for a host name or address that stays on this machine. */
    static boolean loopback(String host) {
        String h = host.toLowerCase(java.util.Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
    }

    private void schema(Handle h, List<Finding> findings) {
        int version = health.userVersion(h);
        findings.add(new Finding(version == Migrations.latestVersion() ? Level.OK : Level.WARN, "schema",
                "schema version " + version + " (this ClaimDesk writes version " + Migrations.latestVersion() + ")"));
    }

    /** The triggers the schema relies on: a write past a missing one goes unguarded, uncounted or unsearchable. */
    private void triggers(Handle h, List<Finding> findings, boolean onServer) {
        HealthStore.Triggers triggers = health.triggers(h);
        if (triggers.inPlace()) {
            findings.add(new Finding(Level.OK, "triggers", "the " + triggers.expected() + " triggers the schema relies"
                    + " on are in place (" + keptByTriggers(onServer) + ")"));
            return;
        }
        List<String> off = new ArrayList<>();
        if (!triggers.missing().isEmpty()) {
            off.add(triggers.missing().size() + " of the " + triggers.expected() + " triggers the schema relies on "
                    + isOrAre(triggers.missing().size()) + " missing: " + named(triggers.missing()));
        }
        if (!triggers.notFiring().isEmpty()) {
            off.add(triggers.notFiring().size() + " " + isOrAre(triggers.notFiring().size()) + " disabled: "
                    + named(triggers.notFiring()));
        }
        findings.add(new Finding(Level.FAIL, "triggers", String.join("; ", off) + ". The writes made without them went"
                + " past what they keep (" + keptByTriggers(onServer) + "): "
                + (onServer ? "IT creates them again as the owner role from the scripts named, or enables them,"
                        : "with every ClaimDesk on this file closed, IT creates them again from the scripts named")
                + " and runs doctor again (docs/operations.md)"));
    }

    private static String isOrAre(int n) {
        return n == 1 ? "is" : "are";
    }

    /** What the schema's triggers keep, on a server or on a file. */
    private static String keptByTriggers(boolean onServer) {
        return onServer ? "the audit trail's guards, evidence kept as added, the tallies, the change feed"
                : "the audit trail's guards, evidence kept as added, the tallies, search";
    }

    private static String named(List<HealthStore.Trigger> triggers) {
        return String.join(", ", triggers.stream().limit(LISTED_AT_MOST).map(t -> t.name() + " (" + t.script() + ")")
                .toList()) + (triggers.size() > LISTED_AT_MOST ? " and " + (triggers.size() - LISTED_AT_MOST)
                        + " more" : "");
    }

    private void orphans(Handle h, List<Finding> findings) {
        List<HealthStore.Orphans> orphans = health.orphans(h);
        if (orphans.isEmpty()) {
            findings.add(new Finding(Level.OK, "orphans", "every outbox row, attempt and history row has its parent"));
        } else {
            long rows = orphans.stream().mapToLong(HealthStore.Orphans::rows).sum();
            findings.add(new Finding(Level.FAIL, "orphans", rows + " row(s) point at a missing parent ("
                    + String.join(", ", orphans.stream().limit(5).map(o -> o.table() + " -> " + o.parent() + ": "
                            + o.rows()).toList()) + "); restore from a backup"));
        }
    }

    private void leases(Handle h, List<Finding> findings) {
        // a running worker lets the lease of a row it will not call in time lapse, and takes the row again at its next
        // tick: only a lease that stayed expired longer than that is a worker gone
        List<HealthStore.ExpiredLeases> expired = health.expiredLeases(h, clock.instant().minus(LEASE_GRACE));
        int rows = expired.stream().mapToInt(HealthStore.ExpiredLeases::rows).sum();
        if (rows == 0) {
            findings.add(new Finding(Level.OK, "leases", "no lease expired over a minute ago"));
            return;
        }
        List<String> workers = expired.stream().limit(LISTED_AT_MOST).map(e -> e.worker() + ": " + e.rows()
                + " row(s), expired " + human(Duration.between(e.firstExpired(), clock.instant())) + " ago").toList();
        findings.add(new Finding(Level.WARN, "leases", rows + " pending row(s) hold a lease expired over a minute ago ("
                + String.join("; ", workers) + (expired.size() > LISTED_AT_MOST ? "; more workers" : "")
                + "): a worker stopped mid-delivery; the next drain takes them again"));
    }

    private void stuck(Handle h, List<Finding> findings) {
        int stuck = health.pendingDueBefore(h, clock.instant().minus(stuckAfter), clock.instant());
        findings.add(stuck == 0
                ? new Finding(Level.OK, "stuck", "no pending row has waited more than " + human(stuckAfter)
                        + " for a worker")
                : new Finding(Level.WARN, "stuck", stuck + " pending row(s) due for more than " + human(stuckAfter)
                        + " and not taken: check that a worker runs and is not paused (Worker page)"));
    }

    private void consistency(Handle h, List<Finding> findings) {
        int submittingWithoutRow = health.submittingWithoutOpenRow(h);
        int sentNotSubmitted = health.sentButNotSubmitted(h);
        if (submittingWithoutRow == 0 && sentNotSubmitted == 0) {
            findings.add(new Finding(Level.OK, "workflow", "claim statuses agree with their outbox rows"));
            return;
        }
        if (submittingWithoutRow > 0) {
            findings.add(new Finding(Level.FAIL, "workflow", submittingWithoutRow
                    + " SUBMITTING claim(s) have no pending or failed outbox row"));
        }
        if (sentNotSubmitted > 0) {
            findings.add(new Finding(Level.FAIL, "workflow", sentNotSubmitted
                    + " claim(s) have a sent outbox row but were never marked SUBMITTED_TO_STATE"));
        }
    }

    private void tally(Handle h, List<Finding> findings, boolean onServer) {
        HealthStore.Tallies tallies = health.tallyDifferences(h);
        if (tallies.agree()) {
            findings.add(new Finding(Level.OK, "tally",
                    "the outbox's counts per delivery state and the claims' per status agree with their rows"));
            return;
        }
        List<String> off = new ArrayList<>();
        if (!tallies.outbox().isEmpty()) {
            off.add("the outbox's counts per delivery state disagree with its rows (" + differences(tallies.outbox())
                    + ")" + (onServer ? ": IT runs SELECT claimdesk_outbox_tally_rebuild() as the owner role" : ""));
        }
        if (!tallies.claims().isEmpty()) {
            off.add("the claims' counts per status disagree with the claims (" + differences(tallies.claims())
                    + ")" + (onServer ? ": IT runs SELECT claimdesk_claim_tally_rebuild() as the owner role" : ""));
        }
        String mend = onServer ? "" : ": with every ClaimDesk on this file closed, IT counts them again as the guide says";
        findings.add(new Finding(Level.FAIL, "tally", "staff's counts are off: " + String.join("; and ", off) + mend
                + " (docs/operations.md)"));
    }

    private static String differences(List<HealthStore.TallyDifference> differences) {
        return String.join("; ", differences.stream().map(d -> d.value() + " " + d.tallied() + " counted, " + d.rows()
                + " rows").toList());
    }

    private static String human(Duration d) {
        if (d.toHours() >= 48) {
            return d.toDays() + " days";
        }
        return d.toHours() >= 1 ? d.toHours() + " h" : d.toMinutes() >= 1 ? d.toMinutes() + " min" : "under a minute";
    }
}
