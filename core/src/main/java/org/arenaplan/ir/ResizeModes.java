package org.arenaplan.ir;

import java.util.List;
import java.util.Map;

/**
 * Resize's string attributes and the codes the resize kernel takes for them
 * ({@code org.arenaplan.device.Kernels#RESIZE}): a value's code is its position in its list.
 * Source: ONNX Operators.md, Resize-19.
 */
public final class ResizeModes {
    private static final Map<String, List<String>> VALUES = Map.of(
            "mode", List.of("nearest", "linear", "cubic"),
            "coordinate_transformation_mode", List.of("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                    "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"),
            "nearest_mode", List.of("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"));

    private ResizeModes() { }

    /** The kernel code of {@code value} for attribute {@code attr}, or -1 when it is not one of its values. */
    public static int code(String attr, String value) {
        return VALUES.get(attr).indexOf(value);
    }

    /** The values attribute {@code attr} takes. */
    public static List<String> names(String attr) {
        return VALUES.get(attr);
    }
}
