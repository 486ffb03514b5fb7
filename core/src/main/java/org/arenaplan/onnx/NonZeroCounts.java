package org.arenaplan.onnx;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which computed tensors of an import hold the same elements in the same row-major order (Identity,
 * Reshape, Flatten, Squeeze, Unsqueeze, and an Expand whose output has its input's shape, ONNX's
 * broadcasting then being a copy), and the NonZero ops over them, so that counts known only at run
 * time are tied soundly to one runtime extent:
 * <ul>
 *   <li>NonZero of a tensor with the same elements and shape as an earlier NonZero's input gives the
 *       same output in every run (the TorchScript exporter's {@code y[m] = x[m] * 2} runs NonZero of
 *       m and of Expand(m, Shape(x)), of m's shape): {@link #earlier}.</li>
 *   <li>ReduceSum over every axis of a bool tensor cast to int32 or int64 is the count of its true
 *       elements, NonZero's extent over a tensor of the same elements (the dynamo exporter's
 *       {@code y[m] = v}: {@code Expand(v, ReduceSum(Cast(Reshape(m, [-1]))))}): {@link #counted}.</li>
 *   <li>Unsqueeze to trailing axes of one element and an Expand of those to other extents repeat each
 *       element of a mask over trailing axes (both exporters' {@code y[m] = v} with m over x's rows:
 *       {@code Expand(Unsqueeze(m, -1), Shape(x))}): {@link #repeated}, read by {@link RowMasks}.</li>
 * </ul>
 * Nothing else is inferred: a tensor recorded here has exactly its source's elements in every run.
 */
final class NonZeroCounts {
    /** A NonZero imported as an op: its output [rank, n] and its input's shape. */
    record NonZero(String output, long[] inputShape) { }

    private final Map<String, String> sameElements = new HashMap<>();   // tensor -> the tensor it copies (elements, order)
    private final Map<String, String> boolCast = new HashMap<>();       // int32/int64 Cast output -> its bool input
    private final Map<String, NonZero> nonZeros = new HashMap<>();      // root tensor -> the first NonZero over it
    private final Map<String, Repeated> repeated = new HashMap<>();     // tensor -> the mask whose elements it repeats over trailing axes

    /** A tensor of shape [maskShape.., t..] whose element [i.., j..] is {@code mask}'s element [i..] (the mask repeated over trailing axes t). */
    record Repeated(String mask, long[] maskShape) { }

    /** The tensor whose elements {@code t} holds in the same order, followed back as far as recorded. */
    private String root(String t) {
        for (String s = sameElements.get(t); s != null; s = sameElements.get(t)) t = s;
        return t;
    }

    /** Records that {@code out} holds {@code in}'s elements in the same order (a view, or a broadcast to the same shape). */
    void copies(String out, String in) {
        sameElements.put(out, in);
    }

    /**
     * Records that {@code out} of {@code outShape} repeats a mask over trailing axes, where {@code in}
     * ({@code inShape}) is such a tensor or the mask itself, of the mask's shape or with trailing axes of
     * one element added, and {@code out} has its elements in the same order (an Unsqueeze) or of the same
     * rank broadcast (an Expand), its shape the mask's followed by at least one axis.
     */
    void repeats(String out, long[] outShape, String in, long[] inShape) {
        Repeated r = repeated.getOrDefault(in, new Repeated(in, inShape.clone()));
        int k = r.maskShape().length;
        if (outShape.length <= k || !Arrays.equals(Arrays.copyOf(outShape, k), r.maskShape()) || !Arrays.equals(Arrays.copyOf(inShape, k), r.maskShape())) return;
        for (int a = k; a < inShape.length; a++) if (inShape[a] != 1) return;
        repeated.put(out, r);
    }

    /** The mask {@code t} repeats over trailing axes ({@link #repeats}), else null. */
    Repeated repeated(String t) {
        return repeated.get(t);
    }

    /** Records that {@code out} is {@code in}, a bool tensor, cast to int32 or int64 (true 1, false 0). */
    void castsBool(String out, String in) {
        boolCast.put(out, in);
    }

    /** Records {@code output}, the [rank, n] output of a NonZero op over {@code input} of {@code shape}. */
    void nonZero(String output, String input, long[] shape) {
        nonZeros.putIfAbsent(root(input), new NonZero(output, shape.clone()));
    }

    /** The output of an earlier NonZero over a tensor of {@code input}'s elements and {@code shape}, else null. */
    String earlier(String input, long[] shape) {
        NonZero z = nonZeros.get(root(input));
        return z != null && Arrays.equals(z.inputShape(), shape) ? z.output() : null;
    }

    /**
     * The NonZero whose runtime extent equals the sum over every element of {@code summed} (a bool
     * tensor cast to int32 or int64: its count of true elements, exact below 2^31), else null.
     */
    NonZero counted(String summed) {
        String b = boolCast.get(summed);
        return b == null ? null : nonZeros.get(root(b));
    }
}
