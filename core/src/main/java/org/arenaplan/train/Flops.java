package org.arenaplan.train;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.Tensor;

/**
 * Floating-point operations of an op (a multiply-add counts 2, a transcendental 1): its kind's
 * {@link OpSpec#flops()} rule, declared with the kind in {@code org.arenaplan.ops} (MatMul:
 * 2 x batch x M x N x K; Conv: 2 x output elements x C/group x kernel; Transpose, Copy, Concat and
 * the views: 0; where a definition says nothing, one per output element). An op declared a view
 * or writing no output computes nothing; a kind outside the registry counts one per output
 * element.
 */
public final class Flops {
    private Flops() { }

    /** Total over the graph's ops. */
    public static long of(Graph g) {
        long s = 0;
        for (Op op : g.ops()) s += of(g, op);
        return s;
    }

    public static long of(Graph g, Op op) {
        if (op.isStorageOnly() || op.outputs().isEmpty()) return 0;
        OpSpec spec = OpRegistry.get(op.kind());
        long[][] in = shapes(g, op.inputs()), out = shapes(g, op.outputs());
        if (spec == null) return OpSpec.PER_OUTPUT_ELEMENT.count(null, in, out);
        return spec.flops().count(OpAttrs.of(op), in, out);
    }

    /** Each tensor's shape; flat (its element count) for one without a shape. */
    private static long[][] shapes(Graph g, java.util.List<String> names) {
        long[][] s = new long[names.size()][];
        for (int i = 0; i < s.length; i++) {
            Tensor t = g.tensor(names.get(i));
            s[i] = t.hasShape() ? t.shape() : new long[]{t.elements()};
        }
        return s;
    }
}
