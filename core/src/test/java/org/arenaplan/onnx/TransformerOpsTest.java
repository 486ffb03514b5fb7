package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transformer ops of opset 23 (RMSNormalization, RotaryEmbedding, Attention) through import,
 * planning and the simulator, against ONNX Runtime and hand-worked values; refusals name the node
 * and the attribute or input.
 */
class TransformerOpsTest {
    @TempDir
    Path dir;

    private Map<String, TensorValue> run(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return OnnxOpRuns.run(dir, model, inputs);
    }

    private void agree(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        OnnxOpRuns.agree(dir, model, inputs, 1e-4, 1e-5);
    }

    static TensorValue x(long seed, long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        return TensorValue.ofFloats(shape, OnnxRuntimeDifferentialTest.random((int) n, seed + n));
    }

    static Map<String, TensorValue> feed(Object... nameValue) {
        Map<String, TensorValue> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) m.put((String) nameValue[i], (TensorValue) nameValue[i + 1]);
        return m;
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void rmsNormalizationOnEveryAxisMatchesTheSpecFormula() throws Exception {
        // ONNX Runtime 1.22 refuses opset 23, so the oracle is the spec's function body written out here:
        // y = x / sqrt(mean(x^2 over the axes from axis on) + epsilon) * scale
        TensorValue in = x(5, 2, 3, 4);
        for (long axis : new long[]{0, 1, 2, -1, -2}) {
            int a = (int) (axis < 0 ? axis + 3 : axis);
            long[] norm = java.util.Arrays.copyOfRange(new long[]{2, 3, 4}, a, 3);
            Object[] dims = java.util.Arrays.stream(norm).boxed().toArray();
            TensorValue s = x(6, norm);
            TinyOnnx m = new TinyOnnx().opset(23).input("x", 2L, 3L, 4L).input("s", dims).output("y")
                    .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y"), "axis", axis, "epsilon", 1e-3);
            float[] got = run(m, feed("x", in, "s", s)).get("y").floats();
            int group = s.floats().length, groups = 24 / group;
            for (int g = 0; g < groups; g++) {
                double squares = 0;
                for (int j = 0; j < group; j++) squares += (double) in.floats()[g * group + j] * in.floats()[g * group + j];
                double inv = 1 / Math.sqrt(squares / group + 1e-3);
                for (int j = 0; j < group; j++)
                    assertThat(got[g * group + j]).as("axis %d, element %d", axis, g * group + j)
                            .isCloseTo((float) (in.floats()[g * group + j] * inv * s.floats()[j]), org.assertj.core.data.Offset.offset(1e-6f));
            }
        }
    }

    @Test
    void rmsNormalizationByHand() throws Exception {
        // one row [1, 2, 3, 4]: mean of squares 7.5; scale [1, 2, 1, 1], epsilon 0
        TinyOnnx m = new TinyOnnx().opset(23).input("x", 1L, 4L).input("s", 4L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y"), "epsilon", 0.0);
        float[] y = run(m, feed("x", TensorValue.ofFloats(new long[]{1, 4}, 1, 2, 3, 4), "s", TensorValue.ofFloats(new long[]{4}, 1, 2, 1, 1))).get("y").floats();
        double r = Math.sqrt(7.5);
        assertThat(y).containsExactly((float) (1 / r), (float) (4 / r), (float) (3 / r), (float) (4 / r));
    }

    @Test
    void rmsNormalizationRefusals() throws Exception {
        refused(new TinyOnnx().opset(23).input("x", 2L, 3L).input("s", 3L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y"), "stash_type", 10L), "stash_type 10 is not supported");
        refused(new TinyOnnx().opset(23).input("x", 2L, 3L).input("s", 2L, 3L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y")), "does not broadcast to the normalised axes [3]");
        refused(new TinyOnnx().opset(22).input("x", 2L, 3L).input("s", 3L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y")), "RMSNormalization");
    }
}
