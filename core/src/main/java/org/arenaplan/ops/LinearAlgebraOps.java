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
import static org.arenaplan.onnx.NodeLowering.broadcast;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * MatMul and Gemm, on the {@link Kernels#GEMM} kernel (f32, f16, f64: {@link #FLOATS}), and Det
 * ({@link Kernels#DET}: the determinant of each [M, M] matrix of X [*, M, M], by LU with partial
 * pivoting in double; f32). ONNX version differences: Gemm's C is optional from opset 11; Det is
 * 11 (22 widens types only).
 */
final class LinearAlgebraOps implements OpFamily {
    static final String DET = "Det";

    /**
     * The element types MatMul, Gemm and the softmax family compute (FusedGemm: f32,
     * EpilogueFusion fuses only f32). f16 as ONNX Runtime's CPU provider: operands widened to f32,
     * the f32 kernel (sums in f32), one rounding on store ({@link Kernels#typeInt} gives the
     * source); f64 in double. No bf16: ONNX Runtime's CPU provider has no bf16 kernel to check against.
     */
    static final DType[] FLOATS = {DType.F32, DType.F16, DType.F64};

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.MATMUL, 2, 2).shape(ShapeRules::matmul).kernels(Kernels.GEMM).carries(org.arenaplan.ir.BoundedFlows::matmul)
                        .doc("A[..., M, K] x B[..., K, N], leading axes broadcast (numpy.matmul)")
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]) * in[0][in[0].length - 1])
                        .computes(FLOATS).lowerTyped(LinearAlgebraOps::matmul).gradient(LinearAlgebraOps::matmulGradient).onnx(LinearAlgebraOps::importMatmul).build(),
                OpDefinition.op(OpKinds.GEMM, 2, 3).attrs(AttrSpec.flag("transA"), AttrSpec.flag("transB"), AttrSpec.real("alpha", 1.0), AttrSpec.real("beta", 1.0))
                        .shape(ShapeRules::gemm).kernels(Kernels.GEMM)
                        .doc("Y = alpha * op(A) * op(B) + beta * C; C optional, broadcast to [M, N]")
                        .flops(LinearAlgebraOps::gemmFlops)
                        .computes(FLOATS).lowerTyped((op, l) -> List.of(gemm(op, l, false))).gradient(LinearAlgebraOps::gemmGradient).onnx(LinearAlgebraOps::importGemm).build(),
                OpDefinition.op(OpKinds.FUSED_GEMM, 2, 3).attrs(AttrSpec.flag("transA"), AttrSpec.flag("transB"), AttrSpec.real("alpha", 1.0),
                                AttrSpec.real("beta", 1.0), EpilogueFusion.activationAttr())
                        .shape(ShapeRules::gemm).kernels(Kernels.GEMM)
                        .doc("Gemm, then activation (Relu) on each output in the kernel's epilogue; made by EpilogueFusion")
                        .flops((a, in, out) -> gemmFlops(a, in, out) + OpSpec.FlopRule.elements(out[0]))
                        .lowerF32((op, l) -> List.of(gemm(op, l, true))).build(),
                OpDefinition.op(DET, 1, 1).shape(LinearAlgebraOps::detShape).kernels(Kernels.DET)
                        .doc("X [*, M, M] to [*]: each matrix's determinant (LU with partial pivoting, in double)")
                        .flops((a, in, out) -> Math.max(1, OpSpec.FlopRule.elements(out[0])) * 2 * in[0][in[0].length - 1] * in[0][in[0].length - 1] * in[0][in[0].length - 1] / 3)
                        .lowerF32((op, l) -> List.of(det(op, l))).onnx(DET, 11, LinearAlgebraOps::importDet).build());
    }

    /** Det's [*] from X [*, M, M]. */
    static long[] detShape(OpAttrs a, long[][] in) {
        long[] x = in[0];
        if (x.length < 2 || x[x.length - 1] != x[x.length - 2])
            throw new GraphException("X " + Arrays.toString(x) + " must be [*, M, M]: square matrices in its last two axes");
        return Arrays.copyOf(x, x.length - 2);
    }

    private static KernelCall det(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = l.shape(op, x);
        try {
            detShape(OpAttrs.of(op), new long[][]{xs});
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        long m = xs[xs.length - 1];
        return l.call(op, Kernels.DET, List.of(l.read(x), l.write(y)), new long[]{product(Arrays.copyOf(xs, xs.length - 2)), m});
    }

    private static Lowered importDet(NodeContext n) {
        Value x = n.input(0);
        n.require(x.dtype() == org.arenaplan.ir.DType.F32, "input " + x + " is " + x.dtype().jsonName() + "; Det computes f32 only (f16, bf16 and f64 are not implemented)");
        long[] shape = FamilyImports.shape(n, () -> detShape(null, new long[][]{x.shape()}));
        return op(n, DET, List.of(x.name()), shape, new LinkedHashMap<>());
    }

    /** 2 x M x N x K, plus M x N for C. */
    private static long gemmFlops(OpAttrs a, long[][] in, long[][] out) {
        long y = OpSpec.FlopRule.elements(out[0]), k = a.integer("transA") == 1 ? in[0][0] : in[0][1];
        return 2 * y * k + (in.length > 2 ? y : 0);
    }

    // ---- gradient rules ----

    /**
     * MatMul: with a 2-D B (leading dims of A flattened by Reshape views) dA = Gemm(dY, B, transB),
     * dB = Gemm(A, dY, transA); batched with equal leading dims, dA = MatMul(dY, B^T) and
     * dB = MatMul(A^T, dY), the last two axes transposed by Transpose.
     */
    private static void matmulGradient(Op op, String dy, Backward g) {
        String a = op.inputs().get(0), b = op.inputs().get(1);
        long[] sa = g.shape(a), sb = g.shape(b);
        if (sb.length == 2 && sa.length >= 2) {
            long k = sa[sa.length - 1], n = sb[1];
            long rows = 1;
            for (int d = 0; d < sa.length - 1; d++) rows *= sa[d];
            String dy2 = sa.length == 2 ? dy : g.view(dy, a + ".dy2", new long[]{rows, n});
            if (g.needsGradient(a)) {
                String da = g.gemm(a + ".mm", dy2, b, false, true);
                g.accumulate(a, sa.length == 2 ? da : g.view(da, a, sa));
            }
            if (g.needsGradient(b)) {
                String a2 = sa.length == 2 ? a : g.view(a, a + ".2d", new long[]{rows, k});
                g.accumulate(b, g.gemm(b, a2, dy2, true, false));
            }
            return;
        }
        if (sa.length != sb.length || !Arrays.equals(Arrays.copyOf(sa, sa.length - 2), Arrays.copyOf(sb, sb.length - 2)))
            throw new GraphException("op '" + op.name() + "' (MatMul): gradients need a 2-D B or equal leading dims, got "
                    + Arrays.toString(sa) + " x " + Arrays.toString(sb));
        long[] swap = new long[sa.length];
        for (int d = 0; d < swap.length; d++) swap[d] = d;
        swap[swap.length - 1] = swap.length - 2;
        swap[swap.length - 2] = swap.length - 1;
        if (g.needsGradient(a)) g.accumulate(a, g.matmul(a, dy, g.transpose(b, b, swap)));
        if (g.needsGradient(b)) g.accumulate(b, g.matmul(b, g.transpose(a, a, swap), dy));
    }

    /** Gemm (alpha 1, beta 1, no transposes): as MatMul's 2-D case, and dC = dY summed to C's shape. */
    private static void gemmGradient(Op op, String dy, Backward g) {
        OpAttrs at = OpAttrs.of(op);
        if (at.integer("transA") != 0 || at.integer("transB") != 0 || at.real("alpha") != 1 || at.real("beta") != 1)
            throw new GraphException("op '" + op.name() + "' (Gemm): gradients need transA = transB = 0 and alpha = beta = 1");
        String a = op.inputs().get(0), b = op.inputs().get(1);
        if (g.needsGradient(a)) g.accumulate(a, g.gemm(a, dy, b, false, true));
        if (g.needsGradient(b)) g.accumulate(b, g.gemm(b, a, dy, true, false));
        if (op.inputs().size() > 2) g.accumulate(op.inputs().get(2), g.reduceTo(dy, op.inputs().get(2)));
    }

    // ---- lowering ----

    private static List<KernelCall> matmul(Op op, OpLowering l) {
        String a = op.inputs().get(0), b = op.inputs().get(1), y = out(op);
        long[] a0 = l.shape(op, a), b0 = l.shape(op, b);
        if (a0.length < 1 || b0.length < 1) throw fail(op, "MatMul operands must not be scalars, got " + Arrays.toString(a0) + " and " + Arrays.toString(b0));
        // numpy.matmul: a 1-D A is a row [1, K], a 1-D B a column [K, 1]; the added axis is not in y
        long[] as = a0.length == 1 ? new long[]{1, a0[0]} : a0, bs = b0.length == 1 ? new long[]{b0[0], 1} : b0;
        long m = as[as.length - 2], k = as[as.length - 1], n = bs[bs.length - 1];
        if (bs[bs.length - 2] != k) throw fail(op, "inner dimensions differ: " + Arrays.toString(a0) + " x " + Arrays.toString(b0));
        long[] lead;
        try {
            lead = ShapeRules.broadcast(Arrays.copyOf(as, as.length - 2), Arrays.copyOf(bs, bs.length - 2));
        } catch (org.arenaplan.ir.GraphException e) {
            throw fail(op, e.getMessage());
        }
        if (product(lead) * m * n != l.elements(y)) throw fail(op, "output '" + y + "' must have " + product(lead) * m * n + " elements, has " + l.elements(y));
        long batch = product(lead);
        long batchA = product(Arrays.copyOf(as, as.length - 2)), batchB = product(Arrays.copyOf(bs, bs.length - 2));
        if ((batchA == batch || batchA == 1) && (batchB == batch || batchB == 1) && sameLead(as, lead, batchA) && sameLead(bs, lead, batchB)) {
            long[] ints = {batch, m, n, k, 0, 0, batchA == 1 ? 0 : m * k, batchB == 1 ? 0 : k * n, 0, 0, 0, 0};
            return List.of(l.call(op, Kernels.GEMM, List.of(l.read(a), l.read(b), l.write(y)), typed(op, l, ints), new double[]{1, 0}));
        }
        // General broadcast of leading dims: one call per output matrix.
        long[] sa = l.broadcastStrides(op, a, Arrays.copyOf(as, as.length - 2), lead);
        long[] sb = l.broadcastStrides(op, b, Arrays.copyOf(bs, bs.length - 2), lead);
        List<KernelCall> calls = new ArrayList<>();
        long[] idx = new long[lead.length];
        for (long o = 0; o < batch; o++) {
            long offA = 0, offB = 0;
            for (int d = 0; d < lead.length; d++) { offA += idx[d] * sa[d] * m * k; offB += idx[d] * sb[d] * k * n; }
            long[] ints = {1, m, n, k, 0, 0, 0, 0, 0, 0, 0, 0};
            calls.add(l.call(op, Kernels.GEMM, List.of(l.readAt(a, offA, m * k), l.readAt(b, offB, k * n), l.writeAt(y, o * m * n, m * n)), typed(op, l, ints), new double[]{1, 0}));
            for (int d = lead.length - 1; d >= 0; d--) {
                if (++idx[d] < lead[d]) break;
                idx[d] = 0;
            }
        }
        return calls;
    }

    /** The gemm ints with the op's element type ({@link Kernels#withType}; f32 calls unchanged). */
    private static long[] typed(Op op, OpLowering l, long[] ints) {
        return Kernels.withType(Kernels.GEMM, ints, l.computeType(op).onnxCode());
    }

    private static boolean sameLead(long[] s, long[] lead, long batch) {
        if (batch == 1) return true;
        long[] own = Arrays.copyOf(s, s.length - 2);
        int skip = lead.length - own.length;
        if (skip < 0) return false;
        for (int d = 0; d < own.length; d++) if (own[d] != lead[skip + d]) return false;
        return true;
    }

    private static KernelCall gemm(Op op, OpLowering l, boolean fused) {
        String a = op.inputs().get(0), b = op.inputs().get(1), y = out(op);
        long[] as = l.shape(op, a), bs = l.shape(op, b);
        if (as.length != 2 || bs.length != 2) throw fail(op, "Gemm needs 2-D A and B, got " + Arrays.toString(as) + " and " + Arrays.toString(bs));
        OpAttrs at = OpAttrs.of(op);
        boolean ta = at.integer("transA") == 1, tb = at.integer("transB") == 1;
        long m = ta ? as[1] : as[0], k = ta ? as[0] : as[1], n = tb ? bs[0] : bs[1];
        if ((tb ? bs[1] : bs[0]) != k) throw fail(op, "inner dimensions differ: " + Arrays.toString(as) + " x " + Arrays.toString(bs));
        double alpha = at.real("alpha"), beta = at.real("beta");
        List<KernelArg> args = new ArrayList<>(List.of(l.read(a), l.read(b)));
        long[] ints = {1, m, n, k, ta ? 1 : 0, tb ? 1 : 0, 0, 0, 0, 0, 0, 0};
        if (op.inputs().size() > 2) {
            String c = op.inputs().get(2);
            long[] s = l.broadcastStrides(op, c, l.shapeOr(c, new long[]{m, n}), new long[]{m, n});
            ints[8] = 1;
            ints[10] = s[0];
            ints[11] = s[1];
            args.add(l.read(c));
        }
        args.add(l.write(y));
        return l.call(op, Kernels.GEMM, args, fused ? EpilogueFusion.withActivation(op, ints) : typed(op, l, ints), new double[]{alpha, beta});
    }

    // ---- ONNX ----

    private static Lowered importGemm(NodeContext n) {
        Value a = n.input(0), b = n.input(1);
        n.require(a.rank() == 2 && b.rank() == 2, "A " + a + " and B " + b + " must be matrices");
        long transA = n.integer("transA"), transB = n.integer("transB");
        long m = transA == 1 ? a.dim(1) : a.dim(0), k = transA == 1 ? a.dim(0) : a.dim(1);
        long kb = transB == 1 ? b.dim(1) : b.dim(0), nn = transB == 1 ? b.dim(0) : b.dim(1);
        n.require(k == kb, "inner dimensions differ: op(A) is [" + m + ", " + k + "], op(B) is [" + kb + ", " + nn + "] (transA=" + transA + ", transB=" + transB + ")");
        List<String> inputs = new ArrayList<>(List.of(a.name(), b.name()));
        long[] out = {m, nn};
        if (n.hasInput(2)) {
            long[] c = n.input(2).shape();
            n.require(Arrays.equals(broadcast(n, out, c), out), "C " + n.input(2) + " does not broadcast to [" + m + ", " + nn + "]");
            inputs.add(n.input(2).name());
        } else {
            n.require(n.opset() >= 11, "input C is required before opset 11");
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("transA", transA);
        attrs.put("transB", transB);
        attrs.put("alpha", n.real("alpha"));
        attrs.put("beta", n.real("beta"));
        return op(n, OpKinds.GEMM, inputs, out, attrs);
    }

    private static Lowered importMatmul(NodeContext n) {
        long[] a = n.input(0).shape(), b = n.input(1).shape();
        n.require(a.length >= 1 && b.length >= 1, "inputs must not be scalars (" + n.shapes() + ")");
        long[] pa = a.length == 1 ? new long[]{1, a[0]} : a;
        long[] pb = b.length == 1 ? new long[]{b[0], 1} : b;
        long k = pa[pa.length - 1];
        n.require(k == pb[pb.length - 2], "inner dimensions differ (" + n.shapes() + ")");
        long[] batch = broadcast(n, Arrays.copyOf(pa, pa.length - 2), Arrays.copyOf(pb, pb.length - 2));
        List<Long> out = new ArrayList<>();
        for (long d : batch) out.add(d);
        if (a.length > 1) out.add(pa[pa.length - 2]);
        if (b.length > 1) out.add(pb[pb.length - 1]);
        return op(n, OpKinds.MATMUL, List.of(n.input(0).name(), n.input(1).name()), out.stream().mapToLong(Long::longValue).toArray(), Map.of());
    }
}
