package org.arenaplan.exec;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which tensors' writes hold the bytes of a tensor: the tensor itself; for a view, its base's
 * (followed down any chain of views); for a concatenation written in place, its member slices'
 * (and its own, where the op computes the other parts). A graph fact, not a plan decision: the
 * simulator checks each read against these writes.
 */
final class DataLineage {
    private final Graph graph;
    private final Map<String, List<String>> memo = new HashMap<>();

    DataLineage(Graph graph) {
        this.graph = graph;
    }

    List<String> of(String t) {
        List<String> known = memo.get(t);
        if (known != null) return known;
        String cur = t;
        Op op;
        int k;
        while (true) {   // down the view chain, iteratively (chains may be very deep)
            op = graph.producer(cur);
            if (op == null) break;
            k = op.outputs().indexOf(cur);
            Op.View v = viewOf(op, k);
            if (v == null) break;
            cur = op.inputs().get(v.input());
        }
        Set<String> out = new LinkedHashSet<>();
        if (op != null) {
            int out0 = op.outputs().indexOf(cur);
            for (Op.Member m : op.members()) if (m.output() == out0) out.addAll(of(op.inputs().get(m.input())));
            if (!op.isStorageOnly()) out.add(cur);
        } else {
            out.add(cur);
        }
        List<String> r = List.copyOf(new ArrayList<>(out));
        memo.put(t, r);
        return r;
    }

    private static Op.View viewOf(Op op, int k) {
        for (Op.View v : op.views()) if (v.output() == k) return v;
        return null;
    }
}
