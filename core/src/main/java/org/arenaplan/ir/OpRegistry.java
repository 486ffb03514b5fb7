package org.arenaplan.ir;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.arenaplan.ir.AttrSpec.MAX_INT32;
import static org.arenaplan.ir.AttrSpec.MAX_RANK;

/**
 * The one table of op kinds: per kind, its {@link OpSpec} (attributes, shape rule, aliasing it
 * allows, kernels). {@link GraphBuilder} checks every op of a known kind against its entry
 * ({@link OpChecks}); liveness refuses in-place hints its kernels cannot honour; the plan
 * validator rejects plans that rely on such declarations; the executors lower through it; the
 * simulator and the CUDA backend implement its kernel names. Adding an op is one entry here
 * plus its lowering ({@code exec.OpLowering}) and, for a new kernel, the kernel itself.
 *
 * <p>Kinds outside the table are opaque: planning takes their declarations on trust (a
 * planning-only graph may use any kind), the executors refuse them.
 *
 * <p>Kernel names (strings, so this pure package does not depend on device code) are those of
 * {@code org.arenaplan.device.Kernels}. In-place is allowed only where every kernel the kind
 * lowers to is one of {@code Kernels.IN_PLACE} (checked by a test).
 */
public final class OpRegistry {
    static final String UNARY = "unary", BINARY = "binary_broadcast", GEMM = "gemm", SOFTMAX = "softmax",
            BATCHNORM = "batchnorm", CONV2D = "conv2d", POOL2D = "pool2d", LRN = "lrn", TRANSPOSE = "transpose", COPY = "copy",
            CONCAT_SLICE = "concat_slice", CAST = "cast", GATHER = "gather", WHERE = "where", COMPARE = "compare";
    /** Training kernels: the simulator runs them, the CUDA fatbin does not have them ({@code Kernels.TRAINING}). */
    static final String GELU_GRAD = "gelu_grad", SOFTMAX_GRAD = "softmax_grad", LAYERNORM_GRAD = "layernorm_grad",
            CONV2D_BACKWARD_DATA = "conv2d_backward_data", CONV2D_BACKWARD_FILTER = "conv2d_backward_filter";

    private static final Map<String, OpSpec> SPECS = index(ReductionOps.entries(),
            op(OpKinds.MATMUL, 2, 2).shape(ShapeRules::matmul).kernels(GEMM)
                    .doc("A[..., M, K] x B[..., K, N], leading axes broadcast (numpy.matmul)"),
            op(OpKinds.GEMM, 2, 3).attrs(AttrSpec.flag("transA"), AttrSpec.flag("transB"), AttrSpec.real("alpha", 1.0), AttrSpec.real("beta", 1.0))
                    .shape(ShapeRules::gemm).kernels(GEMM)
                    .doc("Y = alpha * op(A) * op(B) + beta * C; C optional, broadcast to [M, N]"),
            elementwise(OpKinds.ADD), elementwise(OpKinds.SUB), elementwise(OpKinds.MUL), elementwise(OpKinds.DIV),
            op(OpKinds.SUM, 1, Integer.MAX_VALUE).shape(ShapeRules::broadcast).inPlace(0, 1).kernels(BINARY, COPY)
                    .doc("n-ary add, broadcasting; y = x0 + x1, then y += x2, ... (so only inputs 0 and 1 may be overwritten)"),
            unary(OpKinds.RELU), unary(OpKinds.SIGMOID), unary(OpKinds.TANH),
            unary(OpKinds.GELU).doc("exact (erf based)"),
            op(OpKinds.BATCH_NORM, 5, 5).attrs(AttrSpec.real("epsilon", 1e-5)).shape(ShapeRules::batchNorm).inPlace(0).kernels(BATCHNORM)
                    .doc("inference: inputs X, scale, B, mean, var"),
            op(OpKinds.CONV, 2, 3).attrs(convAttrs())
                    .shape(ShapeRules::conv).kernels(CONV2D)
                    .doc("inputs X, W, optional B; 1-D and 2-D images run (3-D is planned only)"),
            pool(OpKinds.MAX_POOL), pool(OpKinds.AVERAGE_POOL),
            op(OpKinds.GLOBAL_AVERAGE_POOL, 1, 1).shape(ShapeRules::globalPool).kernels(POOL2D).doc("mean over the spatial axes"),
            op(OpKinds.LRN, 1, 1).attrs(AttrSpec.requiredInteger("size", 1, MAX_INT32), AttrSpec.real("alpha", 1e-4), AttrSpec.real("beta", 0.75),
                    AttrSpec.real("bias", 1.0)).shape(ShapeRules::sameAsFirst).kernels(LRN).doc("across channels"),
            op(OpKinds.CONCAT, 1, Integer.MAX_VALUE).attrs(AttrSpec.axis("axis", 0)).shape(ShapeRules::concat).members().kernels(CONCAT_SLICE)
                    .doc("inputs may be member slices of the output when every extent before axis is 1; then it does no work"),
            op(OpKinds.TRANSPOSE, 1, 1).attrs(AttrSpec.ints("perm", 0, MAX_RANK - 1, "the axes reversed")).shape(ShapeRules::transpose).kernels(TRANSPOSE)
                    .doc("perm defaults to the reversed axes"),
            op(OpKinds.SPLIT, 1, 1).outputs(Integer.MAX_VALUE).attrs(AttrSpec.axis("axis", 0), AttrSpec.ints("split", 0, Long.MAX_VALUE, "equal parts"))
                    .shapes(ShapeRules::split).view(OpSpec.ViewRule.SPLIT).kernels(TRANSPOSE)
                    .doc("one strided copy per output; outputs may be views of the input where every extent before axis is 1"),
            op(OpKinds.COPY, 1, 1).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(COPY).doc("a device-to-device copy"),
            op(OpKinds.RELU_GRAD, 2, 2).shape(ShapeRules::sameShapes).inPlace(0, 1).kernels(BINARY)
                    .doc("inputs dY, X: dX = dY where X > 0, else 0"),
            op(OpKinds.CAST, 1, 1).attrs(AttrSpec.requiredInteger("to", 1, 16)).shape(ShapeRules::sameAsFirst).kernels(CAST)
                    .doc("to: the output's ONNX TensorProto.DataType; any type to any type by DType.cast"),
            op(OpKinds.WHERE, 3, 3).shape(ShapeRules::broadcast).kernels(WHERE)
                    .doc("condition (bool) ? X : Y, broadcast over all three; X, Y of any one type"),
            op(OpKinds.EQUAL, 2, 2).shape(ShapeRules::broadcast).kernels(COMPARE).doc("A == B as bool, broadcasting; any one type"),
            op(OpKinds.GATHER, 2, 2).attrs(AttrSpec.axis("axis", 0)).shape(ShapeRules::gather).kernels(GATHER)
                    .doc("data[:axis] + indices + data[axis+1:]; int64 or int32 indices, negative ones from the end"),
            op(OpKinds.GELU_GRAD, 2, 2).shape(ShapeRules::sameShapes).inPlace(0, 1).kernels(GELU_GRAD)
                    .doc("inputs dY, X: dX = dY * Gelu'(X); training kernel"),
            op(OpKinds.SOFTMAX_GRAD, 2, 2).attrs(AttrSpec.axis("axis", -1)).shape(ShapeRules::sameShapes).inPlace(0, 1).kernels(SOFTMAX_GRAD)
                    .doc("inputs dY, Y (Softmax's output): dX = Y * (dY - sum(dY * Y)) over the axes from axis on; training kernel"),
            op(OpKinds.LAYER_NORM_GRAD, 3, 3).attrs(AttrSpec.axis("axis", -1), AttrSpec.real("epsilon", 1e-5)).shape(ShapeRules::sameAsFirst)
                    .kernels(LAYERNORM_GRAD).doc("inputs dY, X, scale: the gradient of LayerNormalization's X; training kernel"),
            op(OpKinds.CONV_BACKWARD_DATA, 2, 2).attrs(convAttrs(AttrSpec.ints("input_shape", 1, Long.MAX_VALUE, "required: the forward X's shape")))
                    .shape(ShapeRules::convBackwardData).kernels(CONV2D_BACKWARD_DATA)
                    .doc("inputs dY, W: the gradient of Conv's X (group 1 runs); training kernel"),
            op(OpKinds.CONV_BACKWARD_FILTER, 2, 2).attrs(convAttrs())
                    .shape(ShapeRules::convBackwardFilter).kernels(CONV2D_BACKWARD_FILTER)
                    .doc("inputs X, dY: the gradient of Conv's W (kernel_shape required; group 1 runs); training kernel"),
            view(OpKinds.RESHAPE), view(OpKinds.FLATTEN), view(OpKinds.IDENTITY), view(OpKinds.DROPOUT).doc("inference: the identity"),
            view(OpKinds.SQUEEZE), view(OpKinds.UNSQUEEZE),
            op(OpKinds.SLICE, 1, 1).view(OpSpec.ViewRule.LEADING_SLICE).kernels(COPY)
                    .doc("whole rows along the leading axis; as a view it issues no work"));

    private OpRegistry() { }

    /** The entry of {@code kind}, or null for a kind outside the registry. */
    public static OpSpec get(String kind) {
        return SPECS.get(kind);
    }

    public static boolean knows(String kind) {
        return SPECS.containsKey(kind);
    }

    /** Every entry, in the table's order. */
    public static Collection<OpSpec> all() {
        return SPECS.values();
    }

    /** Kinds whose output may be declared a view of their input. */
    public static Set<String> viewKinds() {
        Set<String> s = new java.util.LinkedHashSet<>();
        for (OpSpec o : SPECS.values()) if (o.mayBeView()) s.add(o.kind());
        return Collections.unmodifiableSet(s);
    }

    /** Every kernel name some entry lowers to. */
    public static Set<String> kernels() {
        Set<String> s = new java.util.TreeSet<>();
        for (OpSpec o : SPECS.values()) s.addAll(o.kernels());
        return Collections.unmodifiableSet(s);
    }

    // ---- the table's vocabulary ----

    private static E elementwise(String kind) {
        return op(kind, 2, 2).shape(ShapeRules::broadcast).inPlace(0, 1).kernels(BINARY)
                .doc("numpy broadcasting; in place only over an input of the output's shape");
    }

    private static E unary(String kind) {
        return op(kind, 1, 1).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(UNARY);
    }

    private static E pool(String kind) {
        return op(kind, 1, 1).attrs(AttrSpec.perAxis("kernel_shape", true, 1, 1, 1), strides(), pads(), AttrSpec.flag("ceil_mode"),
                AttrSpec.flag("count_include_pad")).shape(ShapeRules::pool).kernels(POOL2D).doc("1-D and 2-D images");
    }

    private static E view(String kind) {
        return op(kind, 1, 1).view(OpSpec.ViewRule.WHOLE).inPlace(0).kernels(COPY)
                .doc("same elements, new shape; as a view it issues no work, otherwise a copy");
    }

    /** Conv's attributes (and its gradients'), plus {@code more}. */
    private static AttrSpec[] convAttrs(AttrSpec... more) {
        List<AttrSpec> a = new ArrayList<>(List.of(AttrSpec.perAxis("kernel_shape", 1, "the weight's extents"), strides(), pads(),
                AttrSpec.perAxis("dilations", false, 1, 1, 1), AttrSpec.integer("group", 1, 1, MAX_INT32)));
        a.addAll(List.of(more));
        return a.toArray(new AttrSpec[0]);
    }

    private static AttrSpec strides() {
        return AttrSpec.perAxis("strides", false, 1, 1, 1);
    }

    private static AttrSpec pads() {
        return AttrSpec.perAxis("pads", false, 0, 2, 0);
    }

    static E op(String kind, int minInputs, int maxInputs) {
        return new E(kind, minInputs, maxInputs);
    }

    /** The table: the entries of the op families in other files ({@code more}), then {@code entries}. */
    private static Map<String, OpSpec> index(List<E> more, E... entries) {
        Map<String, OpSpec> m = new LinkedHashMap<>();
        List<E> all = new ArrayList<>(List.of(entries));
        all.addAll(more);
        for (E e : all) {
            OpSpec s = e.spec();
            if (m.put(s.kind(), s) != null) throw new IllegalStateException("op kind " + s.kind() + " registered twice");
        }
        return Collections.unmodifiableMap(m);
    }

    /** The shape rule of a kind with one output. */
    @FunctionalInterface
    interface OneShape {
        long[] infer(OpAttrs attrs, long[][] inputs);
    }

    /** Fluent construction of one entry. */
    static final class E {
        private final String kind;
        private final int minInputs, maxInputs;
        private int maxOutputs = 1;
        private final List<AttrSpec> attrs = new ArrayList<>();
        private OpSpec.ShapeRule shape;
        private OpSpec.ViewRule view = OpSpec.ViewRule.NONE;
        private final List<Integer> inPlace = new ArrayList<>();
        private boolean members;
        private final List<String> kernels = new ArrayList<>();
        private String doc = "";

        E(String kind, int minInputs, int maxInputs) {
            this.kind = kind;
            this.minInputs = minInputs;
            this.maxInputs = maxInputs;
        }

        E attrs(AttrSpec... a) { attrs.addAll(List.of(a)); return this; }

        /** A kind with one output: its shape. */
        E shape(OneShape r) { shape = (a, in, n) -> new long[][]{r.infer(a, in)}; return this; }

        E shapes(OpSpec.ShapeRule r) { shape = r; return this; }

        E outputs(int max) { maxOutputs = max; return this; }

        E view(OpSpec.ViewRule v) { view = v; return this; }

        E inPlace(Integer... inputs) { inPlace.addAll(List.of(inputs)); return this; }

        E members() { members = true; return this; }

        E kernels(String... k) { kernels.addAll(List.of(k)); return this; }

        E doc(String d) { doc = doc.isEmpty() ? d : doc + "; " + d; return this; }

        OpSpec spec() {
            return new OpSpec(kind, minInputs, maxInputs, maxOutputs, attrs, shape, view, Set.copyOf(inPlace), members, kernels, doc);
        }
    }
}
