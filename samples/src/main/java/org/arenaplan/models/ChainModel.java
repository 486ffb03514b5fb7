package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The textbook six-op chain over [dim, dim] activations. {@code --dim 4096} gives the textbook's
 * 64 MiB float32 activations; the default 256 (256 KiB each) keeps the pure-Java simulator,
 * which runs every built-in model, at a fraction of a second instead of minutes:
 * <pre>
 *   a = MatMul(x, w1)
 *   b = Add(a, bias)          in place over a
 *   g = Gelu(b)               in place over b      (--inplace all)
 *   c = Add(g, x)             in place over g      (--inplace all)
 *   d = LayerNormalization(c)
 *   y = MatMul(d, w2)         graph output
 * </pre>
 * {@code c = Gelu(b) + x} is two ops because the op vocabulary has no fused kind, so the graph
 * has seven activations. {@code --inplace} chooses which in-place hints are declared:
 * {@code none}, {@code bias} (only b over a, the textbook's declaration) or {@code all}.
 * {@code --donate} lets the planner reuse x's bytes after its last read. In units of one
 * activation, storages/sum/lower bound are none 7/7/3, bias 6/6/3, all 4/4/3, and all with
 * x donated 4/4/2: the arena drops to two activations only when the residual add may
 * overwrite g and x stops being pinned.
 */
final class ChainModel implements Model {
    private static final List<String> IN_PLACE = List.of("none", "bias", "all");

    @Override
    public String name() {
        return "chain";
    }

    @Override
    public String summary() {
        return "the textbook chain x -> MatMul -> bias Add -> Gelu -> residual Add -> LayerNorm -> MatMul -> y";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("dim", "256");
        d.put("inplace", "all");
        d.put("donate", "false");
        return d;
    }

    @Override
    public Graph build(ModelOptions o) {
        long n = o.positiveInt("dim");
        String inPlace = o.choice("inplace", IN_PLACE);
        boolean biasInPlace = !inPlace.equals("none");
        boolean restInPlace = inPlace.equals("all");
        NetBuilder net = new NetBuilder("chain", o.dtype());
        String x = net.input("x", o.bool("donate"), n, n);
        String a = net.matmul("a", x, net.weight("w1", n, n));
        String b = net.binary(OpKinds.ADD, "b", a, net.weight("bias", n), biasInPlace);
        String g = net.unary(OpKinds.GELU, "g", b, restInPlace);
        String c = net.binary(OpKinds.ADD, "c", g, x, restInPlace);
        String d = net.layerNorm("d", c, net.weight("ln.scale", n), net.weight("ln.bias", n));
        String y = net.matmul("y", d, net.weight("w2", n, n));
        net.output(y);
        return net.build();
    }
}
