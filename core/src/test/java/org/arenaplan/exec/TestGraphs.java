package org.arenaplan.exec;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;

import java.util.List;

/** Small executable graphs covering every kernel, views, member slices and in-place ops. */
final class TestGraphs {
    private TestGraphs() { }

    static List<Graph> all() {
        return List.of(mlp(), convNet(), branches());
    }

    /** MatMul, broadcast Add, Relu in place, a view, Gemm, Softmax. */
    static Graph mlp() {
        return CoverageGraphs.mlp("mlp", 4, 16, 32, 8);
    }

    /** Conv, BatchNorm, pools, LRN, concat in place, transpose, LayerNorm, and the other elementwise kinds. */
    static Graph convNet() {
        GraphBuilder b = new GraphBuilder("convnet")
                .tensor("x", DType.F32, 1, 3, 8, 8).tensor("cw", DType.F32, 4, 3, 3, 3).tensor("cb", DType.F32, 4)
                .tensor("c", DType.F32, 1, 4, 8, 8)
                .tensor("s", DType.F32, 4).tensor("bb", DType.F32, 4).tensor("mu", DType.F32, 4).tensor("var", DType.F32, 4)
                .tensor("bn", DType.F32, 1, 4, 8, 8).tensor("r", DType.F32, 1, 4, 8, 8)
                .tensor("l", DType.F32, 1, 4, 8, 8).tensor("mp", DType.F32, 1, 4, 4, 4).tensor("ap", DType.F32, 1, 4, 4, 4)
                .tensor("cat", DType.F32, 2, 4, 4, 4)
                .tensor("mp2", DType.F32, 1, 4, 4, 4).tensor("ap2", DType.F32, 1, 4, 4, 4)
                .tensor("g", DType.F32, 2, 4, 1, 1).tensor("gf", DType.F32, 2, 4)
                .tensor("t", DType.F32, 4, 2).tensor("tt", DType.F32, 2, 4)
                .tensor("ln_s", DType.F32, 4).tensor("ln_b", DType.F32, 4).tensor("ln", DType.F32, 2, 4)
                .tensor("ge", DType.F32, 2, 4).tensor("sg", DType.F32, 2, 4).tensor("th", DType.F32, 2, 4)
                .tensor("sum", DType.F32, 2, 4).tensor("sub", DType.F32, 2, 4).tensor("div", DType.F32, 2, 4)
                .tensor("mul", DType.F32, 2, 4).tensor("rg", DType.F32, 2, 4).tensor("cp", DType.F32, 2, 4)
                .tensor("cat2", DType.F32, 2, 12)
                .input("x").weight("cw").weight("cb").weight("s").weight("bb").weight("mu").weight("var")
                .weight("ln_s").weight("ln_b").output("cat2").output("cat");
        b.op("conv", OpKinds.CONV).in("x", "cw", "cb").out("c").attr("pads", new long[]{1, 1, 1, 1}).add()
                .op("bn", OpKinds.BATCH_NORM).in("c", "s", "bb", "mu", "var").out("bn").add()
                .op("relu", OpKinds.RELU).in("bn").out("r").inPlace().add()
                .op("lrn", OpKinds.LRN).in("r").out("l").attr("size", 3L).add()
                .op("mp", OpKinds.MAX_POOL).in("l").out("mp").attr("kernel_shape", new long[]{2, 2}).attr("strides", new long[]{2, 2}).add()
                .op("ap", OpKinds.AVERAGE_POOL).in("r").out("ap").attr("kernel_shape", new long[]{3, 3}).attr("strides", new long[]{2, 2})
                .attr("pads", new long[]{1, 1, 1, 1}).attr("count_include_pad", 1L).add()
                .op("cat", OpKinds.CONCAT).in("mp", "ap").out("cat").attr("axis", 0L).member(0, 0, 0).member(1, 0, 256).add()
                .op("mp2", OpKinds.RELU).in("mp").out("mp2").add()
                .op("ap2", OpKinds.TANH).in("ap").out("ap2").add()
                .op("gap", OpKinds.GLOBAL_AVERAGE_POOL).in("cat").out("g").add()
                .op("flat", OpKinds.FLATTEN).in("g").out("gf").view().add()
                .op("tr", OpKinds.TRANSPOSE).in("gf").out("t").attr("perm", new long[]{1, 0}).add()
                .op("tr2", OpKinds.TRANSPOSE).in("t").out("tt").add()
                .op("ln", OpKinds.LAYER_NORM).in("tt", "ln_s", "ln_b").out("ln").add()
                .op("gelu", OpKinds.GELU).in("ln").out("ge").add()
                .op("sig", OpKinds.SIGMOID).in("ln").out("sg").add()
                .op("th", OpKinds.TANH).in("gf").out("th").add()
                .op("sum", "Sum").in("ge", "sg", "th").out("sum").add()
                .op("sub", OpKinds.SUB).in("sum", "ge").out("sub").add()
                .op("div", "Div").in("sub", "ln_s").out("div").add()
                .op("mul", OpKinds.MUL).in("div", "sg").out("mul").add()
                .op("rg", OpKinds.RELU_GRAD).in("mul", "ln").out("rg").add()
                .op("cp", OpKinds.COPY).in("rg").out("cp").add()
                .op("cat2", OpKinds.CONCAT).in("cp", "sum", "mul").out("cat2").attr("axis", 1L).add();
        return b.build();
    }

    /** Four independent branches joined by a Sum: made for several streams. */
    static Graph branches() {
        GraphBuilder b = new GraphBuilder("branches").tensor("x", DType.F32, 8, 16).input("x");
        String[] ends = new String[4];
        for (int k = 0; k < 4; k++) {
            String w = "w" + k, h = "h" + k, r = "r" + k, v = "v" + k, o = "o" + k;
            b.tensor(w, DType.F32, 16, 16).tensor(h, DType.F32, 8, 16).tensor(r, DType.F32, 8, 16)
                    .tensor(v, DType.F32, 128).tensor(o, DType.F32, 128).weight(w);
            b.op("mm" + k, OpKinds.MATMUL).in("x", w).out(h).add()
                    .op("relu" + k, OpKinds.RELU).in(h).out(r).inPlace().add()
                    .op("flat" + k, OpKinds.RESHAPE).in(r).out(v).view().add()
                    .op("sig" + k, OpKinds.SIGMOID).in(v).out(o).add();
            ends[k] = o;
        }
        b.tensor("y", DType.F32, 128).output("y").op("join", "Sum").in(ends).out("y").add();
        return b.build();
    }
}
