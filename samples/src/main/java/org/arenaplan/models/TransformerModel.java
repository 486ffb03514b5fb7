package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stack of pre-norm decoder blocks over x[batch, seq, hidden], then a final LayerNorm:
 * <pre>
 *   ln1 = LayerNorm(h)
 *   q, k, v = MatMul(ln1, Wq | Wk | Wv)                    [B, S, E]
 *   q4, k4, v4 = Reshape views                             [B, S, H, D]   (no device work)
 *   qh = Transpose(q4, 0 2 1 3), kt = Transpose(k4, 0 2 3 1), vh = Transpose(v4, 0 2 1 3)
 *   scores = MatMul(qh, kt) * 1/sqrt(D)  (Mul in place)    [B, H, S, S]
 *   probs = Softmax(scores);  ctx = MatMul(probs, vh)      [B, H, S, D]
 *   merged = Reshape view of Transpose(ctx, 0 2 1 3)       [B, S, E]
 *   h1 = MatMul(merged, Wo) + h            (Add in place)
 *   h2 = MatMul(Gelu(MatMul(LayerNorm(h1), W1) + b1), W2) + h1   (bias, Gelu, residual in place)
 * </pre>
 * The head split and merge are Reshape views; the Transposes that reorder heads are real copies,
 * as in exported ONNX decoders. There is no causal mask: it would add one [S, S] weight and no
 * activation, so the memory is the same.
 */
final class TransformerModel implements Model {
    @Override
    public String name() {
        return "transformer";
    }

    @Override
    public String summary() {
        return "pre-norm decoder blocks: LayerNorm, Q/K/V projections, head views, attention, residual adds, Gelu MLP";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("layers", "2");
        d.put("hidden", "64");
        d.put("seq", "32");
        d.put("heads", "4");
        d.put("batch", "1");
        return d;
    }

    @Override
    public Map<String, Integer> limits() {
        return Map.of("layers", 1000);
    }

    @Override
    public Graph build(ModelOptions o) {
        int layers = o.positiveInt("layers");
        long e = o.positiveInt("hidden");
        long s = o.positiveInt("seq");
        long heads = o.positiveInt("heads");
        long b = o.positiveInt("batch");
        if (e % heads != 0) {
            throw new IllegalArgumentException("model 'transformer': option --hidden (" + e + ") must be a multiple of --heads (" + heads + ")");
        }
        NetBuilder net = new NetBuilder("transformer", o.dtype());
        String h = net.input("x", false, b, s, e);
        for (int l = 0; l < layers; l++) h = block(net, "b" + l + ".", h, b, s, e, heads);
        String y = net.layerNorm("ln_f", h, net.weight("ln_f.scale", e), net.weight("ln_f.bias", e));
        net.output(y);
        return net.build();
    }

    private static String block(NetBuilder net, String p, String h, long b, long s, long e, long heads) {
        long d = e / heads;
        String ln1 = net.layerNorm(p + "ln1", h, net.weight(p + "ln1.scale", e), net.weight(p + "ln1.bias", e));
        String q = net.matmul(p + "q", ln1, net.weight(p + "wq", e, e));
        String k = net.matmul(p + "k", ln1, net.weight(p + "wk", e, e));
        String v = net.matmul(p + "v", ln1, net.weight(p + "wv", e, e));
        String qh = net.transpose(p + "qh", net.view(OpKinds.RESHAPE, p + "q4", q, b, s, heads, d), 0, 2, 1, 3);
        String kt = net.transpose(p + "kt", net.view(OpKinds.RESHAPE, p + "k4", k, b, s, heads, d), 0, 2, 3, 1);
        String vh = net.transpose(p + "vh", net.view(OpKinds.RESHAPE, p + "v4", v, b, s, heads, d), 0, 2, 1, 3);
        String scores = net.matmul(p + "scores", qh, kt);
        String scaled = net.binary(OpKinds.MUL, p + "scaled", scores, net.constant(p + "scale", 1.0 / Math.sqrt(d), 1), true);
        String probs = net.softmaxLastAxis(p + "probs", scaled);
        String ctx = net.matmul(p + "ctx", probs, vh);
        String ctxT = net.transpose(p + "ctxT", ctx, 0, 2, 1, 3);
        String merged = net.view(OpKinds.RESHAPE, p + "merged", ctxT, b, s, e);
        String attn = net.matmul(p + "attn", merged, net.weight(p + "wo", e, e));
        String h1 = net.binary(OpKinds.ADD, p + "res1", attn, h, true);
        String ln2 = net.layerNorm(p + "ln2", h1, net.weight(p + "ln2.scale", e), net.weight(p + "ln2.bias", e));
        String f1 = net.matmul(p + "ff1", ln2, net.weight(p + "w1", e, 4 * e));
        String f1b = net.binary(OpKinds.ADD, p + "ff1.bias", f1, net.weight(p + "b1", 4 * e), true);
        String act = net.unary(OpKinds.GELU, p + "gelu", f1b, true);
        String f2 = net.matmul(p + "ff2", act, net.weight(p + "w2", 4 * e, e));
        return net.binary(OpKinds.ADD, p + "res2", f2, h1, true);
    }
}
