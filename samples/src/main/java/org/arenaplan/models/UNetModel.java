package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A U-Net over x[batch, 3, image, image] with long skip connections:
 * <pre>
 *   encoder level l (0..depth-1): Conv 3x3 -> Relu (in place) = skip_l [C*2^l channels] -> MaxPool 2x2
 *   bottom:                       Conv 3x3 -> Relu                      [C*2^depth channels]
 *   decoder level l (depth-1..0): up = MatMul(Uh_l, MatMul(prev, Uw_l))  (2x upsampling)
 *                                 Concat(skip_l, up) -> Conv 3x3 -> Relu  [C*2^l channels]
 *   head:                         Conv 1x1 + bias -> y[batch, classes, image, image]
 * </pre>
 * Written before the op vocabulary had Resize and ConvTranspose (kept so its published figures
 * stay comparable; ONNX U-Nets with both run, e.g. shared/models/real/unet_tiny), upsampling is a
 * learned separable linear map: MatMul by a [w, 2w] weight along the width, then by a [2h, h] weight along the height
 * (broadcast over batch and channels). The concat copies: skip_l lives from its encoder level
 * to its decoder level, which is what makes U-Nets hard to plan.
 */
final class UNetModel implements Model {
    @Override
    public String name() {
        return "unet";
    }

    @Override
    public String summary() {
        return "a U-Net: conv/pool encoder, MatMul upsampling decoder, long skip connections through Concat";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("depth", "3");
        d.put("channels", "8");
        d.put("image", "64");
        d.put("batch", "1");
        d.put("classes", "2");
        return d;
    }

    @Override
    public Map<String, Integer> limits() {
        return Map.of("depth", 30);
    }

    @Override
    public Graph build(ModelOptions o) {
        int depth = o.positiveInt("depth");
        long c = o.positiveInt("channels");
        long image = o.positiveInt("image");
        long batch = o.positiveInt("batch");
        long classes = o.positiveInt("classes");
        if (image % (1L << depth) != 0) {   // depth is at most 30 (limits)
            throw new IllegalArgumentException("model 'unet': option --image (" + image + ") must be divisible by 2^depth (depth " + depth + ")");
        }
        NetBuilder net = new NetBuilder("unet", o.dtype());
        String h = net.input("x", false, batch, 3, image, image);
        String[] skips = new String[depth];
        for (int l = 0; l < depth; l++) {
            String p = "enc" + l + ".";
            skips[l] = net.unary(OpKinds.RELU, p + "relu", net.conv(p + "conv", h, c << l, 3, 1, 1, true), true);
            h = net.maxPool(p + "pool", skips[l], 2, 2, 0);
        }
        h = net.unary(OpKinds.RELU, "bottom.relu", net.conv("bottom.conv", h, c << depth, 3, 1, 1, true), true);
        for (int l = depth - 1; l >= 0; l--) {
            String p = "dec" + l + ".";
            long[] s = net.shape(h);
            String wide = net.matmul(p + "up.w", h, net.weight(p + "uw", s[3], 2 * s[3]));
            String up = net.matmul(p + "up.h", net.weight(p + "uh", 2 * s[2], s[2]), wide);
            String cat = net.concat(p + "concat", 1, skips[l], up);
            h = net.unary(OpKinds.RELU, p + "relu", net.conv(p + "conv", cat, c << l, 3, 1, 1, true), true);
        }
        String y = net.conv("head", h, classes, 1, 1, 0, true);
        net.output(y);
        return net.build();
    }
}
