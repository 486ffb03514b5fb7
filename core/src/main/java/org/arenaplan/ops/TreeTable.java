package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

import java.util.ArrayList;
import java.util.List;

/**
 * A tree ensemble in the layout of {@link Kernels#TREE_ENSEMBLE}: node records, leaf entries
 * (target, weight), set members, roots, base values and class labels, packed into one f64 table
 * that the importer adds as a weight. Built by {@link TreeEnsembleImport} from any of the three
 * ai.onnx.ml op types; {@link #problem} checks that every walk from a root ends at a leaf.
 */
final class TreeTable {
    /** Node modes of the table: BRANCH_LEQ .. BRANCH_MEMBER as TreeEnsemble-5 numbers them (Operators-ml.md), then a leaf. */
    static final int MEMBER = 6, LEAF = 7;
    /** Aggregate functions and post transforms, as TreeEnsemble-5 numbers them (Operators-ml.md). */
    static final List<String> AGGREGATES = List.of("AVERAGE", "SUM", "MIN", "MAX"),
            POSTS = List.of("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT");
    /** Labels travel in the f64 table: an int64 label must be a whole number a double holds exactly. */
    static final long MAX_LABEL = 1L << 53;

    private final List<double[]> nodes = new ArrayList<>();
    private final List<double[]> entries = new ArrayList<>();
    private final List<Double> sets = new ArrayList<>();
    final List<Integer> roots = new ArrayList<>();
    final List<Double> base = new ArrayList<>();
    final List<Long> labels = new ArrayList<>();

    /** Appends a node; {@code a, b}: a MEMBER node's set (first member, count) or a leaf's entries. Returns its index. */
    int node(int mode, long feature, double value, int trueNode, int falseNode, boolean missingTracksTrue, int a, int b) {
        nodes.add(new double[]{mode, feature, value, trueNode, falseNode, missingTracksTrue ? 1 : 0, a, b});
        return nodes.size() - 1;
    }

    /** Appends a leaf over the entries from {@code first}, {@code count} of them. */
    int leaf(int first, int count) {
        return node(LEAF, 0, 0, 0, 0, false, first, count);
    }

    void entry(long target, double weight) {
        entries.add(new double[]{target, weight});
    }

    /** Appends a MEMBER set; returns its first index. */
    int set(List<Double> members) {
        sets.addAll(members);
        return sets.size() - members.size();
    }

    int nodeCount() { return nodes.size(); }

    int entryCount() { return entries.size(); }

    void setChildren(int n, int trueNode, int falseNode) {
        nodes.get(n)[3] = trueNode;
        nodes.get(n)[4] = falseNode;
    }

    int mode(int n) { return (int) nodes.get(n)[0]; }

    /**
     * The first node a walk from a root reaches again before a leaf (a cycle), or one no walk
     * reaches, described with {@code name(index)} naming a node as the file does; null when every
     * node lies on a walk from a root that ends at a leaf. Depth-first, iterative, O(nodes).
     */
    String problem(java.util.function.IntFunction<String> name) {
        int[] state = new int[nodes.size()];   // 0 unseen, 1 on the current path, 2 done
        int[] stack = new int[2 * nodes.size() + 1], side = new int[stack.length];
        for (int root : roots) {
            if (state[root] == 2) continue;
            int top = 0;
            stack[0] = root;
            side[0] = 0;
            state[root] = 1;
            while (top >= 0) {
                int n = stack[top];
                if (mode(n) == LEAF || side[top] == 2) {
                    state[n] = 2;
                    top--;
                    continue;
                }
                int child = (int) nodes.get(n)[3 + side[top]++];
                if (state[child] == 1) return name.apply(child) + " is reached again from " + name.apply(n) + " on the walk from root " + name.apply(root) + " (a cycle)";
                if (state[child] == 2) continue;
                state[child] = 1;
                stack[++top] = child;
                side[top] = 0;
            }
        }
        for (int n = 0; n < state.length; n++) if (state[n] == 0) return name.apply(n) + " is reached from no root";
        return null;
    }

    /** The f64 table, [total] elements. */
    TensorValue pack() {
        List<Double> all = new ArrayList<>();
        for (double[] n : nodes) for (double v : n) all.add(v);
        for (double[] e : entries) for (double v : e) all.add(v);
        all.addAll(sets);
        for (int r : roots) all.add((double) r);
        all.addAll(base);
        for (long l : labels) all.add((double) l);
        double[] v = new double[all.size()];
        for (int k = 0; k < v.length; k++) v[k] = all.get(k);
        return TensorValue.ofDoubles(DType.F64, new long[]{v.length}, v);
    }

    /** The counts the kernel's ints carry ({@link Kernels#TREE_ENSEMBLE}: nodes .. setValues, trees, then baseCount). */
    java.util.Map<String, Object> counts() {
        return java.util.Map.of(MlOps.TREE_NODES, (long) nodes.size(), MlOps.LEAF_ENTRIES, (long) entries.size(), MlOps.SET_VALUES, (long) sets.size(),
                MlOps.TREES, (long) roots.size(), MlOps.BASE_VALUES, (long) base.size());
    }
}
