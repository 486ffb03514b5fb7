package org.arenaplan.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The lower bound of a problem with extra conflicts (several streams): the heaviest clique of
 * the conflict graph found from each instant. Buffers that pairwise may not share a byte sit
 * side by side in any valid placement, so any clique's aligned bytes bound the arena from
 * below; the buffers live at one instant are such a clique, and on several streams the pairs
 * that no event orders extend it.
 *
 * <p>{@link Problem#lowerBound()} stays the live-bytes maximum: the search planner's tests
 * and pruning are stated against it. This is the bound the plan's stats report.
 *
 * <p>Steps, per distinct start time t (all of them up to {@link #MAX_INSTANTS}, else the
 * heaviest): take the buffers live at t; the candidates are the buffers with an extra
 * conflict with one of them; add each candidate, heaviest first, that conflicts with every
 * buffer taken so far. Cost O(T (L E + C log C + C K log E)) for T instants, L live buffers,
 * C candidates, K clique size and E extra conflicts per buffer, plus sorting each candidate's
 * extra conflicts once (O(E log E) each), so that a conflict check is a binary search, not a
 * scan of E (two unsynchronised streams of 1,500 ops, 2.2 million extra pairs: the whole
 * {@code plan} command's CPU time from 27.8 s to 12.0 s, the same plan; notes/hbwide.md). Greedy: the maximum clique is NP-hard, so
 * the bound may be below the best one; it is never below the live-bytes maximum.
 */
public final class CliqueBound {
    /** Instants examined at most; beyond, the heaviest by live bytes. */
    static final int MAX_INSTANTS = 2048;

    private CliqueBound() { }

    /** Aligned bytes of the heaviest clique found; the live-bytes maximum without extra conflicts. */
    public static long of(Problem p) {
        return p.hasExtraConflicts() ? best(p).bytes() : p.lowerBound();
    }

    /**
     * The heaviest clique found and where: {@code instant} is the time it was grown from,
     * {@code members} the buffers (those live at the instant first, then those added through
     * extra conflicts). Without extra conflicts: the buffers live at the first instant of the
     * live-bytes maximum.
     */
    public record Clique(long instant, int[] members, long bytes) {
        /** A copy: the clique is computed once per problem and shared ({@link Problem#clique()}). */
        @Override
        public int[] members() {
            return members.clone();
        }
    }

    /**
     * The heaviest clique found, computed on the problem's first call and shared by every later
     * one (the plan's stats, the peak explanation, the plan JSON and the pictures each asked for
     * it: on many streams the search of the 2,048 instants is the slowest step after the time limit).
     */
    public static Clique best(Problem p) {
        return p.clique();
    }

    /** The search {@link #best} describes, run each time it is called. */
    static Clique search(Problem p) {
        LiveBytes live = LiveBytes.of(p);
        if (live.points() == 0) return new Clique(0, new int[0], 0);
        if (!p.hasExtraConflicts()) {
            int at = 0;
            for (int i = 1; i < live.points(); i++) if (live.bytesAt(i) > live.bytesAt(at)) at = i;
            return clique(p, live.time(at), null);
        }
        Integer[] order = new Integer[live.points()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(live.bytesAt(b), live.bytesAt(a)));   // stable: ties keep time order
        int instants = Math.min(order.length, MAX_INSTANTS);
        Clique best = null;
        int[][] sorted = new int[p.size()][];
        for (int k = 0; k < instants; k++) {
            Clique c = clique(p, live.time(order[k]), sorted);
            if (best == null || c.bytes() > best.bytes()) best = c;
        }
        return best;
    }

    /**
     * @param sorted per buffer, its extra conflicts sorted (filled on first use, shared across
     *               instants; null without extra conflicts), so that a conflict check costs
     *               O(log E) instead of a scan of E
     */
    private static Clique clique(Problem p, long t, int[][] sorted) {
        List<Integer> members = new ArrayList<>();
        p.index().forEachOverlap(t, t + 1, members::add);
        members.sort(null);
        boolean[] taken = new boolean[p.size()];
        long bytes = 0;
        for (int m : members) {
            taken[m] = true;
            bytes += p.alignedSize(m);
        }
        List<Integer> candidates = new ArrayList<>();
        if (p.hasExtraConflicts()) {
            for (int m : members.toArray(Integer[]::new)) {
                for (int c : p.extraConflicts(m)) {
                    if (!taken[c]) {
                        taken[c] = true;
                        candidates.add(c);
                    }
                }
            }
        }
        candidates.sort((a, b) -> Long.compare(p.alignedSize(b), p.alignedSize(a)));
        for (int c : candidates) {
            boolean all = true;
            for (int m : members) {
                if (!conflicts(p, sorted, c, m)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                members.add(c);
                bytes += p.alignedSize(c);
            }
        }
        return new Clique(t, members.stream().mapToInt(Integer::intValue).toArray(), bytes);
    }

    /** {@link Problem#conflicts} (c and m distinct) by binary search in c's sorted extra conflicts. */
    private static boolean conflicts(Problem p, int[][] sorted, int c, int m) {
        if (p.intervalsOverlap(c, m)) return true;
        if (sorted == null) return false;
        if (sorted[c] == null) {
            sorted[c] = p.extraConflicts(c);   // a copy
            Arrays.sort(sorted[c]);
        }
        return Arrays.binarySearch(sorted[c], m) >= 0;
    }
}
