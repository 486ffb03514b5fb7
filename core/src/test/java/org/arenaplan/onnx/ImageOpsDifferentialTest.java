package org.arenaplan.onnx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.OnnxRuntimeDifferentialTest.random;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image ops against ONNX Runtime (CPU): ConvTranspose on 1-D, 2-D and 3-D images with
 * groups, dilations, output_padding, output_shape and auto_pad; Conv on 1-D and 3-D images;
 * the pools on 1-D to 3-D images with dilations, ceil_mode and count_include_pad, LpPool and the
 * global pools; Resize at opsets 10, 11, 13, 18 and 19 in every mode with the coordinate modes,
 * nearest modes, exclude_outside, antialias and tf_crop_and_resize; Upsample at opset 9. Where
 * ONNX Runtime departs from onnx's reference implementation (noted at the cases) the cases avoid
 * the difference; the node tests compare with the reference. Each model gets random weights and inputs; every
 * output must agree like numpy's allclose ({@code AllClose}'s defaults).
 */
class ImageOpsDifferentialTest {
    @TempDir
    Path dir;

    private void agree(TinyOnnx m, String input, long... shape) throws Exception {
        OnnxRuntimeDifferentialTest.agree(dir, m, Map.of(input, shape));
    }

    // ---- ConvTranspose ----

    @Test
    void convTranspose2dGroupedStridedPaddedDilatedWithBias() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 2L, 4L, 5L, 6L).raw("w", random(4 * 3 * 3 * 2, 1), 4, 3, 3, 2).raw("b", random(6, 2)).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w", "b"), List.of("y"), "group", 2L, "strides", new long[]{2, 3},
                        "pads", new long[]{1, 0, 2, 1}, "dilations", new long[]{2, 1}, "output_padding", new long[]{1, 2});
        agree(m, "x", 2, 4, 5, 6);
    }

    @Test
    void convTranspose1dAnd3d() throws Exception {
        agree(new TinyOnnx().input("x", 1L, 3L, 7L).raw("w", random(3 * 2 * 4, 3), 3, 2, 4).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "strides", new long[]{2}), "x", 1, 3, 7);
        agree(new TinyOnnx().input("x", 1L, 2L, 3L, 4L, 3L).raw("w", random(2 * 3 * 2 * 3 * 2, 4), 2, 3, 2, 3, 2).raw("b", random(3, 5)).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w", "b"), List.of("y"), "strides", new long[]{1, 2, 2}, "pads", new long[]{0, 1, 0, 1, 0, 1}),
                "x", 1, 2, 3, 4, 3);
    }

    @Test
    void convTransposeOutputShapeAndAutoPad() throws Exception {
        agree(new TinyOnnx().input("x", 1L, 1L, 3L, 3L).raw("w", random(2 * 9, 6), 1, 2, 3, 3).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "strides", new long[]{3, 2}, "output_shape", new long[]{10, 8}),
                "x", 1, 1, 3, 3);
        for (String pad : List.of("SAME_UPPER", "SAME_LOWER")) {
            agree(new TinyOnnx().input("x", 1L, 2L, 4L, 5L).raw("w", random(2 * 3 * 9, 7), 2, 3, 3, 3).output("y")
                    .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "strides", new long[]{2, 2}, "auto_pad", pad), "x", 1, 2, 4, 5);
        }
    }

    // ---- Conv and pools on 1-D and 3-D images ----

    @Test
    void conv1dAnd3d() throws Exception {
        agree(new TinyOnnx().input("x", 2L, 3L, 11L).raw("w", random(4 * 3 * 3, 8), 4, 3, 3).raw("b", random(4, 9)).output("y")
                .node("c", "Conv", List.of("x", "w", "b"), List.of("y"), "strides", new long[]{2}, "pads", new long[]{1, 2}, "dilations", new long[]{2}),
                "x", 2, 3, 11);
        agree(new TinyOnnx().input("x", 1L, 4L, 5L, 6L, 7L).raw("w", random(6 * 2 * 27, 10), 6, 2, 3, 3, 3).raw("b", random(6, 11)).output("y")
                .node("c", "Conv", List.of("x", "w", "b"), List.of("y"), "group", 2L, "strides", new long[]{2, 1, 2},
                        "pads", new long[]{1, 0, 1, 1, 0, 1}, "dilations", new long[]{1, 2, 1}),
                "x", 1, 4, 5, 6, 7);
        agree(new TinyOnnx().input("x", 1L, 2L, 4L, 5L, 6L).raw("w", random(3 * 2 * 8, 12), 3, 2, 2, 2, 2).output("y")
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "auto_pad", "SAME_LOWER", "strides", new long[]{2, 2, 2}), "x", 1, 2, 4, 5, 6);
    }

    @Test
    void pools3dDilatedCeiledAndPadded() throws Exception {
        long[] x = {1, 2, 5, 6, 7};
        agree(new TinyOnnx().opset(12).input("x", 1L, 2L, 5L, 6L, 7L).output("y")
                .node("p", "MaxPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{2, 3, 2}, "strides", new long[]{2, 1, 2},
                        "pads", new long[]{1, 1, 0, 0, 1, 1}, "dilations", new long[]{2, 1, 2}, "ceil_mode", 1L), "x", x);
        // count_include_pad = 1 on a 3-D image: ONNX Runtime leaves out the end padding here (onnx's reference counts it, as
        // arenaplan; ImageOpsTest checks it by hand)
        agree(new TinyOnnx().opset(19).input("x", 1L, 2L, 5L, 6L, 7L).output("y")
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 2, 2}, "strides", new long[]{1, 2, 2},
                        "pads", new long[]{1, 0, 1, 1, 1, 0}, "dilations", new long[]{1, 2, 1}), "x", x);
        agree(new TinyOnnx().opset(13).input("x", 2L, 3L, 9L).output("y")
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3}, "strides", new long[]{2}, "auto_pad", "SAME_UPPER"),
                "x", 2, 3, 9);
    }

    /**
     * GlobalMaxPool of a channel holding a NaN is NaN, as onnx.reference gives it and ReduceMax does (was the largest
     * number: the pool kernel's max skips NaNs). ONNX Runtime (1.22 and 1.30) gives NaN where the NaN comes last in
     * the channel and skips it elsewhere: [1, NaN, 3, 4] gives 4.
     */
    @Test
    void globalMaxPoolOfAChannelHoldingANaNIsNaN() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 1L, 3L, 2L, 2L).output("y", 1L, 3L, 1L, 1L).node("g", "GlobalMaxPool", List.of("x"), List.of("y"));
        float nan = Float.NaN;
        Map<String, org.arenaplan.ir.TensorValue> in = Map.of("x", org.arenaplan.ir.TensorValue.ofFloats(new long[]{1, 3, 2, 2},
                1, nan, 3, 4, Float.NEGATIVE_INFINITY, 2, 8, nan, -1, -0f, 5, Float.NEGATIVE_INFINITY));
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(nan, nan, 5);
    }

    @Test
    void lpPoolsAndGlobalPools() throws Exception {
        agree(new TinyOnnx().opset(18).input("x", 1L, 3L, 7L, 8L).output("y")
                .node("p", "LpPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 2}, "strides", new long[]{2, 2},
                        "pads", new long[]{1, 0, 1, 1}, "p", 3L), "x", 1, 3, 7, 8);
        agree(new TinyOnnx().opset(11).input("x", 1L, 3L, 7L).output("y")
                .node("p", "LpPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{2}), "x", 1, 3, 7);
        for (String op : List.of("GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool")) {
            agree(new TinyOnnx().input("x", 2L, 3L, 4L, 5L, 6L).output("y").node("g", op, List.of("x"), List.of("y")), "x", 2, 3, 4, 5, 6);
            agree(new TinyOnnx().input("x", 2L, 3L, 9L).output("y").node("g", op, List.of("x"), List.of("y")), "x", 2, 3, 9);
        }
    }

    // ---- Resize and Upsample ----

    /** Resize of x [1, 2, 4, 5] with scales (or sizes when {@code sizes} is not null) and attributes. */
    private void resize(long opset, float[] scales, long[] sizes, float[] roi, Object... attrs) throws Exception {
        TinyOnnx m = new TinyOnnx().opset(opset).input("x", 1L, 2L, 4L, 5L).output("y");
        String roiName = "", scalesName = "", sizesName = "";
        if (roi != null) { m.raw("roi", roi); roiName = "roi"; }
        if (scales != null) { m.raw("scales", scales); scalesName = "scales"; }
        if (sizes != null) { m.ints("sizes", sizes); sizesName = "sizes"; }
        List<String> in = opset < 11 ? List.of("x", "scales") : sizes != null ? List.of("x", roiName, scalesName, sizesName) : List.of("x", roiName, scalesName);
        m.node("r", "Resize", in, List.of("y"), attrs);
        agree(m, "x", 1, 2, 4, 5);
    }

    @Test
    void resizeNearestEveryRoundingAndCoordinateMode() throws Exception {
        // shrinking by sizes: scale x extent is whole (see below)
        float[] up = {1, 1, 1.5f, 2f};   // exact in f32 and f64: ties are ties in both (ONNX Runtime maps coordinates in f32)
        for (String nearest : List.of("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")) {
            for (String ctm : List.of("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric")) {
                resize(13, up, null, null, "mode", "nearest", "nearest_mode", nearest, "coordinate_transformation_mode", ctm);
                resize(13, null, new long[]{1, 2, 3, 2}, null, "mode", "nearest", "nearest_mode", nearest, "coordinate_transformation_mode", ctm);
            }
        }
        resize(11, up, null, new float[0], "mode", "nearest", "coordinate_transformation_mode", "tf_half_pixel_for_nn");
    }

    @Test
    void resizeLinearAndCubicWithSizesScalesAndCoordinateModes() throws Exception {
        for (String mode : List.of("linear", "cubic")) {
            for (String ctm : List.of("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "half_pixel_symmetric")) {
                resize(19, null, new long[]{1, 2, 7, 3}, null, "mode", mode, "coordinate_transformation_mode", ctm);
                // scale x extent whole: onnx's reference maps align_corners through scale x extent, ONNX Runtime through the output extent
                resize(19, new float[]{1, 1, 0.75f, 1.6f}, null, null, "mode", mode, "coordinate_transformation_mode", ctm);
            }
        }
        resize(13, new float[]{1, 1, 2, 2}, null, null, "mode", "cubic", "cubic_coeff_a", -0.5, "exclude_outside", 1L);   // ONNX Runtime: cubic only
    }

    @Test
    void resizeAntialiasAndCropAndResize() throws Exception {
        for (String mode : List.of("linear", "cubic")) {
            resize(18, new float[]{1, 1, 0.6f, 0.4f}, null, null, "mode", mode, "antialias", 1L);
            resize(18, null, new long[]{1, 2, 3, 2}, null, "mode", mode, "antialias", 1L);
        }
        // axes and keep_aspect_ratio_policy: ONNX Runtime 1.22 refuses sizes for fewer axes than the rank; the node tests check them
        resize(13, null, new long[]{1, 2, 5, 4}, new float[]{0, 0, 0.2f, 0.1f, 1, 1, 0.9f, 1.2f}, "mode", "linear",
                "coordinate_transformation_mode", "tf_crop_and_resize", "extrapolation_value", 7.5);
    }

    @Test
    void resize10AndUpsample9() throws Exception {
        resize(10, new float[]{1, 1, 2, 3}, null, null, "mode", "nearest");
        resize(10, new float[]{1, 1, 1.5f, 2.5f}, null, null, "mode", "linear");
        resize(10, new float[]{1, 1, 0.5f, 0.6f}, null, null, "mode", "nearest");
        for (String mode : List.of("nearest", "linear")) {
            agree(new TinyOnnx().opset(9).input("x", 1L, 2L, 3L, 4L).raw("scales", new float[]{1, 1, 2, 1.5f}).output("y")
                    .node("u", "Upsample", List.of("x", "scales"), List.of("y"), "mode", mode), "x", 1, 2, 3, 4);
        }
    }

    // ---- Col2Im and AffineGrid ----

    @Test
    void col2imWithStridesPadsAndDilations() throws Exception {
        // image 5 x 6, blocks 2 x 3, strides 1, 2, pads (1, 0) at the start and (1, 1) at the end, dilations 2, 1: 5 x 3 blocks
        agree(new TinyOnnx().opset(18).input("x", 2L, 12L, 15L).ints("image", 5, 6).ints("block", 2, 3).output("y")
                .node("c", "Col2Im", List.of("x", "image", "block"), List.of("y"), "strides", new long[]{1, 2}, "pads", new long[]{1, 0, 1, 1},
                        "dilations", new long[]{2, 1}), "x", 2, 12, 15);
        agree(new TinyOnnx().opset(18).input("x", 1L, 6L, 3L).ints("image", 5).ints("block", 3).output("y")
                .node("c", "Col2Im", List.of("x", "image", "block"), List.of("y"), "strides", new long[]{1}), "x", 1, 6, 3);
    }

    @Test
    void affineGrid2dAnd3d() throws Exception {
        for (long align = 0; align <= 1; align++) {
            agree(new TinyOnnx().opset(20).input("t", 2L, 2L, 3L).ints("size", 2, 3, 4, 5).output("y")
                    .node("a", "AffineGrid", List.of("t", "size"), List.of("y"), "align_corners", align), "t", 2, 2, 3);
            agree(new TinyOnnx().opset(20).input("t", 1L, 3L, 4L).ints("size", 1, 1, 2, 3, 4).output("y")
                    .node("a", "AffineGrid", List.of("t", "size"), List.of("y"), "align_corners", align), "t", 1, 3, 4);
        }
    }

    @Test
    void gridSampleEveryModePaddingAndAlignment() throws Exception {
        // OnnxRuntimeDifferentialTest.random draws grid coordinates in [-1, 1): the image's own area; the padding modes beyond it below.
        gridSamples(1);
    }

    /**
     * The grid scaled by 2.5 (coordinates in [-2.5, 2.5)), so that most samples fall outside the image and
     * every padding mode decides them. Bicubic pads its four taps only (PyTorch's grid_sampler, ONNX
     * Runtime): it used to clamp a border coordinate to the last pixel first, as onnx's reference does,
     * and was 0.06 off ONNX Runtime on torch.nn.functional.grid_sample(mode="bicubic", padding_mode="border").
     */
    @Test
    void gridSampleOutsideTheImageEveryModePaddingAndAlignment() throws Exception {
        gridSamples(2.5f);
    }

    private void gridSamples(float spread) throws Exception {
        for (String pad : List.of("zeros", "border", "reflection")) {
            for (long align = 0; align <= 1; align++) {
                for (String mode : List.of("bilinear", "nearest", "bicubic")) {
                    OnnxRuntimeDifferentialTest.agree(dir, new TinyOnnx().opset(16).input("x", 1L, 2L, 4L, 5L).input("g", 1L, 3L, 6L, 2L).output("y").floats("spread", spread)
                            .node("m", "Mul", List.of("g", "spread"), List.of("gs"))
                            .node("s", "GridSample", List.of("x", "gs"), List.of("y"), "mode", mode, "padding_mode", pad, "align_corners", align),
                            Map.of("x", new long[]{1, 2, 4, 5}, "g", new long[]{1, 3, 6, 2}));
                }
                for (String mode : List.of("linear", "nearest")) {
                    OnnxRuntimeDifferentialTest.agree(dir, new TinyOnnx().opset(20).input("x", 1L, 1L, 3L, 4L, 2L).input("g", 1L, 2L, 2L, 3L, 3L).output("y").floats("spread", spread)
                            .node("m", "Mul", List.of("g", "spread"), List.of("gs"))
                            .node("s", "GridSample", List.of("x", "gs"), List.of("y"), "mode", mode, "padding_mode", pad, "align_corners", align),
                            Map.of("x", new long[]{1, 1, 3, 4, 2}, "g", new long[]{1, 2, 2, 3, 3}));
                }
            }
        }
    }
}
