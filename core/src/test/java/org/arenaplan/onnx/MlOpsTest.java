package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ai.onnx.ml ops (ops.MlOps) against ONNX Runtime's Java API where it implements them
 * (Binarizer for float only and without NaN; ArrayFeatureExtractor), and by hand from
 * Operators-ml.md and onnx's reference (op_binarizer.py, op_array_feature_extractor.py); and their refusals.
 */
class MlOpsTest {
    @TempDir
    Path dir;

    private static final String ML = "ai.onnx.ml";

    private static TinyOnnx binarizer(int type, double threshold, Object... dims) {
        return new TinyOnnx().opset(17).input(type, "x", dims).output(type, "y", dims)
                .node("bin", "Binarizer", List.of("x"), List.of("y"), "threshold", threshold).domain(ML);
    }

    @Test
    void binarizerGivesOneAboveTheThresholdInTheInputsType() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[]{2, 3}, -1f, 0.5f, 0.25f, 2f, Float.NaN, 0.5000001f);
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, binarizer(OnnxDTypes.FLOAT, 0.5, 2L, 3L), Map.of("x", x));
        assertThat(out.get("y").floats()).containsExactly(0f, 0f, 0f, 1f, 0f, 1f);   // equal is not above; NaN gives 0, as the reference's numpy
        // ONNX Runtime refuses a NaN ("Input data with index: 4 is NaN"), so it sees the values without it
        TensorValue noNaN = TensorValue.ofFloats(new long[]{2, 3}, -1f, 0.5f, 0.25f, 2f, -0f, 0.5000001f);
        OnnxOpRuns.agree(dir, binarizer(OnnxDTypes.FLOAT, 0.5, 2L, 3L), Map.of("x", noNaN), 0, 0);
        // ONNX Runtime implements Binarizer for float only ("Could not find an implementation for Binarizer(1)"): f64 and the integers by hand
        TensorValue xd = TensorValue.ofDoubles(DType.F64, new long[]{4}, -1, -0.75, -0.5, 3);
        assertThat(OnnxOpRuns.run(dir, binarizer(OnnxDTypes.DOUBLE, -0.75, 4L), Map.of("x", xd)).get("y").doubles()).containsExactly(0, 0, 1, 1);
        for (DType t : new DType[]{DType.I64, DType.I32}) {
            TensorValue xi = TensorValue.ofLongs(t, new long[]{5}, -3, 0, 1, 2, 100);
            TinyOnnx m = binarizer(t == DType.I64 ? OnnxDTypes.INT64 : OnnxDTypes.INT32, 1.5, 5L);
            assertThat(OnnxOpRuns.run(dir, m, Map.of("x", xi)).get("y").longs()).as(t.jsonName()).containsExactly(0L, 0L, 0L, 1L, 1L);
        }
    }

    private static TinyOnnx extractor(int type, long[] xDims, long[] zDims, long... indexDims) {
        Object[] x = java.util.Arrays.stream(xDims).boxed().toArray(), z = java.util.Arrays.stream(zDims).boxed().toArray();
        return new TinyOnnx().opset(17).input(type, "x", x).input(OnnxDTypes.INT64, "idx", java.util.Arrays.stream(indexDims).boxed().toArray())
                .output(type, "z", z).node("afe", "ArrayFeatureExtractor", List.of("x", "idx"), List.of("z")).domain(ML);
    }

    @Test
    void arrayFeatureExtractorSelectsAlongTheLastAxis() throws Exception {
        float[] v = new float[24];
        for (int i = 0; i < v.length; i++) v[i] = i;
        TensorValue x = TensorValue.ofFloats(new long[]{2, 3, 4}, v);
        TensorValue idx = TensorValue.ofLongs(DType.I64, new long[]{3}, 3, 0, 3);
        TinyOnnx m = extractor(OnnxDTypes.FLOAT, new long[]{2, 3, 4}, new long[]{2, 3, 3}, 3);
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, m, Map.of("x", x, "idx", idx));
        assertThat(out.get("z").shape()).containsExactly(2, 3, 3);
        assertThat(out.get("z").floats()).startsWith(3f, 0f, 3f, 7f, 4f, 7f);
        OnnxOpRuns.agree(dir, m, Map.of("x", x, "idx", idx), 0, 0);
        // a 1-D X gives [1, k]; indices [1, k] are read flattened; int32 data
        TinyOnnx flat = extractor(OnnxDTypes.INT32, new long[]{5}, new long[]{1, 2}, 1, 2);
        Map<String, TensorValue> in = Map.of("x", TensorValue.ofLongs(DType.I32, new long[]{5}, 10, 11, 12, 13, 14),
                "idx", TensorValue.ofLongs(DType.I64, new long[]{1, 2}, 4, 1));
        assertThat(OnnxOpRuns.run(dir, flat, in).get("z").longs()).containsExactly(14L, 11L);
        OnnxOpRuns.agree(dir, flat, in, 0, 0);
    }

    @Test
    void whatTheMlOpsDoNotTakeIsRefusedNamingTheNode() throws Exception {
        TinyOnnx int32Indices = new TinyOnnx().opset(17).input("x", 2L, 4L).input(OnnxDTypes.INT32, "idx", 2L).output("z", 2L, 2L)
                .node("afe", "ArrayFeatureExtractor", List.of("x", "idx"), List.of("z")).domain(ML);
        OnnxOpRuns.refused(dir, int32Indices, "node 'afe' (ArrayFeatureExtractor, #0, ai.onnx.ml opset 1..5): indices idx[2] are i32; ArrayFeatureExtractor takes int64");
        OnnxOpRuns.refused(dir, binarizer(OnnxDTypes.FLOAT16, 0.5, 3L), "node 'bin' (Binarizer, #0, ai.onnx.ml opset 1..5): input x[3] is f16; Binarizer takes f32, f64, int64 or int32");
        TinyOnnx defaultDomain = new TinyOnnx().opset(17).input("x", 3L).output("y", 3L).node("bin", "Binarizer", List.of("x"), List.of("y"));
        OnnxOpRuns.refused(dir, defaultDomain, "Binarizer is an operator of the ai.onnx.ml domain, not of ''");
    }
}
