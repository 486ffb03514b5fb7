package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The static preorders of {@link CapacitySearch} (MiniMalloc's "WAT", "TAW", "TWA"): each letter
 * a key, largest first, ties by the next letter, then by buffer index. W: lifetime width
 * ({@code upper - lower}), A: area (aligned bytes x width), T: the most bytes still unplaced in
 * any section of the buffer's lifetime, taken when the buffer's part is ranked.
 *
 * <p>Ranking a part costs O(k + d log sections) for its k buffers, d of them touched since
 * their T was last read, and sorts nothing: W and A never change, so they are ranked once
 * ({@link #byWidthThenArea}, {@link #byAreaThenWidth}: equal keys, equal rank); T is kept per
 * buffer with the time it was read, and read again, off a tree of the unplaced bytes per section
 * (O(log sections) per read), only when a buffer overlapping it was placed since: nothing else
 * changes the bytes unplaced in its lifetime. Placements reach the tree and mark the buffers
 * they overlap only when a part is ranked ({@link #placed} stacks them; O(log sections + its
 * conflicts) each then): a placement taken back before any ranking ({@link #unplaced}) costs
 * nothing and marks nothing, since no T was read while it stood and the bytes unplaced are back
 * as they were. (An unplacement needs no mark either way: every T read while that buffer was
 * placed belongs to a part ranked below its placement, whose ranks {@link #restore} gave back
 * before the search took it away.)
 * {@link #precedes} then compares the keys themselves, which orders any two buffers of a part
 * exactly as their positions in the part sorted by the preorder would: the preorder is a total
 * order (the index breaks every tie), and T of every buffer of a part equals its value at the
 * moment the part was ranked. Before, each part was sorted afresh, reading every section of
 * every lifetime: on resnet50 that took most of {@code best}'s exact step.
 */
final class Preorder {
    /** The preorders, in the order restarts rotate through them. */
    static final List<String> NAMES = List.of("WAT", "TAW", "TWA");

    private final Problem p;
    private final Timeline time;
    private final int[][] conflicts;
    private final RangeAddMax unplacedBytes;
    /** Dense ranks (equal keys share one) by (W, A) and by (A, W), largest first. */
    private final int[] byWidthThenArea;
    private final int[] byAreaThenWidth;
    /** T of each buffer, as read when its part was last ranked, and when (a {@link #clock} value; -1: never). */
    private final long[] most;
    private final long[] readAt;
    /** When a buffer overlapping each buffer was last placed (a {@link #clock} value). */
    private final long[] touchedAt;
    /** Counts the rankings that brought placements to the tree. */
    private long clock;
    /** Placements not yet in the tree nor marked, the latest last (the search's path below the last ranking). */
    private int[] pending = new int[64];
    private int pendingCount;
    private final UndoLog mostLog = new UndoLog();
    private final UndoLog readAtLog = new UndoLog();
    /** Whether T is the first key (TAW, TWA) rather than the last (WAT), and the static ranks used with it. */
    private boolean mostFirst;
    private int[] staticRank;

    /**
     * @param conflicts     each buffer's conflicts, every buffer overlapping it in time among them
     * @param unplacedBytes aligned bytes live in each section, none placed yet; read, not kept
     */
    Preorder(Problem p, Timeline time, int[] active, int[][] conflicts, long[] unplacedBytes) {
        this.p = p;
        this.time = time;
        this.conflicts = conflicts;
        this.unplacedBytes = new RangeAddMax(unplacedBytes);
        this.most = new long[p.size()];
        this.readAt = new long[p.size()];
        Arrays.fill(readAt, -1);
        this.touchedAt = new long[p.size()];
        Comparator<Integer> width = Comparator.comparingLong(i -> -(p.upper(i) - p.lower(i)));
        Comparator<Integer> area = Comparator.comparingDouble(i -> -(double) p.alignedSize(i) * (p.upper(i) - p.lower(i)));
        this.byWidthThenArea = denseRanks(p.size(), active, width.thenComparing(area));
        this.byAreaThenWidth = denseRanks(p.size(), active, area.thenComparing(width));
        use(NAMES.get(0));
    }

    private static int[] denseRanks(int n, int[] active, Comparator<Integer> cmp) {
        Integer[] sorted = Arrays.stream(active).boxed().sorted(cmp).toArray(Integer[]::new);
        int[] rank = new int[n];
        for (int k = 1; k < sorted.length; k++) {
            rank[sorted[k]] = rank[sorted[k - 1]] + (cmp.compare(sorted[k - 1], sorted[k]) < 0 ? 1 : 0);
        }
        return rank;
    }

    /** Switches to one of {@link #NAMES}; the parts are then ranked afresh. */
    void use(String preorder) {
        switch (preorder) {
            case "WAT" -> { mostFirst = false; staticRank = byWidthThenArea; }
            case "TAW" -> { mostFirst = true; staticRank = byAreaThenWidth; }
            case "TWA" -> { mostFirst = true; staticRank = byWidthThenArea; }
            default -> throw new IllegalArgumentException("unknown preorder " + preorder);
        }
    }

    /** Buffer b was placed: its bytes no longer count as unplaced in its sections. */
    void placed(int b) {
        if (pendingCount == pending.length) pending = Arrays.copyOf(pending, 2 * pendingCount);
        pending[pendingCount++] = b;
    }

    /** Undoes {@link #placed} of b, the latest placement not undone yet. */
    void unplaced(int b) {
        if (pendingCount > 0) pendingCount--;   // b itself: never reached the tree
        else unplacedBytes.add(time.first[b], time.end[b], p.alignedSize(b));
    }

    /**
     * Ranks {@code buffers[0 .. count)} as a part by the current preorder and the bytes unplaced
     * now; returns a mark for {@link #restore}.
     */
    int rank(int[] buffers, int count) {
        if (pendingCount > 0) {
            clock++;
            for (int i = 0; i < pendingCount; i++) {
                int b = pending[i];
                unplacedBytes.add(time.first[b], time.end[b], -p.alignedSize(b));
                for (int j : conflicts[b]) touchedAt[j] = clock;
            }
            pendingCount = 0;
        }
        int mark = mostLog.mark();
        for (int k = 0; k < count; k++) {
            int b = buffers[k];
            if (touchedAt[b] > readAt[b]) {   // else no byte of its lifetime moved since it was read
                mostLog.set(most, b, unplacedBytes.max(time.first[b], time.end[b]));
                readAtLog.set(readAt, b, clock);
            }
        }
        return mark;
    }

    /** Gives back the ranks of before {@link #rank} returned {@code mark}; ranks taken since then are undone first. */
    void restore(int mark) {
        mostLog.restore(most, mark);
        readAtLog.restore(readAt, mark);
    }

    /** Whether a comes before b in the preorder; both ranked in the same {@link #rank} call. */
    boolean precedes(int a, int b) {
        if (mostFirst && most[a] != most[b]) return most[a] > most[b];
        if (staticRank[a] != staticRank[b]) return staticRank[a] < staticRank[b];
        if (!mostFirst && most[a] != most[b]) return most[a] > most[b];
        return a < b;
    }
}
