package org.arenaplan.onnx;

/**
 * Resolves the sliding-window attributes shared by Conv and the pools into explicit values:
 * strides and dilations default to 1, {@code auto_pad} becomes explicit {@code pads}
 * (begin..., end...), and each output extent is computed:
 * {@code floor or ceil((in + padBegin + padEnd - ((k - 1) * d + 1)) / s) + 1}; with
 * {@code ceil_mode} a last window that would start in the end padding is dropped.
 */
public final class Windows {
    /** Explicit attributes and the output spatial extents. */
    public record Resolved(long[] kernel, long[] strides, long[] pads, long[] dilations, long[] out) { }

    private Windows() { }

    /**
     * @param in          spatial input extents
     * @param kernel      kernel extents (one per spatial axis)
     * @param node        attribute source
     * @param allowDilate whether {@code dilations} is an attribute of this op at this opset
     */
    public static Resolved resolve(NodeContext node, long[] in, long[] kernel, boolean allowDilate, boolean ceilMode) {
        int r = in.length;
        long[] strides = node.ints("strides", ones(r));
        long[] dil = allowDilate ? node.ints("dilations", ones(r)) : ones(r);
        node.require(strides.length == r, "strides " + java.util.Arrays.toString(strides) + " must have " + r + " entries");
        node.require(dil.length == r, "dilations " + java.util.Arrays.toString(dil) + " must have " + r + " entries");
        node.require(kernel.length == r, "kernel_shape " + java.util.Arrays.toString(kernel) + " must have " + r + " entries");
        String autoPad = node.string("auto_pad", "NOTSET");
        long[] pads = new long[2 * r];
        long[] out = new long[r];
        for (int i = 0; i < r; i++) {
            node.require(strides[i] > 0 && dil[i] > 0 && kernel[i] > 0, "kernel_shape, strides and dilations must be positive");
            try {
                axis(node, i, in, kernel, strides, dil, autoPad, ceilMode, pads, out);
            } catch (ArithmeticException e) {   // huge attributes: an extent they make does not fit a long
                throw node.error("kernel_shape " + kernel[i] + ", stride " + strides[i] + ", dilation " + dil[i] + " and "
                        + (autoPad.equals("NOTSET") ? "pads " + java.util.Arrays.toString(node.ints("pads", new long[2 * r])) : "auto_pad " + autoPad)
                        + " on spatial axis " + i + " make an extent that overflows a long");
            }
        }
        return new Resolved(kernel, strides, pads, dil, out);
    }

    /** Spatial axis {@code i}: its pads and output extent, in exact arithmetic (an overflow throws ArithmeticException). */
    private static void axis(NodeContext node, int i, long[] in, long[] kernel, long[] strides, long[] dil, String autoPad, boolean ceilMode,
                             long[] pads, long[] out) {
        int r = in.length;
        long effective = Math.addExact(Math.multiplyExact(kernel[i] - 1, dil[i]), 1);
        switch (autoPad) {
            case "NOTSET" -> {
                long[] explicit = node.ints("pads", new long[2 * r]);
                node.require(explicit.length == 2 * r, "pads " + java.util.Arrays.toString(explicit) + " must have " + 2 * r + " entries");
                pads[i] = explicit[i];
                pads[i + r] = explicit[i + r];
                node.require(pads[i] >= 0 && pads[i + r] >= 0, "pads must not be negative");
                long padded = Math.addExact(Math.addExact(in[i], pads[i]), pads[i + r]);
                long span = padded - effective;
                node.require(span >= 0, "window " + effective + " is larger than the padded input " + padded + " on spatial axis " + i);
                out[i] = (ceilMode ? Math.floorDiv(Math.addExact(span, strides[i] - 1), strides[i]) : span / strides[i]) + 1;
                if (ceilMode && Math.multiplyExact(out[i] - 1, strides[i]) >= in[i] + pads[i]) out[i]--;
            }
            case "VALID" -> {
                node.require(in[i] >= effective, "window " + effective + " is larger than the input " + in[i] + " on spatial axis " + i);
                out[i] = (in[i] - effective) / strides[i] + 1;
            }
            case "SAME_UPPER", "SAME_LOWER" -> {
                out[i] = Math.floorDiv(Math.addExact(in[i], strides[i] - 1), strides[i]);
                long total = Math.max(0, Math.addExact(Math.multiplyExact(out[i] - 1, strides[i]), effective) - in[i]);
                long small = total / 2;
                pads[i] = autoPad.equals("SAME_UPPER") ? small : total - small;
                pads[i + r] = total - pads[i];
            }
            default -> throw node.error("auto_pad '" + autoPad + "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
        }
    }

    public static long[] ones(int n) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, 1);
        return a;
    }
}
