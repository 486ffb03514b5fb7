package org.arenaplan.liveness;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.junit.jupiter.api.Test;

import static org.arenaplan.plan.Fixtures.plan;
import static org.arenaplan.plan.Fixtures.shareBytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-place facts the training optimizers declare ({@code OpSpec.InPlaceGroups}: each output
 * over the input it updates, ONNX ai.onnx.preview.training Adam's X_new over X, V_new over V,
 * H_new over H) as the planner grants them: the updated tensor takes the old one's bytes when
 * nothing later reads the old one, keeps its own when something does, and a hint over another
 * input (the gradient) is refused by the registry.
 */
class OptimizerInPlaceTest {
    private static final long N = 1024;

    /** x, g, v, h computed from the graph input w (arena tensors, not caller-owned); Adam updates them; {@code lateReader} reads x after. */
    private static Graph adam(boolean lateReader, int hintOutput, int hintInput) {
        GraphBuilder g = new GraphBuilder("adam").tensor("w", DType.F32, N).input("w")
                .tensor("r", DType.F32).tensor("t", DType.I64).input("r").input("t");
        for (String s : new String[]{"x", "g", "v", "h", "x_new", "v_new", "h_new", "y"}) g.tensor(s, DType.F32, N);
        for (String s : new String[]{"x", "g", "v", "h"}) g.op("make_" + s, OpKinds.RELU).in("w").out(s).add();
        GraphBuilder.OpBuilder op = g.op("adam", "Adam").in("r", "t", "x", "g", "v", "h").out("x_new", "v_new", "h_new")
                .attr("alpha", 0.9).attr("beta", 0.999).attr("epsilon", 1e-6).attr("norm_coefficient", 0.0).attr("norm_coefficient_post", 0.0)
                .inPlace(1, 4).inPlace(2, 5);
        op.inPlace(hintOutput, hintInput).add();
        g.op("late", OpKinds.ADD).in(lateReader ? "x" : "v_new", "x_new").out("y").add();
        return g.output("y").output("v_new").output("h_new").build();
    }

    @Test
    void eachUpdatedTensorTakesTheOldOnesBytesWhenNothingLaterReadsIt() {
        Plan p = plan(adam(false, 0, 2), "greedy-size");
        assertThat(p.lifetimes().refusals()).isEmpty();
        for (String s : new String[]{"x", "v", "h"}) {
            assertThat(p.lifetimes().storageOf(s + "_new")).as(s).isEqualTo(p.lifetimes().storageOf(s));
            assertThat(shareBytes(p, s, s + "_new")).as(s).isTrue();
        }
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void anUpdateOverATensorReadLaterIsRefusedWithTheReaderAndTheOthersGranted() {
        Plan p = plan(adam(true, 0, 2), "greedy-size");
        assertThat(p.lifetimes().refusals()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(Refusal.Kind.IN_PLACE);
            assertThat(r.tensor()).isEqualTo("x_new");
            assertThat(r.reason()).contains("'x' is read later by op 'late'");
        });
        assertThat(shareBytes(p, "x", "x_new")).isFalse();
        assertThat(p.lifetimes().storageOf("v_new")).isEqualTo(p.lifetimes().storageOf("v"));
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void anUpdateOverTheGradientIsRefusedByTheRegistry() {
        Plan p = plan(adam(false, 0, 3), "greedy-size");
        assertThat(p.lifetimes().refusals()).singleElement().satisfies(r -> assertThat(r.reason())
                .isEqualTo("Adam output #0 may overwrite only input #2, not input #3 (X_new over X, V_new over V, H_new over H (each tensor))"));
        assertThat(shareBytes(p, "g", "x_new")).isFalse();
    }
}
