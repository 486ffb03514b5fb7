package org.arenaplan.exec;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;

/** Graphs that exercise executors and kernels, at any size: the simulator's tests and the GPU tests run the same ones. */
public final class CoverageGraphs {
    private CoverageGraphs() { }

    /**
     * MatMul, broadcast Add and Relu in place, an Identity view, Gemm with transposed B, Softmax:
     * x[batch, in] -> h[batch, hidden] -> y[batch, out].
     */
    public static Graph mlp(String name, long batch, long in, long hidden, long out) {
        return new GraphBuilder(name)
                .tensor("x", DType.F32, batch, in).tensor("w1", DType.F32, in, hidden).tensor("b1", DType.F32, hidden)
                .tensor("h", DType.F32, batch, hidden).tensor("hb", DType.F32, batch, hidden).tensor("hr", DType.F32, batch, hidden)
                .tensor("hv", DType.F32, batch, hidden).tensor("w2", DType.F32, out, hidden).tensor("b2", DType.F32, out)
                .tensor("z", DType.F32, batch, out).tensor("y", DType.F32, batch, out)
                .input("x").weight("w1").weight("b1").weight("w2").weight("b2").output("y")
                .op("mm", OpKinds.MATMUL).in("x", "w1").out("h").add()
                .op("bias", OpKinds.ADD).in("h", "b1").out("hb").inPlace().add()
                .op("relu", OpKinds.RELU).in("hb").out("hr").inPlace().add()
                .op("id", OpKinds.IDENTITY).in("hr").out("hv").view().add()
                .op("fc", OpKinds.GEMM).in("hv", "w2", "b2").out("z").attr("transB", 1L).add()
                .op("sm", OpKinds.SOFTMAX).in("z").out("y").add()
                .build();
    }
}
