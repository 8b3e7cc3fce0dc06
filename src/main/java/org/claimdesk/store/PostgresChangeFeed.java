package org.claimdesk.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.claimdesk.domain.DataChange;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The change feed of a team database: one connection of its own, outside the pool, that LISTENs on the channel
 * the schema's triggers notify ({@code R__change_feed.sql}) and hands each committed transaction's kinds of change
 * made by other connections than the open database's own to the subscribers. The connection waits on its socket;
 * no table is read. The connection is asked for an answer ({@code SELECT 1}) every {@link #QUIET} and given up when
 * none comes in time: a network that drops a connection without closing it (a laptop's sleep, a VPN or Wi-Fi change,
 * a firewall's idle timeout) would otherwise leave the feed waiting, "live", for notifications that never come; and
 * the question keeps the session from counting as idle to the server. A lost
 * connection is opened again with a growing pause (up to {@value #MAX_RETRY_MS} ms), and the subscribers then hear of
 * every kind of change.
 */
final class PostgresChangeFeed implements ChangeFeed, AutoCloseable {
    static final String CHANNEL = "claimdesk_changes";
    /** How long one wait on the socket lasts before the feed checks whether it was closed, in ms. */
    static final int WAIT_MS = 250;
    static final long FIRST_RETRY_MS = 500;
    /** The longest pause between two tries: a connection is cheap, and the office's pages wait for it. */
    static final long MAX_RETRY_MS = 5_000;
    /**
     * How often the feed asks the server for an answer ({@code SELECT 1}), notifications or not: a connection that only
     * listens is idle to the server, which may end idle sessions ({@code idle_session_timeout}).
     */
    static final Duration QUIET = Duration.ofSeconds(15);
    /** How long the server has to answer before the connection is given up, in seconds (the driver's unit). */
    static final int ANSWER_WITHIN_SECONDS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(PostgresChangeFeed.class);

    private final DatabaseLocation.Postgres server;
    private final String ownSession;
    private final Duration quiet;
    private final int answerWithinSeconds;
    private final CopyOnWriteArrayList<Consumer<Set<DataChange>>> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final CountDownLatch listening = new CountDownLatch(1);
    private Thread thread;
    private volatile boolean closed;
    private volatile boolean connected;
    /** Guarded by this: whether a LISTEN has succeeded, and whether a caller stopped waiting for it before. */
    private boolean listeningOnce;
    private boolean waitedInVain;

    /** @param ownSession the session name of the changes not to hand on: the open database's own */
    PostgresChangeFeed(DatabaseLocation.Postgres server, String ownSession) {
        this(server, ownSession, QUIET, ANSWER_WITHIN_SECONDS);
    }

    /**
     * @param quiet the silence after which the feed asks the server for an answer
     * @param answerWithinSeconds how long the server has for any answer before the connection is given up
     */
    PostgresChangeFeed(DatabaseLocation.Postgres server, String ownSession, Duration quiet, int answerWithinSeconds) {
        this.server = server;
        this.ownSession = ownSession;
        this.quiet = quiet;
        this.answerWithinSeconds = answerWithinSeconds;
    }

    @Override
    public boolean live() {
        return true;
    }

    @Override
    public boolean connected() {
        return connected;
    }

    @Override
    public Subscription subscribe(Consumer<Set<DataChange>> listener) {
        listeners.add(listener);
        start();
        return () -> listeners.remove(listener);
    }

    /**
     * Waits for the first LISTEN. A caller that stops waiting reads without it (a page, a drain's pause): what it
     * reads may then change unheard before the feed listens, so the feed's first LISTEN after such a wait says every
     * kind of data may have changed, as after a dropped connection.
     */
    @Override
    public boolean awaitListening(long timeoutMs) throws InterruptedException {
        if (listening.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            return true;
        }
        synchronized (this) {
            if (listeningOnce) {
                return true;
            }
            waitedInVain = true;
            return false;
        }
    }

    private synchronized void start() {
        if (thread != null || closed) {
            return;
        }
        thread = new Thread(this::run, "claimdesk-change-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            listen();
        } finally {
            // whatever ends the thread (an error a listener threw included), no update comes any more
            connected = false;
        }
    }

    /**
     * The listening connection's driver properties: an answer within {@code answerWithinSeconds}, and the server's
     * keepalives as the pool's connections have them, so that the session of a workstation gone without a word (a
     * laptop asleep, the network cut) leaves the server within minutes, not the hours of the system's default.
     */
    static Properties properties(int answerWithinSeconds) {
        Properties properties = new Properties();
        properties.setProperty("socketTimeout", Integer.toString(answerWithinSeconds));
        properties.setProperty("tcpKeepAlive", "true");
        properties.setProperty("options", PostgresDatabase.GONE_CLIENT_OPTIONS);
        return properties;
    }

    private void listen() {
        long retryMs = FIRST_RETRY_MS;
        boolean warned = false;
        // whether a change may have gone unheard: each connection that fails or drops sets it, the first one included
        // (what the pages read before the subscription may have changed while it retried), and the next LISTEN
        // then has every kind of data read again
        boolean missedSome = false;
        boolean heardBefore = false;
        while (!closed) {
            try (Connection connection = PostgresDatabase.connect(server, "ClaimDesk live updates",
                    properties(answerWithinSeconds))) {
                try (Statement s = connection.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                boolean waitersGaveUp;
                synchronized (this) {
                    listeningOnce = true;
                    waitersGaveUp = waitedInVain;
                    waitedInVain = false;
                }
                connected = true;
                listening.countDown();
                if (missedSome || waitersGaveUp) {
                    LOG.info("live updates from {} are {}", server.describe(), heardBefore ? "back" : "on");
                    deliver(EnumSet.allOf(DataChange.class));
                }
                heardBefore = true;
                retryMs = FIRST_RETRY_MS;
                warned = false;
                PGConnection pg = connection.unwrap(PGConnection.class);
                long asked = System.nanoTime();
                while (!closed) {
                    deliver(pg.getNotifications(WAIT_MS));
                    if (System.nanoTime() - asked > quiet.toNanos()) {
                        // an answer within the socket's timeout, or an SQLException that opens the connection again
                        try (Statement s = connection.createStatement()) {
                            s.execute("SELECT 1");
                        }
                        asked = System.nanoTime();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                connected = false;
                missedSome = true;
                if (closed) {
                    return;
                }
                if (warned) {
                    LOG.debug("live updates from {}: still no connection ({}); trying again in {} ms",
                            server.describe(), e.getMessage(), retryMs);
                } else {
                    // once per outage: the tries every few seconds while the server is away say nothing new
                    LOG.warn("live updates from {} stopped ({}); connecting again in {} ms, and every {} ms at most"
                            + " until the server answers", server.describe(), e.getMessage(), retryMs, MAX_RETRY_MS);
                    warned = true;
                }
                try {
                    if (closing.await(retryMs, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException interrupted) {
                    return;
                }
                retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
            }
        }
    }

    private void deliver(PGNotification[] notifications) {
        if (notifications == null || notifications.length == 0) {
            return;
        }
        Set<DataChange> changed = EnumSet.noneOf(DataChange.class);
        for (PGNotification n : notifications) {
            String[] kindAndSession = n.getParameter().split(" ", 2);
            boolean own = kindAndSession.length == 2 && kindAndSession[1].equals(ownSession);
            if (!own) {
                DataChange.ofWireName(kindAndSession[0]).ifPresent(changed::add);
            }
        }
        if (!changed.isEmpty()) {
            deliver(changed);
        }
    }

    private void deliver(Set<DataChange> changed) {
        Set<DataChange> shown = Set.copyOf(changed);
        for (Consumer<Set<DataChange>> listener : listeners) {
            try {
                listener.accept(shown);
            } catch (RuntimeException e) {
                LOG.warn("a live-update listener failed", e);
            }
        }
    }

    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            running = thread;
        }
        closing.countDown();
        listeners.clear();
        if (running != null) {
            try {
                running.join(WAIT_MS * 4L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
