package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;

/**
 * Small built equivalents of the shapes that make streams pay: inception blocks (parallel
 * branches joined by a sum), transformer layers (attention heads), a U-Net (skips held across
 * the network). Sizes in bytes, on one stream; the stream assigner spreads them.
 */
public final class StreamGraphsForTests {
    private StreamGraphsForTests() { }

    /** {@code blocks} blocks of {@code branches} branches; branch i has i % 3 + 1 ops and a view. */
    public static Graph inceptionLike(int blocks, int branches) {
        long act = 1 << 20;
        GraphBuilder b = new GraphBuilder("inception-like").tensor("x", act).input("x");
        String in = "x";
        for (int k = 0; k < blocks; k++) {
            String stem = "stem" + k;
            b.tensor(stem, act).op(stem, "Relu").in(in).out(stem).add();
            String[] ends = new String[branches];
            for (int br = 0; br < branches; br++) {
                String cur = stem;
                int len = br % 3 + 1;
                for (int i = 0; i < len; i++) {
                    String t = "b" + k + "_" + br + "_" + i;
                    b.tensor(t, act / 2 * (1 + (br + i) % 2)).op(t, "Relu").in(cur).out(t).add();
                    cur = t;
                }
                String v = "b" + k + "_" + br + "_v";
                b.tensor(v, b.tensorOf(cur).bytes()).op(v, "Reshape").in(cur).out(v).view().add();
                String e = "b" + k + "_" + br + "_e";
                b.tensor(e, act / 4).op(e, "Relu").in(v).out(e).add();
                ends[br] = e;
            }
            String join = "join" + k;
            b.tensor(join, act).op(join, "Sum").in(ends).out(join).add();
            in = join;
        }
        return b.output(in).build();
    }

    /** {@code layers} layers of {@code heads} attention heads (q, k, v, scores, softmax, context) and an MLP. */
    public static Graph transformerLike(int layers, int heads) {
        long d = 1 << 18;
        GraphBuilder b = new GraphBuilder("transformer-like").tensor("x", d).input("x");
        b.tensor("w", 4).weight("w").tensor("ln_s", 4).weight("ln_s").tensor("ln_b", 4).weight("ln_b");
        String in = "x";
        for (int l = 0; l < layers; l++) {
            String ln = "ln" + l;
            b.tensor(ln, d).op(ln, "LayerNormalization").in(in, "ln_s", "ln_b").out(ln).add();
            String[] ctx = new String[heads];
            for (int h = 0; h < heads; h++) {
                String p = "l" + l + "h" + h;
                b.tensor(p + "q", d / heads).op(p + "q", "MatMul").in(ln, "w").out(p + "q").add();
                b.tensor(p + "k", d / heads).op(p + "k", "MatMul").in(ln, "w").out(p + "k").add();
                b.tensor(p + "v", d / heads).op(p + "v", "MatMul").in(ln, "w").out(p + "v").add();
                b.tensor(p + "s", d).op(p + "s", "MatMul").in(p + "q", p + "k").out(p + "s").add();
                b.tensor(p + "p", d).op(p + "p", "Softmax").in(p + "s").out(p + "p").add();
                b.tensor(p + "c", d / heads).op(p + "c", "MatMul").in(p + "p", p + "v").out(p + "c").add();
                ctx[h] = p + "c";
            }
            String cat = "cat" + l;
            b.tensor(cat, d).op(cat, "Concat").in(ctx).out(cat).add();
            String res = "res" + l;
            b.tensor(res, d).op(res, "Add").in(in, cat).out(res).add();
            String up = "up" + l, act = "gelu" + l, down = "down" + l, out = "out" + l;
            b.tensor(up, 4 * d).op(up, "MatMul").in(res, "w").out(up).add();
            b.tensor(act, 4 * d).op(act, "Gelu").in(up).out(act).inPlace().add();
            b.tensor(down, d).op(down, "MatMul").in(act, "w").out(down).add();
            b.tensor(out, d).op(out, "Add").in(res, down).out(out).add();
            in = out;
        }
        return b.output(in).build();
    }

    /** A U-Net of {@code depth} levels: each level's skip is held until the decoder's matching level. */
    public static Graph unetLike(int depth) {
        long base = 1 << 22;
        GraphBuilder b = new GraphBuilder("unet-like").tensor("x", base).input("x").tensor("w", 4).weight("w");
        String in = "x";
        String[] skips = new String[depth];
        for (int l = 0; l < depth; l++) {
            long sz = base >> l;
            String c1 = "enc" + l + "a", c2 = "enc" + l + "b", pool = "pool" + l;
            b.tensor(c1, sz).op(c1, "Conv").in(in, "w").out(c1).add();
            b.tensor(c2, sz).op(c2, "Relu").in(c1).out(c2).add();
            b.tensor(pool, sz / 2).op(pool, "MaxPool").in(c2).out(pool).attr("kernel_shape", new long[]{2, 2}).add();
            skips[l] = c2;
            in = pool;
        }
        String mid = "mid";
        b.tensor(mid, base >> depth).op(mid, "Conv").in(in, "w").out(mid).add();
        in = mid;
        for (int l = depth - 1; l >= 0; l--) {
            long sz = base >> l;
            String up = "up" + l, side = "side" + l, cat = "cat" + l, d1 = "dec" + l;
            b.tensor(up, sz).op(up, "ConvTranspose").in(in, "w").out(up).add();
            b.tensor(side, sz).op(side, "Conv").in(skips[l], "w").out(side).add();
            b.tensor(cat, 2 * sz).op(cat, "Concat").in(up, side).out(cat).add();
            b.tensor(d1, sz).op(d1, "Conv").in(cat, "w").out(d1).add();
            in = d1;
        }
        return b.output(in).build();
    }
}
