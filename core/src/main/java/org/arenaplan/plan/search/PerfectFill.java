package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * Exact search for packings with no slack: every section of the timeline holds exactly
 * {@code capacity} live bytes (perfect packings, {@link PerfectPackings}), so a solution leaves
 * no byte of any instant free and the model can use that.
 *
 * <p>Steps at each node (bottom-left fill, as in exact perfect rectangle packing):
 * <ol>
 *   <li>Every section is filled from 0 without holes, so its state is one number, its floor.
 *       At a left wall (section s at floor f whose left neighbour is filled higher, or the
 *       first section) the byte f of section s must be covered, by a buffer placed at exactly f
 *       that starts at s. Branch on those fillers at the wall with the fewest of them (fail
 *       first; one filler is a forced move), among the walls whose fillers can all be placed
 *       now (every section they span at floor f: the lowest wall always qualifies, so branching
 *       stays complete); equal fillers (same end and size) once. No filler: dead end.</li>
 *   <li>Lookahead: every "left wall" (a section whose left neighbour's floor is higher, or the
 *       first section) must keep a buffer able to fill its lowest byte later: one that starts
 *       there, fits under the capacity from that floor, and spans no section already higher.
 *       Where the wall opens a flat pit (one floor, higher on both sides), the pit's bottom row
 *       must be tiled end to end by such buffers (a reachability sweep). Else prune.</li>
 *   <li>Restarts: a node budget that doubles; the first run tries candidates whose top meets a neighbour's
 *       floor first (no new wall; the left one counts more), then the longest-lived, then the
 *       largest; later runs in a seeded random order (Gomes, Selman and Kautz,
 *       1998: randomised restarts cut the heavy tail). Only a run that ends within its budget
 *       proves infeasibility.</li>
 * </ol>
 * Complete: every packing with no slack fills each lowest-leftmost byte by one of the branches.
 * Cost per node: O(sections + the buffers starting at walls x their spans). Used by
 * {@link CapacitySearch} instead of its general scheme when the problem has no slack and no
 * extra conflicts.
 */
final class PerfectFill {
    static final int FOUND = 0, NOT_FOUND = 1, OUT_OF_NODES = 2, OUT_OF_TIME = 3;
    private static final int CLOCK_EVERY = 256;

    private final Problem p;
    private final Timeline time;
    private final long capacity;
    private final long deadline;
    private final BooleanSupplier cancelled;
    private final long[] floor;
    private final boolean[] placed;
    private final long[] offset;
    /** Per section, the active buffers that start there. */
    private final int[][] starters;
    private final int count;
    private int placedCount;
    private long nodes;
    private long nodesLeft;
    private SplittableRandom random;
    private boolean[] reach = new boolean[0];

    /** True when every section holds exactly {@code capacity} bytes (and there is at least one). */
    static boolean applies(Timeline time, long capacity) {
        if (time.sections == 0) return false;
        for (long b : time.liveBytes) if (b != capacity) return false;
        return true;
    }

    PerfectFill(Problem p, Timeline time, int[] active, long capacity, long deadline, BooleanSupplier cancelled) {
        this.p = p;
        this.time = time;
        this.capacity = capacity;
        this.deadline = deadline;
        this.cancelled = cancelled;
        this.floor = new long[time.sections];
        this.placed = new boolean[p.size()];
        this.offset = new long[p.size()];
        this.count = active.length;
        int[] n = new int[time.sections];
        for (int b : active) n[time.first[b]]++;
        starters = new int[time.sections][];
        for (int s = 0; s < time.sections; s++) starters[s] = new int[n[s]];
        Arrays.fill(n, 0);
        for (int b : active) starters[time.first[b]][n[time.first[b]]++] = b;
    }

    long nodes() {
        return nodes;
    }

    /** Offsets of the buffers; meaningful after {@link #run()} returned {@link #FOUND}. */
    long[] offsets() {
        return offset;
    }

    /** {@link #FOUND}, {@link #NOT_FOUND} (proven) or {@link #OUT_OF_TIME}. */
    int run() {
        long budget = Math.max(1024, 4L * count);
        for (int round = 0; ; round++) {
            random = round == 0 ? null : new SplittableRandom(round);
            nodesLeft = budget;
            int r = search();
            if (r != OUT_OF_NODES) return r;
            budget = budget > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : budget + budget / 2;
        }
    }

    private int search() {
        if (placedCount == count) return FOUND;
        if (--nodesLeft < 0) return OUT_OF_NODES;
        if (++nodes % CLOCK_EVERY == 1 && (cancelled.getAsBoolean() || System.nanoTime() - deadline > 0)) return OUT_OF_TIME;
        int s = chooseWall();
        if (s < 0) return NOT_FOUND;                      // no wall left open yet buffers left: cannot be (sizes sum to capacity)
        long f = floor[s];
        int[] cand = candidates(s, f);
        for (int c = 0; c < cand.length; c++) {
            int b = cand[c];
            if (sameAsEarlier(cand, c)) continue;
            long top = f + p.alignedSize(b);
            for (int k = time.first[b]; k < time.end[b]; k++) floor[k] = top;
            placed[b] = true;
            offset[b] = f;
            placedCount++;
            int r = wallsFillable() ? search() : NOT_FOUND;
            placedCount--;
            placed[b] = false;
            for (int k = time.first[b]; k < time.end[b]; k++) floor[k] = f;
            if (r != NOT_FOUND) return r;
        }
        return NOT_FOUND;
    }

    /**
     * The wall to branch on: among the left walls whose every possible filler can be placed now
     * (each section it spans already at the wall's floor; always true of the lowest, leftmost
     * wall), the one with the fewest fillers, ties to the lower floor, then the left. Branching on
     * who covers that wall's lowest byte is then complete, and a wall with one filler is a forced
     * move. -1 when no section is open.
     */
    private int chooseWall() {
        int best = -1;
        int bestCount = Integer.MAX_VALUE;
        for (int s = 0; s < time.sections; s++) {
            long f = floor[s];
            if (f >= capacity || (s > 0 && floor[s - 1] <= f)) continue;
            int fillers = 0;
            boolean allNow = true;
            for (int b : starters[s]) {
                if (placed[b] || f + p.alignedSize(b) > capacity) continue;
                boolean eventually = true, now = true;
                for (int k = time.first[b]; k < time.end[b] && eventually; k++) {
                    eventually = floor[k] <= f;
                    now &= floor[k] == f;
                }
                if (!eventually) continue;
                fillers++;
                allNow &= now;
            }
            if (!allNow) continue;
            if (fillers < bestCount || (fillers == bestCount && f < floor[best])) {
                best = s;
                bestCount = fillers;
                if (fillers <= 1) break;
            }
        }
        return best;
    }

    /** Unplaced buffers starting at s that fit at f: every section they span at floor f. */
    private int[] candidates(int s, long f) {
        int[] out = new int[starters[s].length];
        int k = 0;
        for (int b : starters[s]) if (!placed[b] && fitsAt(b, f)) out[k++] = b;
        out = Arrays.copyOf(out, k);
        if (random == null) {
            sortBy(out, b -> -((long) flush(b, s, f) << 40) - ((long) (time.end[b] - time.first[b]) << 20)
                    - Math.min(p.alignedSize(b) / Math.max(1, p.alignment()), (1 << 20) - 1));
        } else {
            for (int i = out.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
        }
        return out;
    }

    /**
     * How flush b's top would be with its neighbours: 2 when it meets the left neighbour's floor
     * (no new wall on the left), plus 1 when it meets the right one's or ends the timeline.
     */
    private int flush(int b, int s, long f) {
        long top = f + p.alignedSize(b);
        int score = s > 0 && floor[s - 1] == top ? 2 : 0;
        int e = time.end[b];
        if (e == time.sections || floor[e] == top) score++;
        return score;
    }

    private boolean fitsAt(int b, long f) {
        if (f + p.alignedSize(b) > capacity) return false;
        for (int k = time.first[b]; k < time.end[b]; k++) if (floor[k] != f) return false;
        return true;
    }

    /** A candidate equal to one tried before it at this node (same start, end and size) is skipped. */
    private boolean sameAsEarlier(int[] cand, int c) {
        int b = cand[c];
        for (int e = 0; e < c; e++) {
            int a = cand[e];
            if (time.end[a] == time.end[b] && p.alignedSize(a) == p.alignedSize(b)) return true;
        }
        return false;
    }

    /**
     * Lookahead over every left wall (a section whose left neighbour is filled higher, or the
     * first): its lowest byte will be covered by a buffer that starts there, spans no section
     * already higher and fits under the capacity, so one must be left. Where the wall opens a
     * flat pit (sections at one floor, higher on both sides), the pit's bottom row must be tiled
     * exactly, end to end, by such buffers: a reachability sweep over the pit's sections.
     */
    private boolean wallsFillable() {
        int sections = time.sections;
        for (int s = 0; s < sections; s++) {
            long f = floor[s];
            if (f >= capacity || (s > 0 && floor[s - 1] <= f)) continue;   // not a wall
            int e = s + 1;
            while (e < sections && floor[e] == f) e++;
            boolean pit = e == sections || floor[e] > f;
            if (pit ? !tileable(s, e, f) : !anyFiller(s, f)) return false;
        }
        return true;
    }

    private boolean anyFiller(int s, long f) {
        for (int b : starters[s]) {
            if (placed[b] || f + p.alignedSize(b) > capacity) continue;
            boolean ok = true;
            for (int k = time.first[b]; k < time.end[b] && ok; k++) ok = floor[k] <= f;
            if (ok) return true;
        }
        return false;
    }

    /** Unplaced buffers that fit at f can tile sections [s, e) end to end. */
    private boolean tileable(int s, int e, long f) {
        if (reach.length < time.sections + 1) reach = new boolean[time.sections + 1];
        Arrays.fill(reach, s, e + 1, false);
        reach[s] = true;
        for (int k = s; k < e; k++) {
            if (!reach[k]) continue;
            for (int b : starters[k]) {
                if (!placed[b] && time.end[b] <= e && f + p.alignedSize(b) <= capacity) reach[time.end[b]] = true;
            }
            if (reach[e]) return true;
        }
        return reach[e];
    }

    private static void sortBy(int[] a, java.util.function.IntToLongFunction key) {
        Integer[] boxed = new Integer[a.length];
        for (int i = 0; i < a.length; i++) boxed[i] = a[i];
        Arrays.sort(boxed, java.util.Comparator.<Integer>comparingLong(key::applyAsLong).thenComparingInt(x -> x));
        for (int i = 0; i < a.length; i++) a[i] = boxed[i];
    }
}
