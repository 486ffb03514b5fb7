package org.arenaplan.plan;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * An immutable placement problem: buffers with a size and a half-open live interval
 * {@code [lower, upper)}. Two buffers conflict (may not share a byte) when their intervals
 * overlap, or when an extra conflict is listed between them (several streams make conflicts
 * that positions alone do not show). Every offset is a multiple of {@link #alignment()} and
 * every buffer occupies its size rounded up to it.
 *
 * <p>Invariants, enforced by the constructor (a {@link PlanningException} naming the buffer):
 * sizes are not negative, {@code 0 <= lower < upper}, and the aligned sizes sum to at most
 * {@code 2^63-1} bytes. So {@code upper - lower}, any sum of sizes, and {@code offset + size} for
 * every offset a planner derives from other buffers' ends fit in a long.
 */
public final class Problem {
    private final String[] ids;
    private final long[] lower;
    private final long[] upper;
    private final long[] sizes;
    private final long[] aligned;
    private final long alignment;
    private final int[][] extraConflicts;
    private final long sumBytes;
    private volatile IntervalIndex index;
    private volatile long lowerBound = -1;   // computed once, on first use
    private volatile long overlappingPairs = -1;
    private volatile int[] startOrder;       // byLower and byUpper, sorted once, for sweeps (shared: read only)
    private volatile int[] endOrder;
    private volatile long[] startPoints;
    private volatile LiveBytes liveBytes;    // computed once, on first use (shared: read only)
    private volatile CliqueBound.Clique clique;   // computed once, on first use

    /**
     * @param extraConflicts symmetric adjacency lists of conflicts beyond interval overlap, or null
     */
    public Problem(String[] ids, long[] lower, long[] upper, long[] sizes, long alignment, int[][] extraConflicts) {
        int n = ids.length;
        if (lower.length != n || upper.length != n || sizes.length != n)
            throw new IllegalArgumentException("ids, lower, upper and sizes must have the same length");
        if (alignment < 1) throw new PlanningException("alignment must be at least 1, got " + alignment);
        if (extraConflicts != null && extraConflicts.length != n)
            throw new IllegalArgumentException("extraConflicts must have one list per buffer");
        this.ids = ids.clone();
        this.lower = lower.clone();
        this.upper = upper.clone();
        this.sizes = sizes.clone();
        this.alignment = alignment;
        this.aligned = new long[n];
        long sum = 0;
        for (int i = 0; i < n; i++) {
            if (sizes[i] < 0) throw new PlanningException("buffer '" + ids[i] + "' has negative size " + sizes[i]);
            if (lower[i] < 0) throw new PlanningException("buffer '" + ids[i] + "' has a negative lower " + lower[i]);
            if (upper[i] <= lower[i])
                throw new PlanningException("buffer '" + ids[i] + "' has an empty interval [" + lower[i] + ", " + upper[i] + "): upper must exceed lower");
            aligned[i] = alignUp(sizes[i], alignment, ids[i]);
            if (sum > Long.MAX_VALUE - aligned[i])
                throw new PlanningException("buffer '" + ids[i] + "' (" + sizes[i] + " B): the sizes"
                        + (alignment > 1 ? ", each rounded up to the alignment " + alignment + " B," : "") + " sum past 2^63-1 B, more than any arena can hold");
            sum += aligned[i];
        }
        this.sumBytes = sum;
        this.extraConflicts = extraConflicts == null ? null : Arrays.stream(extraConflicts).map(int[]::clone).toArray(int[][]::new);
    }

    public Problem(String[] ids, long[] lower, long[] upper, long[] sizes, long alignment) {
        this(ids, lower, upper, sizes, alignment, null);
    }

    /** The same buffers with other extra conflicts. */
    public Problem withExtraConflicts(int[][] extra) {
        return new Problem(ids, lower, upper, sizes, alignment, extra);
    }

    static long alignUp(long v, long alignment, String who) {
        if (alignment == 1) return v;
        long r = v % alignment;
        if (r == 0) return v;
        try {
            return Math.addExact(v, alignment - r);
        } catch (ArithmeticException e) {
            throw new PlanningException("buffer '" + who + "': size " + v + " overflows when aligned to " + alignment);
        }
    }

    /** The number of buffers n; buffers are numbered {@code 0..n-1} (the index {@code i} below). */
    public int size() { return ids.length; }

    /** Buffer i's name (a storage's name, or a CSV row's id). */
    public String id(int i) { return ids[i]; }

    /** Start of buffer i's half-open live interval {@code [lower, upper)}: a schedule position (a CSV problem's time unit). */
    public long lower(int i) { return lower[i]; }

    /** End of buffer i's half-open live interval, exclusive: a schedule position (a CSV problem's time unit). */
    public long upper(int i) { return upper[i]; }

    /** The requested size in bytes. */
    public long bytes(int i) { return sizes[i]; }

    /** The size rounded up to the alignment: the bytes the buffer occupies. */
    public long alignedSize(int i) { return aligned[i]; }

    /** Every offset is a multiple of this, in bytes (1: no alignment). */
    public long alignment() { return alignment; }

    /** Whether any buffer has an extra conflict beyond interval overlap (streams' unordered pairs). */
    public boolean hasExtraConflicts() {
        if (extraConflicts == null) return false;
        for (int[] a : extraConflicts) if (a.length > 0) return true;
        return false;
    }

    /** Extra conflicts of buffer i (beyond interval overlap); empty when none. */
    public int[] extraConflicts(int i) {
        return extraConflicts == null ? new int[0] : extraConflicts[i].clone();
    }

    /** Whether buffers i and j (indices) are live at a common position (half-open intervals). */
    public boolean intervalsOverlap(int i, int j) {
        return lower[i] < upper[j] && lower[j] < upper[i];
    }

    /** Calls {@code sink} once for every buffer that conflicts with i (never i itself). */
    public void forEachConflict(int i, IntConsumer sink) {
        index().forEachOverlap(lower[i], upper[i], j -> {
            if (j != i) sink.accept(j);
        });
        if (extraConflicts != null) {
            for (int j : extraConflicts[i]) if (!intervalsOverlap(i, j)) sink.accept(j);
        }
    }

    /**
     * Writes the buffers that conflict with i into {@code out[1..count]}, {@code out[0] = count},
     * growing the array when needed; returns the array used; {@code stack} is scratch from
     * {@link IntervalIndex#newStack()}. The allocation-free twin of
     * {@link #forEachConflict} for hot loops.
     */
    int[] conflictsInto(int i, int[] out, int[] stack) {
        out = index().overlapsInto(lower[i], upper[i], i, out, stack);
        if (extraConflicts != null) {
            for (int j : extraConflicts[i]) {
                if (intervalsOverlap(i, j)) continue;
                if (out[0] + 1 >= out.length) out = java.util.Arrays.copyOf(out, out.length * 2);
                out[++out[0]] = j;
            }
        }
        return out;
    }

    /** Whether buffers i and j (indices) must not share a byte: their intervals overlap or an extra conflict joins them; false for i == j. */
    public boolean conflicts(int i, int j) {
        if (i == j) return false;
        if (intervalsOverlap(i, j)) return true;
        if (extraConflicts == null) return false;
        for (int k : extraConflicts[i]) if (k == j) return true;
        return false;
    }

    IntervalIndex index() {
        IntervalIndex ix = index;
        if (ix == null) {
            synchronized (this) {
                if (index == null) index = new IntervalIndex(lower, upper);
                ix = index;
            }
        }
        return ix;
    }

    /** Buffer indices ordered by {@code lower} (ties by index): the order of a sweep's starts. */
    public int[] byLower() {
        return startOrder(GreedyPlacer.NO_DEADLINE).clone();
    }

    /** Buffer indices ordered by {@code upper} (ties by index): the order of a sweep's ends. */
    public int[] byUpper() {
        return endOrder(GreedyPlacer.NO_DEADLINE).clone();
    }

    /**
     * {@link #byLower()}, sorted on first use and shared by every sweep over this problem (the
     * callers only read it).
     *
     * @throws Orders.TimeUp when {@code deadline} passes while sorting (nothing is kept then)
     */
    int[] startOrder(long deadline) {
        int[] o = startOrder;
        if (o == null) startOrder = o = Orders.sortedByKeys(deadline, lower.length, lower);
        return o;
    }

    /** The distinct starts, ascending: the instants at which the set of live buffers can grow. Sorted once, shared (read only). */
    long[] startPoints() {
        long[] pts = startPoints;
        if (pts == null) startPoints = pts = distinctAscending(lower.clone());
        return pts;
    }

    /** The distinct values of {@code values}, ascending; sorts {@code values} in place. O(n log n). */
    static long[] distinctAscending(long[] values) {
        Arrays.sort(values);
        int k = 0;
        for (int i = 0; i < values.length; i++) if (k == 0 || values[i] != values[k - 1]) values[k++] = values[i];
        return Arrays.copyOf(values, k);
    }

    /** {@link #byUpper()}, as {@link #startOrder}. */
    int[] endOrder(long deadline) {
        int[] o = endOrder;
        if (o == null) endOrder = o = Orders.sortedByKeys(deadline, upper.length, upper);
        return o;
    }

    /** Sum of aligned sizes, in bytes: the arena of a plan that shares nothing. */
    public long sumBytes() {
        return sumBytes;
    }

    /**
     * Ordered pairs (i, j), i != j, whose intervals overlap, counted once per problem by a sweep
     * over {@link #startOrder} and {@link #endOrder} (the sorts every sweep shares; O(n) once they
     * are sorted): at each buffer's start, the buffers started before it (ties by index) less those
     * ended by then. Extra conflicts are not counted.
     */
    public long overlappingPairs() {
        return overlappingPairs(GreedyPlacer.NO_DEADLINE);
    }

    /**
     * As {@link #overlappingPairs()}.
     *
     * @throws Orders.TimeUp when {@code deadline} passes while the start or end order is sorted
     */
    long overlappingPairs(long deadline) {
        long known = overlappingPairs;
        if (known >= 0) return known;
        long pairs = overlappingPairs(null, deadline);
        overlappingPairs = pairs;
        return pairs;
    }

    /**
     * Ordered pairs of overlapping lifetimes among the buffers {@code subset[0 .. count)} (as
     * {@link #overlappingPairs()} counts them for every buffer). O(n) once the problem's start and
     * end orders are sorted.
     */
    long overlappingPairs(int[] subset, int count) {
        boolean[] member = new boolean[lower.length];
        for (int k = 0; k < count; k++) member[subset[k]] = true;
        return overlappingPairs(member, GreedyPlacer.NO_DEADLINE);
    }

    /**
     * The sweep of {@link #overlappingPairs()} over the buffers with {@code member[i]} (every
     * buffer when null). A buffer ending at or before b's start also started before it (lower
     * is below upper), so the difference counts exactly those live at b's start.
     */
    private long overlappingPairs(boolean[] member, long deadline) {
        int[] starts = startOrder(deadline), ends = endOrder(deadline);
        long pairs = 0;
        int started = 0, ended = 0, e = 0;
        for (int b : starts) {
            if (member != null && !member[b]) continue;
            long t = lower[b];
            for (; e < ends.length && upper[ends[e]] <= t; e++) if (member == null || member[ends[e]]) ended++;
            pairs += started - ended;
            started++;
        }
        return 2 * pairs;
    }

    /** How many of the ascending {@code sorted} are below {@code v} (a lower-bound binary search). */
    static int countBelow(long[] sorted, long v) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (sorted[m] < v) lo = m + 1;
            else hi = m;
        }
        return lo;
    }

    /**
     * Max over instants of aligned bytes live at once: no valid placement uses less. Extra
     * conflicts are not counted (planners rely on that); {@link CliqueBound#of} counts them.
     * Computed once.
     */
    public long lowerBound() {
        long lb = lowerBound;
        if (lb < 0) lowerBound = lb = liveBytes(GreedyPlacer.NO_DEADLINE).max();
        return lb;
    }

    /**
     * {@link LiveBytes#of(Problem)}, computed on first use and shared by the lower bound, the
     * breadth order and {@link PeakSweep} (the callers only read it). O(n) once the start and
     * end orders are sorted; two longs per distinct start kept.
     *
     * @throws Orders.TimeUp when {@code deadline} passes while the start or end order is sorted (nothing is kept then)
     */
    LiveBytes liveBytes(long deadline) {
        LiveBytes live = liveBytes;
        if (live == null) liveBytes = live = LiveBytes.of(this, deadline);
        return live;
    }

    /** {@link CliqueBound#best}: its search runs on the first call only. */
    CliqueBound.Clique clique() {
        CliqueBound.Clique c = clique;
        if (c == null) clique = c = CliqueBound.search(this);
        return c;
    }

    /** {@link #lowerBound()} if it has been computed, else -1 (no arena is at or below it). */
    long knownLowerBound() {
        return lowerBound;
    }
}
