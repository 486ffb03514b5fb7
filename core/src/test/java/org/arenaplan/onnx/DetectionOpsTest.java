package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.TransformerOpsTest.feed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RoiAlign, DeformConv, MaxUnpool and Det through import, planning and the simulator, against ONNX
 * Runtime 1.22 ({@link OnnxOpRuns#agree}) over several attribute combinations; DeformConv, which
 * ONNX Runtime 1.22 does not implement, against its Conv (zero offsets) and onnx 1.23.1's reference
 * evaluator (fractional offsets); values worked by hand where ONNX Runtime departs from the spec
 * and onnx's reference (noted at the cases); refusals are one line naming the node and the attribute.
 */
class DetectionOpsTest {
    @TempDir
    Path dir;

    private static TensorValue floats(long seed, long... shape) {
        int n = 1;
        for (long d : shape) n *= (int) d;
        return TensorValue.ofFloats(shape, OnnxRuntimeDifferentialTest.random(n, seed));
    }

    private static TensorValue longs(long[] shape, long... v) {
        return TensorValue.ofLongs(DType.I64, shape, v);
    }

    // ---- RoiAlign ----

    /** rois in and beyond the image [10 x 12] at scale 0.5, one degenerate (x2 < x1), two batch images. */
    private static final TensorValue ROIS = TensorValue.ofFloats(new long[]{5, 4},
            0, 0, 20, 18, 3.5f, 2.25f, 9, 7, 10, 6, 30, 25, -4, -3, 6, 8, 12, 5, 11, 9);
    /** The same without the degenerate roi: ONNX Runtime overflows on its negative adaptive grid with half_pixel (onnx's reference samples nothing, as arenaplan). */
    private static final TensorValue PROPER_ROIS = TensorValue.ofFloats(new long[]{5, 4},
            0, 0, 20, 18, 3.5f, 2.25f, 9, 7, 10, 6, 30, 25, -4, -3, 6, 8, 5, 5, 11, 9);
    private static final TensorValue BATCH = TensorValue.ofLongs(DType.I64, new long[]{5}, 0, 1, 1, 0, 1);

    private TinyOnnx roiAlign(long opset, Object... attrs) {
        return new TinyOnnx().opset(opset).input("x", 2L, 3L, 10L, 12L).input("rois", 5L, 4L).input(OnnxDTypes.INT64, "b", 5L).output("y")
                .node("ra", "RoiAlign", List.of("x", "rois", "b"), List.of("y"), attrs);
    }

    private void agreeRoi(TinyOnnx m, TensorValue rois) throws Exception {
        OnnxOpRuns.agree(dir, m, feed("x", floats(1, 2, 3, 10, 12), "rois", rois, "b", BATCH), 1e-4, 1e-5);
    }

    @Test
    void roiAlignAgreesWithOnnxRuntimeInEveryModeAndCoordinateMode() throws Exception {
        for (String mode : List.of("avg", "max")) {
            for (String ctm : List.of("half_pixel", "output_half_pixel")) {
                agreeRoi(roiAlign(16, "mode", mode, "coordinate_transformation_mode", ctm, "output_height", 3L, "output_width", 4L,
                        "sampling_ratio", 2L, "spatial_scale", 0.5), ROIS);
                agreeRoi(roiAlign(21, "mode", mode, "coordinate_transformation_mode", ctm, "output_height", 2L, "output_width", 5L,
                        "spatial_scale", 0.5), PROPER_ROIS);   // sampling_ratio 0: adaptive, ceil(roi size / output size)
            }
        }
        agreeRoi(roiAlign(16), PROPER_ROIS);   // every default: avg, half_pixel, 1 x 1, adaptive, scale 1
        agreeRoi(roiAlign(16, "sampling_ratio", 3L, "output_height", 4L, "output_width", 2L, "spatial_scale", 0.25), ROIS);
    }

    /**
     * RoiAlign-10 has no coordinate mode and means output_half_pixel (its spec and onnx's reference;
     * ONNX Runtime's kernel reads the mode only from opset 16 and agrees here); at 16 the default is
     * half_pixel, so the same model gives other values.
     */
    @Test
    void roiAlign10HasNoPixelShiftAnd16DefaultsToHalfPixel() throws Exception {
        Map<String, TensorValue> in = feed("x", floats(2, 2, 3, 10, 12), "rois", ROIS, "b", BATCH);
        for (String mode : List.of("avg", "max")) {
            TinyOnnx v10 = roiAlign(10, "mode", mode, "output_height", 3L, "output_width", 3L, "sampling_ratio", 2L, "spatial_scale", 0.5);
            OnnxOpRuns.agree(dir, v10, in, 1e-4, 1e-5);
            float[] ten = OnnxOpRuns.run(dir, v10, in).get("y").floats();
            float[] explicit = OnnxOpRuns.run(dir, roiAlign(16, "mode", mode, "output_height", 3L, "output_width", 3L, "sampling_ratio", 2L,
                    "spatial_scale", 0.5, "coordinate_transformation_mode", "output_half_pixel"), in).get("y").floats();
            float[] sixteen = OnnxOpRuns.run(dir, roiAlign(16, "mode", mode, "output_height", 3L, "output_width", 3L, "sampling_ratio", 2L,
                    "spatial_scale", 0.5), in).get("y").floats();
            assertThat(ten).isEqualTo(explicit);
            assertThat(ten).isNotEqualTo(sixteen);
        }
    }

    /** One roi [0, 0, 2, 2] over a 3 x 3 image 0..8, 1 x 1 output, one sample (sampling_ratio 1): the sample sits at (1, 1), or (0.5, 0.5) with half_pixel. */
    @Test
    void roiAlignByHand() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[]{1, 1, 3, 3}, 0, 1, 2, 3, 4, 5, 6, 7, 8);
        Map<String, TensorValue> in = feed("x", x, "rois", TensorValue.ofFloats(new long[]{1, 4}, 0, 0, 2, 2), "b", longs(new long[]{1}, 0));
        TinyOnnx out = new TinyOnnx().opset(16).input("x", 1L, 1L, 3L, 3L).input("rois", 1L, 4L).input(OnnxDTypes.INT64, "b", 1L).output("y")
                .node("ra", "RoiAlign", List.of("x", "rois", "b"), List.of("y"), "sampling_ratio", 1L, "coordinate_transformation_mode", "output_half_pixel");
        assertThat(OnnxOpRuns.run(dir, out, in).get("y").floats()).containsExactly(4f);
        TinyOnnx half = new TinyOnnx().opset(16).input("x", 1L, 1L, 3L, 3L).input("rois", 1L, 4L).input(OnnxDTypes.INT64, "b", 1L).output("y")
                .node("ra", "RoiAlign", List.of("x", "rois", "b"), List.of("y"), "sampling_ratio", 1L);
        // start -0.5, size 2: the sample at 0.5, 0.5: (0 + 1 + 3 + 4) / 4
        assertThat(OnnxOpRuns.run(dir, half, in).get("y").floats()).containsExactly(2f);
    }

    /**
     * rois no device may run (a coordinate NaN or infinite; a grid of 2^62 samples per bin) are
     * refused on the host before roi_align is launched, in every non-captured mode, whether the
     * rois are a graph input or computed on the device (Relu passes NaN and infinities): the device
     * below never sees the launch, so the CUDA kernel, whose adaptive grid over an infinite roi
     * would loop 2^63 times, is as safe as the simulator.
     */
    @Test
    void roisNoDeviceMayRunAreRefusedBeforeLaunchInEveryMode() throws Exception {
        TinyOnnx direct = new TinyOnnx().opset(16).input("x", 1L, 1L, 4L, 4L).input("rois", 1L, 4L).input(OnnxDTypes.INT64, "b", 1L).output("y")
                .node("ra", "RoiAlign", List.of("x", "rois", "b"), List.of("y"));
        TinyOnnx computed = new TinyOnnx().opset(16).input("x", 1L, 1L, 4L, 4L).input("r", 1L, 4L).input(OnnxDTypes.INT64, "b", 1L).output("y")
                .node("relu", "Relu", List.of("r"), List.of("rois"))
                .node("ra", "RoiAlign", List.of("x", "rois", "b"), List.of("y"));
        Path file = dir.resolve("ra.onnx");
        for (TinyOnnx m : List.of(direct, computed)) {
            java.nio.file.Files.write(file, m.bytes());
            org.arenaplan.ir.Graph g = OnnxImporter.load(file, Map.of());
            String roisName = m == direct ? "rois" : "r";
            for (float bad : new float[]{Float.NaN, Float.POSITIVE_INFINITY, 1e30f}) {
                Map<String, TensorValue> in = feed("x", floats(3, 1, 1, 4, 4), roisName, TensorValue.ofFloats(new long[]{1, 4}, 0, 0, bad, 2), "b", longs(new long[]{1}, 0));
                String why = Float.isFinite(bad) ? "'ra': roi_align would take 1.84e+19 bilinear samples, more than the simulator's 2^36 (roi 0: a 2 x 9223372036854776000 grid in each bin, sampling_ratio 0, adaptive"
                        : "'ra': roi 0 is [0.0, 0.0, " + bad + ", 2.0]: a coordinate that is not finite";
                for (org.arenaplan.exec.Mode mode : List.of(org.arenaplan.exec.Mode.PLANNED, org.arenaplan.exec.Mode.PER_TENSOR, org.arenaplan.exec.Mode.POOL)) {
                    List<String> launched = new java.util.ArrayList<>();
                    try (org.arenaplan.device.Device device = new org.arenaplan.device.ForwardingDevice(org.arenaplan.device.Devices.open("sim", org.arenaplan.device.DeviceOptions.DEFAULT).device()) {
                             @Override
                             public void launch(org.arenaplan.device.DeviceStream s, org.arenaplan.device.KernelCall c) {
                                 launched.add(c.name());
                                 super.launch(s, c);
                             }
                         }) {
                        org.assertj.core.api.Assertions.assertThatThrownBy(() -> org.arenaplan.exec.Executors.run(org.arenaplan.plan.ArenaPlanner.plan(g), device, List.of(mode), 1, in, 1))
                                .as("%s, %s, %s", roisName, bad, mode).isInstanceOf(org.arenaplan.device.DataException.class).hasMessageStartingWith(why);
                    }
                    assertThat(launched).as("%s, %s, %s", roisName, bad, mode).doesNotContain(org.arenaplan.device.Kernels.ROI_ALIGN);
                }
            }
        }
    }

    // ---- DeformConv ----

    /**
     * DeformConv with zero offsets (and a mask of ones, when given) is Conv: ONNX Runtime 1.22 has no
     * DeformConv kernel, so each attribute combination is compared with its Conv of the same X, W,
     * B and attributes.
     */
    private void agreeWithConv(long[] x, long[] w, long[] offset, boolean bias, boolean mask, Object... attrs) throws Exception {
        long m = w[0];
        TinyOnnx conv = new TinyOnnx().opset(19).input("x", (Object[]) box(x)).input("w", (Object[]) box(w)).output("y");
        Map<String, TensorValue> in = feed("x", floats(3, x), "w", floats(4, w));
        if (bias) { conv.input("b", m); in.put("b", floats(6, m)); }
        List<Object> convAttrs = new java.util.ArrayList<>();
        for (int i = 0; i < attrs.length; i += 2) if (!attrs[i].equals("offset_group")) convAttrs.addAll(List.of(attrs[i], attrs[i + 1]));
        conv.node("c", "Conv", bias ? List.of("x", "w", "b") : List.of("x", "w"), List.of("y"), convAttrs.toArray());
        TensorValue want = OrtOracle.run(conv.bytes(), in).get("y");
        TinyOnnx t = new TinyOnnx().opset(19).input("x", (Object[]) box(x)).input("w", (Object[]) box(w)).input("off", (Object[]) box(offset)).output("y");
        Map<String, TensorValue> din = new java.util.LinkedHashMap<>(in);
        din.put("off", TensorValue.ofFloats(offset, new float[(int) product(offset)]));
        List<String> names = new java.util.ArrayList<>(List.of("x", "w", "off"));
        if (bias) { t.input("b", m); names.add("b"); }
        if (mask) {
            long[] ms = offset.clone();
            ms[1] /= 2;
            t.input("mask", (Object[]) box(ms));
            float[] ones = new float[(int) product(ms)];
            java.util.Arrays.fill(ones, 1f);
            din.put("mask", TensorValue.ofFloats(ms, ones));
            if (!bias) names.add("");
            names.add("mask");
        }
        t.node("dc", "DeformConv", names, List.of("y"), attrs);
        TensorValue got = OnnxOpRuns.run(dir, t, din).get("y");
        assertThat(got.shape()).isEqualTo(want.shape());
        org.arenaplan.exec.AllClose c = org.arenaplan.exec.AllClose.compare(got, want, 1e-5, 1e-5);
        assertThat(c.ok()).as(c.describe(want.shape())).isTrue();
    }

    private static long product(long[] s) {
        long n = 1;
        for (long d : s) n *= d;
        return n;
    }

    private static Object[] box(long[] s) {
        Object[] o = new Object[s.length];
        for (int i = 0; i < s.length; i++) o[i] = s[i];
        return o;
    }

    @Test
    void deformConvWithZeroOffsetsAgreesWithOnnxRuntimesConv() throws Exception {
        agreeWithConv(new long[]{1, 2, 5, 6}, new long[]{3, 2, 3, 3}, new long[]{1, 18, 3, 4}, false, false);
        agreeWithConv(new long[]{2, 3, 7, 6}, new long[]{4, 3, 2, 3}, new long[]{2, 12, 4, 2}, true, true,
                "pads", new long[]{1, 0, 2, 1}, "strides", new long[]{2, 3}, "dilations", new long[]{2, 1});
        agreeWithConv(new long[]{1, 4, 5, 5}, new long[]{6, 2, 2, 2}, new long[]{1, 16, 4, 4}, false, true, "group", 2L, "offset_group", 2L);
        agreeWithConv(new long[]{1, 4, 6, 5}, new long[]{2, 2, 3, 2}, new long[]{1, 48, 6, 4}, true, false, "group", 2L, "offset_group", 4L,
                "pads", new long[]{1, 0, 1, 0}, "kernel_shape", new long[]{3, 2});
    }

    /** sin(i a + b) k for i = 0..n-1, in f32 (the inputs of the reference case below). */
    private static TensorValue wave(double a, double b, double k, float add, long... shape) {
        float[] v = new float[(int) product(shape)];
        for (int i = 0; i < v.length; i++) v[i] = (float) (Math.sin(i * a + b) * k) + add;
        return TensorValue.ofFloats(shape, v);
    }

    /**
     * Fractional offsets reaching outside X, a mask, bias, group 2, offset_group 2, strides,
     * asymmetric pads and dilations: the expected values are onnx 1.23.1's reference implementation
     * (onnx.reference.ReferenceEvaluator on the same model and inputs, computed once).
     */
    @Test
    void deformConvWithFractionalOffsetsMatchesOnnxsReference() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(19).input("x", 1L, 4L, 6L, 5L).input("w", 4L, 2L, 2L, 3L).input("o", 1L, 24L, 3L, 2L).input("b", 4L)
                .input("m", 1L, 12L, 3L, 2L).output("y").node("dc", "DeformConv", List.of("x", "w", "o", "b", "m"), List.of("y"), "group", 2L,
                        "offset_group", 2L, "strides", new long[]{2, 1}, "pads", new long[]{1, 0, 0, 1}, "dilations", new long[]{1, 2});
        TensorValue y = OnnxOpRuns.run(dir, m, feed("x", wave(0.37, 0.1, 1.0, 0, 1, 4, 6, 5), "w", wave(0.53, 0.2, 0.8, 0, 4, 2, 2, 3),
                "o", wave(0.91, 0.3, 1.7, 0, 1, 24, 3, 2), "b", wave(1.3, 0.4, 0.5, 0, 4), "m", wave(0.29, 0.5, 0.5, 0.5f, 1, 12, 3, 2))).get("y");
        TensorValue want = TensorValue.ofFloats(new long[]{1, 4, 3, 2}, 0.721488357f, -0.434063852f, -0.217011005f, 0.878650665f, 0.388246268f,
                0.618751049f, 0.976648867f, -0.0732058883f, 0.0398442447f, 1.13351345f, 0.585677624f, 0.926775813f, 0.255695343f, -0.121331573f,
                0.509148598f, -0.370863736f, 0.2001414f, 0.609666824f, -0.292704046f, -0.650283158f, 0.0238971114f, -0.924096465f, -0.293259233f, 0.148413211f);
        assertThat(y.shape()).isEqualTo(want.shape());
        org.arenaplan.exec.AllClose c = org.arenaplan.exec.AllClose.compare(y, want, 1e-5, 1e-6);
        assertThat(c.ok()).as(c.describe(want.shape())).isTrue();
    }

    // ---- MaxUnpool ----

    /** MaxPool's values and indices straight into MaxUnpool: every maximum back in its place, zeros elsewhere. */
    @Test
    void maxUnpoolInvertsMaxPoolAgreeingWithOnnxRuntime() throws Exception {
        for (long opset : new long[]{9, 11, 22}) {
            // 2-D, strides 2, no pads: one sample per window
            TinyOnnx m = new TinyOnnx().opset(opset).input("x", 2L, 3L, 6L, 8L).output("y")
                    .node("mp", "MaxPool", List.of("x"), List.of("v", "i"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2})
                    .node("mu", "MaxUnpool", List.of("v", "i"), List.of("y"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2});
            OnnxOpRuns.agree(dir, m, feed("x", floats(8, 2, 3, 6, 8)), 0, 0);
        }
        // 1-D with pads, and 3-D with strides 1 (overlapping windows: a maximum may be named twice, with the same value)
        OnnxOpRuns.agree(dir, new TinyOnnx().opset(11).input("x", 1L, 2L, 9L).output("y")
                .node("mp", "MaxPool", List.of("x"), List.of("v", "i"), "kernel_shape", new long[]{3}, "strides", new long[]{2}, "pads", new long[]{1, 1})
                .node("mu", "MaxUnpool", List.of("v", "i"), List.of("y"), "kernel_shape", new long[]{3}, "strides", new long[]{2}, "pads", new long[]{1, 1}),
                feed("x", floats(9, 1, 2, 9)), 0, 0);
        OnnxOpRuns.agree(dir, new TinyOnnx().opset(11).input("x", 1L, 2L, 3L, 4L, 4L).output("y")
                .node("mp", "MaxPool", List.of("x"), List.of("v", "i"), "kernel_shape", new long[]{2, 2, 2})
                .node("mu", "MaxUnpool", List.of("v", "i"), List.of("y"), "kernel_shape", new long[]{2, 2, 2}), feed("x", floats(10, 1, 2, 3, 4, 4)), 0, 0);
    }

    /**
     * output_shape, a shape operand (here an initializer): onnx's reference and the node test
     * test_maxunpool_export_with_output_shape scatter into the inferred shape and pad it at the end
     * of each axis; ONNX Runtime 1.22 scatters the indices into output_shape itself. The two agree
     * where only the first spatial axis grows (N = C = 1), which is compared with ONNX Runtime; the
     * node test's case is worked by hand.
     */
    @Test
    void maxUnpoolOutputShapePadsTheInferredShape() throws Exception {
        OnnxOpRuns.agree(dir, new TinyOnnx().opset(11).input("x", 1L, 1L, 5L, 6L).ints("os", 1, 1, 7, 6).output("y")
                .node("mp", "MaxPool", List.of("x"), List.of("v", "i"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2})
                .node("mu", "MaxUnpool", List.of("v", "i", "os"), List.of("y"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2}),
                feed("x", floats(11, 1, 1, 5, 6)), 0, 0);
        TinyOnnx m = new TinyOnnx().opset(11).input("x", 1L, 1L, 2L, 2L).input(OnnxDTypes.INT64, "i", 1L, 1L, 2L, 2L).ints("os", 1, 1, 5, 5).output("y")
                .node("mu", "MaxUnpool", List.of("x", "i", "os"), List.of("y"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2});
        TensorValue y = OnnxOpRuns.run(dir, m, feed("x", TensorValue.ofFloats(new long[]{1, 1, 2, 2}, 5, 6, 7, 8),
                "i", longs(new long[]{1, 1, 2, 2}, 5, 7, 13, 15))).get("y");
        assertThat(y.shape()).containsExactly(1, 1, 5, 5);
        assertThat(y.floats()).containsExactly(0, 0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0);
    }

    // ---- Det ----

    @Test
    void detAgreesWithOnnxRuntimeBatchedAndSingle() throws Exception {
        OnnxOpRuns.agree(dir, new TinyOnnx().opset(11).input("x", 2L, 3L, 4L, 4L).output("y").node("d", "Det", List.of("x"), List.of("y")),
                feed("x", floats(12, 2, 3, 4, 4)), 1e-4, 1e-5);
        OnnxOpRuns.agree(dir, new TinyOnnx().opset(22).input("x", 5L, 5L).output("y").node("d", "Det", List.of("x"), List.of("y")),
                feed("x", floats(13, 5, 5)), 1e-4, 1e-5);
        // a singular matrix, a permutation (one swap: -1) and a 1 x 1
        TinyOnnx m = new TinyOnnx().opset(11).input("x", 3L, 2L, 2L).output("y").node("d", "Det", List.of("x"), List.of("y"));
        assertThat(OnnxOpRuns.run(dir, m, feed("x", TensorValue.ofFloats(new long[]{3, 2, 2}, 1, 2, 2, 4, 0, 1, 1, 0, 3, 1, 2, 5))).get("y").floats())
                .containsExactly(0f, -1f, 13f);
    }

    // ---- refusals ----

    @Test
    void attributeValuesOutsideTheSpecAreRefusedNamingNodeAndAttribute() throws Exception {
        String node = "node 'ra' (RoiAlign, #0, opset ";
        OnnxOpRuns.refused(dir, roiAlign(16, "mode", "min"), node + "16): attribute 'mode' = 'min' is not avg or max");
        OnnxOpRuns.refused(dir, roiAlign(16, "coordinate_transformation_mode", "align_corners"),
                "attribute 'coordinate_transformation_mode' = 'align_corners' is not output_half_pixel or half_pixel");
        OnnxOpRuns.refused(dir, roiAlign(10, "coordinate_transformation_mode", "half_pixel"), node + "10): attribute 'coordinate_transformation_mode' needs opset 16");
        OnnxOpRuns.refused(dir, roiAlign(16, "sampling_ratio", -1L), "attribute 'sampling_ratio' = -1 is out of range [0, 2147483647]");
        OnnxOpRuns.refused(dir, roiAlign(16, "output_height", 0L), "attribute 'output_height' = 0 is out of range [1, 2147483647]");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(19).input("x", 1L, 3L, 4L, 4L).input("w", 1L, 3L, 2L, 2L).input("off", 1L, 16L, 3L, 3L).output("y")
                .node("dc", "DeformConv", List.of("x", "w", "off"), List.of("y"), "offset_group", 2L), "node 'dc' (DeformConv, #0, opset 19): attribute 'offset_group' = 2 does not divide the 3 input channels");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(19).input("x", 1L, 2L, 4L, 4L, 4L).input("w", 1L, 2L, 2L, 2L, 2L).input("off", 1L, 24L, 3L, 3L, 3L).output("y")
                .node("dc", "DeformConv", List.of("x", "w", "off"), List.of("y")), "node 'dc' (DeformConv, #0, opset 19): input x[1, 2, 4, 4, 4] must be [N, C, H, W]: arenaplan's DeformConv takes 2-D images only");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(19).input("x", 1L, 2L, 4L, 4L).input("w", 1L, 2L, 2L, 2L).input("off", 1L, 8L, 3L, 3L).output("y")
                .node("dc", "DeformConv", List.of("x", "w", "off"), List.of("y"), "offset_group", 0L), "attribute 'offset_group' = 0 is out of range [1, 2147483647]");
        // has_bias/has_mask are arenaplan's own: refused from a file, and not offered as what DeformConv takes
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(19).input("x", 1L, 2L, 4L, 4L).input("w", 1L, 2L, 2L, 2L).input("off", 1L, 8L, 3L, 3L).output("y")
                .node("dc", "DeformConv", List.of("x", "w", "off"), List.of("y"), "has_bias", 1L), "attributes 'has_bias' and 'has_mask' are arenaplan's own, not DeformConv's");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(19).input("x", 1L, 2L, 4L, 4L).input("w", 1L, 2L, 2L, 2L).input("off", 1L, 8L, 3L, 3L).output("y")
                .node("dc", "DeformConv", List.of("x", "w", "off"), List.of("y"), "offset_groups", 1L),
                "unknown attribute 'offset_groups'; DeformConv takes kernel_shape, strides, pads, dilations, group, offset_group (did you mean 'offset_group'?)");
        TinyOnnx unpool = new TinyOnnx().opset(11).input("x", 1L, 1L, 2L, 2L).input(OnnxDTypes.INT64, "i", 1L, 1L, 2L, 2L).ints("os", 1, 1, 3, 5).output("y")
                .node("mu", "MaxUnpool", List.of("x", "i", "os"), List.of("y"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2});
        OnnxOpRuns.refused(dir, unpool, "node 'mu' (MaxUnpool, #0, opset 11): output_shape [1, 1, 3, 5] must be [1, 1, ...] and at least the inferred shape [1, 1, 4, 4]");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(11).input("x", 1L, 1L, 2L, 2L).input(OnnxDTypes.INT64, "i", 1L, 1L, 2L, 2L).output("y")
                .node("mu", "MaxUnpool", List.of("x", "i"), List.of("y"), "kernel_shape", new long[]{2, 0}), "node 'mu' (MaxUnpool, #0, opset 11): attribute 'kernel_shape' [2, 0] must be positive");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(11).input("x", 1L, 1L, 2L, 2L).input(OnnxDTypes.INT64, "i", 1L, 1L, 2L, 2L).output("y")
                .node("mu", "MaxUnpool", List.of("x", "i"), List.of("y"), "kernel_shape", new long[]{2, 2}, "pads", new long[]{0, -1, 0, 0}),
                "attribute 'pads' [0, -1, 0, 0] must not be negative");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(11).input("x", 2L, 3L, 4L).output("y").node("d", "Det", List.of("x"), List.of("y")),
                "node 'd' (Det, #0, opset 11): X [2, 3, 4] must be [*, M, M]");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(11).input(OnnxDTypes.DOUBLE, "x", 2L, 2L).output(OnnxDTypes.DOUBLE, "y").node("d", "Det", List.of("x"), List.of("y")),
                "Det computes f32 only");
    }
}
