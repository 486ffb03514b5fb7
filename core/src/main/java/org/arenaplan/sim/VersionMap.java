package org.arenaplan.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which write each byte of a block holds last, as disjoint segments {@code [start, end)}.
 * Bytes never written have no segment. Not thread-safe; the device guards it.
 */
final class VersionMap {
    /** A run of bytes holding one write. */
    record Segment(long start, long end, WriteStamp stamp) { }

    private final TreeMap<Long, Segment> segments = new TreeMap<>();

    /** Every byte of {@code [from, to)} now holds {@code stamp}. */
    void write(long from, long to, WriteStamp stamp) {
        if (to <= from) return;
        Map.Entry<Long, Segment> before = segments.lowerEntry(from);
        if (before != null && before.getValue().end() > from) {
            Segment s = before.getValue();
            segments.put(s.start(), new Segment(s.start(), from, s.stamp()));
            if (s.end() > to) segments.put(to, new Segment(to, s.end(), s.stamp()));
        }
        Map.Entry<Long, Segment> e;
        while ((e = segments.ceilingEntry(from)) != null && e.getKey() < to) {
            Segment s = e.getValue();
            segments.remove(e.getKey());
            if (s.end() > to) segments.put(to, new Segment(to, s.end(), s.stamp()));
        }
        segments.put(from, new Segment(from, to, stamp));
    }

    /** The segments overlapping {@code [from, to)}, clipped to it, in address order. */
    List<Segment> read(long from, long to) {
        List<Segment> out = new ArrayList<>(2);
        if (to <= from) return out;
        Map.Entry<Long, Segment> first = segments.lowerEntry(from);
        if (first != null && first.getValue().end() > from) out.add(clip(first.getValue(), from, to));
        for (Segment s : segments.subMap(from, true, to, false).values()) out.add(clip(s, from, to));
        return out;
    }

    private static Segment clip(Segment s, long from, long to) {
        return new Segment(Math.max(s.start(), from), Math.min(s.end(), to), s.stamp());
    }

    /** A copy (for exploring interleavings from one state). */
    VersionMap copy() {
        VersionMap m = new VersionMap();
        m.segments.putAll(segments);
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionMap v && segments.equals(v.segments);
    }

    @Override
    public int hashCode() {
        return segments.hashCode();
    }
}
