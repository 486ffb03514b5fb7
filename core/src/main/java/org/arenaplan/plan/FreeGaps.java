package org.arenaplan.plan;

import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The free byte ranges of an arena at one instant of a sweep over time: a free list, as a
 * malloc keeps one. Starts with everything free, {@code [0, }{@value #END}{@code )}; taking a
 * range splits the gap that holds it, freeing one merges it with the free ranges it touches,
 * so the gaps are always disjoint, non-adjacent and maximal.
 *
 * <p>Two views of the same gaps: by start (to split and merge, and for the lowest gap) and by
 * length then start (for the smallest gap that holds a size). Every operation is O(log g) for g
 * gaps; walking the candidates costs O(log g) per gap visited.
 */
final class FreeGaps {
    /** The end of the last gap: no arena reaches it ({@link Problem} keeps every end at most 2^63-1). */
    static final long END = Long.MAX_VALUE;

    private record Gap(long start, long end) {
        long length() {
            return end - start;
        }
    }

    private final TreeMap<Long, Long> byStart = new TreeMap<>();
    private final TreeSet<Gap> byLength = new TreeSet<>((a, b) -> a.length() != b.length()
            ? Long.compare(a.length(), b.length()) : Long.compare(a.start(), b.start()));

    FreeGaps() {
        add(0, END);
    }

    /**
     * Marks {@code [from, to)} used.
     *
     * @throws IllegalStateException when part of it is not free (a placement bug: the sweep takes
     *                               only what its checks found free)
     */
    void take(long from, long to) {
        if (to <= from) return;
        Map.Entry<Long, Long> g = byStart.floorEntry(from);
        if (g == null || g.getValue() < to)
            throw new IllegalStateException("bytes [" + from + ", " + to + ") are not free");
        long start = g.getKey(), end = g.getValue();
        remove(start, end);
        if (start < from) add(start, from);
        if (to < end) add(to, end);
    }

    /** Marks {@code [from, to)} free again (it must have been taken), merging with touching gaps. */
    void free(long from, long to) {
        if (to <= from) return;
        Map.Entry<Long, Long> below = byStart.floorEntry(from);
        if (below != null && below.getValue() == from) {
            remove(below.getKey(), from);
            from = below.getKey();
        }
        Long aboveEnd = byStart.get(to);
        if (aboveEnd != null) {
            remove(to, aboveEnd);
            to = aboveEnd;
        }
        add(from, to);
    }

    /** The start of the last gap, the one that runs to {@link #END}: the top of what is used. */
    long top() {
        return byStart.lastKey();
    }

    /**
     * The gaps below the last one that hold {@code size} bytes, smallest first (ties: lowest),
     * each as {@code {start, end}}. The iterator reads the live set: take nothing while walking.
     */
    Iterator<long[]> smallestHolding(long size) {
        Iterator<Gap> it = byLength.tailSet(new Gap(0, size), true).iterator();
        return new Iterator<>() {
            private Gap next = advance();

            private Gap advance() {
                Gap g = it.hasNext() ? it.next() : null;
                return g == null || g.end() == END ? null : g;   // the last gap is the longest
            }

            @Override public boolean hasNext() {
                return next != null;
            }

            @Override public long[] next() {
                long[] r = {next.start(), next.end()};
                next = advance();
                return r;
            }
        };
    }

    /**
     * The gaps below the last one that hold {@code size} bytes, lowest first, among the lowest
     * {@code visits} gaps (so a walk costs O(visits) however many small gaps lie low). Same
     * form and rule as {@link #smallestHolding}.
     */
    Iterator<long[]> lowestHolding(long size, int visits) {
        Iterator<Map.Entry<Long, Long>> it = byStart.entrySet().iterator();
        return new Iterator<>() {
            private int seen;
            private long[] next = advance();

            private long[] advance() {
                while (seen < visits && it.hasNext()) {
                    Map.Entry<Long, Long> e = it.next();
                    seen++;
                    if (e.getValue() != END && e.getValue() - e.getKey() >= size) return new long[] {e.getKey(), e.getValue()};
                }
                return null;
            }

            @Override public boolean hasNext() {
                return next != null;
            }

            @Override public long[] next() {
                long[] r = next;
                next = advance();
                return r;
            }
        };
    }

    /** How many gaps (the last one included). */
    int size() {
        return byStart.size();
    }

    private void add(long start, long end) {
        byStart.put(start, end);
        byLength.add(new Gap(start, end));
    }

    private void remove(long start, long end) {
        byStart.remove(start);
        byLength.remove(new Gap(start, end));
    }
}
