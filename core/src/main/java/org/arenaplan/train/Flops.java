package org.arenaplan.train;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;

/**
 * Floating-point operations of an op, from its tensors' shapes (a multiply-add counts 2):
 * <ul>
 *   <li>MatMul, Gemm: 2 x batch x M x N x K (+ M x N for Gemm's C).</li>
 *   <li>Conv, ConvBackwardData, ConvBackwardFilter: 2 x N x M x OH x OW x C/group x KH x KW
 *       (+ N x M x OH x OW for a bias).</li>
 *   <li>Elementwise kinds (Add, Sub, Mul, Div, Relu, Sigmoid, Tanh, Gelu and their gradients),
 *       BatchNormalization: one per output element (a transcendental counts one); Sum: one per
 *       output element per extra input.</li>
 *   <li>Softmax, SoftmaxGrad: 3 per element; LayerNormalization: 5; LayerNormalizationGrad: 8;
 *       ReduceSum, GlobalAveragePool: one per input element; MaxPool, AveragePool, LRN: output
 *       elements x window.</li>
 *   <li>Transpose, Copy, Concat and the views: 0 (they move bytes, they do no arithmetic).</li>
 * </ul>
 * Kinds not listed count one per output element.
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
        long out = elements(g, op.outputs().get(0));
        switch (op.kind()) {
            case OpKinds.MATMUL: {
                long[] a = g.tensor(op.inputs().get(0)).shape();
                return 2 * out * a[a.length - 1];
            }
            case OpKinds.GEMM: {
                long[] a = g.tensor(op.inputs().get(0)).shape();
                long k = OpAttrs.of(op).integer("transA") == 1 ? a[0] : a[1];
                return 2 * out * k + (op.inputs().size() > 2 ? out : 0);
            }
            case OpKinds.CONV: {
                long[] w = g.tensor(op.inputs().get(1)).shape();
                return 2 * out * w[1] * w[2] * w[3] + (op.inputs().size() > 2 ? out : 0);
            }
            case OpKinds.CONV_BACKWARD_DATA: {   // dY, W -> dX: as many multiply-adds as the forward conv
                long dy = elements(g, op.inputs().get(0));
                long[] w = g.tensor(op.inputs().get(1)).shape();
                return 2 * dy * w[1] * w[2] * w[3];
            }
            case OpKinds.CONV_BACKWARD_FILTER: {   // X, dY -> dW
                long dy = elements(g, op.inputs().get(1));
                long[] w = g.tensor(op.outputs().get(0)).shape();
                return 2 * dy * w[1] * w[2] * w[3];
            }
            case OpKinds.SUM: return out * Math.max(1, op.inputs().size() - 1);
            case OpKinds.SOFTMAX: case OpKinds.SOFTMAX_GRAD: return 3 * out;
            case OpKinds.LAYER_NORM: return 5 * out;
            case OpKinds.LAYER_NORM_GRAD: return 8 * out;
            case OpKinds.REDUCE_SUM: case OpKinds.GLOBAL_AVERAGE_POOL: return elements(g, op.inputs().get(0));
            case OpKinds.MAX_POOL: case OpKinds.AVERAGE_POOL: {
                Object k = op.attrs().get("kernel_shape");
                long window = 1;
                if (k instanceof long[] ks) for (long d : ks) window *= d;
                return out * window;
            }
            case OpKinds.LRN: return out * OpAttrs.of(op).integer("size");
            case OpKinds.TRANSPOSE: case OpKinds.COPY: case OpKinds.CONCAT: return 0;
            default:
                return org.arenaplan.ir.OpRegistry.viewKinds().contains(op.kind()) ? 0 : out;
        }
    }

    private static long elements(Graph g, String t) {
        return g.tensor(t).elements();
    }
}
