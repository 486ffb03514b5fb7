package org.arenaplan.train;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** FLOPs come from each kind's declared rule (org.arenaplan.ops), counted by hand here. */
class FlopsTest {
    private static long flops(Graph g) {
        return Flops.of(g, g.ops().get(0));
    }

    @Test
    void matmulAndGemmCountTwoPerMultiplyAdd() {
        Graph mm = new GraphBuilder("mm").tensor("a", DType.F32, 5, 2, 3).tensor("b", DType.F32, 3, 4).tensor("y", DType.F32, 5, 2, 4)
                .input("a").weight("b").output("y").op("mm", "MatMul").in("a", "b").out("y").add().build();
        assertThat(flops(mm)).isEqualTo(2L * 5 * 2 * 4 * 3);
        Graph gemm = new GraphBuilder("gemm").tensor("a", DType.F32, 3, 2).tensor("b", DType.F32, 3, 4).tensor("c", DType.F32, 4).tensor("y", DType.F32, 2, 4)
                .input("a").weight("b").weight("c").output("y").op("g", "Gemm").in("a", "b", "c").out("y").attr("transA", 1L).add().build();
        assertThat(flops(gemm)).isEqualTo(2L * 8 * 3 + 8);
    }

    @Test
    void convCountsItsWholeWindowInAnyRank() {
        Graph conv1d = new GraphBuilder("c1").tensor("x", DType.F32, 1, 2, 7).tensor("w", DType.F32, 4, 2, 3).tensor("y", DType.F32, 1, 4, 5)
                .input("x").weight("w").output("y").op("c", "Conv").in("x", "w").out("y").add().build();
        assertThat(flops(conv1d)).isEqualTo(2L * 20 * 2 * 3);
        Graph conv2d = new GraphBuilder("c2").tensor("x", DType.F32, 1, 2, 5, 5).tensor("w", DType.F32, 4, 2, 3, 3).tensor("b", DType.F32, 4)
                .tensor("y", DType.F32, 1, 4, 3, 3).input("x").weight("w").weight("b").output("y").op("c", "Conv").in("x", "w", "b").out("y").add().build();
        assertThat(flops(conv2d)).isEqualTo(2L * 36 * 2 * 9 + 36);
        Graph transposed = new GraphBuilder("ct").tensor("x", DType.F32, 1, 2, 4).tensor("w", DType.F32, 2, 3, 3).tensor("y", DType.F32, 1, 3, 6)
                .input("x").weight("w").output("y").op("ct", "ConvTranspose").in("x", "w").out("y").add().build();
        assertThat(flops(transposed)).as("each input element into M/group x kernel outputs").isEqualTo(2L * 8 * 3 * 3);
    }

    @Test
    void movingBytesAndViewsCountNothingAndOtherKindsOnePerOutputElement() {
        Graph t = new GraphBuilder("t").tensor("x", DType.F32, 2, 3).tensor("y", DType.F32, 3, 2)
                .input("x").output("y").op("t", "Transpose").in("x").out("y").add().build();
        assertThat(flops(t)).isZero();
        Graph view = new GraphBuilder("v").tensor("x", DType.F32, 2, 3).tensor("y", DType.F32, 6)
                .input("x").output("y").op("r", "Reshape").in("x").out("y").view().add().build();
        assertThat(flops(view)).isZero();
        Graph relu = new GraphBuilder("r").tensor("x", DType.F32, 2, 3).tensor("y", DType.F32, 2, 3)
                .input("x").output("y").op("r", "Relu").in("x").out("y").add().build();
        assertThat(flops(relu)).isEqualTo(6);
        Graph pool = new GraphBuilder("p").tensor("x", DType.F32, 1, 1, 4, 4).tensor("y", DType.F32, 1, 1, 2, 2)
                .input("x").output("y").op("p", "MaxPool").in("x").out("y").attr("kernel_shape", new long[]{2, 2}).attr("strides", new long[]{2, 2}).add().build();
        assertThat(flops(pool)).isEqualTo(4 * 4);
    }
}
