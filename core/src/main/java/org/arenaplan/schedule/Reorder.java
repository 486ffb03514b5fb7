package org.arenaplan.schedule;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;

import java.util.List;

/** Rebuilds a graph with its ops in another schedule order; everything else is kept as it is. */
public final class Reorder {
    private Reorder() { }

    /**
     * @param order schedule positions of {@code g}, each once: op {@code order[i]} of {@code g}
     *              becomes position i
     * @throws org.arenaplan.ir.GraphException when the order is not topological (an op reads a
     *                                         tensor before its producer)
     * @throws IllegalArgumentException        when {@code order} is not a permutation of the positions
     */
    public static Graph of(Graph g, int[] order) {
        int n = g.opCount();
        if (order.length != n) throw new IllegalArgumentException("order has " + order.length + " positions, the graph " + n + " ops");
        boolean[] seen = new boolean[n];
        for (int p : order) {
            if (p < 0 || p >= n || seen[p]) throw new IllegalArgumentException("order is not a permutation of 0.." + (n - 1) + ": position " + p);
            seen[p] = true;
        }
        return rebuild(g, order, g.ops());
    }

    /** The graph with {@code ops} in place of its own (same tensors, inputs, weights, outputs). */
    static Graph rebuild(Graph g, int[] order, List<Op> ops) {
        GraphBuilder b = GraphBuilder.declarationsOf(g);
        for (int p : order) b.add(ops.get(p));
        for (String out : g.outputs()) b.output(out);
        return b.build();
    }

    /** The identity order {@code 0..n-1}. */
    static int[] identity(int n) {
        int[] o = new int[n];
        for (int i = 0; i < n; i++) o[i] = i;
        return o;
    }
}
