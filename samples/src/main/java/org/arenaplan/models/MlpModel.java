package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.Map;

/**
 * An inference MLP: {@code layers} times {@code MatMul -> Add bias -> Relu} over [batch, width]
 * activations, the bias add and the Relu in place over the MatMul's result (the last layer has
 * no Relu). Each layer is then one storage, so the arena holds x, the layer being read and the
 * layer being written: three activations for two layers or more.
 */
final class MlpModel implements Model {
    @Override
    public String name() {
        return "mlp";
    }

    @Override
    public String summary() {
        return "an inference MLP: MatMul, bias Add and Relu per layer, in place";
    }

    @Override
    public Map<String, String> defaults() {
        return MlpShape.defaults(3, 256, 32);
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
        NetBuilder net = new NetBuilder("mlp", o.dtype());
        String h = net.input("x", false, batch, width);
        for (int l = 1; l <= layers; l++) {
            String p = "l" + l + ".";
            String z = net.matmul(p + "mm", h, net.weight(p + "w", width, width));
            h = net.binary(OpKinds.ADD, p + "bias", z, net.weight(p + "b", width), true);
            if (l < layers) h = net.unary(OpKinds.RELU, p + "relu", h, true);
        }
        net.output(h);
        return net.build();
    }
}
