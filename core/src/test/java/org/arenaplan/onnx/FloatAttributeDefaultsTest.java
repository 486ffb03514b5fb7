package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A FLOAT attribute left out takes its default as float32, as ONNX's {@code AttributeProto}
 * ({@code float f}) and ONNX Runtime hold it ({@link org.arenaplan.ir.AttrSpec}): with no
 * attributes, arenaplan's outputs equal ONNX Runtime's bit for bit on inputs where the nearer
 * double default gave another last bit (LeakyRelu(-5): -0.049999997 with alpha 0.01f,
 * -0.0500000007 with the double 0.01).
 */
class FloatAttributeDefaultsTest {
    @TempDir
    Path dir;

    /** {@code op} with no attributes on {@code x} (f32, [n]): arenaplan's output bit for bit ONNX Runtime's. */
    private void sameBitsAsOnnxRuntime(String op, float... x) throws Exception {
        TinyOnnx m = new TinyOnnx().opset(18).input("x", (long) x.length).output("y", (long) x.length).node("n", op, List.of("x"), List.of("y"));
        Map<String, TensorValue> in = Map.of("x", TensorValue.ofFloats(new long[]{x.length}, x));
        sameBits(op + " on " + Arrays.toString(x), OrtOracle.run(m.bytes(), in), OnnxOpRuns.run(dir, m, in));
    }

    private static void sameBits(String what, Map<String, TensorValue> want, Map<String, TensorValue> got) {
        assertThat(got.keySet()).as(what).containsExactlyInAnyOrderElementsOf(want.keySet());
        for (String out : want.keySet()) {
            float[] w = want.get(out).floats(), g = got.get(out).floats();
            assertThat(bits(g)).as("%s, output '%s': arenaplan %s, ONNX Runtime %s", what, out, Arrays.toString(g), Arrays.toString(w)).containsExactly(bits(w));
        }
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) b[i] = Float.floatToRawIntBits(v[i]);
        return b;
    }

    @Test
    void leakyReluDefaultAlphaIsTheFloat32Of001() throws Exception {
        sameBitsAsOnnxRuntime("LeakyRelu", -5f, -2.5f, -5.75f, -3.75f, 1.5f);
    }

    @Test
    void hardSigmoidDefaultAlphaAndBetaAreFloat32() throws Exception {
        sameBitsAsOnnxRuntime("HardSigmoid", -2f, -1.5f, -2.1f, 3f);
    }

    @Test
    void seluDefaultAlphaAndGammaAreFloat32() throws Exception {
        sameBitsAsOnnxRuntime("Selu", 0.2f, 0.4f, 1.25f, -0.3f);
    }

    /** Elu's default alpha 1.0 is a float32 already: a guard, not a change. */
    @Test
    void eluDefaultAlphaMatchesOnnxRuntime() throws Exception {
        sameBitsAsOnnxRuntime("Elu", -1f, -0.5f, 2f);
    }

    /**
     * LayerNormalization's default epsilon 1e-5 as float32 (9.99999974737875e-6): a row of
     * variance 4.6e-7 gives InvStdDev 309.22855 with it, 309.2285 with the double 1e-5. (Y is
     * not compared bit for bit: ONNX Runtime computes it in float, arenaplan in double.)
     */
    @Test
    void layerNormalizationDefaultEpsilonIsFloat32() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 1L, 2L).raw("s", new float[]{1, 1}, 2)
                .output("y", 1L, 2L).output("mean", 1L, 1L).output("inv", 1L, 1L)
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y", "mean", "inv"));
        Map<String, TensorValue> in = Map.of("x", TensorValue.ofFloats(new long[]{1, 2}, -0.0009393079672008753f, 0.00041393018909730017f));
        float want = OrtOracle.run(m.bytes(), in).get("inv").floats()[0], got = OnnxOpRuns.run(dir, m, in).get("inv").floats()[0];
        assertThat(Float.floatToRawIntBits(got)).as("InvStdDev: arenaplan %s, ONNX Runtime %s", got, want).isEqualTo(Float.floatToRawIntBits(want));
    }
}
