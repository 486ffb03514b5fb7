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

/** ReverseSequence and TfIdfVectorizer through import, planning and the simulator: by hand, against ONNX Runtime, and bad input. */
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

    private static TinyOnnx tfidf(int elemType, String mode, long min, long max, long skip, double[] weights, long... shape) {
        Object[] attrs = {"mode", mode, "min_gram_length", min, "max_gram_length", max, "max_skip_count", skip,
                "ngram_counts", new long[] {0, 3}, "ngram_indexes", new long[] {0, 1, 2, 3, 4, 1},
                "pool_int64s", new long[] {2, 3, 5, 5, 6, 7, 8, 2, 3}};
        if (weights != null) {
            attrs = java.util.Arrays.copyOf(attrs, attrs.length + 2);
            attrs[attrs.length - 2] = "weights";
            attrs[attrs.length - 1] = weights;
        }
        Object[] dims = java.util.Arrays.stream(shape).boxed().toArray();
        return new TinyOnnx().opset(9).input(elemType, "x", dims).outputOfType(OnnxDTypes.FLOAT, "y")
                .node("t", "TfIdfVectorizer", List.of("x"), List.of("y"), attrs);
    }

    @Test
    void tfIdfCountsByHand() throws Exception {
        // unigrams 2, 3, 5 -> 0, 1, 2; bigrams (5, 6) -> 3, (7, 8) -> 4, (2, 3) -> 1 (sharing 3's output)
        // x = [2, 3, 5, 6, 2, 3]: 2 twice, 3 twice, 5 once; (5, 6) once; (2, 3) twice (skip 0); with skip 1 also (3, 6)? not pooled, (2, 5) no
        TensorValue x = TensorValue.ofLongs(DType.I64, new long[] {6}, 2, 3, 5, 6, 2, 3);
        assertThat(OnnxOpRuns.run(dir, tfidf(OnnxDTypes.INT64, "TF", 1, 2, 0, null, 6L), Map.of("x", x)).get("y").doubles())
                .containsExactly(2, 4, 1, 1, 0);
        // bigrams only, skips up to 2: (2, 3) at gaps 1 (twice) and 3 ([2, _, _, 3]? positions 0 and 3: 2 and 6, no; 4 and ... ) -> 2; (5, 6) gap 1 once
        assertThat(OnnxOpRuns.run(dir, tfidf(OnnxDTypes.INT64, "TF", 2, 2, 2, null, 6L), Map.of("x", x)).get("y").doubles())
                .containsExactly(0, 2, 0, 1, 0);
        // IDF with weights: the weight where the count is not 0
        assertThat(OnnxOpRuns.run(dir, tfidf(OnnxDTypes.INT64, "IDF", 1, 2, 0, new double[] {0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, 6L), Map.of("x", x)).get("y").doubles())
                .containsExactly(0.5, 1.5, 2.5, 3.5, 0);
    }

    @Test
    void tfIdfAgreesWithOnnxRuntime() throws Exception {
        TensorValue x = TensorValue.ofLongs(DType.I32, new long[] {2, 8}, 2, 3, 5, 6, 7, 8, 2, 3, 5, 5, 6, 2, 7, 3, 8, 2);
        for (String mode : List.of("TF", "IDF", "TFIDF"))
            for (long skip : new long[] {0, 3})
                OnnxOpRuns.agree(dir, tfidf(OnnxDTypes.INT32, mode, 1, 2, skip, mode.equals("TF") ? null : new double[] {0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, 2L, 8L),
                        Map.of("x", x), 0, 0);
    }

    @Test
    void tfIdfRefusesStringPools() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(9).input(OnnxDTypes.INT64, "x", 4L).outputOfType(OnnxDTypes.FLOAT, "y")
                .node("t", "TfIdfVectorizer", List.of("x"), List.of("y"), "mode", "TF", "min_gram_length", 1L, "max_gram_length", 1L,
                        "max_skip_count", 0L, "ngram_counts", new long[] {0}, "ngram_indexes", new long[] {0}, "pool_strings", new String[] {"a"});
        OnnxOpRuns.refused(dir, m, "pool_strings: string tokens are not supported");
    }
}
