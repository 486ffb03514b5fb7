package org.arenaplan.plan;

import org.arenaplan.hb.HbConflicts;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;

import java.util.ArrayList;
import java.util.List;

/**
 * The placement over several streams when {@link HbConflicts} ran past its pair budget and
 * widened the intervals: keeps the reuse that each stream's own program order proves.
 *
 * <p>Rule (happens-before): a storage S may share bytes with a later storage T when every device
 * access of S completes before every device writer of T. When both are accessed on one lane only,
 * the same lane, and S's interval ends by T's start, every access of S precedes T's first writer
 * on that lane, so program order proves it; the pair needs no extra conflict.
 *
 * <p>Steps:
 * <ol>
 *   <li>Regions: per lane, the storages whose device accesses are all on that lane
 *       ({@link HbConflicts#lanes()}); one shared region for the rest (touched from several lanes,
 *       or by no device op).</li>
 *   <li>A lane's region is a plain interval problem (schedule intervals, no extra conflicts); the
 *       shared region keeps the widened intervals ({@link HbConflicts#lower()}), sound among
 *       themselves as for the whole graph.</li>
 *   <li>Each region placed by the planner, the time left to {@code deadline} split evenly among
 *       the regions not yet placed; the regions stacked, each above the arena of those below, so
 *       storages of two regions never share a byte.</li>
 * </ol>
 * Cost: one placement per region (lanes + 1) plus O(n) to split and stack. The returned problem
 * lists the conflicts inside each region (schedule intervals, widened in the shared one) and
 * nothing across regions: their separation is in the offsets, which {@link OrderValidator}
 * checks against happens-before like any other plan's.
 */
final class LaneRegions {
    /** The note in the placement's label: {@code best (lane regions)}. Printed on the planner line. */
    static final String NOTE = "lane regions";

    private LaneRegions() { }

    /** The stacked placement and the problem it solves. */
    record Result(Problem problem, Placement placement) { }

    /**
     * @param l         the storages, with their schedule intervals
     * @param c         a widened {@link HbConflicts} of those storages
     * @param alignment the arena's alignment in bytes
     * @param deadline  a {@link System#nanoTime()} value, or {@link GreedyPlacer#NO_DEADLINE}
     */
    static Result place(Lifetimes l, HbConflicts c, long alignment, Planner planner, long deadline) {
        List<Storage> st = l.storages();
        int n = st.size();
        int lanes = 0;
        for (int k : c.lanes()) lanes = Math.max(lanes, k + 1);
        List<List<Integer>> members = new ArrayList<>();
        for (int r = 0; r <= lanes; r++) members.add(new ArrayList<>());
        String[] ids = new String[n];
        long[] lower = new long[n];
        long[] upper = new long[n];
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            int lane = c.lanes()[i];
            members.get(lane >= 0 ? lane : lanes).add(i);   // the shared region last
            ids[i] = st.get(i).name();
            lower[i] = lane >= 0 ? st.get(i).start() : c.lower()[i];
            upper[i] = st.get(i).end();
            sizes[i] = st.get(i).bytes();
        }
        long[] offsets = new long[n];
        long base = 0;
        boolean cut = false;
        for (int r = 0; r <= lanes; r++) {
            List<Integer> m = members.get(r);
            if (m.isEmpty()) continue;
            Problem sub = subProblem(m, ids, lower, upper, sizes, alignment);
            Placement p = planner.place(sub, share(deadline, regionsLeft(members, r)));
            for (int j = 0; j < m.size(); j++) offsets[m.get(j)] = base + p.offset(j);
            base += p.arenaBytes();
            cut |= p.cut();
        }
        Problem whole = new Problem(ids, lower, upper, sizes, alignment);
        return new Result(whole, Placement.of(whole, offsets, Placement.label(planner.name(), " (", ")", cut, NOTE), cut));
    }

    private static Problem subProblem(List<Integer> m, String[] ids, long[] lower, long[] upper, long[] sizes, long alignment) {
        int k = m.size();
        String[] i2 = new String[k];
        long[] lo = new long[k], hi = new long[k], sz = new long[k];
        for (int j = 0; j < k; j++) {
            int i = m.get(j);
            i2[j] = ids[i];
            lo[j] = lower[i];
            hi[j] = upper[i];
            sz[j] = sizes[i];
        }
        return new Problem(i2, lo, hi, sz, alignment);
    }

    private static int regionsLeft(List<List<Integer>> members, int from) {
        int left = 0;
        for (int r = from; r < members.size(); r++) if (!members.get(r).isEmpty()) left++;
        return left;
    }

    /** The deadline for the next of {@code left} regions: an even share of the time left. */
    private static long share(long deadline, int left) {
        if (deadline == GreedyPlacer.NO_DEADLINE) return deadline;
        long now = System.nanoTime();
        long rest = deadline - now;
        return rest <= 0 ? deadline : now + rest / left;
    }
}
