package org.arenaplan.sim;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The detector: a read must find, on every byte, the write that issue order puts there. Used
 * by the live streams and by {@link Interleavings} over a copy of the version state.
 */
final class VersionCheck {
    private VersionCheck() { }

    /** The first read of {@code w} whose bytes differ from the expected writes; null if none. */
    static PrematureReuseException check(SimTask.Work w, Function<SimBlock, VersionMap> state, boolean ownWritesDone) {
        for (SimTask.Read r : w.reads()) {
            List<VersionMap.Segment> expected = r.expected();
            if (ownWritesDone) expected = withOwnWrites(r, w);
            List<VersionMap.Segment> actual = state.apply(r.block()).read(r.from(), r.to());
            PrematureReuseException e = firstMismatch(w, r, expected, actual);
            if (e != null) return e;
        }
        return null;
    }

    /** After computing: a write whose bytes another write stamped meanwhile raced with it; null if none. */
    static PrematureReuseException checkWrites(SimTask.Work w, Function<SimBlock, VersionMap> state, String owner) {
        for (SimTask.Write x : w.writes()) {
            for (VersionMap.Segment s : state.apply(x.block()).read(x.from(), x.to())) {
                if (!s.stamp().equals(x.stamp())) return PrematureReuseException.writeRace(owner, s.start(), s.end(), x.stamp(), s.stamp());
            }
        }
        return null;
    }

    static void applyWrites(SimTask.Work w, Function<SimBlock, VersionMap> state) {
        for (SimTask.Write x : w.writes()) state.apply(x.block()).write(x.from(), x.to(), x.stamp());
    }

    private static List<VersionMap.Segment> withOwnWrites(SimTask.Read r, SimTask.Work w) {
        VersionMap m = new VersionMap();
        for (VersionMap.Segment s : r.expected()) m.write(s.start(), s.end(), s.stamp());
        for (SimTask.Write x : w.writes()) if (x.block() == r.block()) m.write(x.from(), x.to(), x.stamp());
        return m.read(r.from(), r.to());
    }

    private static PrematureReuseException firstMismatch(SimTask.Work w, SimTask.Read r,
                                                         List<VersionMap.Segment> expected, List<VersionMap.Segment> actual) {
        TreeSet<Long> cuts = new TreeSet<>();
        cuts.add(r.from());
        cuts.add(r.to());
        for (VersionMap.Segment s : expected) { cuts.add(s.start()); cuts.add(s.end()); }
        for (VersionMap.Segment s : actual) { cuts.add(s.start()); cuts.add(s.end()); }
        Long a = cuts.first();
        for (Long b = cuts.higher(a); b != null; a = b, b = cuts.higher(b)) {
            WriteStamp e = stampAt(expected, a);
            WriteStamp x = stampAt(actual, a);
            if (!Objects.equals(e, x)) {
                return new PrematureReuseException(r.tensor(), r.owner(), a, b, w.label(), w.stream(), e, x);
            }
        }
        return null;
    }

    private static WriteStamp stampAt(List<VersionMap.Segment> segs, long at) {
        for (VersionMap.Segment s : segs) if (s.start() <= at && at < s.end()) return s.stamp();
        return null;
    }
}
