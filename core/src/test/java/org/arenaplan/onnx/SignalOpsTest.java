package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** DFT and STFT through import, planning and the simulator: hand-worked transforms, ONNX Runtime, and refusals. */
class SignalOpsTest {
    @TempDir
    Path dir;

    private static TensorValue random(long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        return TensorValue.ofFloats(shape, OnnxRuntimeDifferentialTest.random((int) n, 17 + n));
    }

    @Test
    void dftOfFourSamplesByHandAndItsIrfftBack() throws Exception {
        // x = [1, 2, 3, 4]: X = [10, -2 + 2i, -2, -2 - 2i]; onesided keeps bins 0..2; irfft of those (L = 4) gives x again
        TinyOnnx fwd = new TinyOnnx().opset(20).input("x", 1L, 4L, 1L).scalar("axis", 1).output("y")
                .node("dft", "DFT", List.of("x", "", "axis"), List.of("y"), "onesided", 1L);
        TensorValue y = OnnxOpRuns.run(dir, fwd, Map.of("x", TensorValue.ofFloats(new long[] {1, 4, 1}, new float[] {1, 2, 3, 4}))).get("y");
        assertThat(y.shape()).containsExactly(1, 3, 2);
        double[] want = {10, 0, -2, 2, -2, 0};
        for (int i = 0; i < want.length; i++) assertThat(y.doubles()[i]).as("element %d", i).isCloseTo(want[i], within(1e-5));
        TinyOnnx inv = new TinyOnnx().opset(19).input("x", 1L, 3L, 2L).output("y")
                .node("dft", "DFT", List.of("x"), List.of("y"), "onesided", 1L, "inverse", 1L, "axis", 1L);
        TensorValue back = OnnxOpRuns.run(dir, inv, Map.of("x", TensorValue.ofFloats(new long[] {1, 3, 2}, new float[] {10, 0, -2, 2, -2, 0}))).get("y");
        assertThat(back.shape()).containsExactly(1, 4, 1);
        for (int i = 0; i < 4; i++) assertThat(back.doubles()[i]).isCloseTo(i + 1, within(1e-5));
    }

    @Test
    void dftAgreesWithOnnxRuntime() throws Exception {
        // opset 17: axis attribute, dft_length input (padding 5 -> 7), real input, inner dims after the axis
        TinyOnnx pad = new TinyOnnx().opset(17).input("x", 2L, 5L, 3L, 1L).scalar("n", 7).output("y")
                .node("dft", "DFT", List.of("x", "n"), List.of("y"), "axis", 1L);
        OnnxOpRuns.agree(dir, pad, Map.of("x", random(2, 5, 3, 1)), 1e-4, 1e-4);
        // opset 20: complex inverse along axis -3 (= 1 of rank 4), cut to 4 samples
        TinyOnnx inverse = new TinyOnnx().opset(20).input("x", 2L, 6L, 3L, 2L).scalar("n", 4).scalar("axis", -3).output("y")
                .node("dft", "DFT", List.of("x", "n", "axis"), List.of("y"), "inverse", 1L);
        OnnxOpRuns.agree(dir, inverse, Map.of("x", random(2, 6, 3, 2)), 1e-4, 1e-4);
    }

    @Test
    void stftWithAWindowAgreesWithOnnxRuntime() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 2L, 20L, 1L).scalar("step", 3).input("w", 6L).scalar("len", 6).output("y")
                .node("stft", "STFT", List.of("x", "step", "w", "len"), List.of("y"));
        OnnxOpRuns.agree(dir, m, Map.of("x", random(2, 20, 1), "w", random(6)), 1e-4, 1e-4);
    }

    @Test
    void stftOfARankTwoRealSignalAgreesWithOnnxRuntime() throws Exception {
        // PyTorch's TorchScript exporter (torch.stft at opset 17) hands STFT the signal as [batch, length];
        // ONNX Runtime reads it as real, as [batch, length, 1]. With a window, and without one (window input left empty).
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 2L, 40L).scalar("step", 4).input("w", 8L).scalar("len", 8).output("y")
                .node("stft", "STFT", List.of("x", "step", "w", "len"), List.of("y"));
        OnnxOpRuns.agree(dir, m, Map.of("x", random(2, 40), "w", random(8)), 1e-4, 1e-4);
        TinyOnnx plain = new TinyOnnx().opset(17).input("x", 3L, 10L).scalar("step", 2).scalar("len", 4).output("y")
                .node("stft", "STFT", List.of("x", "step", "", "len"), List.of("y"), "onesided", 0L);
        OnnxOpRuns.agree(dir, plain, Map.of("x", random(3, 10)), 1e-4, 1e-4);
    }

    @Test
    void refusesTheLastAxisAndAComputedLength() throws Exception {
        TinyOnnx last = new TinyOnnx().opset(17).input("x", 2L, 5L, 1L).output("y").node("dft", "DFT", List.of("x"), List.of("y"), "axis", 2L);
        OnnxOpRuns.refused(dir, last, "axis 2 must be in [-3, -2] or [0, 1]");
        TinyOnnx computed = new TinyOnnx().opset(17).input("x", 2L, 5L, 1L).input(OnnxDTypes.INT64, "n").output("y")
                .node("dft", "DFT", List.of("x", "n"), List.of("y"), "axis", 1L);
        OnnxOpRuns.refused(dir, computed, "dft_length (input #1 'n') must be a constant known at import time");
        TinyOnnx attr = new TinyOnnx().opset(20).input("x", 2L, 5L, 1L).output("y").node("dft", "DFT", List.of("x"), List.of("y"), "axis", 1L);
        OnnxOpRuns.refused(dir, attr, "takes its axis as input #2 from opset 20");
    }
}
