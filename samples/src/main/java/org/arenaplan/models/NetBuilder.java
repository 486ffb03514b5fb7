package org.arenaplan.models;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.Tensor;

import java.util.Arrays;

/**
 * Layer-level helpers over {@link GraphBuilder} for the built-in models: each call appends one op
 * to the schedule, declares its output tensor with the shape ONNX semantics give it, and returns
 * the output's name. Every op and its output share one name. Attributes are exactly the ones
 * the kinds' registry entries declare ({@link org.arenaplan.ir.OpRegistry}), all explicit. A shape mismatch is a bug in a model, so it throws
 * {@link IllegalStateException}.
 */
final class NetBuilder {
    private final GraphBuilder g;
    private final DType dtype;

    NetBuilder(String graphName, DType dtype) {
        this.g = new GraphBuilder(graphName);
        this.dtype = dtype;
    }

    long[] shape(String tensor) {
        Tensor t = g.tensorOf(tensor);
        if (t == null) throw new IllegalStateException("no tensor '" + tensor + "'");
        return t.shape();
    }

    /** A caller-owned graph input; donated ones may be overwritten after their last read. */
    String input(String name, boolean donated, long... shape) {
        g.tensor(name, dtype, shape).input(name, donated);
        return name;
    }

    /** A read-only weight with the executors' seeded default values. */
    String weight(String name, long... shape) {
        g.tensor(name, dtype, shape).weight(name);
        return name;
    }

    /** A read-only weight holding one constant (for batch-norm statistics and scales). */
    String constant(String name, double fill, long... shape) {
        g.tensor(name, dtype, shape).weight(name, fill);
        return name;
    }

    void output(String tensor) {
        g.output(tensor);
    }

    Graph build() {
        return g.build();
    }

    // ---- compute ops ------------------------------------------------------------------------

    /** A[..., M, K] x B[..., K, N], leading dims broadcast. */
    String matmul(String name, String a, String b) {
        long[] sa = shape(a);
        long[] sb = shape(b);
        if (sa.length < 2 || sb.length < 2 || sa[sa.length - 1] != sb[sb.length - 2])
            throw mismatch(name, a, b);
        long[] lead = broadcast(name, Arrays.copyOf(sa, sa.length - 2), Arrays.copyOf(sb, sb.length - 2));
        long[] out = Arrays.copyOf(lead, lead.length + 2);
        out[lead.length] = sa[sa.length - 2];
        out[lead.length + 1] = sb[sb.length - 1];
        return op(name, OpKinds.MATMUL, out, false, a, b);
    }

    /** Y = op(A) * op(B) over 2-D operands, no C, alpha 1. */
    String gemm(String name, String a, String b, boolean transA, boolean transB) {
        long[] sa = shape(a);
        long[] sb = shape(b);
        if (sa.length != 2 || sb.length != 2) throw mismatch(name, a, b);
        long m = transA ? sa[1] : sa[0];
        long ka = transA ? sa[0] : sa[1];
        long kb = transB ? sb[1] : sb[0];
        long n = transB ? sb[0] : sb[1];
        if (ka != kb) throw mismatch(name, a, b);
        g.tensor(name, dtype, m, n);
        g.op(name, OpKinds.GEMM).in(a, b).out(name)
                .attr("transA", transA ? 1L : 0L).attr("transB", transB ? 1L : 0L)
                .attr("alpha", 1.0).attr("beta", 1.0).add();
        return name;
    }

    /** Y = A * B + C over 2-D operands with C broadcast to [M, N]. */
    String gemmBias(String name, String a, String b, String c) {
        long[] sa = shape(a);
        long[] sb = shape(b);
        if (sa.length != 2 || sb.length != 2 || sa[1] != sb[0]) throw mismatch(name, a, b);
        g.tensor(name, dtype, sa[0], sb[1]);
        g.op(name, OpKinds.GEMM).in(a, b, c).out(name)
                .attr("transA", 0L).attr("transB", 0L).attr("alpha", 1.0).attr("beta", 1.0).add();
        return name;
    }

    /** An elementwise binary op with numpy broadcasting; {@code inPlace} lets it overwrite {@code a}. */
    String binary(String kind, String name, String a, String b, boolean inPlace) {
        long[] out = broadcast(name, shape(a), shape(b));
        return op(name, kind, out, inPlace, a, b);
    }

    /** An elementwise unary op (Relu, Gelu...); {@code inPlace} lets it overwrite its input. */
    String unary(String kind, String name, String x, boolean inPlace) {
        return op(name, kind, shape(x), inPlace, x);
    }

    /** ReluGrad(dY, X): {@code inPlace} lets dX overwrite dY. */
    String reluGrad(String name, String dy, String x, boolean inPlace) {
        if (!Arrays.equals(shape(dy), shape(x))) throw mismatch(name, dy, x);
        return op(name, OpKinds.RELU_GRAD, shape(dy), inPlace, dy, x);
    }

    String softmaxLastAxis(String name, String x) {
        g.tensor(name, dtype, shape(x));
        g.op(name, OpKinds.SOFTMAX).in(x).out(name).attr("axis", -1L).add();
        return name;
    }

    /** Normalises over the last axis. */
    String layerNorm(String name, String x, String scale, String bias) {
        g.tensor(name, dtype, shape(x));
        g.op(name, OpKinds.LAYER_NORM).in(x, scale, bias).out(name).attr("axis", -1L).attr("epsilon", 1e-5).add();
        return name;
    }

    /** Inference batch norm over NCHW channels with its four per-channel weights. */
    String batchNorm(String name, String x) {
        long c = shape(x)[1];
        String scale = weight(name + ".scale", c);
        String bias = weight(name + ".bias", c);
        String mean = constant(name + ".mean", 0.0, c);
        String var = constant(name + ".var", 1.0, c);   // a positive variance keeps the sqrt real
        g.tensor(name, dtype, shape(x));
        g.op(name, OpKinds.BATCH_NORM).in(x, scale, bias, mean, var).out(name).attr("epsilon", 1e-5).add();
        return name;
    }

    /** A square NCHW convolution with symmetric padding, group 1, its weight declared here. */
    String conv(String name, String x, long outChannels, long kernel, long stride, long pad, boolean bias) {
        long[] s = shape(x);
        String w = weight(name + ".w", outChannels, s[1], kernel, kernel);
        long h = (s[2] + 2 * pad - kernel) / stride + 1;
        long wd = (s[3] + 2 * pad - kernel) / stride + 1;
        g.tensor(name, dtype, s[0], outChannels, h, wd);
        GraphBuilder.OpBuilder op = g.op(name, OpKinds.CONV);
        if (bias) op.in(x, w, weight(name + ".b", outChannels));
        else op.in(x, w);
        op.out(name)
                .attr("kernel_shape", new long[]{kernel, kernel})
                .attr("strides", new long[]{stride, stride})
                .attr("pads", new long[]{pad, pad, pad, pad})
                .attr("dilations", new long[]{1, 1})
                .attr("group", 1L)
                .add();
        return name;
    }

    String maxPool(String name, String x, long kernel, long stride, long pad) {
        long[] s = shape(x);
        long h = (s[2] + 2 * pad - kernel) / stride + 1;
        long w = (s[3] + 2 * pad - kernel) / stride + 1;
        g.tensor(name, dtype, s[0], s[1], h, w);
        g.op(name, OpKinds.MAX_POOL).in(x).out(name)
                .attr("kernel_shape", new long[]{kernel, kernel})
                .attr("strides", new long[]{stride, stride})
                .attr("pads", new long[]{pad, pad, pad, pad})
                .attr("ceil_mode", 0L)
                .attr("count_include_pad", 0L)
                .add();
        return name;
    }

    String globalAveragePool(String name, String x) {
        long[] s = shape(x);
        g.tensor(name, dtype, s[0], s[1], 1, 1);
        g.op(name, OpKinds.GLOBAL_AVERAGE_POOL).in(x).out(name).add();
        return name;
    }

    String transpose(String name, String x, long... perm) {
        long[] s = shape(x);
        if (perm.length != s.length) throw new IllegalStateException(name + ": perm " + Arrays.toString(perm) + " for shape " + Arrays.toString(s));
        long[] out = new long[s.length];
        for (int i = 0; i < perm.length; i++) out[i] = s[(int) perm[i]];
        g.tensor(name, dtype, out);
        g.op(name, OpKinds.TRANSPOSE).in(x).out(name).attr("perm", perm.clone()).add();
        return name;
    }

    /** A copying concat along {@code axis}: the inputs keep their own storages. */
    String concat(String name, int axis, String... inputs) {
        g.tensor(name, dtype, concatShape(name, axis, inputs));
        g.op(name, OpKinds.CONCAT).in(inputs).out(name).attr("axis", (long) axis).add();
        return name;
    }

    /**
     * A concat in place: every input is declared a member slice of the output, so its producer
     * writes straight into the concatenated bytes and the concat op does no work. Legal only
     * when each input is one contiguous slice of the output: every dim before {@code axis} is 1.
     */
    String concatInPlace(String name, int axis, String... inputs) {
        long[] out = concatShape(name, axis, inputs);
        for (int d = 0; d < axis; d++) {
            if (out[d] != 1) throw new IllegalStateException(name + ": in-place concat along axis " + axis + " needs dim " + d + " to be 1, got " + out[d]);
        }
        g.tensor(name, dtype, out);
        GraphBuilder.OpBuilder op = g.op(name, OpKinds.CONCAT).in(inputs).out(name).attr("axis", (long) axis);
        long offset = 0;
        for (int i = 0; i < inputs.length; i++) {
            op.member(i, 0, offset);
            offset += g.tensorOf(inputs[i]).bytes();
        }
        op.add();
        return name;
    }

    // ---- views: no device work, the output shares its input's bytes ---------------------------

    /** A view kind ({@link org.arenaplan.ir.OpRegistry#viewKinds()}) that only reinterprets the shape. */
    String view(String kind, String name, String x, long... newShape) {
        Tensor out = Tensor.of(name, dtype, newShape);
        if (out.bytes() != g.tensorOf(x).bytes())
            throw new IllegalStateException(name + ": view shape " + Arrays.toString(newShape) + " does not hold the elements of " + Arrays.toString(shape(x)));
        g.tensor(out);
        g.op(name, kind).in(x).out(name).view().add();
        return name;
    }

    // ---- plumbing ---------------------------------------------------------------------------

    private String op(String name, String kind, long[] outShape, boolean inPlace, String... inputs) {
        g.tensor(name, dtype, outShape);
        GraphBuilder.OpBuilder op = g.op(name, kind).in(inputs).out(name);
        if (inPlace) op.inPlace();
        op.add();
        return name;
    }

    private long[] concatShape(String name, int axis, String... inputs) {
        long[] out = shape(inputs[0]);
        for (int i = 1; i < inputs.length; i++) {
            long[] s = shape(inputs[i]);
            for (int d = 0; d < out.length; d++) {
                if (d != axis && s[d] != out[d]) throw mismatch(name, inputs[0], inputs[i]);
            }
            out[axis] += s[axis];
        }
        return out;
    }

    private static long[] broadcast(String name, long[] a, long[] b) {
        int n = Math.max(a.length, b.length);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long da = i < n - a.length ? 1 : a[i - (n - a.length)];
            long db = i < n - b.length ? 1 : b[i - (n - b.length)];
            if (da != db && da != 1 && db != 1)
                throw new IllegalStateException(name + ": shapes " + Arrays.toString(a) + " and " + Arrays.toString(b) + " do not broadcast");
            out[i] = Math.max(da, db);
        }
        return out;
    }

    private IllegalStateException mismatch(String name, String a, String b) {
        return new IllegalStateException(name + ": shapes of '" + a + "' " + Arrays.toString(shape(a)) + " and '" + b + "' " + Arrays.toString(shape(b)) + " do not match");
    }
}
