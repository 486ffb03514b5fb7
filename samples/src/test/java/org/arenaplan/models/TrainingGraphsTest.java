package org.arenaplan.models;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.WeightRegion;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.sim.SimDevice;
import org.arenaplan.train.Gradients;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Training graphs of the built-in models on tiny shapes: they plan validly, run with bit-identical
 * outputs in every mode on the simulator, and every weight gradient matches central finite
 * differences of L = sum(grad.y * y) computed by running the forward graph.
 */
class TrainingGraphsTest {
    private static final long WEIGHT_SEED = 5;

    static Stream<Object[]> models() {
        return Stream.of(
                new Object[]{"mlp", Map.of("layers", "3", "width", "6", "batch", "3")},
                new Object[]{"transformer", Map.of("layers", "2", "hidden", "8", "seq", "4", "heads", "2")},
                new Object[]{"resnet", Map.of("blocks", "1", "channels", "3", "image", "5", "classes", "3")});
    }

    @ParameterizedTest
    @MethodSource("models")
    void gradientsMatchFiniteDifferences(String model, Map<String, String> options) {
        Graph fwd = BuiltinModels.build(model, options);
        Gradients.Training t = Gradients.of(fwd);
        assertThat(t.weightGradients()).isNotEmpty();
        assertThat(PlanValidator.validate(ArenaPlanner.plan(t.graph()))).isEmpty();
        Map<String, TensorValue> inputs = Inputs.of(t.graph(), 3);
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(2).withMaxDelayNanos(20_000))) {
            Executors.Comparison c = Executors.run(ArenaPlanner.plan(t.graph()), d, List.of(Mode.values()), 1, inputs, WEIGHT_SEED);
            assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
            assertThat(d.hazards()).isEmpty();
            Map<String, TensorValue> grads = c.last(Mode.PLANNED).outputs();
            SplittableRandom r = new SplittableRandom(11);
            int checked = 0;
            for (Map.Entry<String, String> e : t.weightGradients().entrySet()) {
                String w = e.getKey();
                float[] g = grads.get(e.getValue()).floats();
                float[] w0 = WeightRegion.values(fwd, fwd.tensor(w), WEIGHT_SEED).floats();
                Graph asInput = weightAsInput(fwd, w);
                for (int k = 0; k < 2; k++) {
                    int i = r.nextInt(w0.length);
                    double h = 1e-2;
                    double up = loss(asInput, d, inputs, w, w0, i, h), down = loss(asInput, d, inputs, w, w0, i, -h);
                    double fd = (up - down) / (2 * h);
                    assertThat(Math.abs(fd - g[i])).as(model + " dL/d" + w + "[" + i + "]: finite difference " + fd + ", gradient " + g[i])
                            .isLessThanOrEqualTo(5e-3 + 3e-2 * Math.max(Math.abs(fd), Math.abs(g[i])));
                    checked++;
                }
            }
            assertThat(checked).isEqualTo(2 * t.weightGradients().size());
        }
    }

    /** L = sum(grad.y * y) of the forward graph with weight {@code w}'s element i moved by h. */
    private static double loss(Graph g, SimDevice d, Map<String, TensorValue> trainInputs, String w, float[] w0, int i, double h) {
        Map<String, TensorValue> in = new LinkedHashMap<>();
        for (String x : g.inputs()) if (!x.equals(w)) in.put(x, trainInputs.get(x));
        float[] wv = w0.clone();
        wv[i] += (float) h;
        in.put(w, TensorValue.ofFloats(g.tensor(w).shape(), wv));
        Map<String, TensorValue> out = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, in, WEIGHT_SEED).last(Mode.PLANNED).outputs();
        double l = 0;
        for (String y : g.outputs()) {
            float[] yv = out.get(y).floats(), seed = trainInputs.get("grad." + y).floats();
            for (int k = 0; k < yv.length; k++) l += (double) yv[k] * seed[k];
        }
        return l;
    }

    private static Graph weightAsInput(Graph g, String w) {
        GraphBuilder b = new GraphBuilder(g.name());
        g.tensors().values().forEach(b::tensor);
        for (String in : g.inputs()) b.input(in, g.isDonated(in));
        b.input(w);
        for (String x : g.weights()) {
            if (x.equals(w)) continue;
            Double fill = g.weightFill(x);
            if (fill == null) b.weight(x);
            else b.weight(x, fill);
        }
        g.ops().forEach(b::add);
        g.outputs().forEach(b::output);
        return b.build();
    }
}
