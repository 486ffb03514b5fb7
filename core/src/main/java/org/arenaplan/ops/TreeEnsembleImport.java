package org.arenaplan.ops;

import org.arenaplan.ir.DType;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.OnnxModel;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ONNX import of ai.onnx.ml TreeEnsemble (5), TreeEnsembleRegressor and TreeEnsembleClassifier
 * (1; the {@code _as_tensor} attributes of 3) into one {@link MlOps#TREE_ENSEMBLE} op over a
 * {@link TreeTable} weight (Operators-ml.md; onnx/reference/ops/aionnxml/op_tree_ensemble.py; ONNX
 * Runtime's tree_ensemble_common.h for what the spec leaves open: a legacy tree's root is its first
 * node in file order, a target entry on a node that is no leaf is never read).
 *
 * <p>Checked here, each refused in one line naming the node and the attribute: lists of one group
 * ({@code nodes_*}, {@code leaf_*}, {@code target_*}/{@code class_*}) of unequal length, a mode,
 * aggregate function or post transform ONNX does not define, a feature id outside X's F, a child,
 * root, leaf or target id out of range, a legacy (tree, node) id given twice or never defined, a
 * cycle or a node no root reaches, membership_values whose NaN-delimited sets do not match the
 * MEMBER nodes, base values of another count than 0, 1 or the targets', classlabels_strings (no
 * string tensors), a label beyond 2^53, and an X of another type or rank.
 */
final class TreeEnsembleImport {
    private TreeEnsembleImport() { }

    /** Legacy node modes (TreeEnsembleRegressor-1's nodes_modes) by the table's mode number. */
    private static final List<String> LEGACY_MODES = List.of("BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ", "BRANCH_MEMBER", "LEAF");
    private static final Set<DType> X_V5 = Set.of(DType.F32, DType.F64, DType.F16), X_LEGACY = Set.of(DType.F32, DType.F64, DType.I64, DType.I32);

    /** TreeEnsemble-5: X [N, F] of T to Y [N, n_targets] of T. */
    static Lowered treeEnsemble(NodeContext n) {
        Value x = input(n, X_V5, "f32, f64 or f16");
        long features = x.shape()[x.shape().length - 1];
        long[] featureIds = n.ints("nodes_featureids", null), trueIds = n.ints("nodes_truenodeids", null), falseIds = n.ints("nodes_falsenodeids", null);
        long[] trueLeafs = n.ints("nodes_trueleafs", null), falseLeafs = n.ints("nodes_falseleafs", null);
        long[] targetIds = n.ints("leaf_targetids", null), roots = n.ints("tree_roots", null);
        double[] modes = tensor(n, "nodes_modes", true), splits = tensor(n, "nodes_splits", true), weights = tensor(n, "leaf_weights", true);
        double[] members = tensor(n, "membership_values", false);
        for (String a : new String[]{"nodes_featureids", "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs", "nodes_falseleafs", "leaf_targetids", "tree_roots"})
            n.require(n.hasAttr(a), "attribute '" + a + "' is required (ai.onnx.ml TreeEnsemble-5)");
        int count = featureIds.length, leaves = targetIds.length;
        long[] missing = n.ints("nodes_missing_value_tracks_true", new long[count]);
        sameLength(n, count, "nodes_featureids", Map.of("nodes_modes", modes.length, "nodes_splits", splits.length, "nodes_truenodeids", trueIds.length,
                "nodes_falsenodeids", falseIds.length, "nodes_trueleafs", trueLeafs.length, "nodes_falseleafs", falseLeafs.length,
                "nodes_missing_value_tracks_true", missing.length));
        sameLength(n, leaves, "leaf_targetids", Map.of("leaf_weights", weights.length));
        if (n.hasAttr("nodes_hitrates")) sameLength(n, count, "nodes_featureids", Map.of("nodes_hitrates", tensor(n, "nodes_hitrates", false).length));
        long targets = n.integer("n_targets", max(targetIds) + 1);
        n.require(targets >= 1, "attribute 'n_targets' = " + targets + " is not a positive count");
        n.require(roots.length >= 1, "attribute 'tree_roots' is empty: an ensemble has at least one tree");
        TreeTable t = new TreeTable();
        for (int i = 0; i < leaves; i++) {
            inRange(n, "leaf_targetids", i, targetIds[i], targets, "n_targets = " + targets);
            t.entry(targetIds[i], rounded(x.dtype(), weights[i]));
        }
        List<List<Double>> sets = members == null ? List.of() : sets(members);
        int memberNodes = 0;
        for (int i = 0; i < count; i++) {
            int mode = (int) modes[i];
            n.require(modes[i] == mode && mode >= 0 && mode <= TreeTable.MEMBER, "attribute 'nodes_modes' [" + i + "] = " + modes[i] + " is no mode (0 BRANCH_LEQ .. 6 BRANCH_MEMBER)");
            n.require(missing[i] == 0 || missing[i] == 1, "attribute 'nodes_missing_value_tracks_true' [" + i + "] = " + missing[i] + " is not 0 or 1");
            n.require(trueLeafs[i] == 0 || trueLeafs[i] == 1, "attribute 'nodes_trueleafs' [" + i + "] = " + trueLeafs[i] + " is not 0 or 1");
            n.require(falseLeafs[i] == 0 || falseLeafs[i] == 1, "attribute 'nodes_falseleafs' [" + i + "] = " + falseLeafs[i] + " is not 0 or 1");
            inRange(n, "nodes_truenodeids", i, trueIds[i], trueLeafs[i] == 1 ? leaves : count, trueLeafs[i] == 1 ? "leaf_* hold " + leaves : "nodes_* hold " + count);
            inRange(n, "nodes_falsenodeids", i, falseIds[i], falseLeafs[i] == 1 ? leaves : count, falseLeafs[i] == 1 ? "leaf_* hold " + leaves : "nodes_* hold " + count);
            inRange(n, "nodes_featureids", i, featureIds[i], features, "X has " + features + " features");
            int a = 0, b = 0;
            if (mode == TreeTable.MEMBER) {
                n.require(memberNodes < sets.size(), "attribute 'membership_values' holds " + sets.size() + " NaN-delimited set(s) but nodes_modes has more BRANCH_MEMBER nodes");
                List<Double> set = new ArrayList<>();
                for (double v : sets.get(memberNodes++)) set.add(rounded(x.dtype(), v));
                a = t.set(set);
                b = set.size();
            }
            t.node(mode, featureIds[i], rounded(x.dtype(), splits[i]), 0, 0, missing[i] == 1, a, b);
        }
        n.require(memberNodes == sets.size(), "attribute 'membership_values' holds " + sets.size() + " NaN-delimited set(s) but nodes_modes has " + memberNodes + " BRANCH_MEMBER node(s)");
        for (int l = 0; l < leaves; l++) t.leaf(l, 1);
        for (int i = 0; i < count; i++)
            t.setChildren(i, (int) (trueIds[i] + (trueLeafs[i] == 1 ? count : 0)), (int) (falseIds[i] + (falseLeafs[i] == 1 ? count : 0)));
        for (int r = 0; r < roots.length; r++) {
            inRange(n, "tree_roots", r, roots[r], count, "nodes_* hold " + count);
            t.roots.add((int) roots[r]);
        }
        check(n, t, k -> k < count ? "nodes_* entry " + k : "leaf " + (k - count));
        Map<String, Object> attrs = new LinkedHashMap<>(t.counts());
        attrs.put("aggregate_function", n.integer("aggregate_function"));
        attrs.put("post_transform", n.integer("post_transform"));
        attrs.put("n_targets", targets);
        return lowered(n, x, t, attrs, List.of(output(n, 0, x, targets, x.dtype())));
    }

    /** TreeEnsembleRegressor-1/3: X [N, F] (or [F]) to Y [N, n_targets] f32. */
    static Lowered regressor(NodeContext n) {
        Value x = input(n, X_LEGACY, "f32, f64, int64 or int32");
        long[] ids = n.ints("target_ids", new long[0]);
        long targets = n.integer("n_targets", max(ids) + 1);
        n.require(targets >= 1, "attribute 'n_targets' = " + targets + " is not a positive count");
        TreeTable t = legacy(n, x, "target_", targets);
        double[] base = reals(n, "base_values");
        n.require(base.length == 0 || base.length == targets || base.length == 1 && targets == 1,
                "attribute 'base_values' holds " + base.length + " value(s); n_targets = " + targets + " takes 0 or " + targets);
        for (double b : base) t.base.add(b);
        Map<String, Object> attrs = new LinkedHashMap<>(t.counts());
        attrs.put("aggregate_function", (long) named(n, "aggregate_function", "SUM", TreeTable.AGGREGATES));
        attrs.put("post_transform", (long) named(n, "post_transform", "NONE", TreeTable.POSTS));
        attrs.put("n_targets", targets);
        return lowered(n, x, t, attrs, List.of(output(n, 0, x, targets, DType.F32)));
    }

    /** TreeEnsembleClassifier-1/3: X [N, F] (or [F]) to Y [N] int64 labels and Z [N, classes] f32 scores. */
    static Lowered classifier(NodeContext n) {
        Value x = input(n, X_LEGACY, "f32, f64, int64 or int32");
        n.require(!n.hasAttr("classlabels_strings"), "attribute 'classlabels_strings': string labels are not supported (no string tensors); give classlabels_int64s");
        long[] labels = n.ints("classlabels_int64s", null);
        n.require(labels != null && labels.length >= 2, "attribute 'classlabels_int64s' must list at least 2 classes");
        for (int k = 0; k < labels.length; k++)
            n.require(Math.abs(labels[k]) <= TreeTable.MAX_LABEL, "attribute 'classlabels_int64s' [" + k + "] = " + labels[k] + " is beyond 2^53, which the f64 tree table does not hold exactly");
        long classes = labels.length;
        TreeTable t = legacy(n, x, "class_", classes);
        double[] base = reals(n, "base_values");
        n.require(base.length == 0 || base.length == 1 || base.length == classes,
                "attribute 'base_values' holds " + base.length + " value(s); " + classes + " classes take 0, 1 or " + classes);
        for (double b : base) t.base.add(b);
        for (long l : labels) t.labels.add(l);
        long[] ids = n.ints("class_ids", new long[0]);
        double[] weights = reals(n, "class_weights");
        boolean allPositive = true;
        for (double w : weights) allPositive &= w >= 0;
        Map<String, Object> attrs = new LinkedHashMap<>(t.counts());
        attrs.put("aggregate_function", 1L);
        attrs.put("post_transform", (long) named(n, "post_transform", "NONE", TreeTable.POSTS));
        attrs.put("n_targets", classes);
        attrs.put(MlOps.CLASSIFIER, 1L);
        attrs.put(MlOps.BINARY_CASE, classes == 2 && java.util.Arrays.stream(ids).distinct().count() == 1 ? 1L : 0L);
        attrs.put(MlOps.ALL_POSITIVE, allPositive ? 1L : 0L);
        List<String> outs = n.node().outputs();
        n.require(outs.size() >= 2 && !outs.get(1).isEmpty(), "lists no output Z (the scores), which arenaplan writes with Y");
        long rows = x.shape().length == 2 ? x.shape()[0] : 1;
        Value y = new Value(outs.get(0), DType.I64, new long[]{rows}), z = output(n, 1, x, classes, DType.F32);
        return lowered(n, x, t, attrs, List.of(z, y));
    }

    // ---- the legacy node lists ----

    /**
     * The nodes of a legacy op, keyed by (nodes_treeids, nodes_nodeids), with the leaf entries of
     * the {@code prefix} lists ("target_" or "class_"), ids below {@code targets}.
     */
    private static TreeTable legacy(NodeContext n, Value x, String prefix, long targets) {
        long features = x.shape()[x.shape().length - 1];
        long[] treeIds = n.ints("nodes_treeids", null), nodeIds = n.ints("nodes_nodeids", null), featureIds = n.ints("nodes_featureids", null);
        long[] trueIds = n.ints("nodes_truenodeids", null), falseIds = n.ints("nodes_falsenodeids", null);
        String[] modes = n.strings("nodes_modes", null);
        for (String a : new String[]{"nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_truenodeids", "nodes_falsenodeids", "nodes_modes"})
            n.require(n.hasAttr(a), "attribute '" + a + "' is required");
        int count = treeIds.length;
        n.require(count >= 1, "attribute 'nodes_treeids' is empty: an ensemble has at least one node");
        double[] values = reals(n, "nodes_values");
        long[] missing = n.ints("nodes_missing_value_tracks_true", new long[count]);
        Map<String, Integer> lengths = new LinkedHashMap<>();
        lengths.put("nodes_nodeids", nodeIds.length);
        lengths.put("nodes_featureids", featureIds.length);
        lengths.put("nodes_truenodeids", trueIds.length);
        lengths.put("nodes_falsenodeids", falseIds.length);
        lengths.put("nodes_modes", modes.length);
        lengths.put(valuesName(n, "nodes_values"), values.length);
        lengths.put("nodes_missing_value_tracks_true", missing.length);
        sameLength(n, count, "nodes_treeids", lengths);
        Map<Long, Integer> at = new HashMap<>();
        TreeTable t = new TreeTable();
        int[] mode = new int[count];
        for (int i = 0; i < count; i++) {
            mode[i] = LEGACY_MODES.indexOf(modes[i]);
            n.require(mode[i] >= 0 && mode[i] != TreeTable.MEMBER, "attribute 'nodes_modes' [" + i + "] = '" + modes[i] + "' is not one of BRANCH_LEQ, BRANCH_LT, BRANCH_GTE, BRANCH_GT, BRANCH_EQ, BRANCH_NEQ, LEAF");
            n.require(missing[i] == 0 || missing[i] == 1, "attribute 'nodes_missing_value_tracks_true' [" + i + "] = " + missing[i] + " is not 0 or 1");
            if (mode[i] != TreeTable.LEAF) inRange(n, "nodes_featureids", i, featureIds[i], features, "X has " + features + " features");
            Integer before = at.put(key(n, treeIds[i], nodeIds[i], i), i);
            n.require(before == null, "nodes (tree " + treeIds[i] + ", node " + nodeIds[i] + ") are given twice, at nodes_* entries " + before + " and " + i);
            if (i == 0 || treeIds[i] != treeIds[i - 1]) t.roots.add(i);
        }
        long[] eTrees = n.ints(prefix + "treeids", new long[0]), eNodes = n.ints(prefix + "nodeids", new long[0]), eIds = n.ints(prefix + "ids", new long[0]);
        double[] eWeights = reals(n, prefix + "weights");
        sameLength(n, eTrees.length, prefix + "treeids", Map.of(prefix + "nodeids", eNodes.length, prefix + "ids", eIds.length, valuesName(n, prefix + "weights"), eWeights.length));
        List<List<Integer>> byNode = new ArrayList<>();
        for (int i = 0; i < count; i++) byNode.add(new ArrayList<>());
        for (int e = 0; e < eTrees.length; e++) {
            Integer node = at.get(key(n, eTrees[e], eNodes[e], e));
            n.require(node != null, "attribute '" + prefix + "nodeids' [" + e + "]: (tree " + eTrees[e] + ", node " + eNodes[e] + ") is no node of nodes_treeids/nodes_nodeids");
            inRange(n, prefix + "ids", e, eIds[e], targets, (prefix.equals("class_") ? "classes: " : "n_targets = ") + targets);
            byNode.get(node).add(e);
        }
        for (int i = 0; i < count; i++) {
            int first = t.entryCount();
            if (mode[i] == TreeTable.LEAF) for (int e : byNode.get(i)) t.entry(eIds[e], rounded(x.dtype(), eWeights[e]));
            if (mode[i] == TreeTable.LEAF) t.leaf(first, t.entryCount() - first);
            else t.node(mode[i], featureIds[i], rounded(x.dtype(), values[i]), 0, 0, missing[i] == 1, 0, 0);
        }
        for (int i = 0; i < count; i++) {
            if (mode[i] == TreeTable.LEAF) continue;
            t.setChildren(i, child(n, at, "nodes_truenodeids", i, treeIds[i], trueIds[i]), child(n, at, "nodes_falsenodeids", i, treeIds[i], falseIds[i]));
        }
        check(n, t, k -> "(tree " + treeIds[k] + ", node " + nodeIds[k] + ")");
        return t;
    }

    private static long key(NodeContext n, long tree, long node, int i) {
        n.require(tree >= 0 && tree < 1L << 31 && node >= 0 && node < 1L << 31, "(tree " + tree + ", node " + node + ") at entry " + i + ": ids are at least 0 and below 2^31");
        return tree << 32 | node;
    }

    private static int child(NodeContext n, Map<Long, Integer> at, String attr, int i, long tree, long node) {
        Integer c = node >= 0 && node < 1L << 31 ? at.get(tree << 32 | node) : null;
        n.require(c != null, "attribute '" + attr + "' [" + i + "] = " + node + " is no node of tree " + tree);
        return c;
    }

    // ---- shared checks ----

    private static Value input(NodeContext n, Set<DType> types, String words) {
        n.require(n.node().domain().equals(MlOps.DOMAIN), n.opType() + " is an operator of the " + MlOps.DOMAIN + " domain, not of '" + n.node().domain() + "'");
        FamilyImports.requireInputs(n, 1, 1);
        Value x = n.input(0);
        n.require(types.contains(x.dtype()), "input " + x + " is " + x.dtype().jsonName() + "; " + n.opType() + " takes " + words);
        n.require(x.shape().length == 2 || x.shape().length == 1 && !n.opType().equals(MlOps.TREE_ENSEMBLE), "input " + x + " must be [N, F]" + (n.opType().equals(MlOps.TREE_ENSEMBLE) ? "" : " or [F]"));
        return x;
    }

    private static Value output(NodeContext n, int k, Value x, long targets, DType type) {
        List<String> outs = n.node().outputs();
        n.require(outs.size() > k && !outs.get(k).isEmpty(), "has no output " + k);
        long rows = x.shape().length == 2 ? x.shape()[0] : 1;
        return new Value(outs.get(k), type, new long[]{rows, targets});
    }

    private static Lowered lowered(NodeContext n, Value x, TreeTable t, Map<String, Object> attrs, List<Value> outs) {
        org.arenaplan.ir.TensorValue packed = t.pack();
        Value table = new Value(n.opName() + "#trees", DType.F64, packed.shape());
        return new Lowered(MlOps.TREE_ENSEMBLE, List.of(x.name(), table.name()), outs, attrs, false, List.of(), Map.of(), Map.of(table, packed));
    }

    private static void check(NodeContext n, TreeTable t, java.util.function.IntFunction<String> name) {
        String problem = t.problem(name);
        n.require(problem == null, "the trees are no trees: " + problem);
    }

    private static void sameLength(NodeContext n, int count, String first, Map<String, Integer> others) {
        for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(others).entrySet())
            n.require(e.getValue() == count, "attribute '" + e.getKey() + "' holds " + e.getValue() + " value(s) but '" + first + "' holds " + count + "; they must have one length");
    }

    private static void inRange(NodeContext n, String attr, int i, long v, long end, String why) {
        n.require(v >= 0 && v < end, "attribute '" + attr + "' [" + i + "] = " + v + " is outside [0, " + end + ") (" + why + ")");
    }

    /** A tensor attribute's values as doubles, or null when absent and not required. */
    private static double[] tensor(NodeContext n, String name, boolean required) {
        OnnxModel.TensorData d = n.tensor(name);
        n.require(d != null || !required, "attribute '" + name + "' is required (ai.onnx.ml TreeEnsemble-5)");
        if (d == null) return null;
        double[] v = d.values();
        n.require(v != null, "attribute '" + name + "': its values cannot be read");
        return v;
    }

    /** A legacy FLOATS attribute or its {@code _as_tensor} form (ai.onnx.ml 3), not both; empty when neither. */
    private static double[] reals(NodeContext n, String name) {
        boolean list = n.hasAttr(name), tensor = n.hasAttr(name + "_as_tensor");
        n.require(!(list && tensor), "attributes '" + name + "' and '" + name + "_as_tensor' are both given; give one");
        if (tensor) return tensor(n, name + "_as_tensor", true);
        return n.reals(name, new double[0]);
    }

    private static String valuesName(NodeContext n, String name) {
        return n.hasAttr(name + "_as_tensor") ? name + "_as_tensor" : name;
    }

    private static int named(NodeContext n, String attr, String dflt, List<String> names) {
        String v = n.string(attr, dflt);
        int k = names.indexOf(v);
        n.require(k >= 0, "attribute '" + attr + "' = '" + v + "' is not one of " + String.join(", ", names));
        return k;
    }

    /** The NaN-delimited sets of membership_values (a last set without its NaN counts too). */
    private static List<List<Double>> sets(double[] members) {
        List<List<Double>> sets = new ArrayList<>();
        List<Double> cur = new ArrayList<>();
        for (double v : members) {
            if (Double.isNaN(v)) {
                sets.add(cur);
                cur = new ArrayList<>();
            } else cur.add(v);
        }
        if (!cur.isEmpty()) sets.add(cur);
        return sets;
    }

    /** A threshold or weight as X's type holds it (f32 and f16 X compare in f32, as ONNX Runtime's float kernels). */
    private static double rounded(DType x, double v) {
        return x == DType.F64 ? v : x == DType.F16 ? DType.halfToFloat(DType.floatToHalf((float) v)) : (float) v;
    }

    private static long max(long[] v) {
        long m = -1;
        for (long e : v) m = Math.max(m, e);
        return m;
    }
}
