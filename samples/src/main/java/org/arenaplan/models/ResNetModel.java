package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A ResNet of basic blocks over an NCHW image x[batch, 3, image, image]:
 * <pre>
 *   stem:  Conv 3x3 (3 -> C) -> BatchNorm -> Relu (in place)
 *   block: Conv 3x3 -> BatchNorm -> Relu -> Conv 3x3 -> BatchNorm -> Add(., block input) -> Relu
 *          (the Relus and the residual Add in place), every block at C channels
 *   head:  GlobalAveragePool -> Flatten (view) -> Gemm + bias -> logits[batch, classes]
 * </pre>
 * The residual keeps each block's input alive across the block, so the arena holds about three
 * feature maps whatever the depth.
 */
final class ResNetModel implements Model {
    @Override
    public String name() {
        return "resnet";
    }

    @Override
    public String summary() {
        return "basic residual blocks: Conv, BatchNorm, Relu and a residual Add, then pooling and a Gemm head";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("blocks", "2");
        d.put("channels", "16");
        d.put("image", "32");
        d.put("batch", "1");
        d.put("classes", "10");
        return d;
    }

    @Override
    public Map<String, Integer> limits() {
        return Map.of("blocks", 10000);
    }

    @Override
    public Graph build(ModelOptions o) {
        int blocks = o.positiveInt("blocks");
        long c = o.positiveInt("channels");
        long image = o.positiveInt("image");
        long batch = o.positiveInt("batch");
        long classes = o.positiveInt("classes");
        NetBuilder net = new NetBuilder("resnet", o.dtype());
        String x = net.input("x", false, batch, 3, image, image);
        String h = net.unary(OpKinds.RELU, "stem.relu", net.batchNorm("stem.bn", net.conv("stem.conv", x, c, 3, 1, 1, false)), true);
        for (int i = 0; i < blocks; i++) {
            String p = "b" + i + ".";
            String r1 = net.unary(OpKinds.RELU, p + "relu1", net.batchNorm(p + "bn1", net.conv(p + "conv1", h, c, 3, 1, 1, false)), true);
            String n2 = net.batchNorm(p + "bn2", net.conv(p + "conv2", r1, c, 3, 1, 1, false));
            String sum = net.binary(OpKinds.ADD, p + "res", n2, h, true);
            h = net.unary(OpKinds.RELU, p + "relu2", sum, true);
        }
        String pooled = net.globalAveragePool("pool", h);
        String flat = net.view(OpKinds.FLATTEN, "flat", pooled, batch, c);
        String logits = net.gemmBias("fc", flat, net.weight("fc.w", c, classes), net.weight("fc.b", classes));
        net.output(logits);
        return net.build();
    }
}
