package org.claimdesk.testing;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.claimdesk.store.Database;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionException;

/**
 * Fails one commit through Jdbi's transaction handler, as a cut connection to the database would: the first commit,
 * on a thread whose name starts with a given prefix, of a transaction that changed what {@code watched} reads (read
 * at the transaction's start and again at its commit, in it). With {@code committed} the commit goes through first
 * and only its answer is lost, as when a team database's connection is cut at that moment; otherwise the transaction
 * is rolled back. Installed on a database's Jdbi, it applies to the connections opened after.
 */
public final class CommitFault<T> extends DelegatingTransactionHandler {
    public static final String MESSAGE = "the connection to the database was lost (test fault)";

    private final String thread;
    private final boolean committed;
    private final Function<Handle, T> watched;
    private final BiPredicate<T, T> strikes;
    private final Map<Handle, T> atStart = new ConcurrentHashMap<>();
    private volatile T before;
    private volatile T after;

    private CommitFault(Database db, String thread, boolean committed, Function<Handle, T> watched,
            BiPredicate<T, T> strikes) {
        super(db.jdbi().getTransactionHandler());
        this.thread = Objects.requireNonNull(thread, "thread");
        this.committed = committed;
        this.watched = Objects.requireNonNull(watched, "watched");
        this.strikes = Objects.requireNonNull(strikes, "strikes");
    }

    /**
     * Installs the fault on {@code db}: it strikes the first commit on a thread named {@code thread}… whose
     * transaction found {@code watched} at its start and at its commit such that {@code strikes} (start, commit) holds.
     */
    public static <T> CommitFault<T> install(Database db, String thread, boolean committed, Function<Handle, T> watched,
            BiPredicate<T, T> strikes) {
        CommitFault<T> fault = new CommitFault<>(db, thread, committed, watched, strikes);
        db.jdbi().setTransactionHandler(fault);
        return fault;
    }

    /** Whether the fault struck. */
    public boolean struck() {
        return after != null;
    }

    /** What {@code watched} read at the start of the transaction whose commit failed; null before. */
    public T before() {
        return before;
    }

    /** What {@code watched} read at that commit; null before. */
    public T after() {
        return after;
    }

    @Override
    public void begin(Handle handle) {
        super.begin(handle);
        if (!struck() && Thread.currentThread().getName().startsWith(thread)) {
            atStart.put(handle, watched.apply(handle));
        }
    }

    @Override
    public void commit(Handle handle) {
        T start = atStart.remove(handle);
        if (start != null && !struck()) {
            T now = watched.apply(handle);
            if (strikes.test(start, now)) {
                before = start;
                after = now;
                if (committed) {
                    super.commit(handle);
                } else {
                    super.rollback(handle);
                }
                throw new TransactionException(MESSAGE);
            }
        }
        super.commit(handle);
    }
}
