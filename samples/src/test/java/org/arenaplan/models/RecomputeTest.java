package org.arenaplan.models;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.sim.SimDevice;
import org.arenaplan.train.Gradients;
import org.arenaplan.train.Recompute;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Recomputation under a memory budget: it fits, it is checked, it gives the same bits, and the greedy is compared with the exact answer. */
class RecomputeTest {
    private static final long ALIGN = ArenaPlanner.CUDA_ALIGNMENT;

    private static Gradients.Training train(String model, Map<String, String> options) {
        return Gradients.of(BuiltinModels.build(model, options));
    }

    @Test
    void theGreedyFitsTheBudgetAndIsNeverBelowTheExactAnswer() {
        List<Object[]> cases = List.of(
                new Object[]{"mlp", Map.of("layers", "6", "width", "16", "batch", "64")},
                new Object[]{"transformer", Map.of("layers", "1", "hidden", "16", "seq", "32", "heads", "2")},
                new Object[]{"resnet", Map.of("blocks", "1", "channels", "4", "image", "16", "classes", "3")});
        int compared = 0;
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Gradients.Training t = train((String) c[0], (Map<String, String>) c[1]);
            long without = Recompute.none(t, ALIGN).peak();
            for (double f : new double[]{0.9, 0.75, 0.6}) {
                long budget = (long) (f * without);
                Recompute.Result exact;
                try {
                    exact = Recompute.exact(t, budget, ALIGN, 12);
                } catch (IllegalArgumentException e) {
                    break;   // too many units to enumerate
                } catch (Recompute.BudgetException e) {
                    assertThatThrownBy(() -> Recompute.forBudget(t, budget, ALIGN, Duration.ofSeconds(10))).isInstanceOf(Recompute.BudgetException.class);
                    continue;
                }
                Recompute.Result greedy = Recompute.forBudget(t, budget, ALIGN, Duration.ofSeconds(10));
                assertThat(greedy.peak()).as(c[0] + " at " + f).isLessThanOrEqualTo(budget);
                assertThat(exact.peak()).isLessThanOrEqualTo(budget);
                assertThat(greedy.extraFlops()).as(c[0] + " at " + f).isGreaterThanOrEqualTo(exact.extraFlops());
                System.out.printf("recompute %s at %.0f %%: exact %d extra FLOPs, greedy %d%n", c[0], 100 * f, exact.extraFlops(), greedy.extraFlops());
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(3);
    }

    @Test
    void recomputedRunsGiveTheSameBitsAndTheRecomputedValuesEqualTheOriginals() {
        for (Object[] c : List.<Object[]>of(
                new Object[]{"transformer", Map.of("layers", "2", "hidden", "8", "seq", "8", "heads", "2")},
                new Object[]{"resnet", Map.of("blocks", "2", "channels", "3", "image", "6", "classes", "3")},
                new Object[]{"mlp", Map.of("layers", "6", "width", "16", "batch", "64")})) {
            @SuppressWarnings("unchecked")
            Gradients.Training t = train((String) c[0], (Map<String, String>) c[1]);
            Recompute.Result sqrt = Recompute.sqrtN(t, ALIGN);
            Recompute.Result auto = Recompute.forBudget(t, Recompute.none(t, ALIGN).peak() - 1, ALIGN, Duration.ofSeconds(10));
            for (Recompute.Result r : List.of(sqrt, auto)) {
                assertThat(r.recomputed()).as(c[0] + " " + r.method()).isNotEmpty();
                assertThat(PlanValidator.validate(ArenaPlanner.plan(r.graph()))).isEmpty();
                Map<String, org.arenaplan.ir.TensorValue> inputs = Inputs.of(t.graph(), 4);
                try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(3).withMaxDelayNanos(20_000))) {
                    var base = Executors.run(ArenaPlanner.plan(t.graph()), d, List.of(Mode.PLANNED), 1, inputs, 7);
                    var re = Executors.run(ArenaPlanner.plan(r.graph()), d, List.of(Mode.values()), 1, inputs, 7);
                    assertThat(re.outputsEqual()).as(re.firstDifference()).isTrue();
                    assertThat(Executors.difference(base.last(Mode.PLANNED), re.last(Mode.PLANNED))).as(c[0] + " " + r.method()).isNull();
                    // every recomputed tensor next to its original, both as outputs
                    var both = Executors.run(ArenaPlanner.plan(withOutputs(r.graph(), r.recomputed())), d, List.of(Mode.PLANNED), 1, inputs, 7)
                            .last(Mode.PLANNED).outputs();
                    for (String x : r.recomputed())
                        assertThat(both.get(x + ".re")).as(c[0] + " " + x).isEqualTo(both.get(x));
                    assertThat(d.hazards()).isEmpty();
                }
            }
        }
    }

    @Test
    void aBudgetBelowWhatAnyChoiceReachesIsRefusedWithTheSmallestThatFits() {
        Gradients.Training t = train("mlp", Map.of("layers", "3", "width", "16", "batch", "64"));
        assertThatThrownBy(() -> Recompute.forBudget(t, 1024, ALIGN, Duration.ofSeconds(5)))
                .isInstanceOf(Recompute.BudgetException.class)
                .hasMessageContaining("the smallest budget that fits is")
                .satisfies(e -> {
                    long smallest = ((Recompute.BudgetException) e).smallestBytes();
                    assertThat(Recompute.forBudget(t, smallest, ALIGN, Duration.ofSeconds(5)).peak()).isLessThanOrEqualTo(smallest);
                });
    }

    private static Graph withOutputs(Graph g, List<String> extra) {
        GraphBuilder b = GraphBuilder.declarationsOf(g);
        g.ops().forEach(b::add);
        g.outputs().forEach(b::output);
        for (String x : extra) {
            b.output(x);
            b.output(x + ".re");
        }
        return b.build();
    }
}
