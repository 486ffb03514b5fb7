package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One Inception module over x[1, C, image, image]: {@code branches} parallel branches, each
 * ending in a convolution to C channels, concatenated in place along the channels and then
 * Relu'd (in place, the same as a Relu per branch). Branch i is the (i mod 4)-th of:
 * <pre>
 *   0: Conv 1x1
 *   1: Conv 1x1 (C -> C/2) -> Relu -> Conv 3x3
 *   2: Conv 1x1 (C -> C/4) -> Relu -> Conv 5x5
 *   3: MaxPool 3x3 stride 1 -> Conv 1x1
 * </pre>
 * Every branch output is a member slice of the concat (batch 1 makes each slice contiguous),
 * so the concat copies nothing. This is the case where planning saves little: x and the whole
 * concat are live from the first branch to the end, and only the branches' small
 * intermediates can share bytes.
 */
final class InceptionModel implements Model {
    @Override
    public String name() {
        return "inception";
    }

    @Override
    public String summary() {
        return "one Inception module: parallel conv/pool branches concatenated in place (planning saves little)";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("branches", "4");
        d.put("channels", "32");
        d.put("image", "28");
        return d;
    }

    @Override
    public Map<String, Integer> limits() {
        return Map.of("branches", 1000);
    }

    @Override
    public Graph build(ModelOptions o) {
        int branches = o.positiveInt("branches");
        long c = o.positiveInt("channels");
        long image = o.positiveInt("image");
        if (c < 4) throw new IllegalArgumentException("model 'inception': option --channels must be at least 4 (branches reduce to channels/4), got " + c);
        NetBuilder net = new NetBuilder("inception", o.dtype());
        String x = net.input("x", false, 1, c, image, image);
        String[] outs = new String[branches];
        for (int i = 0; i < branches; i++) outs[i] = branch(net, "br" + i + ".", i % 4, x, c);
        String cat = net.concatInPlace("concat", 1, outs);
        String y = net.unary(OpKinds.RELU, "relu", cat, true);
        net.output(y);
        return net.build();
    }

    private static String branch(NetBuilder net, String p, int type, String x, long c) {
        switch (type) {
            case 0:
                return net.conv(p + "conv1x1", x, c, 1, 1, 0, true);
            case 1: {
                String r = net.unary(OpKinds.RELU, p + "relu", net.conv(p + "reduce", x, c / 2, 1, 1, 0, true), true);
                return net.conv(p + "conv3x3", r, c, 3, 1, 1, true);
            }
            case 2: {
                String r = net.unary(OpKinds.RELU, p + "relu", net.conv(p + "reduce", x, c / 4, 1, 1, 0, true), true);
                return net.conv(p + "conv5x5", r, c, 5, 1, 2, true);
            }
            default:
                return net.conv(p + "conv1x1", net.maxPool(p + "pool", x, 3, 1, 1), c, 1, 1, 0, true);
        }
    }
}
