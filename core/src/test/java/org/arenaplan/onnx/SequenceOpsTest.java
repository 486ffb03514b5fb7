package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ReverseSequence through import, planning and the simulator: by hand, against ONNX Runtime, and a length out of range. */
class SequenceOpsTest {
    @TempDir
    Path dir;

    private static TinyOnnx model(long batchAxis, long timeAxis, long d0, long d1) {
        return new TinyOnnx().opset(10).input(OnnxDTypes.INT64, "x", d0, d1, 2L).input(OnnxDTypes.INT64, "lens", batchAxis == 0 ? d0 : d1)
                .outputOfType(OnnxDTypes.INT64, "y")
                .node("r", "ReverseSequence", List.of("x", "lens"), List.of("y"), "batch_axis", batchAxis, "time_axis", timeAxis);
    }

    private static TensorValue counting(long... shape) {
        long[] v = new long[(int) (shape[0] * shape[1] * shape[2])];
        for (int i = 0; i < v.length; i++) v[i] = i;
        return TensorValue.ofLongs(DType.I64, shape, v);
    }

    @Test
    void reversesEachBatchEntrysFirstStepsByHand() throws Exception {
        // [batch 2, time 3, 2]: entry 0 reverses its first 3 steps, entry 1 its first 2
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, model(0, 1, 2, 3), Map.of("x", counting(2, 3, 2),
                "lens", TensorValue.ofLongs(DType.I64, new long[] {2}, 3, 2)));
        assertThat(out.get("y").doubles()).containsExactly(4, 5, 2, 3, 0, 1, 8, 9, 6, 7, 10, 11);
    }

    @Test
    void aZeroLengthLeavesItsEntryAsItIs() throws Exception {
        // (ONNX Runtime 1.22 writes zeros there; the spec reverses the first 0 steps, i.e. none)
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, model(0, 1, 2, 3), Map.of("x", counting(2, 3, 2),
                "lens", TensorValue.ofLongs(DType.I64, new long[] {2}, 0, 1)));
        assertThat(out.get("y").doubles()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    }

    @Test
    void agreesWithOnnxRuntimeOnBothLayouts() throws Exception {
        OnnxOpRuns.agree(dir, model(1, 0, 4, 3), Map.of("x", counting(4, 3, 2), "lens", TensorValue.ofLongs(DType.I64, new long[] {3}, 4, 1, 3)), 0, 0);
        OnnxOpRuns.agree(dir, model(0, 1, 3, 4), Map.of("x", counting(3, 4, 2), "lens", TensorValue.ofLongs(DType.I64, new long[] {3}, 2, 4, 3)), 0, 0);
    }

    @Test
    void aLengthPastTheStepsStopsTheRun() {
        assertThatThrownBy(() -> OnnxOpRuns.run(dir, model(0, 1, 2, 3), Map.of("x", counting(2, 3, 2),
                "lens", TensorValue.ofLongs(DType.I64, new long[] {2}, 4, 1)))).hasMessageContaining("sequence_lens[0] = 4 is outside [0, 3]");
    }
}
