package org.arenaplan.ops;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EpilogueFusion}: which epilogues fold (and which must not), the intermediates leaving the
 * graph and the plan, and fused and unfused runs giving the same bits on the simulator in every
 * executor mode.
 */
class EpilogueFusionTest {
    /**
     * x [2, 3, 9, 9] -> conv1 (bias, stride 2, pad 1) -> relu1 -> conv2 (group 2, no bias) -> relu2
     * -> conv3 -> relu3, conv3's output also a graph output (not fused); m [4, 6] -> MatMul -> Add(b [5])
     * -> Relu; m2 -> MatMul -> Add(b [5] first) -> Sigmoid (the Add folds, the Sigmoid does not);
     * a MatMul whose Add's operand is computed after it (not fused).
     */
    static Graph graph() {
        GraphBuilder g = new GraphBuilder("fusable")
                .tensor("x", DType.F32, 2, 3, 9, 9).input("x")
                .tensor("w1", DType.F32, 8, 3, 3, 3).weight("w1").tensor("b1", DType.F32, 8).weight("b1")
                .tensor("c1", DType.F32, 2, 8, 5, 5).tensor("r1", DType.F32, 2, 8, 5, 5)
                .tensor("w2", DType.F32, 6, 4, 3, 3).weight("w2")
                .tensor("c2", DType.F32, 2, 6, 5, 5).tensor("r2", DType.F32, 2, 6, 5, 5)
                .tensor("w3", DType.F32, 4, 6, 1, 1).weight("w3")
                .tensor("c3", DType.F32, 2, 4, 5, 5).tensor("r3", DType.F32, 2, 4, 5, 5)
                .tensor("m", DType.F32, 4, 6).input("m").tensor("wm", DType.F32, 6, 5).weight("wm").tensor("bm", DType.F32, 5).weight("bm")
                .tensor("z", DType.F32, 4, 5).tensor("zb", DType.F32, 4, 5).tensor("y", DType.F32, 4, 5)
                .tensor("z2", DType.F32, 4, 5).tensor("zb2", DType.F32, 4, 5).tensor("s2", DType.F32, 4, 5)
                .tensor("z3", DType.F32, 4, 5).tensor("late", DType.F32, 5).tensor("zb3", DType.F32, 4, 5);
        g.op("conv1", OpKinds.CONV).in("x", "w1", "b1").out("c1").attr("strides", new long[]{2, 2}).attr("pads", new long[]{1, 1, 1, 1}).add();
        g.op("relu1", OpKinds.RELU).in("c1").out("r1").inPlace().add();
        g.op("conv2", OpKinds.CONV).in("r1", "w2").out("c2").attr("pads", new long[]{1, 1, 1, 1}).attr("group", 2L).add();
        g.op("relu2", OpKinds.RELU).in("c2").out("r2").add();
        g.op("conv3", OpKinds.CONV).in("r2", "w3").out("c3").add();
        g.op("relu3", OpKinds.RELU).in("c3").out("r3").add();
        g.op("mm", OpKinds.MATMUL).in("m", "wm").out("z").add();
        g.op("bias", OpKinds.ADD).in("z", "bm").out("zb").add();
        g.op("relu", OpKinds.RELU).in("zb").out("y").inPlace().add();
        g.op("mm2", OpKinds.MATMUL).in("m", "wm").out("z2").add();
        g.op("bias2", OpKinds.ADD).in("bm", "z2").out("zb2").add();
        g.op("sig", OpKinds.SIGMOID).in("zb2").out("s2").add();
        g.op("mm3", OpKinds.MATMUL).in("m", "wm").out("z3").add();
        g.op("late", OpKinds.TANH).in("bm").out("late").add();
        g.op("bias3", OpKinds.ADD).in("z3", "late").out("zb3").add();
        return g.output("r3").output("c3").output("y").output("s2").output("zb3").build();
    }

    @Test
    void foldsWhatTheRulesAllowAndNothingElse() {
        EpilogueFusion.Result r = EpilogueFusion.fuse(graph());
        assertThat(r.fused()).containsExactly("conv1+relu1", "conv2+relu2", "mm+bias+relu", "mm2+bias2");
        List<String> kinds = r.graph().ops().stream().map(Op::kind).toList();
        assertThat(kinds).containsExactly(OpKinds.FUSED_CONV, OpKinds.FUSED_CONV, OpKinds.CONV, OpKinds.RELU, OpKinds.FUSED_GEMM,
                OpKinds.GEMM, OpKinds.SIGMOID, OpKinds.MATMUL, OpKinds.TANH, OpKinds.ADD);
        assertThat(r.graph().tensors().keySet()).doesNotContain("c1", "c2", "z", "zb", "z2").contains("c3", "z3", "r1", "y", "zb2");
        Op gemm = r.graph().ops().get(4);
        assertThat(gemm.inputs()).containsExactly("m", "wm", "bm");
        assertThat(gemm.outputs()).containsExactly("y");
        assertThat(gemm.attrs()).containsEntry("activation", OpKinds.RELU).containsEntry("beta", 1.0);
    }

    @Test
    void aGraphWithNothingToFuseComesBackAsItIs() {
        Graph g = new GraphBuilder("plain").tensor("x", DType.F32, 4).input("x").tensor("y", DType.F32, 4)
                .op("t", OpKinds.TANH).in("x").out("y").add().output("y").build();
        assertThat(EpilogueFusion.fuse(g).graph()).isSameAs(g);
    }

    @Test
    void fusedAndUnfusedRunsGiveTheSameBitsInEveryMode() {
        Graph plain = graph(), fused = EpilogueFusion.fuse(plain).graph();
        Plan a = ArenaPlanner.plan(plain), b = ArenaPlanner.plan(fused);
        assertThat(PlanValidator.validate(b)).isEmpty();
        assertThat(b.graph().tensors()).hasSizeLessThan(a.graph().tensors().size());
        try (SimDevice d1 = SimDevice.open(DeviceOptions.DEFAULT); SimDevice d2 = SimDevice.open(DeviceOptions.DEFAULT)) {
            Executors.Comparison u = Executors.runAllModes(a, d1), f = Executors.runAllModes(b, d2);
            assertThat(u.outputsEqual()).isTrue();
            assertThat(f.outputsEqual()).as(f.firstDifference()).isTrue();
            for (Mode m : Mode.values()) assertThat(Executors.difference(u.last(Mode.PLANNED), f.last(m))).as(m.toString()).isNull();
            // relu did something: some outputs of the fused relus are 0, some positive
            float[] y = f.last(Mode.PLANNED).outputs().get("y").floats();
            int zeros = 0, positive = 0;
            for (float v : y) if (v == 0f) zeros++; else if (v > 0) positive++;
            assertThat(zeros).isPositive();
            assertThat(positive).isPositive();
        }
    }
}
