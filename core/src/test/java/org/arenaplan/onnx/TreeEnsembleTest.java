package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ai.onnx.ml TreeEnsemble (5), TreeEnsembleRegressor and TreeEnsembleClassifier (ops.MlOps,
 * ops.TreeEnsembleImport, sim.TreeKernels) against ONNX Runtime's Java API, the semantics' source
 * where the spec leaves them open (tree_ensemble_aggregator.h); by hand where ONNX Runtime has no
 * kernel (f16 X); and the import's refusals.
 */
class TreeEnsembleTest {
    @TempDir
    Path dir;

    private static final String ML = "ai.onnx.ml";
    private static final double RTOL = 1e-5, ATOL = 1e-6;   // ONNX Runtime sums in f32, arenaplan in double

    // Two legacy trees over 3 features: every comparison mode but MEMBER, missing values tracking true at some nodes.
    private static final long[] TREES = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    private static final long[] NODES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4};
    private static final long[] FEATURES = {0, 1, 2, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0};
    private static final String[] MODES = {"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "LEAF",
            "BRANCH_GT", "BRANCH_EQ", "LEAF", "LEAF", "LEAF"};
    private static final double[] VALUES = {0.5, 2, -1, 0, 0, 3, 0, 0, 0, 0.25, 1, 0, 0, 0};
    private static final long[] TRUE = {1, 3, 5, 0, 0, 7, 0, 0, 0, 1, 3, 0, 0, 0}, FALSE = {2, 4, 6, 0, 0, 8, 0, 0, 0, 2, 4, 0, 0, 0};
    private static final long[] MISSING = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0};
    // leaf entries: (tree, node) -> target, weight; leaf (1, 4) gives target 1 nothing
    private static final long[] E_TREES = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    private static final long[] E_NODES = {3, 3, 4, 4, 6, 6, 7, 7, 8, 8, 2, 2, 3, 4};
    static final long[] E_IDS = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0};
    static final double[] E_WEIGHTS = {1.5, -0.5, 0.25, 2, -1, 0.75, 3, -2, 0.5, 1.25, 0.125, -0.25, 0.5, -0.75};

    /** 7 rows over the trees' paths: NaN in features 0 and 1, f0 = 3 (NEQ false), f1 = 1 (EQ true), f2 on GTE's threshold. */
    private static final float[] ROWS = {
            0.25f, 1, 0.5f,
            Float.NaN, 3, -2,
            1, Float.NaN, -1,
            3, 0.5f, 0,
            2, 1, 5,
            0.5f, 2, 0.25f,
            -4, -1, -1.5f};

    static TensorValue x(DType t) {
        double[] v = new double[ROWS.length];
        for (int i = 0; i < v.length; i++) v[i] = ROWS[i];
        return t == DType.F32 ? TensorValue.ofFloats(new long[]{7, 3}, ROWS) : t == DType.F64 ? TensorValue.ofDoubles(DType.F64, new long[]{7, 3}, v)
                : TensorValue.ofLongs(t, new long[]{7, 3}, Arrays.stream(v).mapToLong(d -> Double.isNaN(d) ? 7 : (long) Math.floor(d)).toArray());
    }

    private static Object[] nodes() {
        return new Object[]{"nodes_treeids", TREES, "nodes_nodeids", NODES, "nodes_featureids", FEATURES, "nodes_modes", MODES, "nodes_values", VALUES,
                "nodes_truenodeids", TRUE, "nodes_falsenodeids", FALSE, "nodes_missing_value_tracks_true", MISSING};
    }

    private static long[] pick(long[] v, int[] at) {
        return Arrays.stream(at).mapToLong(e -> v[e]).toArray();
    }

    private static Object[] with(Object[] a, Object... b) {
        Object[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /**
     * The trees as a regressor of {@code targets} targets; for one target, each leaf's first entry
     * made target 0 (ONNX Runtime reads only a leaf's first weight there: ProcessTreeNodePrediction1).
     */
    static TinyOnnx regressor(int xType, long targets, String aggregate, String post, double[] base) {
        int[] keep = java.util.stream.IntStream.range(0, E_IDS.length)
                .filter(e -> targets > 1 || e == 0 || E_TREES[e] != E_TREES[e - 1] || E_NODES[e] != E_NODES[e - 1]).toArray();
        Object[] attrs = with(nodes(), "target_treeids", pick(E_TREES, keep), "target_nodeids", pick(E_NODES, keep),
                "target_ids", targets == 1 ? new long[keep.length] : E_IDS, "target_weights", Arrays.stream(keep).mapToDouble(e -> E_WEIGHTS[e]).toArray(),
                "n_targets", targets, "aggregate_function", aggregate, "post_transform", post);
        if (base != null) attrs = with(attrs, "base_values", base);
        return new TinyOnnx().opset(17).input(xType, "x", 7L, 3L).output(OnnxDTypes.FLOAT, "y", 7L, targets)
                .node("reg", "TreeEnsembleRegressor", List.of("x"), List.of("y"), attrs).domain(ML);
    }

    @Test
    void regressorAgreesWithOnnxRuntimeForEveryAggregateAndPostTransform() throws Exception {
        for (String aggregate : new String[]{"SUM", "AVERAGE", "MIN", "MAX"})
            for (String post : new String[]{"NONE", "LOGISTIC", "SOFTMAX", "SOFTMAX_ZERO"})
                for (double[] base : new double[][]{null, {0.5, -1}})
                    OnnxOpRuns.agree(dir, regressor(OnnxDTypes.FLOAT, 2, aggregate, post, base), Map.of("x", x(DType.F32)), RTOL, ATOL);
        // a target no leaf names (2 of 3) is 0 whatever its base value, as in ONNX Runtime
        for (String aggregate : new String[]{"SUM", "MIN"})
            OnnxOpRuns.agree(dir, regressor(OnnxDTypes.FLOAT, 3, aggregate, "LOGISTIC", new double[]{0.5, -1, 2}), Map.of("x", x(DType.F32)), RTOL, ATOL);
        // one target: ONNX Runtime applies only PROBIT there (FinalizeScores1), and base_values may hold one value
        for (String aggregate : new String[]{"SUM", "AVERAGE", "MIN", "MAX"})
            for (String post : new String[]{"NONE", "LOGISTIC", "SOFTMAX", "PROBIT"})
                OnnxOpRuns.agree(dir, regressor(OnnxDTypes.FLOAT, 1, aggregate, post, new double[]{0.25}), Map.of("x", x(DType.F32)), RTOL, ATOL);
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, regressor(OnnxDTypes.FLOAT, 1, "SUM", "LOGISTIC", null), Map.of("x", x(DType.F32)));
        // row 0: tree 0 takes node 0 (0.25 <= 0.5), node 1 (1 < 2) to leaf 3 (first entry 1.5); tree 1: 0.5 > 0.25, f1 == 1 to leaf 3 (0.5); no logistic
        assertThat(out.get("y").floats()[0]).isEqualTo(2f);
        // double X; int64 and int32 X (ONNX Runtime implements float and double only: against its float run on the same whole numbers)
        OnnxOpRuns.agree(dir, regressor(OnnxDTypes.DOUBLE, 2, "SUM", "NONE", new double[]{0.5, -1}), Map.of("x", x(DType.F64)), RTOL, ATOL);
        float[] whole = new float[ROWS.length];
        long[] ints = x(DType.I64).longs();
        for (int i = 0; i < whole.length; i++) whole[i] = ints[i];
        TensorValue ort = OrtOracle.run(regressor(OnnxDTypes.FLOAT, 2, "AVERAGE", "NONE", null).bytes(), Map.of("x", TensorValue.ofFloats(new long[]{7, 3}, whole))).get("y");
        for (DType t : new DType[]{DType.I64, DType.I32}) {
            TensorValue ours = OnnxOpRuns.run(dir, regressor(t == DType.I64 ? OnnxDTypes.INT64 : OnnxDTypes.INT32, 2, "AVERAGE", "NONE", null), Map.of("x", x(t))).get("y");
            assertThat(ours.floats()).as(t.jsonName()).containsExactly(ort.floats());
        }
    }

    @Test
    void regressorReadsTheAsTensorAttributesOfVersion3() throws Exception {
        Object[] attrs = nodes();
        int values = Arrays.asList(attrs).indexOf("nodes_values");
        attrs[values] = "nodes_values_as_tensor";
        attrs[values + 1] = doubles("nodes_values_as_tensor", VALUES);
        attrs = with(attrs, "target_treeids", E_TREES, "target_nodeids", E_NODES, "target_ids", E_IDS, "target_weights_as_tensor", doubles("w", E_WEIGHTS),
                "n_targets", 2L, "base_values_as_tensor", doubles("b", new double[]{1, 2}));
        TinyOnnx m = new TinyOnnx().opset(17).input(OnnxDTypes.DOUBLE, "x", 7L, 3L).output(OnnxDTypes.FLOAT, "y", 7L, 2L)
                .node("reg", "TreeEnsembleRegressor", List.of("x"), List.of("y"), attrs).domain(ML, 3);
        OnnxOpRuns.agree(dir, m, Map.of("x", x(DType.F64)), RTOL, ATOL);
    }

    static TinyOnnx classifier(long[] labels, long[] ids, double[] weights, String post, double[] base) {
        Object[] attrs = with(nodes(), "class_treeids", E_TREES, "class_nodeids", E_NODES, "class_ids", ids, "class_weights", weights,
                "classlabels_int64s", labels, "post_transform", post);
        if (base != null && base.length > 0) attrs = with(attrs, "base_values", base);
        return new TinyOnnx().opset(17).input(OnnxDTypes.FLOAT, "x", 7L, 3L).output(OnnxDTypes.INT64, "label", 7L)
                .output(OnnxDTypes.FLOAT, "scores", 7L, (long) labels.length)
                .node("cls", "TreeEnsembleClassifier", List.of("x"), List.of("label", "scores"), attrs).domain(ML);
    }

    @Test
    void multiClassClassifierAgreesWithOnnxRuntime() throws Exception {
        long[] ids = {0, 1, 2, 1, 0, 2, 2, 1, 0, 1, 0, 2, 1, 0};
        double[] positive = Arrays.stream(E_WEIGHTS).map(Math::abs).toArray();
        for (String post : new String[]{"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO"})
            for (double[] base : new double[][]{null, {0.1, 0.2, -0.3}}) {
                OnnxOpRuns.agree(dir, classifier(new long[]{10, 20, 30}, ids, positive, post, base), Map.of("x", x(DType.F32)), RTOL, ATOL);
                OnnxOpRuns.agree(dir, classifier(new long[]{10, 20, 30}, ids, E_WEIGHTS, post, base), Map.of("x", x(DType.F32)), RTOL, ATOL);
            }
        // a class no leaf names: its score 0 (plus its base value), never the label unless based
        long[] two = Arrays.stream(ids).map(i -> i == 2 ? 0 : i).toArray();
        OnnxOpRuns.agree(dir, classifier(new long[]{7, 8, 9}, two, positive, "NONE", null), Map.of("x", x(DType.F32)), RTOL, ATOL);
    }

    @Test
    void binaryClassifierFollowsOnnxRuntimesSpecialCases() throws Exception {
        double[] positive = Arrays.stream(E_WEIGHTS).map(w -> Math.abs(w) / 4).toArray();
        long[] ones = new long[E_IDS.length], zeros = new long[E_IDS.length];
        Arrays.fill(ones, 1);
        for (String post : new String[]{"NONE", "LOGISTIC", "SOFTMAX", "PROBIT"})
            for (double[] base : new double[][]{{}, {0.25}, {0.25, 0.5}}) {
                // one class named by the weights (binary case), all weights positive or some negative; both classes named
                for (long[] ids : new long[][]{ones, zeros, E_IDS}) {
                    if (post.equals("PROBIT") && ids == zeros && base.length < 2) continue;   // probit of one score: ONNX Runtime leaves column 1 unwritten
                    OnnxOpRuns.agree(dir, classifier(new long[]{3, 5}, ids, positive, post, base), Map.of("x", x(DType.F32)), RTOL, ATOL);
                    OnnxOpRuns.agree(dir, classifier(new long[]{3, 5}, ids, E_WEIGHTS, post, base), Map.of("x", x(DType.F32)), RTOL, ATOL);
                }
            }
    }

    // ---- TreeEnsemble (ai.onnx.ml 5) ----

    /** Interior nodes: 0 LEQ f0 0.5 (missing true), 1 MEMBER f1 {1, 4, 7}, 2 GT f2 -1, 3 EQ f0 3, 4 NEQ f1 2, 5 LT f2 5 (tree 2's root), 6 GTE f0 1. */
    static TinyOnnx v5(int type, long aggregate, long post, long targets) {
        return v5(type, targets, v5Attrs(type, aggregate, post, targets));
    }

    private static TinyOnnx v5(int type, long targets, Object[] attrs) {
        return new TinyOnnx().opset(21).input(type, "x", 7L, 3L).output(type, "y", 7L, targets)
                .node("te", "TreeEnsemble", List.of("x"), List.of("y"), attrs).domain(ML, 5);
    }

    private static Object[] v5Attrs(int type, long aggregate, long post, long targets) {
        long[] features = {0, 1, 2, 0, 1, 2, 0};
        double[] modes = {0, 6, 3, 4, 5, 1, 2};
        double[] splits = {0.5, Double.NaN, -1, 3, 2, 5, 1};
        long[] trueIds = {1, 0, 3, 2, 4, 6, 5}, trueLeafs = {0, 1, 0, 1, 1, 0, 1};
        long[] falseIds = {2, 1, 3, 4, 5, 7, 6}, falseLeafs = {0, 1, 1, 0, 1, 1, 1};
        long[] missing = {1, 0, 1, 0, 0, 0, 1};
        long[] leafTargets = new long[8];
        double[] leafWeights = {1, -2, 0.5, 4, -1.5, 2.5, 3, -0.25};
        for (int l = 0; l < 8; l++) leafTargets[l] = l % targets;
        return new Object[]{"nodes_featureids", features, "nodes_modes", uint8("m", modes),
                "nodes_splits", typed("s", type, splits), "nodes_truenodeids", trueIds, "nodes_trueleafs", trueLeafs,
                "nodes_falsenodeids", falseIds, "nodes_falseleafs", falseLeafs, "nodes_missing_value_tracks_true", missing,
                "membership_values", typed("mv", type, new double[]{1, 4, 7, Double.NaN}), "leaf_targetids", leafTargets,
                "leaf_weights", typed("w", type, leafWeights), "tree_roots", new long[]{0, 5}, "n_targets", targets,
                "aggregate_function", aggregate, "post_transform", post};
    }

    @Test
    void treeEnsembleAgreesWithOnnxRuntimeInF32AndF64() throws Exception {
        for (long aggregate = 0; aggregate <= 3; aggregate++) {
            for (long post : new long[]{0, 3})
                OnnxOpRuns.agree(dir, v5(OnnxDTypes.FLOAT, aggregate, post, 3), Map.of("x", x(DType.F32)), RTOL, ATOL);
            // post_transform 1 is SOFTMAX and 2 LOGISTIC in the spec (Operators-ml.md); ONNX Runtime 1.22 reads them the other way round
            for (long post = 1; post <= 2; post++) {
                TensorValue ours = OnnxOpRuns.run(dir, v5(OnnxDTypes.FLOAT, aggregate, post, 3), Map.of("x", x(DType.F32))).get("y");
                TensorValue ort = OrtOracle.run(v5(OnnxDTypes.FLOAT, aggregate, 3 - post, 3).bytes(), Map.of("x", x(DType.F32))).get("y");
                assertThat(org.arenaplan.exec.AllClose.compare(ours, ort, RTOL, ATOL).ok()).as("aggregate %d, post %d", aggregate, post).isTrue();
            }
        }
        // SOFTMAX by hand, row 0 (targets 0, 1, 2: 4, 0, 0): e^4 / (e^4 + 2)
        TensorValue soft = OnnxOpRuns.run(dir, v5(OnnxDTypes.FLOAT, 1, 1, 3), Map.of("x", x(DType.F32))).get("y");
        assertThat(soft.doubles()[0]).isCloseTo(Math.exp(4) / (Math.exp(4) + 2), org.assertj.core.data.Offset.offset(1e-6));
        OnnxOpRuns.agree(dir, v5(OnnxDTypes.DOUBLE, 1, 0, 2), Map.of("x", x(DType.F64)), RTOL, ATOL);
        OnnxOpRuns.agree(dir, v5(OnnxDTypes.DOUBLE, 3, 2, 1), Map.of("x", x(DType.F64)), RTOL, ATOL);
    }

    @Test
    void treeEnsembleTakesF16ByHand() throws Exception {
        double[] v = new double[ROWS.length];
        for (int i = 0; i < v.length; i++) v[i] = ROWS[i];
        TensorValue x = TensorValue.ofDoubles(DType.F16, new long[]{7, 3}, v);
        TensorValue want = OnnxOpRuns.run(dir, v5(OnnxDTypes.FLOAT, 1, 0, 1), Map.of("x", x(DType.F32))).get("y");
        TensorValue got = OnnxOpRuns.run(dir, v5(OnnxDTypes.FLOAT16, 1, 0, 1), Map.of("x", x)).get("y");
        assertThat(got.dtype()).isEqualTo(DType.F16);
        // every value here is exact in f16: the same walk, the same sums
        assertThat(got.doubles()).containsExactly(want.doubles());
        // row 0 (0.25, 1, 0.5) by hand: tree 0: LEQ true -> MEMBER {1, 4, 7} holds 1 -> leaf 0 (1); tree 1: 0.5 < 5 -> GTE 0.25 >= 1 false -> leaf 6 (3)
        assertThat(want.doubles()[0]).isEqualTo(4.0);
    }

    // ---- refusals ----

    @Test
    void badAttributesAreRefusedInOneLineNamingTheNodeAndAttribute() throws Exception {
        String at = "node 'reg' (TreeEnsembleRegressor, #0, ai.onnx.ml opset 1..5): ";
        OnnxOpRuns.refused(dir, legacy(replace(nodes(), "nodes_values", Arrays.copyOf(VALUES, 13))),
                at + "attribute 'nodes_values' holds 13 value(s) but 'nodes_treeids' holds 14; they must have one length");
        long[] badTrue = TRUE.clone();
        badTrue[1] = 9;
        OnnxOpRuns.refused(dir, legacy(replace(nodes(), "nodes_truenodeids", badTrue)), at + "attribute 'nodes_truenodeids' [1] = 9 is no node of tree 0");
        long[] loop = TRUE.clone();
        loop[5] = 0;
        OnnxOpRuns.refused(dir, legacy(replace(nodes(), "nodes_truenodeids", loop)), at + "the trees are no trees: (tree 0, node 0) is reached again from (tree 0, node 5)");
        long[] orphan = FALSE.clone();
        orphan[2] = 3;
        OnnxOpRuns.refused(dir, legacy(replace(nodes(), "nodes_falsenodeids", orphan)), at + "the trees are no trees: (tree 0, node 6) is reached from no root");
        String[] modes = MODES.clone();
        modes[0] = "BRANCH_ABOVE";
        OnnxOpRuns.refused(dir, legacy(replace(nodes(), "nodes_modes", modes)), at + "attribute 'nodes_modes' [0] = 'BRANCH_ABOVE' is not one of BRANCH_LEQ");
        long[] feature = FEATURES.clone();
        feature[2] = 3;
        OnnxOpRuns.refused(dir, legacy(replace(nodes(), "nodes_featureids", feature)), at + "attribute 'nodes_featureids' [2] = 3 is outside [0, 3) (X has 3 features)");
        OnnxOpRuns.refused(dir, regressor(OnnxDTypes.FLOAT, 2, "MEDIAN", "NONE", null), at + "attribute 'aggregate_function' = 'MEDIAN' is not one of AVERAGE, SUM, MIN, MAX");
        OnnxOpRuns.refused(dir, regressor(OnnxDTypes.FLOAT, 2, "SUM", "NONE", new double[]{1, 2, 3}), at + "attribute 'base_values' holds 3 value(s); n_targets = 2 takes 0 or 2");
        // the classifier: string labels, a ZipMap after it
        TinyOnnx strings = new TinyOnnx().opset(17).input("x", 7L, 3L).outputOfType(OnnxDTypes.INT64, "label").output("scores", 7L, 2L)
                .node("cls", "TreeEnsembleClassifier", List.of("x"), List.of("label", "scores"), with(nodes(), "class_treeids", E_TREES, "class_nodeids", E_NODES,
                        "class_ids", E_IDS, "class_weights", E_WEIGHTS, "classlabels_strings", new String[]{"a", "b"})).domain(ML);
        OnnxOpRuns.refused(dir, strings, "node 'cls' (TreeEnsembleClassifier, #0, ai.onnx.ml opset 1..5): attribute 'classlabels_strings': string labels are not supported");
        TinyOnnx zipMap = classifier(new long[]{3, 5}, E_IDS, E_WEIGHTS, "NONE", null).node("zm", "ZipMap", List.of("scores"), List.of("probs"),
                "classlabels_int64s", new long[]{3, 5}).domain(ML);
        OnnxOpRuns.refused(dir, zipMap, "ZipMap");
        // TreeEnsemble-5: a mode out of range, a membership list short of a set, and the op at ai.onnx.ml 3
        String te = "node 'te' (TreeEnsemble, #0, ai.onnx.ml opset 1..5): ";
        Object[] good = v5Attrs(OnnxDTypes.FLOAT, 1, 0, 1);
        OnnxOpRuns.refused(dir, v5(OnnxDTypes.FLOAT, 1, replace(good, "nodes_modes", uint8("m", new double[]{0, 6, 3, 4, 9, 1, 2}))),
                te + "attribute 'nodes_modes' [4] = 9.0 is no mode (0 BRANCH_LEQ .. 6 BRANCH_MEMBER)");
        OnnxOpRuns.refused(dir, v5(OnnxDTypes.FLOAT, 1, replace(good, "nodes_modes", uint8("m", new double[]{0, 6, 6, 4, 5, 1, 2}))),
                te + "attribute 'membership_values' holds 1 NaN-delimited set(s) but nodes_modes has more BRANCH_MEMBER nodes");
        OnnxOpRuns.refused(dir, v5(OnnxDTypes.FLOAT, 1, replace(good, "nodes_falsenodeids", new long[]{2, 1, 3, 4, 5, 8, 6})),
                te + "attribute 'nodes_falsenodeids' [5] = 8 is outside [0, 8) (leaf_* hold 8)");
        OnnxOpRuns.refused(dir, v5(OnnxDTypes.FLOAT, 1, replace(good, "leaf_targetids", new long[]{0, 0, 0, 1, 0, 0, 0, 0})),
                te + "attribute 'leaf_targetids' [3] = 1 is outside [0, 1) (n_targets = 1)");
        OnnxOpRuns.refused(dir, v5(OnnxDTypes.FLOAT, 1, replace(good, "tree_roots", new long[]{0, 4})),
                te + "the trees are no trees: nodes_* entry 5 is reached from no root");
        TinyOnnx old = new TinyOnnx().opset(21).input("x", 7L, 3L).output("y", 7L, 1L).node("te", "TreeEnsemble", List.of("x"), List.of("y"),
                "tree_roots", new long[]{0}).domain(ML, 3);
        OnnxOpRuns.refused(dir, old, "node 'te' (TreeEnsemble): TreeEnsemble exists from version 5 of the ai.onnx.ml domain; the model imports version 3");
    }

    private static TinyOnnx legacy(Object[] nodeAttrs) {
        return new TinyOnnx().opset(17).input("x", 7L, 3L).output("y", 7L, 2L).node("reg", "TreeEnsembleRegressor", List.of("x"), List.of("y"),
                with(nodeAttrs, "target_treeids", E_TREES, "target_nodeids", E_NODES, "target_ids", E_IDS, "target_weights", E_WEIGHTS, "n_targets", 2L)).domain(ML);
    }

    private static Object[] replace(Object[] attrs, String name, Object value) {
        Object[] a = attrs.clone();
        a[Arrays.asList(a).indexOf(name) + 1] = value;
        return a;
    }

    // ---- tensor attributes ----

    private static OnnxMl.TensorProto doubles(String name, double[] v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double d : v) b.putDouble(d);
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.DOUBLE).addDims(v.length).setRawData(ByteString.copyFrom(b.array())).build();
    }

    private static OnnxMl.TensorProto uint8(String name, double[] v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) b[i] = (byte) v[i];
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.UINT8).addDims(v.length).setRawData(ByteString.copyFrom(b)).build();
    }

    /** Values of ONNX type {@code type} (float, double or float16). */
    private static OnnxMl.TensorProto typed(String name, int type, double[] v) {
        if (type == OnnxDTypes.DOUBLE) return doubles(name, v);
        ByteBuffer b = ByteBuffer.allocate((type == OnnxDTypes.FLOAT ? 4 : 2) * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double d : v) {
            if (type == OnnxDTypes.FLOAT) b.putFloat((float) d);
            else b.putShort(DType.floatToHalf((float) d));
        }
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(type).addDims(v.length).setRawData(ByteString.copyFrom(b.array())).build();
    }
}
