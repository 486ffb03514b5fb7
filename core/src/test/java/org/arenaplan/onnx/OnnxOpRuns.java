package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.AllClose;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs small models of single ops through import, planning and the simulator, and compares them with ONNX Runtime. */
final class OnnxOpRuns {
    private OnnxOpRuns() { }

    /** Imports {@code model} (written into {@code dir}), plans it and runs it on the simulator: every graph output. */
    static Map<String, TensorValue> run(Path dir, TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return run(dir, model, Map.of(), inputs);
    }

    /** As {@link #run(Path, TinyOnnx, Map)}, with values for the model's symbolic dims. */
    static Map<String, TensorValue> run(Path dir, TinyOnnx model, Map<String, Long> dims, Map<String, TensorValue> inputs) throws Exception {
        Path file = dir.resolve("m.onnx");
        Files.write(file, model.bytes());
        Graph g = OnnxImporter.load(file, dims);
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            return Executors.run(ArenaPlanner.plan(g), device, List.of(Mode.PLANNED), 1, inputs, 1).last(Mode.PLANNED).outputs();
        }
    }

    /** arenaplan and ONNX Runtime agree on every output: types and shapes equal, integers exactly, floats within rtol/atol. */
    static void agree(Path dir, TinyOnnx model, Map<String, TensorValue> inputs, double rtol, double atol) throws Exception {
        Map<String, TensorValue> want = OrtOracle.run(model.bytes(), inputs);
        Map<String, TensorValue> got = run(dir, model, inputs);
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(want.keySet());
        for (String out : want.keySet()) {
            TensorValue w = want.get(out), m = got.get(out);
            assertThat(m.dtype()).as(out).isEqualTo(w.dtype());
            assertThat(m.shape()).as(out).isEqualTo(w.shape());
            AllClose c = AllClose.compare(m, w, rtol, atol);   // integers exactly
            assertThat(c.ok()).as("output '%s': %s", out, c.describe(w.shape())).isTrue();
        }
    }

    /**
     * ONNX Runtime's outputs and the simulator's in every executor mode (planned, per-tensor, pool,
     * graph) on one validated plan: types and shapes equal, integers exactly, floats within
     * rtol/atol. Returns the planned run's outputs.
     */
    static Map<String, TensorValue> agreeInEveryMode(Path dir, TinyOnnx model, Map<String, TensorValue> in, double rtol, double atol) throws Exception {
        Map<String, TensorValue> want = OrtOracle.run(model.bytes(), in);
        Path file = dir.resolve("m.onnx");
        Files.write(file, model.bytes());
        Graph g = OnnxImporter.load(file, Map.of());
        var plan = ArenaPlanner.plan(g);
        assertThat(org.arenaplan.plan.PlanValidator.validate(plan)).isEmpty();
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            Executors.Comparison runs = Executors.run(plan, device, List.of(Mode.values()), 1, in, 1);
            for (Mode mode : Mode.values()) {
                Map<String, TensorValue> got = runs.last(mode).outputs();
                assertThat(got.keySet()).as(mode.toString()).containsExactlyInAnyOrderElementsOf(want.keySet());
                for (String out : want.keySet()) {
                    TensorValue w = want.get(out), v = got.get(out);
                    assertThat(v.dtype()).as(mode + " " + out).isEqualTo(w.dtype());
                    assertThat(v.shape()).as(mode + " " + out).isEqualTo(w.shape());
                    AllClose c = AllClose.compare(v, w, rtol, atol);
                    assertThat(c.ok()).as("%s output '%s': %s", mode, out, c.describe(w.shape())).isTrue();
                }
            }
            return runs.last(Mode.PLANNED).outputs();
        }
    }

    /** Running {@code model} on {@code in} stops before a launch with a {@code DataException} of exactly {@code message} in every executor mode. */
    static void stopsInEveryMode(Path dir, TinyOnnx model, Map<String, TensorValue> in, String message) throws Exception {
        Path file = dir.resolve("stops.onnx");
        Files.write(file, model.bytes());
        var plan = ArenaPlanner.plan(OnnxImporter.load(file, Map.of()));
        for (Mode mode : Mode.values())
            try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> Executors.run(plan, device, List.of(mode), 1, in, 1)).as(mode.toString())
                        .isInstanceOf(org.arenaplan.device.DataException.class).hasMessage(message);
            }
    }

    /** Importing {@code model} (written into {@code dir}) is refused with one line containing {@code message}. */
    static void refused(Path dir, TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("refused.onnx");
        Files.write(file, model.bytes());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining(message).satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
