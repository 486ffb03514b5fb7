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
 * </ul>
 * Refused in one line naming the node: another element type, ArrayFeatureExtractor's indices not
 * int64, a scalar X, and these op types in another domain.
 */
final class MlOps implements OpFamily {
    static final String BINARIZER = "Binarizer", ARRAY_FEATURE_EXTRACTOR = "ArrayFeatureExtractor";
    static final String DOMAIN = "ai.onnx.ml";
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
                        .onnx(ARRAY_FEATURE_EXTRACTOR, 1, MlOps::importArrayFeatureExtractor).build());
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
