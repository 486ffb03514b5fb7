package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.Map;

/**
 * One training step of an MLP without biases, forward then backward, over [batch, width]:
 * <pre>
 *   forward  layer i:   z_i = MatMul(h_{i-1}, W_i);  h_i = Relu(z_i) in place   (no Relu on the last)
 *   loss gradient:      dy = Sub(y, target) in place over y
 *   backward layer i:   dz_i = ReluGrad(dh_i, h_i) in place over dh_i            (dy for the last)
 *                       dW_i = Gemm(h_{i-1}, dz_i, transA)   graph output
 *                       dh_{i-1} = Gemm(dz_i, W_i, transB)    (not for the first layer)
 * </pre>
 * Every activation h_i stays live until the backward pass reaches layer i+1, so the arena grows
 * with depth (the activation wall), unlike the inference MLP. Biases are left out because their
 * gradient needs a reduction the op vocabulary does not have.
 */
final class TrainMlpModel implements Model {
    @Override
    public String name() {
        return "train-mlp";
    }

    @Override
    public String summary() {
        return "one MLP training step: forward, then backward with Gemm and ReluGrad (activations live until their gradient)";
    }

    @Override
    public Map<String, String> defaults() {
        return MlpShape.defaults(3, 64, 32);
    }

    @Override
    public Map<String, Integer> limits() {
        return Map.of("layers", 10000);
    }

    @Override
    public Graph build(ModelOptions o) {
        MlpShape shape = MlpShape.of(o);
        int layers = shape.layers();
        long width = shape.width();
        long batch = shape.batch();
        NetBuilder net = new NetBuilder("train-mlp", o.dtype());
        String[] h = new String[layers + 1];
        String[] w = new String[layers + 1];
        h[0] = net.input("x", false, batch, width);
        String target = net.input("target", false, batch, width);
        for (int i = 1; i <= layers; i++) {
            w[i] = net.weight("W" + i, width, width);
            String z = net.matmul("fwd" + i + ".mm", h[i - 1], w[i]);
            h[i] = i < layers ? net.unary(OpKinds.RELU, "fwd" + i + ".relu", z, true) : z;
        }
        String dz = net.binary(OpKinds.SUB, "loss.grad", h[layers], target, true);
        for (int i = layers; i >= 1; i--) {
            String p = "bwd" + i + ".";
            net.output(net.gemm(p + "dW", h[i - 1], dz, true, false));
            if (i == 1) break;
            String dh = net.gemm(p + "dh", dz, w[i], false, true);
            dz = net.reluGrad("bwd" + (i - 1) + ".relu", dh, h[i - 1], true);
        }
        return net.build();
    }
}
