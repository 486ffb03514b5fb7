package org.arenaplan.device;

import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The refusal of a {@link Kernels#UNIQUE} call along an axis whose answer would not be ONNX's:
 * checked on the host before launch for every device ({@code exec.LaunchChecks}). The kernels
 * take a NaN equal to a NaN (numpy.unique's {@code equal_nan}, what onnx's reference does for the
 * flattened input), but onnx's reference along an axis (onnx/reference/ops/op_unique.py, numpy.unique
 * with {@code axis}, which compares the slices field by field with {@code !=}) counts every slice
 * that holds a NaN as distinct. So two slices that hold NaN in the same places and are equal
 * elsewhere, one slice to the kernels and two to the reference, are refused naming both.
 */
public final class UniqueSlices {
    private UniqueSlices() { }

    /**
     * @param c a unique call (ints [outer, n, inner, sorted, dtype, es, alongAxis] as {@link Kernels#UNIQUE}
     *          lays them out; without alongAxis, or 0, the flattened input: nothing to refuse); {@code c.label()} names the op
     * @param x the call's X as the device holds it, [outer, n, inner] little-endian
     * @throws DataException naming the op and the two slices
     */
    public static void check(KernelCall c, byte[] x) {
        if (c.ints().length < 7 || c.intArg(6) != 1) return;
        DType t = DType.ofOnnx(c.intArg(4));
        if (t == null || !t.isFloatingPoint()) return;
        int outer = Math.toIntExact(c.intArg(0)), n = Math.toIntExact(c.intArg(1)), inner = Math.toIntExact(c.intArg(2));
        ByteBuffer b = ByteBuffer.wrap(x).order(ByteOrder.LITTLE_ENDIAN);
        Map<List<Double>, Integer> seen = new HashMap<>();
        for (int s = 0; s < n; s++) {
            List<Double> key = new ArrayList<>(outer * inner);
            boolean nan = false;
            for (int o = 0; o < outer; o++)
                for (int k = 0; k < inner; k++) {
                    double v = t.getDouble(b, (o * n + s) * inner + k);
                    nan |= Double.isNaN(v);
                    key.add(v + 0.0);   // -0.0 as 0.0; every NaN as Double's one NaN
                }
            if (!nan) continue;
            Integer other = seen.putIfAbsent(key, s);
            if (other != null)
                throw new DataException(String.format("'%s': Unique along an axis: slices %d and %d of X hold NaN in the same places and are equal elsewhere;"
                        + " onnx's reference (numpy.unique with axis) counts slices holding NaN as distinct, arenaplan's unique as equal", c.label(), other, s));
        }
    }
}
