package org.arenaplan.schedule;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The orders a reschedule must keep: op b after op a when b reads a tensor a writes (data
 * dependence, views and member slices included), and, when the graph uses several streams, after
 * the previous op of its own stream (a stream runs its ops in issue order; the events between
 * streams are re-derived from the data dependences of the new order). Cost O(ops + reads).
 */
final class Dependences {
    final int n;
    final int[][] succ;
    final int[] indegree;

    private Dependences(int n, int[][] succ, int[] indegree) {
        this.n = n;
        this.succ = succ;
        this.indegree = indegree;
    }

    static Dependences of(Graph g) {
        int n = g.opCount();
        List<Set<Integer>> s = new ArrayList<>(n);
        for (int i = 0; i < n; i++) s.add(new LinkedHashSet<>());
        boolean streams = g.streams().size() > 1;
        Map<Integer, Integer> lastOnStream = new java.util.HashMap<>();
        for (int p = 0; p < n; p++) {
            Op op = g.ops().get(p);
            for (String t : op.inputs()) {
                int q = g.producerPosition(t);
                if (q >= 0) s.get(q).add(p);
            }
            if (streams) {
                Integer prev = lastOnStream.put(op.stream(), p);
                if (prev != null) s.get(prev).add(p);
            }
        }
        int[][] succ = new int[n][];
        int[] indeg = new int[n];
        for (int p = 0; p < n; p++) {
            succ[p] = s.get(p).stream().mapToInt(Integer::intValue).toArray();
            for (int q : succ[p]) indeg[q]++;
        }
        return new Dependences(n, succ, indeg);
    }
}
