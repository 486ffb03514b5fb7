package org.arenaplan.plan;

import java.util.Arrays;

/**
 * The candidates of {@link CliqueBound}'s search and an upper bound, per instant, in one sweep
 * over time: the greedy step may add to the buffers live at t only buffers not live at t that
 * conflict with every one of them (its candidates), so no clique grown from t weighs more than
 * the live bytes plus theirs. {@link CliqueBound} skips an instant whose bound cannot beat the
 * best clique found, which leaves the clique it finds unchanged.
 *
 * <p>Steps: sweep the buffers' starts and ends in time order; when buffer m starts (ends), add
 * (subtract) one to {@code listed[c]} for each c in m's extra conflicts, and to {@code count[c]}
 * when c's interval does not overlap m's; keep the set of buffers listed by a live one. At a wanted instant t with L
 * live buffers, c (not live) conflicts with all of them iff {@code count[c]} plus the live
 * buffers its interval overlaps is L; the latter is a prefix count in a Fenwick tree over the
 * live buffers' starts (c ended before t) or ends (c starts after t). Cost O(P + W C log n) for
 * P extra pairs, W wanted instants, C buffers listed by a live one and n buffers, instead of
 * the O(W L E) of listing every live buffer's E extra conflicts at every instant.
 */
final class CliqueCandidates {
    /**
     * @param reach      per point of the live-bytes curve, the bound in aligned bytes (0 where not wanted)
     * @param candidates per point, its candidates in no particular order, where wanted and the
     *                   bound is above {@code floor} or the point is {@code first}; else null
     */
    record Sweep(long[] reach, int[][] candidates) { }

    private CliqueCandidates() { }

    /**
     * @param extra  per buffer, its extra conflicts (symmetric, no repeats)
     * @param wanted per point of {@code live}, whether to bound it
     * @param first  the point searched first (its candidates are always kept)
     * @param floor  the bytes the best clique reaches at least: other points' candidates are kept
     *               only when their bound is above it
     */
    static Sweep of(Problem p, int[][] extra, LiveBytes live, boolean[] wanted, int first, long floor) {
        int n = p.size();
        int[] byLower = p.startOrder(GreedyPlacer.NO_DEADLINE);
        int[] byUpper = p.endOrder(GreedyPlacer.NO_DEADLINE);
        long[] lowers = new long[n];
        long[] uppers = new long[n];
        int[] lowerRank = new int[n];
        int[] upperRank = new int[n];
        for (int i = 0; i < n; i++) {
            lowers[i] = p.lower(byLower[i]);
            lowerRank[byLower[i]] = i;
            uppers[i] = p.upper(byUpper[i]);
            upperRank[byUpper[i]] = i;
        }
        Fenwick liveLowers = new Fenwick(n);
        Fenwick liveUppers = new Fenwick(n);
        int[] listed = new int[n];     // per buffer, the live buffers whose extra conflicts list it
        int[] count = new int[n];      // ... of them, those whose interval does not overlap its own
        int[] set = new int[n];        // buffers listed by a live buffer, in set[0..size)
        int[] where = new int[n];      // position in set, -1 when absent
        Arrays.fill(where, -1);
        int size = 0;
        int liveCount = 0;
        long[] reach = new long[live.points()];
        int[][] candidates = new int[live.points()][];
        int[] found = new int[16];
        int s = 0;
        int e = 0;
        for (int k = 0; k < live.points(); k++) {
            long t = live.time(k);
            while (e < n && p.upper(byUpper[e]) <= t) {
                int m = byUpper[e++];
                liveCount--;
                liveLowers.add(lowerRank[m], -1);
                liveUppers.add(upperRank[m], -1);
                for (int c : extra[m]) {
                    if (!p.intervalsOverlap(c, m)) count[c]--;
                    if (--listed[c] == 0) {
                        int at = where[c];
                        int last = set[--size];
                        set[at] = last;
                        where[last] = at;
                        where[c] = -1;
                    }
                }
            }
            while (s < n && p.lower(byLower[s]) <= t) {
                int m = byLower[s++];
                liveCount++;
                liveLowers.add(lowerRank[m], 1);
                liveUppers.add(upperRank[m], 1);
                for (int c : extra[m]) {
                    if (!p.intervalsOverlap(c, m)) count[c]++;
                    if (listed[c]++ == 0) {
                        where[c] = size;
                        set[size++] = c;
                    }
                }
            }
            if (!wanted[k]) continue;
            long bytes = live.bytesAt(k);
            int nf = 0;
            for (int i = 0; i < size; i++) {
                int c = set[i];
                if (p.lower(c) <= t && t < p.upper(c)) continue;   // live: already counted
                int overlapping = p.upper(c) <= t
                        ? liveLowers.prefix(Problem.countBelow(lowers, p.upper(c)))                        // started before c ended
                        : liveCount - liveUppers.prefix(Problem.countBelow(uppers, p.lower(c) + 1));       // end after c starts
                if (overlapping + count[c] != liveCount) continue;
                bytes = Math.min(p.sumBytes(), bytes + p.alignedSize(c));
                if (nf == found.length) found = Arrays.copyOf(found, 2 * nf);
                found[nf++] = c;
            }
            reach[k] = bytes;
            if (k == first || bytes > floor) candidates[k] = Arrays.copyOf(found, nf);
        }
        return new Sweep(reach, candidates);
    }

    /** Counts over positions 0..n-1: add at a position, sum of a prefix, O(log n) each. */
    private static final class Fenwick {
        private final int[] tree;

        Fenwick(int n) {
            tree = new int[n + 1];
        }

        void add(int at, int d) {
            for (int i = at + 1; i < tree.length; i += i & -i) tree[i] += d;
        }

        /** The sum over positions {@code 0..to-1}. */
        int prefix(int to) {
            int sum = 0;
            for (int i = to; i > 0; i -= i & -i) sum += tree[i];
            return sum;
        }
    }
}
