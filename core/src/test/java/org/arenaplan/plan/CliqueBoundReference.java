package org.arenaplan.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The straightforward search {@link CliqueBound} replaced, kept as the reference its tests and
 * {@link CliqueBoundBench} compare against: per instant, the live buffers, their extra
 * conflicts as candidates heaviest first (ties in order of discovery), each checked against
 * every member by binary search in its sorted extra conflicts.
 */
final class CliqueBoundReference {
    private CliqueBoundReference() { }

    static CliqueBound.Clique search(Problem p) {
        LiveBytes live = LiveBytes.of(p);
        if (live.points() == 0) return new CliqueBound.Clique(0, new int[0], 0);
        if (!p.hasExtraConflicts()) {
            int at = 0;
            for (int i = 1; i < live.points(); i++) if (live.bytesAt(i) > live.bytesAt(at)) at = i;
            return clique(p, live.time(at), null);
        }
        Integer[] order = new Integer[live.points()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(live.bytesAt(b), live.bytesAt(a)));
        int instants = Math.min(order.length, CliqueBound.MAX_INSTANTS);
        CliqueBound.Clique best = null;
        int[][] sorted = new int[p.size()][];
        for (int k = 0; k < instants; k++) {
            CliqueBound.Clique c = clique(p, live.time(order[k]), sorted);
            if (best == null || c.bytes() > best.bytes()) best = c;
        }
        return best;
    }

    private static CliqueBound.Clique clique(Problem p, long t, int[][] sorted) {
        List<Integer> members = new ArrayList<>();
        p.index().forEachOverlap(t, t + 1, members::add);
        members.sort(null);
        boolean[] taken = new boolean[p.size()];
        long bytes = 0;
        for (int m : members) {
            taken[m] = true;
            bytes += p.alignedSize(m);
        }
        List<Integer> candidates = new ArrayList<>();
        if (p.hasExtraConflicts()) {
            for (int m : members.toArray(Integer[]::new)) {
                for (int c : p.extraConflicts(m)) {
                    if (!taken[c]) {
                        taken[c] = true;
                        candidates.add(c);
                    }
                }
            }
        }
        candidates.sort((a, b) -> Long.compare(p.alignedSize(b), p.alignedSize(a)));
        for (int c : candidates) {
            boolean all = true;
            for (int m : members) {
                if (!conflicts(p, sorted, c, m)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                members.add(c);
                bytes += p.alignedSize(c);
            }
        }
        return new CliqueBound.Clique(t, members.stream().mapToInt(Integer::intValue).toArray(), bytes);
    }

    private static boolean conflicts(Problem p, int[][] sorted, int c, int m) {
        if (p.intervalsOverlap(c, m)) return true;
        if (sorted == null) return false;
        if (sorted[c] == null) {
            sorted[c] = p.extraConflicts(c);
            Arrays.sort(sorted[c]);
        }
        return Arrays.binarySearch(sorted[c], m) >= 0;
    }
}
