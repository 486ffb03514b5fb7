package org.arenaplan.gpu;

import java.util.ArrayList;
import java.util.List;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;

/** The graphs the GPU tests run in every mode. */
public final class GpuGraphs {
    private GpuGraphs() { }

    public static List<Graph> all() {
        List<Graph> graphs = new ArrayList<>(List.of(mlp(), convNet()));
        for (String m : org.arenaplan.models.BuiltinModels.names()) graphs.add(org.arenaplan.models.BuiltinModels.build(m, java.util.Map.of()));
        return graphs;
    }

    /** MatMul, broadcast Add and Relu in place, a view, Gemm with transposed B, Softmax. */
    public static Graph mlp() {
        return org.arenaplan.exec.CoverageGraphs.mlp("gpu-mlp", 64, 256, 512, 128);
    }

    /** Conv, BatchNorm, Relu, pools, LRN, concat in place, global pool, flatten, LayerNorm, Gelu. */
    public static Graph convNet() {
        return new GraphBuilder("gpu-convnet")
                .tensor("x", DType.F32, 2, 3, 32, 32).tensor("cw", DType.F32, 16, 3, 3, 3).tensor("cb", DType.F32, 16)
                .tensor("c", DType.F32, 2, 16, 32, 32)
                .tensor("s", DType.F32, 16).tensor("bb", DType.F32, 16).tensor("mu", DType.F32, 16).tensor("var", DType.F32, 16)
                .tensor("bn", DType.F32, 2, 16, 32, 32).tensor("r", DType.F32, 2, 16, 32, 32).tensor("l", DType.F32, 2, 16, 32, 32)
                .tensor("mp", DType.F32, 2, 16, 16, 16).tensor("ap", DType.F32, 2, 16, 16, 16)
                .tensor("cat", DType.F32, 4, 16, 16, 16)
                .tensor("g", DType.F32, 4, 16, 1, 1).tensor("gf", DType.F32, 4, 16)
                .tensor("ln_s", DType.F32, 16).tensor("ln_b", DType.F32, 16).tensor("ln", DType.F32, 4, 16).tensor("ge", DType.F32, 4, 16)
                .input("x").weight("cw").weight("cb").weight("s").weight("bb").weight("mu").weight("var")
                .weight("ln_s").weight("ln_b").output("ge")
                .op("conv", OpKinds.CONV).in("x", "cw", "cb").out("c").attr("pads", new long[] {1, 1, 1, 1}).add()
                .op("bn", OpKinds.BATCH_NORM).in("c", "s", "bb", "mu", "var").out("bn").add()
                .op("relu", OpKinds.RELU).in("bn").out("r").inPlace().add()
                .op("lrn", OpKinds.LRN).in("r").out("l").attr("size", 3L).add()
                .op("mp", OpKinds.MAX_POOL).in("l").out("mp").attr("kernel_shape", new long[] {2, 2}).attr("strides", new long[] {2, 2}).add()
                .op("ap", OpKinds.AVERAGE_POOL).in("r").out("ap").attr("kernel_shape", new long[] {3, 3}).attr("strides", new long[] {2, 2})
                .attr("pads", new long[] {1, 1, 1, 1}).attr("count_include_pad", 1L).add()
                .op("cat", OpKinds.CONCAT).in("mp", "ap").out("cat").attr("axis", 0L).member(0, 0, 0).member(1, 0, 2L * 16 * 16 * 16 * 4).add()
                .op("gap", OpKinds.GLOBAL_AVERAGE_POOL).in("cat").out("g").add()
                .op("flat", OpKinds.FLATTEN).in("g").out("gf").view().add()
                .op("ln", OpKinds.LAYER_NORM).in("gf", "ln_s", "ln_b").out("ln").add()
                .op("gelu", OpKinds.GELU).in("ln").out("ge").add()
                .build();
    }

    /**
     * The hazard graph, on two streams: a = relu(x) (s0); y = copy(a), the slow reader (s1);
     * b = tanh(x2) (s0), whose bytes an unsafe planner puts where a lives, because by schedule
     * position a is dead after y is issued; nothing orders the slow read before b's write.
     */
    public static Graph hazard(int n) {
        return new GraphBuilder("gpu-hazard")
                .tensor("x", DType.F32, n).tensor("x2", DType.F32, n).tensor("a", DType.F32, n)
                .tensor("y", DType.F32, n).tensor("b", DType.F32, n).tensor("c", DType.F32, n)
                .input("x").input("x2").output("y").output("c")
                .op("relu", OpKinds.RELU).in("x").out("a").add()
                .op("slow", OpKinds.COPY).in("a").out("y").stream(1).add()
                .op("tanh", OpKinds.TANH).in("x2").out("b").add()
                .op("sig", OpKinds.SIGMOID).in("b").out("c").add()
                .build();
    }
}
