package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.OptionalOutputs;
import org.arenaplan.onnx.Value;
import org.arenaplan.train.Backward;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.ir.AttrSpec.MAX_INT32;
import static org.arenaplan.ir.AttrSpec.MAX_RANK;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * BatchNormalization (inference, and training mode as {@value #BATCH_NORM_TRAINING}), LRN,
 * LayerNormalization (f32, f16, f64), InstanceNormalization, GroupNormalization, RMSNormalization,
 * MeanVarianceNormalization and LpNormalization (f32; Group, RMS and Lp also f64), after the ONNX operator specifications. All but inference
 * BatchNormalization and LRN run {@link Kernels#NORMALIZE}: statistics in double, in index order.
 * ONNX version differences (Changelog.md): BatchNormalization gains {@code training_mode} at 14
 * (BatchNormalization-14/15: with 1, Y is normalised by the batch's own mean and biased variance
 * over every axis but 1, and the optional outputs running_mean and running_var are
 * {@code input * momentum + batch statistic * (1 - momentum)}, as onnx/reference/ops/
 * op_batch_normalization.py); before 14 the training outputs (mean, var, saved_mean, saved_var of
 * BatchNormalization-9) are not produced and reading one is an error; {@code spatial} and
 * {@code momentum} are accepted and ignored at inference; LayerNormalization exists from 17
 * (stash_type 1 only: statistics in double, stored as f32); GroupNormalization's scale and bias
 * are per group at 18..20 and per channel from 21 (which adds stash_type);
 * MeanVarianceNormalization's axes default to [0, 2, 3]; version 22 of InstanceNormalization and
 * LpNormalization adds bfloat16 only. LpNormalization of an all-zero group is 0, not 0/0 (as
 * onnx/reference/ops/op_lp_normalization.py and test_l2normalization_axis_0).
 */
final class NormalizationOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String INSTANCE_NORM = "InstanceNormalization", GROUP_NORM = "GroupNormalization", MEAN_VARIANCE_NORM = "MeanVarianceNormalization",
            LP_NORM = "LpNormalization", RMS_NORM = "RMSNormalization";
    /** ONNX BatchNormalization with training_mode = 1 (opset 14 on): arenaplan's own kind, as it is never in place and has three outputs. */
    static final String BATCH_NORM_TRAINING = "BatchNormalizationTraining";
    /**
     * The types of the normalize kinds that ONNX Runtime 1.30's CPU provider also runs in double
     * (RMSNormalization-23, GroupNormalization-18, LpNormalization; checked with its Python API):
     * f64 computes as the f32 kernel does, in double. InstanceNormalization and
     * MeanVarianceNormalization stay f32 (ORT has no double kernel for them to check against).
     */
    private static final DType[] F32_F64 = {DType.F32, DType.F64};

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.BATCH_NORM, 5, 5).attrs(AttrSpec.real("epsilon", 1e-5)).shape(ShapeRules::batchNorm).inPlace(0).kernels(Kernels.BATCHNORM)
                        .doc("inference: inputs X, scale, B, mean, var")
                        .lowerF32((op, l) -> List.of(batchNorm(op, l))).gradient(NormalizationOps::batchNormGradient).onnx(NormalizationOps::importBatchNorm, "momentum", "spatial", "training_mode").build(),
                // Not in place: Y's every element depends on its whole channel of X (the statistics), and batchnorm_running reads X too.
                OpDefinition.op(BATCH_NORM_TRAINING, 5, 5).outputs(1, 3).attrs(AttrSpec.real("epsilon", 1e-5), AttrSpec.real("momentum", 0.9))
                        .shapes(NormalizationOps::batchNormTrainingShapes).kernels(Kernels.BATCHNORM_RUNNING, Kernels.NORMALIZE)
                        .doc("ONNX BatchNormalization with training_mode 1: inputs X [N, C, ...], scale, B, input_mean, input_var [C]; outputs Y "
                                + "(normalised by the batch's mean and biased variance over every axis but 1), optional running_mean and running_var "
                                + "[C] = input * momentum + batch statistic * (1 - momentum)")
                        .lowerF32(NormalizationOps::batchNormTraining).build(),
                OpDefinition.op(OpKinds.LRN, 1, 1).attrs(AttrSpec.requiredInteger("size", 1, MAX_INT32), AttrSpec.real("alpha", 1e-4), AttrSpec.real("beta", 0.75),
                        AttrSpec.real("bias", 1.0)).shape(ShapeRules::sameAsFirst).kernels(Kernels.LRN).doc("across channels")
                        .flops((a, in, out) -> OpSpec.FlopRule.elements(out[0]) * a.integer("size"))
                        .lowerF32((op, l) -> List.of(lrn(op, l))).onnx(NormalizationOps::importLrn).build(),
                OpDefinition.op(OpKinds.LAYER_NORM, 2, 3).outputs(1, 3).attrs(AttrSpec.axis("axis", -1), AttrSpec.real("epsilon", 1e-5))
                        .shapes(NormalizationOps::layerNormShapes).kernels(Kernels.NORMALIZE).flops((a, in, out) -> 5 * OpSpec.FlopRule.elements(out[0]))
                        .doc("inputs X, scale, optional bias (each broadcast to X's axes from axis on); outputs Y, optional Mean and InvStdDev "
                                + "(X's shape with 1s from axis on); y = (x - mean) / sqrt(var + epsilon) * scale + bias over the axes from axis on")
                        .computes(LinearAlgebraOps.FLOATS).lower((op, l) -> List.of(layerNorm(op, l))).gradient(NormalizationOps::layerNormGradient).onnx("LayerNormalization", 17, NormalizationOps::importLayerNorm, "stash_type").build(),
                OpDefinition.op(RMS_NORM, 2, 2).attrs(AttrSpec.axis("axis", -1), AttrSpec.real("epsilon", 1e-5))
                        .shape((a, in) -> layerNormShapes(a, in, 1)[0]).kernels(Kernels.NORMALIZE).flops((a, in, out) -> 4 * OpSpec.FlopRule.elements(out[0]))
                        .doc("inputs X, scale (broadcast to X's axes from axis on); y = x / sqrt(mean(x^2) + epsilon) * scale, the mean over the axes from axis on")
                        .computes(F32_F64).lowerTyped((op, l) -> List.of(rmsNorm(op, l))).onnx(RMS_NORM, 23, NormalizationOps::importRmsNorm, "stash_type").build(),
                OpDefinition.op(INSTANCE_NORM, 3, 3).attrs(AttrSpec.real("epsilon", 1e-5)).shape(NormalizationOps::instanceNormShape)
                        .kernels(Kernels.NORMALIZE).doc("inputs X [N, C, spatial...], scale [C], B [C]: each (n, c) normalised over its spatial axes")
                        .lowerF32((op, l) -> List.of(groupNorm(op, l, false))).onnx(n -> importGroupNorm(n, INSTANCE_NORM)).build(),
                OpDefinition.op(GROUP_NORM, 3, 3).attrs(AttrSpec.requiredInteger("num_groups", 1, MAX_INT32), AttrSpec.real("epsilon", 1e-5))
                        .shape(NormalizationOps::groupNormShape).kernels(Kernels.NORMALIZE)
                        .doc("inputs X [N, C, spatial...], scale and bias [C] (per channel, ONNX 21) or [num_groups] (per group, ONNX 18): "
                                + "each (n, group) normalised over its C/num_groups channels and the spatial axes")
                        .computes(F32_F64).lowerTyped((op, l) -> List.of(groupNorm(op, l, true))).onnx("GroupNormalization", 18, n -> importGroupNorm(n, GROUP_NORM), "stash_type")
                        .build(),
                OpDefinition.op(MEAN_VARIANCE_NORM, 1, 1).attrs(AttrSpec.ints("axes", -MAX_RANK, MAX_RANK - 1, "[0, 2, 3]"))
                        .shape(ReductionOps::sameShape).kernels(Kernels.NORMALIZE).doc("(x - mean) / (sqrt(var) + 1e-9) over axes")
                        .lowerF32((op, l) -> List.of(overAxes(op, l, Kernels.N_MVN, mvnAxes(op), 1e-9))).onnx(NormalizationOps::importMvn).build(),
                OpDefinition.op(LP_NORM, 1, 1).attrs(AttrSpec.axis("axis", -1), AttrSpec.integer("p", 2, 1, 2))
                        .shape(ReductionOps::sameShape).kernels(Kernels.NORMALIZE).doc("x / (the L1 or L2 norm along axis)")
                        .computes(F32_F64).lowerTyped((op, l) -> List.of(overAxes(op, l, OpAttrs.of(op).integer("p") == 1 ? Kernels.N_L1 : Kernels.N_L2,
                                new long[]{OpAttrs.of(op).integer("axis")}, 0))).onnx(NormalizationOps::importLpNorm).build());
    }

    /** The most dims (kept plus reduced, after merging) a normalize call may carry: CUDA takes 40 ints. */
    static final int MAX_NORMALIZE_DIMS = 8;

    // ---- shape rules ----

    static long[][] layerNormShapes(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0];
        int axis = ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        long[] normalized = Arrays.copyOfRange(x, axis, x.length);
        for (int j = 1; j < in.length; j++) {
            if (in[j].length > normalized.length || !Arrays.equals(ShapeRules.broadcast(normalized, in[j]), normalized))
                throw new GraphException((j == 1 ? "scale " : "bias ") + Arrays.toString(in[j]) + " does not broadcast to the normalised axes "
                        + Arrays.toString(normalized));
        }
        long[] stats = x.clone();
        Arrays.fill(stats, axis, stats.length, 1);
        long[][] out = new long[outputs][];
        out[0] = x.clone();
        for (int k = 1; k < outputs; k++) out[k] = stats.clone();
        return out;
    }

    /** Y as X; running_mean and running_var [C]. */
    static long[][] batchNormTrainingShapes(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = ShapeRules.batchNorm(attrs, in);
        long[][] out = new long[outputs][];
        out[0] = x;
        for (int k = 1; k < outputs; k++) out[k] = new long[]{x[1]};
        return out;
    }

    /** X [N, C, spatial...] (rank 3 or more). */
    private static void image(long[] x) {
        if (x.length < 3) throw new GraphException("input " + Arrays.toString(x) + " must be N x C x spatial axes");
    }

    static long[] instanceNormShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        image(x);
        for (int j = 1; j < 3; j++)
            if (in[j].length != 1 || in[j][0] != x[1]) throw new GraphException("input #" + j + " " + Arrays.toString(in[j]) + " must be [" + x[1] + "]");
        return x.clone();
    }

    static long[] groupNormShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        image(x);
        long g = attrs.integer("num_groups");
        if (x[1] % g != 0) throw new GraphException("num_groups " + g + " does not divide the " + x[1] + " channels of " + Arrays.toString(x));
        for (int j = 1; j < 3; j++)
            if (in[j].length != 1 || (in[j][0] != x[1] && in[j][0] != g))
                throw new GraphException("input #" + j + " " + Arrays.toString(in[j]) + " must be [" + x[1] + "] (per channel) or [" + g + "] (per group)");
        if (in[1][0] != in[2][0]) throw new GraphException("scale " + Arrays.toString(in[1]) + " and bias " + Arrays.toString(in[2]) + " must have one shape");
        return x.clone();
    }

    // ---- lowering to normalize ----

    /** LayerNormalization: the axes from axis on reduced, scale and bias broadcast over them; Mean and InvStdDev where listed. */
    /**
     * LayerNormalization: X, scale, bias and Y of one declared type (f32 or f16: computed as the
     * f32 kernel on widened values, statistics in double, Y rounded once, ONNX Runtime's CPU rule
     * for float16, {@code Kernels.typeInt}; f64: the same arithmetic, Y stored in double, as ONNX
     * Runtime's CPU provider runs LayerNormalization-17 in double); Mean and InvStdDev f32 (stash_type 1).
     */
    private static KernelCall layerNorm(Op op, OpLowering l) {
        for (String t : op.inputs()) l.requireComputed(op, t);
        l.requireComputed(op, op.outputs().get(0));
        for (String t : op.outputs().subList(1, op.outputs().size())) l.requireF32(op, t);
        return normalize(op, l, Kernels.N_STANDARDIZE, fromAxisWalk(op, l, true), op.inputs().size() > 1, op.inputs().size() > 2,
                OpAttrs.of(op).real("epsilon"), op.outputs().size() - 1);
    }

    /**
     * The walk of LayerNormalization and RMSNormalization: the axes from {@code axis} on reduced,
     * the scale (input 1) and, with {@code bias}, the bias (input 2) broadcast over them.
     */
    private static StridedWalk fromAxisWalk(Op op, OpLowering l, boolean bias) {
        long[] xs = l.shape(op, op.inputs().get(0));
        int a = ReductionOps.axis(op, OpAttrs.of(op).integer("axis"), xs.length);
        boolean[] reduce = new boolean[xs.length];
        Arrays.fill(reduce, a, xs.length, true);
        long[] normalized = Arrays.copyOfRange(xs, a, xs.length);
        long[][] strides = {StridedWalk.contiguous(xs), scaleStrides(op, l, 1, normalized, a), bias ? scaleStrides(op, l, 2, normalized, a) : new long[xs.length]};
        return new StridedWalk(xs, reduce, strides);
    }

    /** RMSNormalization: as LayerNormalization's walk, mode {@link Kernels#N_RMS}, no bias, no statistics outputs. */
    private static KernelCall rmsNorm(Op op, OpLowering l) {
        return normalize(op, l, Kernels.N_RMS, fromAxisWalk(op, l, false), true, false, OpAttrs.of(op).real("epsilon"), 0);
    }

    /** Strides of input j (scale or bias) broadcast over the normalised axes, 0 over the axes before them; zeros when absent. */
    private static long[] scaleStrides(Op op, OpLowering l, int j, long[] normalized, int before) {
        long[] s = new long[before + normalized.length];
        if (op.inputs().size() <= j) return s;
        long[] b = StridedWalk.broadcast(l.shape(op, op.inputs().get(j)), normalized);
        System.arraycopy(b, 0, s, before, b.length);
        return s;
    }

    /**
     * InstanceNormalization (groups of one channel) and GroupNormalization: X [N, C, spatial...]
     * walked as [N, G, C/G, spatial], N and G kept; scale and bias per channel ([C]) or per group ([G]).
     * {@code grouped}: G is attribute num_groups (GroupNormalization), else C (InstanceNormalization).
     */
    private static KernelCall groupNorm(Op op, OpLowering l, boolean grouped) {
        String x = op.inputs().get(0);
        long[] xs = l.shape(op, x);
        if (xs.length < 3) throw fail(op, "input '" + x + "' " + Arrays.toString(xs) + " must be N x C x spatial axes");
        long c = xs[1], g = grouped ? OpAttrs.of(op).integer("num_groups") : c;
        if (c % g != 0) throw fail(op, "num_groups " + g + " does not divide the " + c + " channels");
        long spatial = product(Arrays.copyOfRange(xs, 2, xs.length));
        boolean perChannel = l.elements(op.inputs().get(1)) == c;
        for (int j = 1; j < 3; j++) {
            long n = l.elements(op.inputs().get(j));
            if (n != (perChannel ? c : g)) throw fail(op, "'" + op.inputs().get(j) + "' must have " + (perChannel ? c : g) + " values, has " + n);
        }
        long[] shape = {xs[0], g, c / g, spatial};
        long[] xStrides = {c * spatial, c / g * spatial, spatial, 1};
        long[] scale = perChannel ? new long[]{0, c / g, 1, 0} : new long[]{0, 1, 0, 0};
        StridedWalk walk = new StridedWalk(shape, new boolean[]{false, false, true, true}, xStrides, scale, scale);
        return normalize(op, l, Kernels.N_STANDARDIZE, walk, true, true, OpAttrs.of(op).real("epsilon"), 0);
    }

    private static long[] mvnAxes(Op op) {
        long[] a = OpAttrs.of(op).intsOrNull("axes");
        return a == null ? new long[]{0, 2, 3} : a;
    }

    /** MeanVarianceNormalization and LpNormalization: the listed axes reduced, no scale or bias. */
    private static KernelCall overAxes(Op op, OpLowering l, int mode, long[] axes, double epsilon) {
        long[] xs = l.shape(op, op.inputs().get(0));
        boolean[] reduce = new boolean[xs.length];
        for (long a : axes) reduce[ReductionOps.axis(op, a, xs.length)] = true;
        long[] zero = new long[xs.length];
        return normalize(op, l, mode, new StridedWalk(xs, reduce, StridedWalk.contiguous(xs), zero, zero), false, false, epsilon, 0);
    }

    /** One normalize call writing output 0 and, when {@code stats} is 1 or 2, outputs 1 (Mean) and 2 (InvStdDev). */
    private static KernelCall normalize(Op op, OpLowering l, int mode, StridedWalk walk, boolean scale, boolean bias, double epsilon, int stats) {
        int k = walk.keptDims(), r = walk.reducedDims();
        if (k + r > MAX_NORMALIZE_DIMS) throw fail(op, "the input has " + (k + r) + " dims to walk after merging; the normalize kernel takes at most " + MAX_NORMALIZE_DIMS);
        boolean mean = stats >= 1, invStd = stats >= 2;
        List<Long> ints = new ArrayList<>(List.of((long) mode, scale ? 1L : 0L, bias ? 1L : 0L, mean ? 1L : 0L, invStd ? 1L : 0L, (long) k, (long) r));
        walk.appendKept(ints);
        walk.appendReduced(ints);
        List<KernelArg> args = new ArrayList<>(List.of(l.read(op.inputs().get(0))));
        if (scale) args.add(l.read(op.inputs().get(1)));
        if (bias) args.add(l.read(op.inputs().get(2)));
        args.add(l.write(op.outputs().get(0)));
        for (int j = 1; j <= stats; j++) {
            if (l.elements(op.outputs().get(j)) != walk.keptCount()) throw fail(op, "output '" + op.outputs().get(j) + "' must have " + walk.keptCount() + " values");
            args.add(l.write(op.outputs().get(j)));
        }
        return l.call(op, Kernels.NORMALIZE, args, Kernels.withType(Kernels.NORMALIZE, StridedWalk.longs(ints), l.computeType(op).onnxCode()), new double[]{epsilon});
    }

    // ---- lowering ----

    private static KernelCall batchNorm(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] s = l.shape(op, x);
        if (s.length < 2) throw fail(op, "BatchNormalization needs rank 2 or more, got " + Arrays.toString(s));
        List<KernelArg> args = new ArrayList<>();
        for (String t : op.inputs()) args.add(l.read(t));
        args.add(l.write(out(op)));
        if (args.size() != 6) throw fail(op, "BatchNormalization takes X, scale, B, mean, var");
        return l.call(op, Kernels.BATCHNORM, args, new long[]{s[0], s[1], product(Arrays.copyOfRange(s, 2, s.length))},
                new double[]{OpAttrs.of(op).real("epsilon")});
    }

    /**
     * Training-mode BatchNormalization: {@link Kernels#BATCHNORM_RUNNING} for running_mean and
     * running_var when listed (it computes the batch statistics itself), then
     * {@link Kernels#NORMALIZE} for Y over X walked as [N, C, spatial] with C kept (scale and B per
     * channel). Both read all of X, each in one thread per channel: two passes over X for the
     * statistics, one more to write Y.
     */
    private static List<KernelCall> batchNormTraining(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] s = l.shape(op, x);
        if (s.length < 2) throw fail(op, "BatchNormalization needs rank 2 or more, got " + Arrays.toString(s));
        for (int j = 1; j < 5; j++)
            if (l.elements(op.inputs().get(j)) != s[1]) throw fail(op, "'" + op.inputs().get(j) + "' must have " + s[1] + " values, one per channel");
        long n = s[0], c = s[1], spatial = product(Arrays.copyOfRange(s, 2, s.length));
        List<KernelCall> calls = new ArrayList<>();
        if (op.outputs().size() > 1) {
            List<KernelArg> args = new ArrayList<>(List.of(l.read(x), l.read(op.inputs().get(3)), l.read(op.inputs().get(4))));
            for (int j = 1; j < op.outputs().size(); j++) args.add(l.write(op.outputs().get(j)));
            calls.add(l.call(op, Kernels.BATCHNORM_RUNNING, args, new long[]{n, c, spatial}, new double[]{OpAttrs.of(op).real("momentum")}));
        }
        long[] walkShape = {n, c, spatial};
        long[] perChannel = {0, 1, 0};
        StridedWalk walk = new StridedWalk(walkShape, new boolean[]{true, false, true}, new long[]{c * spatial, spatial, 1}, perChannel, perChannel);
        calls.add(normalize(op, l, Kernels.N_STANDARDIZE, walk, true, true, OpAttrs.of(op).real("epsilon"), 0));
        return calls;
    }

    private static KernelCall lrn(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] s = l.shape(op, x);
        return l.call(op, Kernels.LRN, List.of(l.read(x), l.write(out(op))),
                new long[]{s[0], s[1], product(Arrays.copyOfRange(s, 2, s.length)), OpAttrs.of(op).integer("size")},
                new double[]{OpAttrs.of(op).real("alpha"), OpAttrs.of(op).real("beta"), OpAttrs.of(op).real("bias")});
    }

    // ---- ONNX ----

    private static void requireStashFloat(NodeContext n) {
        long stash = n.integer("stash_type", 1);
        n.require(stash == 1, "stash_type " + stash + " is not supported (only 1, float; statistics are computed in double)");
    }

    /** The names of the first {@code count} inputs present, each of a type the node's kind computes ({@code OpSpec.computes}). */
    private static List<String> computedInputs(NodeContext n, int count) {
        List<String> in = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!n.hasInput(i)) continue;
            FamilyImports.requireComputed(n, n.input(i));
            in.add(n.input(i).name());
        }
        return in;
    }

    private static Lowered importLayerNorm(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 3);
        Value x = n.input(0);
        requireStashFloat(n);
        int axis = normalizedFrom(n, x);
        List<Value> outs = new ArrayList<>(List.of(new Value(FamilyImports.outputName(n, 0), x.dtype(), x.shape())));
        long[] stats = x.shape();
        Arrays.fill(stats, axis, stats.length, 1);
        int last = FamilyImports.hasOutput(n, 2) ? 2 : FamilyImports.hasOutput(n, 1) ? 1 : 0;
        for (int k = 1; k <= last; k++) outs.add(new Value(FamilyImports.outputName(n, k), DType.F32, stats));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("epsilon", n.real("epsilon"));
        n.require(FamilyImports.hasOutput(n, 0), "has no output Y");
        List<String> in = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            if (!n.hasInput(i)) continue;
            FamilyImports.requireComputed(n, n.input(i));
            n.require(n.input(i).dtype() == x.dtype(), "scale and bias " + n.input(i) + " must have X's type " + x.dtype().jsonName());
            in.add(n.input(i).name());
        }
        return new Lowered(OpKinds.LAYER_NORM, in, outs, attrs, false, List.of());
    }

    /**
     * The first normalised axis of LayerNormalization and RMSNormalization (attribute {@code axis},
     * default -1; the axes from it on are normalised), after checking that the scale (input 1)
     * and the bias (input 2, where given) broadcast to those axes.
     */
    private static int normalizedFrom(NodeContext n, Value x) {
        int axis = n.axis(n.integer("axis", -1), x.rank(), "axis");
        long[] normalized = Arrays.copyOfRange(x.shape(), axis, x.rank());
        for (int j = 1; j < 3; j++) {
            if (!n.hasInput(j)) continue;
            long[] s = n.input(j).shape();
            n.require(s.length <= normalized.length && Arrays.equals(NodeLowering.broadcast(n, normalized, s), normalized),
                    (j == 1 ? "scale " : "bias ") + n.input(j) + " does not broadcast to the normalised axes " + Arrays.toString(normalized));
        }
        return axis;
    }

    /** RMSNormalization-23: X and scale f32 (stash_type 1), scale broadcast to the axes from axis on. */
    private static Lowered importRmsNorm(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 2);
        Value x = n.input(0);
        requireStashFloat(n);
        int axis = normalizedFrom(n, x);
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("epsilon", n.real("epsilon"));
        return NodeLowering.op(n, RMS_NORM, computedInputs(n, 2), x.shape(), attrs, x.dtype());
    }

    private static Lowered importGroupNorm(NodeContext n, String kind) {
        FamilyImports.requireInputs(n, 3, 3);
        Value x = n.input(0);
        n.require(x.rank() >= 3, "input " + x + " must be N x C x spatial axes");
        long c = x.dim(1);
        Map<String, Object> attrs = new LinkedHashMap<>();
        long per = c;
        if (kind.equals(GROUP_NORM)) {
            n.require(n.hasAttr("num_groups"), "attribute 'num_groups' is required");
            requireStashFloat(n);
            // GroupNormalization-21's function body casts X to stash_type (float) before the statistics; 18..20 compute in X's type
            n.require(n.opset() < 21 || x.dtype() != DType.F64, "input " + x + " is f64; GroupNormalization from opset 21 computes it in f32 "
                    + "(stash_type 1: the function body casts X to float first) and arenaplan computes f64 in double only (opset 18..20 compute in f64)");
            long g = n.integer("num_groups", 0);
            n.require(g >= 1 && c % g == 0, "num_groups " + g + " must divide the " + c + " channels of " + x);
            attrs.put("num_groups", g);
            per = n.opset() >= 21 ? c : g;        // GroupNormalization-18: scale and bias per group; -21: per channel
        }
        for (int j = 1; j < 3; j++)
            n.require(n.input(j).rank() == 1 && n.input(j).dim(0) == per, "input " + n.input(j) + " must be [" + per + "]"
                    + (kind.equals(GROUP_NORM) ? (n.opset() >= 21 ? " (per channel from opset 21)" : " (per group before opset 21)") : ""));
        attrs.put("epsilon", n.real("epsilon"));
        return NodeLowering.op(n, kind, computedInputs(n, 3), x.shape(), attrs, x.dtype());
    }

    private static Lowered importMvn(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 1);
        Value x = n.input(0);
        long[] axes = n.ints("axes", new long[]{0, 2, 3});
        long[] resolved = new long[axes.length];
        boolean[] seen = new boolean[x.rank()];
        for (int i = 0; i < axes.length; i++) {
            int a = n.axis(axes[i], x.rank(), "axis");
            n.require(!seen[a], "axes " + Arrays.toString(axes) + " name axis " + a + " twice");
            seen[a] = true;
            resolved[i] = a;
        }
        return NodeLowering.op(n, MEAN_VARIANCE_NORM, computedInputs(n, 1), x.shape(), Map.of("axes", resolved), x.dtype());
    }

    private static Lowered importLpNorm(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 1);
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        int axis = n.axis(n.integer("axis", -1), x.rank(), "axis");
        long p = n.integer("p", 2);   // 1 or 2: the registry's range
        return NodeLowering.op(n, LP_NORM, computedInputs(n, 1), x.shape(), Map.of("axis", (long) axis, "p", p), x.dtype());
    }

    private static Lowered importLrn(NodeContext n) {
        n.require(n.hasAttr("size"), "attribute 'size' is required");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("size", n.integer("size", 0));
        attrs.put("alpha", n.real("alpha"));
        attrs.put("beta", n.real("beta"));
        attrs.put("bias", n.real("bias"));
        return op(n, OpKinds.LRN, List.of(n.input(0).name()), n.input(0).shape(), attrs);
    }

    private static Lowered importBatchNorm(NodeContext n) {
        FamilyImports.requireInputs(n, 5, 5);
        Value x = n.input(0);
        n.require(x.rank() >= 2, "input " + x + " must have a channel axis");
        boolean training = n.flag("training_mode", false);
        n.require(!training || n.opset() >= 14, "training_mode exists from opset 14 of the default domain");
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Value p = n.input(i);
            if (i > 0) n.require(p.rank() == 1 && p.dim(0) == x.dim(1), "input #" + i + " " + p + " must be [" + x.dim(1) + "]");
            inputs.add(p.name());
        }
        if (!training) return op(n, OpKinds.BATCH_NORM, inputs, x.shape(), Map.of("epsilon", n.real("epsilon")));
        for (int i = 0; i < 5; i++) FamilyImports.requireF32(n, n.input(i));
        OptionalOutputs.Slot stat = new OptionalOutputs.Slot(DType.F32, new long[]{x.dim(1)});
        List<Value> outs = OptionalOutputs.of(n, 1, List.of(new OptionalOutputs.Slot(x.dtype(), x.shape()), stat, stat));
        Map<String, Object> attrs = new LinkedHashMap<>(Map.of("epsilon", n.real("epsilon")));
        if (n.hasAttr("momentum")) attrs.put("momentum", n.real("momentum", 0));   // absent: BATCH_NORM_TRAINING's default
        return new Lowered(BATCH_NORM_TRAINING, inputs, outs, attrs, false, List.of());
    }

    // ---- gradient rules ----

    /**
     * LayerNormalization (axis -1): dX = LayerNormalizationGrad(dY, X, scale); dscale =
     * ReduceSum(dY * LayerNormalization(X, 1, 0)); dbias = ReduceSum(dY), over the leading axes.
     */
    private static void layerNormGradient(Op op, String dy, Backward g) {
        String x = op.inputs().get(0), scale = op.inputs().get(1);
        long[] xs = g.shape(x);
        long axis = OpAttrs.of(op).integer("axis");
        if (axis != -1 && axis != xs.length - 1)
            throw new GraphException("op '" + op.name() + "' (LayerNormalization): gradients need axis -1, got " + axis);
        double eps = OpAttrs.of(op).real("epsilon");
        DType t = g.dtype(dy);
        long cols = xs[xs.length - 1];
        long[] last = {xs.length - 1};
        if (g.needsGradient(x)) {
            String dx = g.tensor(x, t, xs);
            g.op(TrainingOps.LAYER_NORM_GRAD, dx).in(dy, x, scale).attr("axis", -1L).attr("epsilon", eps).add();
            g.accumulate(x, dx);
        }
        if (g.needsGradient(scale)) {
            String xhat = g.tensor(x + ".xhat", t, xs);
            g.op(OpKinds.LAYER_NORM, xhat).in(x, g.constant(1.0, t, cols), g.constant(0.0, t, cols)).attr("axis", -1L).attr("epsilon", eps).add();
            String prod = g.elementwise(OpKinds.MUL, scale + ".mul", dy, xhat);
            g.accumulate(scale, g.reduceExcept(prod, scale, last, g.shape(scale)));
        }
        if (op.inputs().size() > 2 && g.needsGradient(op.inputs().get(2))) {
            String bias = op.inputs().get(2);
            g.accumulate(bias, g.reduceExcept(dy, bias, last, g.shape(bias)));
        }
    }

    /**
     * BatchNormalization (inference form: mean and var constant): dX = BatchNormalization(dY,
     * scale, 0, 0, var), i.e. dY * scale / sqrt(var + eps); dscale and dB as LayerNormalization's,
     * over N, H, W.
     */
    private static void batchNormGradient(Op op, String dy, Backward g) {
        String x = op.inputs().get(0), scale = op.inputs().get(1), bias = op.inputs().get(2), mean = op.inputs().get(3), var = op.inputs().get(4);
        if (g.needsGradient(mean) || g.needsGradient(var))
            throw new GraphException("op '" + op.name() + "' (BatchNormalization): gradients need constant mean and var (the inference form)");
        long[] xs = g.shape(x);
        DType t = g.dtype(dy);
        double eps = OpAttrs.of(op).real("epsilon");
        long c = xs[1];
        String zeros = g.constant(0.0, t, c);
        if (g.needsGradient(x)) {
            String dx = g.tensor(x, t, xs);
            g.op(OpKinds.BATCH_NORM, dx).in(dy, scale, zeros, zeros, var).attr("epsilon", eps).add();
            g.accumulate(x, dx);
        }
        if (g.needsGradient(scale)) {
            String xhat = g.tensor(x + ".xhat", t, xs);
            g.op(OpKinds.BATCH_NORM, xhat).in(x, g.constant(1.0, t, c), zeros, mean, var).attr("epsilon", eps).add();
            String prod = g.elementwise(OpKinds.MUL, scale + ".mul", dy, xhat);
            g.accumulate(scale, g.reduceExcept(prod, scale, new long[]{1}, g.shape(scale)));
        }
        if (g.needsGradient(bias)) g.accumulate(bias, g.reduceExcept(dy, bias, new long[]{1}, g.shape(bias)));
    }
}
