package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The image ops on values worked out by hand from ONNX Operators.md (and onnx's reference
 * implementation where the text is silent), imported, planned and run on the simulator; and the
 * inputs they refuse, each with one line naming the node.
 */
class ImageOpsTest {
    @TempDir
    Path dir;

    private Graph load(TinyOnnx m) throws Exception {
        Path f = dir.resolve("m.onnx");
        Files.write(f, m.bytes());
        return OnnxImporter.load(f, Map.of());
    }

    private float[] run(TinyOnnx m, float... x) throws Exception {
        return WeightsTest.run(load(m), Map.of("x", x)).get("y");
    }

    @Test
    void convTranspose1dByHand() throws Exception {
        // y[o] = sum of x[i] * w[k] over 2i + k - padBegin = o: x [1, 2], w [1, 10, 100], stride 2.
        TinyOnnx plain = new TinyOnnx().input("x", 1L, 1L, 2L).raw("w", new float[]{1, 10, 100}, 1, 1, 3).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "strides", new long[]{2});
        assertThat(run(plain, 1, 2)).containsExactly(1, 10, 102, 20, 200);
        TinyOnnx padded = new TinyOnnx().input("x", 1L, 1L, 2L).raw("w", new float[]{1, 10, 100}, 1, 1, 3).raw("b", new float[]{0.5f}).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w", "b"), List.of("y"), "strides", new long[]{2}, "pads", new long[]{1, 0},
                        "output_padding", new long[]{1});
        assertThat(run(padded, 1, 2)).containsExactly(10.5f, 102.5f, 20.5f, 200.5f, 0.5f);
        TinyOnnx shaped = new TinyOnnx().input("x", 1L, 1L, 2L).raw("w", new float[]{1, 10, 100}, 1, 1, 3).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "strides", new long[]{2}, "output_shape", new long[]{3});
        assertThat(run(shaped, 1, 2)).as("output_shape shorter than the formula crops the end").containsExactly(1, 10, 102);
    }

    @Test
    void averagePoolCountsTheEndPaddingOnlyWhenAsked() throws Exception {
        // x [1, 2, 3], window 2, stride 2, pads [0, 1]: windows {1, 2} and {3, pad}.
        for (long include = 0; include <= 1; include++) {
            TinyOnnx m = new TinyOnnx().input("x", 1L, 1L, 3L).output("y").node("p", "AveragePool", List.of("x"), List.of("y"),
                    "kernel_shape", new long[]{2}, "strides", new long[]{2}, "pads", new long[]{0, 1}, "count_include_pad", include);
            assertThat(run(m, 1, 2, 3)).containsExactly(1.5f, include == 1 ? 1.5f : 3f);
        }
    }

    @Test
    void dilatedMaxPoolAndLpPoolByHand() throws Exception {
        TinyOnnx max = new TinyOnnx().opset(10).input("x", 1L, 1L, 5L).output("y").node("p", "MaxPool", List.of("x"), List.of("y"),
                "kernel_shape", new long[]{2}, "dilations", new long[]{3});
        assertThat(run(max, 5, 1, 9, 2, 0)).as("windows {x0, x3}, {x1, x4}").containsExactly(5, 1);
        TinyOnnx l2 = new TinyOnnx().opset(18).input("x", 1L, 1L, 4L).output("y").node("p", "LpPool", List.of("x"), List.of("y"),
                "kernel_shape", new long[]{2}, "strides", new long[]{2});
        assertThat(run(l2, 3, -4, 0, 1)).containsExactly(5, 1);
        TinyOnnx g1 = new TinyOnnx().input("x", 1L, 1L, 2L, 2L).output("y").node("g", "GlobalLpPool", List.of("x"), List.of("y"), "p", 1L);
        assertThat(run(g1, 1, -2, 3, -4)).containsExactly(10);
    }

    @Test
    void maxPoolIndicesRowAndColumnMajor() throws Exception {
        // x [[1, 5, 2], [7, 3, 4]], 2 x 2 windows: maxima 7 at (1, 0) and 5 at (0, 1); flat indices 3 and 1 row-major,
        // 1 + 0 * 2 = 1 and 0 + 1 * 2 = 2 column-major (h + w * H).
        for (long order = 0; order <= 1; order++) {
            TinyOnnx m = new TinyOnnx().opset(12).input("x", 1L, 1L, 2L, 3L).output("y").output(OnnxDTypes.INT64, "i", 1L, 1L, 1L, 2L)
                    .node("p", "MaxPool", List.of("x"), List.of("y", "i"), "kernel_shape", new long[]{2, 2}, "storage_order", order);
            Graph g = load(m);
            Map<String, TensorValue> out;
            try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
                out = Executors.run(ArenaPlanner.plan(g), device, List.of(Mode.PLANNED), 1,
                        Map.of("x", TensorValue.ofFloats(new long[]{1, 1, 2, 3}, new float[]{1, 5, 2, 7, 3, 4})), 1).last(Mode.PLANNED).outputs();
            }
            assertThat(out.get("y").floats()).containsExactly(7, 5);
            assertThat(out.get("i").dtype()).isEqualTo(DType.I64);
            assertThat(out.get("i").doubles()).containsExactly(order == 0 ? new double[]{3, 1} : new double[]{1, 2});
        }
    }

    @Test
    void resizeAxesAndAspectRatioPolicyByHand() throws Exception {
        // sizes [4, 3] on axes 2, 3 with not_larger: one scale min(4/2, 3/2) = 1.5, output 3 x 3; half_pixel, round_prefer_floor
        // maps output 0, 1, 2 to input -0.17, 0.5, 1.17, i.e. rows and columns 0, 0, 1.
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 1L, 1L, 2L, 2L).ints("sizes", 4, 3).output("y")
                .node("r", "Resize", List.of("x", "", "", "sizes"), List.of("y"), "axes", new long[]{2, 3}, "keep_aspect_ratio_policy", "not_larger");
        Graph g = load(m);
        assertThat(g.tensor("y").shape()).containsExactly(1, 1, 3, 3);
        assertThat(WeightsTest.run(g, Map.of("x", new float[]{1, 2, 3, 4})).get("y")).containsExactly(1, 1, 2, 1, 1, 2, 3, 3, 4);
    }

    @Test
    void resizeLinearAlignCornersAndUpsampleByHand() throws Exception {
        // [0, 3] to 4 values with align_corners: 0, 1, 2, 3.
        TinyOnnx lin = new TinyOnnx().opset(11).input("x", 1L, 2L).raw("roi", new float[0]).ints("sizes", 1, 4).raw("scales", new float[0]).output("y")
                .node("r", "Resize", List.of("x", "roi", "scales", "sizes"), List.of("y"), "mode", "linear", "coordinate_transformation_mode", "align_corners");
        assertThat(run(lin, 0, 3)).containsExactly(0, 1, 2, 3);
        TinyOnnx up = new TinyOnnx().opset(9).input("x", 1L, 2L).raw("scales", new float[]{1, 2}).output("y")
                .node("u", "Upsample", List.of("x", "scales"), List.of("y"));
        assertThat(run(up, 7, 8)).containsExactly(7, 7, 8, 8);
    }

    @Test
    void refusalsNameTheNodeInOneLine() {
        assertRefused(new TinyOnnx().input("x", 1L, 1L, 4L, 4L).input("s", 4L).output("y")
                .node("r", "Resize", List.of("x", "", "s"), List.of("y")), "scales (input #2 's') must be a constant known at import time");
        assertRefused(new TinyOnnx().opset(18).input("x", 1L, 1L, 4L, 4L).raw("s", new float[]{1, 1, 2, 2}).output("y")
                .node("r", "Resize", List.of("x", "", "s"), List.of("y"), "antialias", 1L), "antialias applies to linear and cubic modes only");
        assertRefused(new TinyOnnx().opset(13).input("x", 1L, 1L, 4L, 4L).raw("s", new float[]{1, 1, 2, 2}).output("y")
                .node("r", "Resize", List.of("x", "", "s"), List.of("y"), "coordinate_transformation_mode", "half_pixel_symmetric"),
                "coordinate_transformation_mode 'half_pixel_symmetric' is not one of opset 13's");
        assertRefused(new TinyOnnx().opset(13).input("x", 1L, 1L, 4L, 4L).raw("s", new float[]{1, 1, 2, 2}).ints("z", 1, 1, 8, 8).output("y")
                .node("r", "Resize", List.of("x", "", "s", "z"), List.of("y")), "give exactly one of the inputs 'scales' and 'sizes'");
        assertRefused(new TinyOnnx().opset(10).input("x", 1L, 1L, 4L).raw("s", new float[]{1, 1, 2}).output("y")
                .node("u", "Upsample", List.of("x", "s"), List.of("y")), "Upsample is deprecated from opset 10; use Resize");
        assertRefused(new TinyOnnx().input("x", 1L, 1L, 2L).raw("w", new float[]{1}, 1, 1, 1).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "strides", new long[]{3}, "auto_pad", "SAME_UPPER"),
                "come out negative");
        assertRefused(new TinyOnnx().input("x", 1L, 1L, 2L, 2L, 2L, 2L).output("y")
                .node("p", "MaxPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{1, 1, 1, 1}), "4 spatial axes; 1 to 3 are supported");
        assertRefused(new TinyOnnx().opset(18).input("x", 1L, 1L, 4L).output("y")
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{2}, "dilations", new long[]{2}),
                "attribute 'dilations' needs opset 19");
    }

    private void assertRefused(TinyOnnx m, String why) {
        assertThatThrownBy(() -> load(m)).isInstanceOf(OnnxException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(why).doesNotContain("\n"));
    }
}
