package org.arenaplan.onnx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Attribute values read before the opset version that lists them, because torch.onnx writes them
 * there and ONNX Runtime runs them (its kernels for the earlier versions take them): ScatterElements
 * and ScatterND reduction 'max'/'min' at opsets 16 and 17 (listed from 18; TorchScript's
 * {@code scatter_reduce(..., "amax")}) and Pad mode 'wrap' from 11 (listed from 19; the dynamo
 * exporter's circular {@code F.pad} at opset 18). Each was refused ("reduction 'max' needs opset
 * 18", "mode 'wrap' needs opset 19"); ONNX Runtime is the oracle.
 */
class EarlierOpsetValuesTest {
    @TempDir
    Path dir;

    @Test
    void scatterReductionsMaxAndMinAtOpsets16And17AgreeWithOnnxRuntime() throws Exception {
        for (long opset = 16; opset <= 17; opset++) {
            for (String red : List.of("max", "min")) {
                OnnxRuntimeDifferentialTest.agree(dir, new TinyOnnx().opset(opset).input("d", 6L).input("u", 4L).ints("i", 4, 0, 4, 2).output("y")
                        .node("s", "ScatterElements", List.of("d", "i", "u"), List.of("y"), "axis", 0L, "reduction", red), Map.of("d", new long[]{6}, "u", new long[]{4}));
                OnnxRuntimeDifferentialTest.agree(dir, new TinyOnnx().opset(opset).input("d", 6L, 2L).input("u", 2L).ints("k", 3).output("y")
                        .node("s", "ScatterND", List.of("d", "k", "u"), List.of("y"), "reduction", red), Map.of("d", new long[]{6, 2}, "u", new long[]{2}));
            }
        }
    }

    @Test
    void padWrapFromOpset11AgreesWithOnnxRuntime() throws Exception {
        for (long opset : new long[]{11, 13, 18}) {
            OnnxRuntimeDifferentialTest.agree(dir, new TinyOnnx().opset(opset).input("x", 3L, 4L).ints("p", 1, 2, 2, 3).output("y")
                    .node("pad", "Pad", List.of("x", "p"), List.of("y"), "mode", "wrap"), Map.of("x", new long[]{3, 4}));
        }
    }

    @Test
    void padWrapBeforeOpset11IsRefusedNamingTheOpset() throws Exception {
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(10).input("x", 3L, 4L).output("y").node("pad", "Pad", List.of("x"), List.of("y"), "mode", "wrap", "pads", new long[]{1, 2, 2, 3}),
                "mode 'wrap' needs opset 11");
    }
}
