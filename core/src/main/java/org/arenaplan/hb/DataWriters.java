package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * For every tensor, the device ops that wrote the bytes it holds, as the latest such position on
 * each lane (-1: none). A computed tensor is written by its producer; a view holds its base's
 * bytes (views issue no work, so they add no writer); a tensor with member slices also holds
 * what each member's writers wrote. Graph inputs and weights have no writer on any lane.
 *
 * <p>One pass in schedule order, no recursion: a 10,000-deep view chain shares one array.
 */
public final class DataWriters {
    private final Map<String, int[]> latest;
    private final int lanes;

    private DataWriters(Map<String, int[]> latest, int lanes) {
        this.latest = latest;
        this.lanes = lanes;
    }

    public static DataWriters of(Graph g) {
        int[] lane = HappensBefore.lanes(g)[0];
        int lanes = g.streams().size();
        int[] none = new int[lanes];
        Arrays.fill(none, -1);
        Map<String, int[]> latest = new HashMap<>();
        for (int p = 0; p < g.opCount(); p++) {
            Op op = g.ops().get(p);
            for (int k = 0; k < op.outputs().size(); k++) {
                int[] w = null;
                for (Op.View v : op.views()) if (v.output() == k) w = latest.getOrDefault(op.inputs().get(v.input()), none);
                if (w == null) {
                    w = none.clone();
                    if (!op.isStorageOnly()) w[lane[p]] = p;
                    for (Op.Member m : op.members()) {
                        if (m.output() != k) continue;
                        int[] mw = latest.getOrDefault(op.inputs().get(m.input()), none);
                        for (int l = 0; l < lanes; l++) w[l] = Math.max(w[l], mw[l]);
                    }
                }
                latest.put(op.outputs().get(k), w);
            }
        }
        return new DataWriters(latest, lanes);
    }

    /** Latest writer of tensor t's bytes on lane l, or -1. */
    public int latest(String t, int l) {
        int[] w = latest.get(t);
        return w == null ? -1 : w[l];
    }

    /** Per lane, the latest writer of tensor t's bytes (-1: none); null for inputs and weights. Do not modify. */
    int[] latestByLane(String t) {
        return latest.get(t);
    }

    /** The number of lanes (dense stream numbers {@code 0..lanes-1}, as {@link HappensBefore} numbers them). */
    public int lanes() { return lanes; }
}
