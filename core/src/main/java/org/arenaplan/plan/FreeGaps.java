package org.arenaplan.plan;

/**
 * The free byte ranges of an arena at one instant of a sweep over time: a free list, as a
 * malloc keeps one. Starts with everything free, {@code [0, }{@value #END}{@code )}; taking a
 * range splits the gap that holds it, freeing one merges it with the free ranges it touches,
 * so the gaps are always disjoint, non-adjacent and maximal.
 *
 * <p>Two views of the same gaps, each a {@link SortedPairs}: (start, end), to split and merge
 * and for the lowest gaps; and (length, start), for the smallest gap that holds a size. Taking
 * from the bottom or top of a gap, or freeing next to one, changes a start or end in place in
 * the first view (the order stays). Every operation costs a few {@link SortedPairs} searches
 * and at most one shift of a block each; walking the candidates costs O(1) per gap visited.
 */
final class FreeGaps {
    /** The end of the last gap: no arena reaches it ({@link Problem} keeps every end at most 2^63-1). */
    static final long END = Long.MAX_VALUE;

    private final SortedPairs byStart = new SortedPairs();    // (start, end)
    private final SortedPairs byLength = new SortedPairs();   // (end - start, start)
    private final Walk walk = new Walk();

    FreeGaps() {
        byStart.insert(0, END);
        byLength.insert(END, 0);
    }

    /**
     * Gaps in turn: {@code while (w.next()) use(w.start, w.end)}. One walk per free list, reused
     * by each query; take or free nothing while walking.
     */
    static final class Walk {
        /** The current gap's bytes [start, end), after {@link #next} returned true. */
        long start;
        long end;
        private SortedPairs list;
        private long cursor;
        private long size;
        private boolean lowestFirst;
        private int visits;       // lowest first: gaps left to look at
        private boolean started;

        /** Moves to the next gap; false when there is none. */
        boolean next() {
            while (true) {
                if (started) cursor = list.next(cursor);
                started = true;
                if (cursor == SortedPairs.NONE) return false;
                if (lowestFirst) {
                    if (visits-- <= 0) return false;
                    start = list.first(cursor);
                    end = list.second(cursor);
                    if (end == END) return false;                        // the last gap is the highest
                    if (end - start >= size) return true;
                } else {
                    start = list.second(cursor);
                    end = start + list.first(cursor);
                    if (end != END) return true;                         // the last gap is no candidate
                }
            }
        }

        private Walk from(SortedPairs list, long cursor, long size, boolean lowestFirst, int visits) {
            this.list = list;
            this.cursor = cursor;
            this.size = size;
            this.lowestFirst = lowestFirst;
            this.visits = visits;
            this.started = false;
            return this;
        }
    }

    /**
     * Marks {@code [from, to)} used.
     *
     * @throws IllegalStateException when part of it is not free (a placement bug: the sweep takes
     *                               only what its checks found free)
     */
    void take(long from, long to) {
        if (to <= from) return;
        long g = byStart.floor(from, Long.MAX_VALUE);
        if (g == SortedPairs.NONE || byStart.second(g) < to)
            throw new IllegalStateException("bytes [" + from + ", " + to + ") are not free");
        long start = byStart.first(g), end = byStart.second(g);
        byLength.remove(end - start, start);
        if (start < from) {
            byStart.setSecond(g, from);
            byLength.insert(from - start, start);
            if (to < end) insert(to, end);
        } else if (to < end) {
            byStart.setFirst(g, to);
            byLength.insert(end - to, to);
        } else {
            byStart.remove(start, end);
        }
    }

    /** Marks {@code [from, to)} free again (it must have been taken), merging with touching gaps. */
    void free(long from, long to) {
        if (to <= from) return;
        long below = byStart.floor(from, Long.MAX_VALUE);
        boolean mergeBelow = below != SortedPairs.NONE && byStart.second(below) == from;
        long above = byStart.ceiling(to, Long.MIN_VALUE);
        boolean mergeAbove = above != SortedPairs.NONE && byStart.first(above) == to;
        long start = from, end = to;
        if (mergeAbove) {
            end = byStart.second(above);
            byLength.remove(end - to, to);
        }
        if (mergeBelow) {
            start = byStart.first(below);
            byLength.remove(from - start, start);
            byStart.setSecond(below, end);
            if (mergeAbove) byStart.remove(to, end);   // after the in-place change: cursors stay valid until here
        } else if (mergeAbove) {
            byStart.setFirst(above, from);
        } else {
            byStart.insert(from, to);
        }
        byLength.insert(end - start, start);
    }

    /** The start of the last gap, the one that runs to {@link #END}: the top of what is used. */
    long top() {
        return byStart.first(byStart.lastPosition());
    }

    /** The gaps below the last one that hold {@code size} bytes, smallest first (ties: lowest). */
    Walk smallestHolding(long size) {
        return walk.from(byLength, byLength.ceiling(size, Long.MIN_VALUE), size, false, 0);
    }

    /**
     * The gaps below the last one that hold {@code size} bytes, lowest first, among the lowest
     * {@code visits} gaps (so a walk costs O(visits) however many small gaps lie low).
     */
    Walk lowestHolding(long size, int visits) {
        return walk.from(byStart, byStart.firstPosition(), size, true, visits);
    }

    /** How many gaps (the last one included). */
    int size() {
        return byStart.size();
    }

    private void insert(long start, long end) {
        byStart.insert(start, end);
        byLength.insert(end - start, start);
    }
}
