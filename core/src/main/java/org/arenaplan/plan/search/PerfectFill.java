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
 *       Take the lowest floor f, leftmost: section s. The byte f of section s must be covered,
 *       by a buffer placed at exactly f; the section left of s is already filled above f, so
 *       that buffer starts at s. Branch on the unplaced buffers that start at s, fit under the
 *       capacity and find every section they span at floor f; equal ones (same end and size)
 *       once. No candidate: dead end.</li>
 *   <li>Lookahead: every "left wall" (a section whose left neighbour's floor is higher, or the
 *       first section) must keep a buffer able to fill its lowest byte later: one that starts
 *       there, fits under the capacity from that floor, and spans no section already higher.
 *       Where the wall opens a flat pit (one floor, higher on both sides), the pit's bottom row
 *       must be tiled end to end by such buffers (a reachability sweep). Else prune.</li>
 *   <li>Restarts: a node budget that doubles; the first run tries candidates longest-lived
 *       first (then largest), later runs in a seeded random order (Gomes, Selman and Kautz,
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
        int s = 0;
        for (int k = 1; k < time.sections; k++) if (floor[k] < floor[s]) s = k;
        long f = floor[s];
        if (f >= capacity) return NOT_FOUND;              // full everywhere yet buffers left: cannot be (sizes sum to capacity)
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

    /** Unplaced buffers starting at s that fit at f: every section they span at floor f. */
    private int[] candidates(int s, long f) {
        int[] out = new int[starters[s].length];
        int k = 0;
        for (int b : starters[s]) if (!placed[b] && fitsAt(b, f)) out[k++] = b;
        out = Arrays.copyOf(out, k);
        if (random == null) {
            sortBy(out, b -> -((long) (time.end[b] - time.first[b]) << 20) - Math.min(p.alignedSize(b) / Math.max(1, p.alignment()), (1 << 20) - 1));
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
