package org.arenaplan.models;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;

import java.util.List;
import java.util.Map;

/**
 * The built-in models that {@code arenaplan plan --model NAME} builds. This build knows only the
 * textbook {@code chain}; the full registry (mlp, transformer, resnet...) replaces this body.
 * Unknown names and options are an {@link IllegalArgumentException} naming them.
 */
public final class BuiltinModels {
    private BuiltinModels() { }

    public static List<String> names() {
        return List.of("chain");
    }

    /**
     * @param options model options without their leading dashes ({@code dtype -> f16})
     */
    public static Graph build(String name, Map<String, String> options) {
        if (!"chain".equals(name)) throw new IllegalArgumentException("unknown model '" + name + "'; known: " + String.join(", ", names()));
        for (String k : options.keySet()) {
            if (!k.equals("dtype")) throw new IllegalArgumentException("model 'chain' has no option --" + k + "; its options: --dtype");
        }
        DType dtype = DType.F32;
        if (options.containsKey("dtype")) {
            dtype = DType.parse(options.get("dtype"));
            if (dtype == null) throw new IllegalArgumentException("model 'chain': unknown --dtype '" + options.get("dtype") + "'");
        }
        return chain(dtype);
    }

    /**
     * x -> a = MatMul(x, w1) -> b = Add(a, bias) -> g = Gelu(b) -> c = Add(g, x) -> d = LayerNorm(c)
     * -> y = MatMul(d, w2); activations [4096, 4096] (64 MiB in f32), elementwise ops may run in place.
     */
    private static Graph chain(DType dt) {
        long n = 4096;
        GraphBuilder b = new GraphBuilder("chain");
        for (String t : List.of("x", "a", "b", "g", "c", "d", "y", "w1", "w2")) b.tensor(t, dt, n, n);
        for (String t : List.of("bias", "ln_scale", "ln_bias")) b.tensor(t, dt, n);
        b.input("x").output("y");
        for (String w : List.of("w1", "w2", "bias", "ln_scale", "ln_bias")) b.weight(w);
        return b.op("mm1", OpKinds.MATMUL).in("x", "w1").out("a").add()
                .op("bias", OpKinds.ADD).in("a", "bias").out("b").inPlace().add()
                .op("gelu", OpKinds.GELU).in("b").out("g").inPlace().add()
                .op("residual", OpKinds.ADD).in("g", "x").out("c").inPlace().add()
                .op("norm", OpKinds.LAYER_NORM).in("c", "ln_scale", "ln_bias").out("d").attr("axis", -1L).attr("epsilon", 1e-5).add()
                .op("mm2", OpKinds.MATMUL).in("d", "w2").out("y").add()
                .build();
    }
}
