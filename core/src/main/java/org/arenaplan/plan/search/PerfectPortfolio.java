package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Runs several {@link PerfectFill} searches of one problem at once, one thread each, and takes
 * the first answer (a parallel portfolio of randomised restarts: Gomes and Selman 2001). Member 0
 * is the search of {@link PerfectFill}'s class comment; member 1 runs member 0's first order and
 * seeds, weights its random runs by the square of the lifetime rather than the lifetime, and
 * also branches on right walls, a different path; member m > 1 randomises every run with seeds of its
 * own ({@link PerfectFill#member}), so the members explore different orders and the
 * first to find a packing (or to prove there is none: each member is complete on its own, so any
 * proof holds) ends them all.
 *
 * <p>Steps: start members 1 .. k-1 on threads of their own (a stack of one frame chain per
 * buffer, like the caller's), run member 0 on the calling thread; the first member to end with
 * {@link PerfectFill#FOUND} or {@link PerfectFill#NOT_FOUND} is the winner and sets a flag that
 * every member reads with its clock (every 256 nodes), so the others stop within 256 nodes;
 * wait for them all. Cost: k times the memory of one search (its 16 MiB table of refuted states
 * included) and up to k cores.
 *
 * <p>Limits: the deadline is the same for every member; the node limit bounds each member's
 * nodes on its own (a node limit stands for the time one thread takes to explore that many
 * nodes), so k members explore up to k times the limit in all. Determinism: with a node limit
 * and no deadline reached, whether a packing is found (or proven impossible) does not depend on
 * timing, as it is found when some member finds it within its limit, and no member can prove a
 * feasible problem infeasible; which member wins, its packing and the total of nodes (members
 * stop when cancelled) may differ from run to run when several would find one.
 */
final class PerfectPortfolio {
    /** The most members: each holds a search's tables, 16 MiB of refuted states among them. */
    static final int MAX_MEMBERS = 4;

    /**
     * @param result  {@link PerfectFill#FOUND}, {@link PerfectFill#NOT_FOUND} or {@link PerfectFill#OUT_OF_TIME}
     * @param offsets the winner's offsets when found, else null
     * @param nodes   the nodes of every member, summed
     * @param winner  the member that decided (0 .. members-1), or -1 when none did
     */
    record Outcome(int result, long[] offsets, long nodes, int winner) { }

    private PerfectPortfolio() { }

    /** One member per available processor, at most {@value #MAX_MEMBERS}. */
    static int defaultMembers() {
        return Math.max(1, Math.min(MAX_MEMBERS, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Searches with {@code members} members (1: {@link PerfectFill} alone, on this thread); the
     * parameters are {@link PerfectFill}'s, {@code nodeLimit} per member.
     *
     * @throws IllegalArgumentException when {@code members} is below 1
     */
    static Outcome run(Problem p, Timeline time, int[] active, long capacity, long deadline, long nodeLimit,
                       BooleanSupplier cancelled, int members) {
        if (members < 1) throw new IllegalArgumentException("members must be at least 1, got " + members);
        AtomicBoolean decided = new AtomicBoolean();
        PerfectFill[] fills = new PerfectFill[members];
        int[] results = new int[members];
        Throwable[] failures = new Throwable[members];
        Thread[] threads = new Thread[members];
        for (int m = 0; m < members; m++) {
            fills[m] = new PerfectFill(p, time, active, capacity, deadline, nodeLimit,
                    members == 1 ? cancelled : () -> decided.get() || cancelled.getAsBoolean()).member(m);
        }
        AtomicInteger first = new AtomicInteger(-1);   // the member that decided first
        long stack = Math.max(16L << 20, 2048L * p.size());
        for (int m = members - 1; m >= 0; m--) {
            int member = m;
            Runnable body = () -> {
                try {
                    int r = fills[member].run();
                    results[member] = r;
                    if (r == PerfectFill.FOUND || r == PerfectFill.NOT_FOUND) {
                        first.compareAndSet(-1, member);
                        decided.set(true);
                    }
                } catch (Throwable e) {
                    failures[member] = e;
                    decided.set(true);
                }
            };
            if (m == 0) body.run();                  // member 0 on this thread, after the others started
            else {
                threads[m] = new Thread(null, body, "arenaplan-search-" + m, stack);
                try {
                    threads[m].start();
                } catch (Throwable e) {                  // no thread to be had: stop those started
                    decided.set(true);
                    threads[m] = null;
                    for (int k = m + 1; k < members; k++) joinUninterruptibly(threads[k]);
                    throw e;
                }
            }
        }
        for (int m = 1; m < members; m++) joinUninterruptibly(threads[m]);
        for (Throwable e : failures) {
            if (e instanceof RuntimeException re) throw re;
            if (e instanceof Error err) throw err;
        }
        int winner = first.get();
        long nodes = 0;
        for (PerfectFill f : fills) nodes += f.nodes();
        if (winner < 0) return new Outcome(PerfectFill.OUT_OF_TIME, null, nodes, -1);
        return new Outcome(results[winner], results[winner] == PerfectFill.FOUND ? fills[winner].offsets().clone() : null, nodes, winner);
    }

    /** Waits for t; an interrupt is kept for later (the members stop through their cancel flag). */
    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
