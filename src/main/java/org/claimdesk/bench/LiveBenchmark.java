package org.claimdesk.bench;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.ClaimEditing;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.LiveChanges;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.DataChange;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;

/**
 * How soon a change made on one workstation reaches another on a team database: two open databases on one
 * server, as two workstations have; one edits a claim (staff's save, audited), the other hears it through its live
 * updates and reads the Claims page's first rows and count again, as its console does. Reports, per edit, the time
 * from the start of the save to the change being heard, and to the page read again.
 */
final class LiveBenchmark {
    private static final int CLAIMS = 2_000;
    private static final Duration HEARD_WITHIN = Duration.ofSeconds(10);

    private LiveBenchmark() {
    }

    static Map<String, Object> run(DatabaseLocation.Postgres location, int changes) throws InterruptedException {
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            Queries hereQueries = new Queries(here, Clock.systemDefaultZone());
            if (!org.claimdesk.store.DatabaseMove.isEmpty(here)) {
                // an office's audit trail alone (a console started on it) makes it an office's database
                throw new IllegalArgumentException("bench live needs an empty team database (it adds " + CLAIMS
                        + " demo claims and edits them): " + location.describe() + " already holds claims, outbox"
                        + " rows or audit entries");
            }
            new DemoData(there, Clock.systemDefaultZone(), Deadlines.statutory()).generate(CLAIMS, 1L, n -> { });
            ClaimEditing editing = new ClaimEditing(there, Clock.systemDefaultZone());
            List<Claim> editable = new Queries(there, Clock.systemDefaultZone()).claims(ClaimQuery.all()
                    .withStatuses(EnumSet.of(org.claimdesk.domain.ClaimStatus.IDENTITY_PENDING)).withPage(0, 50));

            LinkedBlockingQueue<Long> heardAt = new LinkedBlockingQueue<>();
            LiveChanges live = new LiveChanges(here);
            List<Long> heardMs = new ArrayList<>();
            List<Long> readMs = new ArrayList<>();
            try (AutoCloseable subscription = live.subscribe((Set<DataChange> kinds) -> {
                if (kinds.contains(DataChange.CLAIMS)) {
                    heardAt.add(System.nanoTime());
                }
            })) {
                warmUp(editing, editable.get(0), heardAt);
                for (int i = 0; i < changes; i++) {
                    Claim claim = new Queries(there, Clock.systemDefaultZone())
                            .claim(editable.get(i % editable.size()).claimId()).orElseThrow();
                    heardAt.clear();
                    long start = System.nanoTime();
                    editing.edit(claim.claimId(), claim.version(), Map.of("holderName", "Holder " + i), "bench.live",
                            "bench live: edit " + i);
                    Long heard = heardAt.poll(HEARD_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
                    if (heard == null) {
                        throw new IllegalStateException("edit " + i + " was not heard within " + HEARD_WITHIN.toSeconds()
                                + " s");
                    }
                    hereQueries.claims(ClaimQuery.all().withPage(0, 100));
                    hereQueries.countClaims(ClaimQuery.all());
                    long read = System.nanoTime();
                    heardMs.add(TimeUnit.NANOSECONDS.toMicros(heard - start));
                    readMs.add(TimeUnit.NANOSECONDS.toMicros(read - start));
                }
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("database", location.describe());
            result.put("claims", CLAIMS);
            result.put("edits", changes);
            result.put("heardP50Ms", percentileMs(heardMs, 50));
            result.put("heardP95Ms", percentileMs(heardMs, 95));
            result.put("heardMaxMs", percentileMs(heardMs, 100));
            result.put("pageReadP50Ms", percentileMs(readMs, 50));
            result.put("pageReadP95Ms", percentileMs(readMs, 95));
            result.put("pageReadMaxMs", percentileMs(readMs, 100));
            return result;
        }
    }

    /** Edits until one is heard: the feed's connection is open from then on. */
    private static void warmUp(ClaimEditing editing, Claim claim, LinkedBlockingQueue<Long> heardAt)
            throws InterruptedException {
        long deadline = System.nanoTime() + HEARD_WITHIN.toNanos();
        long version = claim.version();
        while (System.nanoTime() < deadline) {
            editing.edit(claim.claimId(), version, Map.of("holderName", "Warm-up " + version), "bench.live",
                    "bench live: warm-up");
            version++;
            if (heardAt.poll(200, TimeUnit.MILLISECONDS) != null) {
                return;
            }
        }
        throw new IllegalStateException("the live updates did not start within " + HEARD_WITHIN.toSeconds() + " s");
    }

    /** The {@code p}th percentile of microsecond figures, in ms with one decimal. */
    static double percentileMs(List<Long> micros, int p) {
        List<Long> sorted = new ArrayList<>(micros);
        sorted.sort(null);
        int index = Math.max(0, (int) Math.ceil(p / 100.0 * sorted.size()) - 1);
        return Math.round(sorted.get(index) / 100.0) / 10.0;
    }
}
