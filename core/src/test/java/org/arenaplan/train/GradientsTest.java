package org.arenaplan.train;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@link Gradients#of} refuses before it differentiates. */
class GradientsTest {
    private static GraphBuilder forward() {
        return new GraphBuilder("step").tensor("x", DType.F32, 2, 3).tensor("w", DType.F32, 3, 3).tensor("h", DType.F32, 2, 3).tensor("d", DType.F32, 2, 3)
                .input("x").weight("w").op("mm", "MatMul").in("x", "w").out("h").add();
    }

    /** review2: a graph that already holds a backward-pass op is a training step; differentiating it again failed on some rule of its backward ops instead. */
    @Test
    void aGraphHoldingABackwardOpIsRefusedAsAlreadyATrainingStep() {
        Graph step = forward().output("d").op("g", "ReluGrad").in("h", "h").out("d").add().build();
        assertThatThrownBy(() -> Gradients.of(step)).isInstanceOf(GraphException.class)
                .hasMessage("--train: graph 'step' is already a training step (op 'g' is ReluGrad, a backward-pass op); --train differentiates a forward graph: plan this one without --train");
        Graph fwd = forward().output("d").op("r", "Relu").in("h").out("d").add().build();
        assertThat(Gradients.of(fwd).graph().opCount()).isGreaterThan(fwd.opCount());
    }

    /** frontdoor helper: with no trainable weight behind any output the "training step" was the forward graph alone, planned and run as one. */
    @Test
    void aGraphWithNothingToTrainIsRefused() {
        String why = "--train: graph 'step' has no output that depends on a trainable weight (a weight without a constant fill;";
        Graph noWeight = new GraphBuilder("step").tensor("x", DType.F32, 2, 3).tensor("y", DType.F32, 2, 3).input("x").output("y")
                .op("r", "Relu").in("x").out("y").add().build();
        assertThatThrownBy(() -> Gradients.of(noWeight)).isInstanceOf(GraphException.class).hasMessageStartingWith(why);
        Graph filled = new GraphBuilder("step").tensor("x", DType.F32, 2, 3).tensor("w", DType.F32, 3, 3).tensor("h", DType.F32, 2, 3)
                .input("x").weight("w", 0.5).output("h").op("mm", "MatMul").in("x", "w").out("h").add().build();
        assertThatThrownBy(() -> Gradients.of(filled)).isInstanceOf(GraphException.class).hasMessageStartingWith(why);
    }
}
