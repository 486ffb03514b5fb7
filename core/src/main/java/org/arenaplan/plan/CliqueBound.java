package org.arenaplan.plan;

import java.util.Arrays;

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
 * <p>Steps: the instants are the distinct start times (all of them up to {@link #MAX_INSTANTS},
 * else the heaviest by live bytes), taken heaviest first, ties in time order. At instant t the
 * members are the buffers live at t; the candidates are the buffers not live at t that conflict
 * with every member and that a member's extra conflicts list (the only ones the greedy step can
 * add); add each candidate, heaviest first (ties in the order the members' lists discover them),
 * that conflicts with every candidate added so far. The first heaviest clique wins.
 *
 * <p>Cost: {@link CliqueCandidates} finds every instant's candidates, and the upper bound live
 * bytes + candidates' bytes, in one sweep over time, O(P + W C log n) for P extra pairs, W
 * instants, C buffers listed by a live one and n buffers. An instant whose bound does not beat
 * the best clique found is skipped, as is the rest of one once its bytes plus the candidates
 * left cannot: exact, the clique found is the same. A grown instant costs O(C (log C + S) + K E)
 * for S steps to a member's listing of each candidate, K added members and E extra conflicts
 * each. The straightforward search (every live buffer's extra conflicts listed at every instant,
 * O(W L E) for L live buffers, and a binary search per candidate and member) took 38.9 s on a
 * 6,000-op graph over 64 streams where this one takes 2.0 s, the same clique (docs/streams.md,
 * {@code CliqueBoundBench}). Greedy: the maximum clique is NP-hard, so the bound may be below
 * the best one; it is never below the live-bytes maximum.
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
            int[] members = live(p, live.time(at));
            long bytes = 0;
            for (int m : members) bytes += p.alignedSize(m);
            return new Clique(live.time(at), members, bytes);
        }
        Integer[] order = new Integer[live.points()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(live.bytesAt(b), live.bytesAt(a)));   // stable: ties keep time order
        int instants = Math.min(order.length, MAX_INSTANTS);
        Search s = new Search(p);
        boolean[] wanted = new boolean[order.length];
        for (int k = 0; k < instants; k++) wanted[order[k]] = true;
        CliqueCandidates.Sweep sweep = CliqueCandidates.of(p, s.extra, live, wanted, order[0], live.bytesAt(order[0]));
        Clique best = null;
        for (int k = 0; k < instants; k++) {
            if (best != null && sweep.reach()[order[k]] <= best.bytes()) continue;   // cannot beat it: the first heaviest stays
            Clique c = s.clique(live.time(order[k]), sweep.candidates()[order[k]], best == null ? -1 : best.bytes());
            if (c != null && (best == null || c.bytes() > best.bytes())) best = c;
        }
        return best;
    }

    /** The buffers live at t, ascending. */
    private static int[] live(Problem p, long t) {
        int[] out = p.index().overlapsInto(t, t + 1, -1, new int[16], IntervalIndex.newStack());
        int[] members = Arrays.copyOfRange(out, 1, out[0] + 1);
        Arrays.sort(members);
        return members;
    }

    /** The per-problem state of one search: adjacency and scratch shared across instants. */
    private static final class Search {
        private final Problem p;
        private final int[][] extra;        // per buffer, its extra conflicts in stored order
        private final int[][] listedBy;     // per buffer c, ascending, the buffers whose extra conflicts list c
        private final int[][] listedAt;     // ... and c's position in each one's list
        private final int[] memberMark;     // == stamp: live at the current instant
        private final int[] candidateMark;  // == stamp: a candidate of the current instant
        private final int[] added;          // per candidate, members added whose extra conflicts list it (not overlapping)
        private int stamp;

        Search(Problem p) {
            this.p = p;
            int n = p.size();
            extra = new int[n][];
            int[] degree = new int[n];
            for (int i = 0; i < n; i++) {
                extra[i] = p.extraConflicts(i);
                for (int c : extra[i]) degree[c]++;
            }
            listedBy = new int[n][];
            listedAt = new int[n][];
            for (int c = 0; c < n; c++) {
                listedBy[c] = new int[degree[c]];
                listedAt[c] = new int[degree[c]];
            }
            int[] fill = new int[n];
            for (int i = 0; i < n; i++) {
                for (int at = 0; at < extra[i].length; at++) {
                    int c = extra[i][at];
                    listedBy[c][fill[c]] = i;
                    listedAt[c][fill[c]++] = at;
                }
            }
            memberMark = new int[n];
            candidateMark = new int[n];
            added = new int[n];
        }

        /**
         * The clique grown from instant t, or null when it cannot weigh more than {@code beat}
         * bytes (-1: always grow it).
         *
         * @param candidates the buffers not live at t that conflict with every live one ({@link CliqueCandidates})
         */
        Clique clique(long t, int[] candidates, long beat) {
            int[] live = live(p, t);
            int l = live.length;
            stamp++;
            long bytes = 0;
            for (int m : live) {
                bytes += p.alignedSize(m);
                memberMark[m] = stamp;
            }
            // heaviest first; ties in order of discovery: by the first live buffer (ascending) whose
            // extra conflicts list the candidate, then by the candidate's position in that list
            int kept = candidates.length;
            long[] firstLister = new long[kept];
            Integer[] sorted = new Integer[kept];
            long rest = 0;
            for (int i = 0; i < kept; i++) {
                int c = candidates[i];
                candidateMark[c] = stamp;
                added[c] = 0;
                rest += p.alignedSize(c);
                sorted[i] = i;
                int j = 0;
                while (memberMark[listedBy[c][j]] != stamp) j++;   // c has an extra conflict with a live buffer
                firstLister[i] = (long) listedBy[c][j] << 32 | listedAt[c][j];
            }
            Arrays.sort(sorted, (a, b) -> {
                int bySize = Long.compare(p.alignedSize(candidates[b]), p.alignedSize(candidates[a]));
                return bySize != 0 ? bySize : Long.compare(firstLister[a], firstLister[b]);
            });
            int[] members = Arrays.copyOf(live, l + kept);
            int size = l;
            for (int i : sorted) {
                if (bytes + rest <= beat) return null;
                int c = candidates[i];
                rest -= p.alignedSize(c);
                if (conflictsWithAdded(c, members, l, size)) {
                    members[size++] = c;
                    bytes += p.alignedSize(c);
                    for (int x : extra[c]) if (candidateMark[x] == stamp && !p.intervalsOverlap(x, c)) added[x]++;
                }
            }
            return new Clique(t, Arrays.copyOf(members, size), bytes);
        }

        /**
         * Whether c conflicts with every member added so far through extra conflicts,
         * {@code members[from..to)}: those that overlap it plus those whose extra conflicts
         * listed it make them all.
         */
        private boolean conflictsWithAdded(int c, int[] members, int from, int to) {
            int overlapping = 0;
            for (int i = from; i < to; i++) if (p.intervalsOverlap(c, members[i])) overlapping++;
            return overlapping + added[c] == to - from;
        }
    }
}
