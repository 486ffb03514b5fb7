package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ops of the ONNX-ML domain ai.onnx.ml (versions 1..5; Operators-ml.md, and
 * onnx/reference/ops/aionnxml/op_binarizer.py, op_array_feature_extractor.py), numeric tensors only
 * (a string tensor is refused at import as every string tensor is):
 * <ul>
 * <li>Binarizer: Y = X &gt; threshold ? 1 : 0, of X's type (f32, f64, int64 or int32; an integer
 *     compared as a double, as the reference's numpy does; NaN gives 0 there, where ONNX Runtime
 *     refuses the input); one {@link Kernels#UNARY}
 *     call, op code {@link Kernels#BINARIZER}, in place allowed.</li>
 * <li>ArrayFeatureExtractor: X [..., N] and int64 indices Y (any shape, read flattened, k in all)
 *     give Z [..., k] = X[..., Y] (a 1-D X gives [1, k], as the reference and ONNX Runtime shape it);
 *     one {@link Kernels#GATHER} call along the last axis. A negative index counts from the end as in
 *     the reference's numpy indexing (ONNX Runtime 1.22 does not check it: index -1 over [0, 1, 2, 3] gave
 *     0, where the reference gives 3); one out of [-N, N) is an error of
 *     the device naming the op.</li>
 * <li>TreeEnsemble (version 5), TreeEnsembleRegressor and TreeEnsembleClassifier (1; the
 *     {@code _as_tensor} attributes of 3): X [N, F] to scores [N, n_targets] (and the classifier's
 *     int64 labels [N]); the trees packed at import into one f64 weight ({@link TreeTable}, read by
 *     {@link TreeEnsembleImport}, which lists what it refuses) and one {@link Kernels#TREE_ENSEMBLE}
 *     call, whose layout and finalization (ONNX Runtime's tree_ensemble_aggregator.h where the spec
 *     is silent) are documented there and at {@code sim.TreeKernels}.</li>
 * </ul>
 * Refused in one line naming the node: another element type, ArrayFeatureExtractor's indices not
 * int64, a scalar X, and these op types in another domain.
 */
final class MlOps implements OpFamily {
    static final String BINARIZER = "Binarizer", ARRAY_FEATURE_EXTRACTOR = "ArrayFeatureExtractor";
    static final String DOMAIN = "ai.onnx.ml";
    static final String TREE_ENSEMBLE = "TreeEnsemble";
    /** TreeEnsemble's own attributes, set by {@link TreeEnsembleImport}: the table's counts and the classifier's flags ({@link Kernels#TREE_ENSEMBLE}). */
    static final String TREE_NODES = "tree_nodes", LEAF_ENTRIES = "leaf_entries", SET_VALUES = "set_values", TREES = "trees", BASE_VALUES = "base_count",
            CLASSIFIER = "classifier", BINARY_CASE = "binary_case", ALL_POSITIVE = "all_positive";
    /** Attributes of TreeEnsemble-5 and of the legacy TreeEnsembleRegressor/Classifier (1, 3) read at import. */
    private static final String[] V5_ATTRS = {"nodes_featureids", "nodes_modes", "nodes_splits", "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs",
            "nodes_falseleafs", "nodes_missing_value_tracks_true", "nodes_hitrates", "membership_values", "leaf_targetids", "leaf_weights", "tree_roots"};
    private static final String[] LEGACY_NODE_ATTRS = {"nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes", "nodes_values", "nodes_values_as_tensor",
            "nodes_truenodeids", "nodes_falsenodeids", "nodes_missing_value_tracks_true", "nodes_hitrates", "nodes_hitrates_as_tensor", "base_values", "base_values_as_tensor"};
    private static final String[] REGRESSOR_ATTRS = {"target_treeids", "target_nodeids", "target_ids", "target_weights", "target_weights_as_tensor"};
    private static final String[] CLASSIFIER_ATTRS = {"class_treeids", "class_nodeids", "class_ids", "class_weights", "class_weights_as_tensor", "classlabels_int64s", "classlabels_strings"};
    private static final Set<DType> TREE_X = Set.of(DType.F32, DType.F64, DType.F16, DType.I64, DType.I32), TREE_SCORES = Set.of(DType.F32, DType.F64, DType.F16);
    /** The element types Binarizer's and ArrayFeatureExtractor's T take but string (Operators-ml.md). */
    private static final Set<DType> NUMERIC = Set.of(DType.F32, DType.F64, DType.I64, DType.I32);

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(BINARIZER, 1, 1).attrs(AttrSpec.real("threshold", 0.0)).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.UNARY)
                        .doc("x > threshold ? 1 : 0, of x's type (ai.onnx.ml); f32, f64, int64, int32")
                        .lower((op, l) -> List.of(ElementwiseLowering.unary(op, l, Kernels.BINARIZER, "threshold")))
                        .onnx(BINARIZER, 1, MlOps::importBinarizer).build(),
                OpDefinition.op(ARRAY_FEATURE_EXTRACTOR, 2, 2).shape(MlOps::featureShape).kernels(Kernels.GATHER)
                        .flops(org.arenaplan.ir.OpSpec.NO_ARITHMETIC)
                        .doc("X [..., N], int64 indices Y (flattened, k) → X[..., Y] [..., k] ([1, k] for a 1-D X) (ai.onnx.ml); f32, f64, int64, int32")
                        .lower((op, l) -> List.of(TypeAndIndexOps.gather(op, l, -1)))
                        .onnx(ARRAY_FEATURE_EXTRACTOR, 1, MlOps::importArrayFeatureExtractor).build(),
                OpDefinition.op(TREE_ENSEMBLE, 2, 2).outputs(1, 2)
                        .attrs(AttrSpec.integer("aggregate_function", 1, 0, 3), AttrSpec.integer("post_transform", 0, 0, 4), AttrSpec.integer("n_targets", 1, 1, AttrSpec.MAX_INT32),
                                AttrSpec.integer(TREE_NODES, 1, 1, AttrSpec.MAX_INT32), AttrSpec.integer(LEAF_ENTRIES, 0, 0, AttrSpec.MAX_INT32),
                                AttrSpec.integer(SET_VALUES, 0, 0, AttrSpec.MAX_INT32), AttrSpec.integer(TREES, 1, 1, AttrSpec.MAX_INT32),
                                AttrSpec.integer(BASE_VALUES, 0, 0, AttrSpec.MAX_INT32), AttrSpec.flag(CLASSIFIER), AttrSpec.flag(BINARY_CASE), AttrSpec.flag(ALL_POSITIVE))
                        .internal(TREE_NODES, LEAF_ENTRIES, SET_VALUES, TREES, BASE_VALUES, CLASSIFIER, BINARY_CASE, ALL_POSITIVE)
                        .shapes(MlOps::treeShapes).kernels(Kernels.TREE_ENSEMBLE)
                        .flops((a, in, out) -> org.arenaplan.ir.OpSpec.FlopRule.elements(out[0]) / Math.max(1, a.integer("n_targets")) * a.integer(TREES))
                        .doc("X [N, F] and an f64 tree table (a weight built at import) → scores [N, n_targets] (and, for a classifier, int64 labels [N]); "
                                + "ai.onnx.ml TreeEnsemble (5), TreeEnsembleRegressor, TreeEnsembleClassifier")
                        .lower(MlOps::lowerTrees)
                        .onnx(TREE_ENSEMBLE, 1, TreeEnsembleImport::treeEnsemble, V5_ATTRS)
                        .onnx("TreeEnsembleRegressor", 1, TreeEnsembleImport::regressor, concat(LEGACY_NODE_ATTRS, REGRESSOR_ATTRS))
                        .onnx("TreeEnsembleClassifier", 1, TreeEnsembleImport::classifier, concat(LEGACY_NODE_ATTRS, CLASSIFIER_ATTRS)).build());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** Scores [N, n_targets] ([1, n_targets] for a 1-D X) and, for a classifier, labels [N]. */
    static long[][] treeShapes(org.arenaplan.ir.OpAttrs a, long[][] in, int outputs) {
        long rows = in[0].length == 2 ? in[0][0] : 1;
        long[] scores = {rows, a.integer("n_targets")};
        return outputs == 2 ? new long[][]{scores, {rows}} : new long[][]{scores};
    }

    /** One {@link Kernels#TREE_ENSEMBLE} call (ints as documented there). */
    private static List<org.arenaplan.device.KernelCall> lowerTrees(org.arenaplan.ir.Op op, org.arenaplan.exec.OpLowering l) {
        String x = op.inputs().get(0), table = op.inputs().get(1), scores = op.outputs().get(0);
        org.arenaplan.ir.OpAttrs a = org.arenaplan.ir.OpAttrs.of(op);
        boolean classifier = a.integer(CLASSIFIER) == 1;
        if (!TREE_X.contains(l.dtype(x))) throw org.arenaplan.exec.OpLowering.fail(op, "X " + x + " is " + l.dtype(x).jsonName() + "; tree_ensemble reads f32, f64, f16, int64 or int32");
        if (!TREE_SCORES.contains(l.dtype(scores))) throw org.arenaplan.exec.OpLowering.fail(op, "scores " + scores + " are " + l.dtype(scores).jsonName() + "; tree_ensemble writes f32, f64 or f16");
        if (l.dtype(table) != DType.F64) throw org.arenaplan.exec.OpLowering.fail(op, "the tree table " + table + " must be f64");
        if (classifier != (op.outputs().size() == 2)) throw org.arenaplan.exec.OpLowering.fail(op, "a classifier writes scores and labels, a regressor scores only");
        if (classifier && l.dtype(op.outputs().get(1)) != DType.I64) throw org.arenaplan.exec.OpLowering.fail(op, "labels must be int64");
        long[] xs = l.shape(op, x);
        long rows = xs.length == 2 ? xs[0] : 1, features = xs[xs.length - 1];
        long[] ints = {rows, features, l.dtype(x).onnxCode(), l.dtype(scores).onnxCode(), a.integer(TREE_NODES), a.integer(LEAF_ENTRIES), a.integer(SET_VALUES),
                a.integer(TREES), a.integer("n_targets"), a.integer("aggregate_function"), a.integer("post_transform"), a.integer(CLASSIFIER),
                a.integer(BASE_VALUES), a.integer(BINARY_CASE), a.integer(ALL_POSITIVE)};
        List<org.arenaplan.device.KernelArg> args = new java.util.ArrayList<>(List.of(l.read(x), l.read(table), l.write(scores)));
        if (classifier) args.add(l.write(op.outputs().get(1)));
        return List.of(l.call(op, Kernels.TREE_ENSEMBLE, args, ints));
    }

    /**
     * Z's shape: X's with the last extent replaced by the index count, [1, k] for a 1-D X.
     *
     * @throws GraphException for a scalar X
     */
    static long[] featureShape(org.arenaplan.ir.OpAttrs a, long[][] in) {
        long[] x = in[0];
        if (x.length == 0) throw new GraphException("X " + Arrays.toString(x) + " is a scalar; ArrayFeatureExtractor selects along X's last axis");
        long k = org.arenaplan.ir.OpSpec.FlopRule.elements(in[1]);
        if (x.length == 1) return new long[]{1, k};
        long[] z = x.clone();
        z[z.length - 1] = k;
        return z;
    }

    /** The domain, {@code inputs} inputs, and X of a numeric type. */
    private static void requireMl(NodeContext n, int inputs) {
        n.require(n.node().domain().equals(DOMAIN), n.opType() + " is an operator of the " + DOMAIN + " domain, not of '" + n.node().domain() + "'");
        FamilyImports.requireInputs(n, inputs, inputs);
        Value x = n.input(0);
        n.require(NUMERIC.contains(x.dtype()), "input " + x + " is " + x.dtype().jsonName() + "; " + n.opType() + " takes f32, f64, int64 or int32");
    }

    private static Lowered importBinarizer(NodeContext n) {
        requireMl(n, 1);
        Value x = n.input(0);
        return NodeLowering.op(n, BINARIZER, List.of(x.name()), x.shape(), Map.of("threshold", n.real("threshold")), x.dtype());
    }

    private static Lowered importArrayFeatureExtractor(NodeContext n) {
        requireMl(n, 2);
        Value x = n.input(0), y = n.input(1);
        n.require(y.dtype() == DType.I64, "indices " + y + " are " + y.dtype().jsonName() + "; ArrayFeatureExtractor takes int64");
        long[] z = FamilyImports.shape(n, () -> featureShape(null, new long[][]{x.shape(), y.shape()}));
        return NodeLowering.op(n, ARRAY_FEATURE_EXTRACTOR, List.of(x.name(), y.name()), z, Map.of(), x.dtype());
    }
}
