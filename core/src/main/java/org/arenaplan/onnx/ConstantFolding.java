package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.WeightValues;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Set;

/**
 * Folds ops whose inputs are all weights into new weights at import, so they never run:
 * {@code Transpose} (ONNX Operators, Transpose: attr perm, default reversed axes) and
 * {@code Cast} (attr to; floats to integers truncate toward zero, anything non-zero to bool is 1,
 * f16/bf16 round to nearest even). A fill stays a fill; other values are computed when the weight
 * region reads them, one weight at a time, so folding adds no host copy at import.
 * (View-like ops over weights share their input's values; {@link OnnxImporter} handles those.)
 */
final class ConstantFolding {
    private ConstantFolding() { }

    /** Whether node {@code n} is a foldable op whose every given input is a weight. */
    static boolean folds(NodeContext n, Set<String> weights) {
        if (!n.opType().equals("Transpose") && !n.opType().equals("Cast")) return false;
        if (n.inputCount() == 0 || !n.hasInput(0)) return false;
        return weights.contains(n.input(0).name());
    }

    /** The folded outputs and their values. */
    static Map<Value, Constant> fold(NodeContext n, Map<String, Constant> weights) {
        Value x = n.input(0);
        Constant c = weights.get(x.name());
        String out = n.node().outputs().get(0);
        if (n.opType().equals("Transpose")) {
            Lowered l = NodeLowering.lower(n);
            long[] perm = (long[]) l.attrs().get("perm");
            Value y = l.outputs().get(0);
            WeightValues src = c.values();
            return Map.of(y, c.values() == null ? c : new Constant(null, () -> transpose(src.read(), x.shape(), perm, x.dtype().bytes())));
        }
        n.require(n.hasAttr("to"), "attribute 'to' is required");
        DType target = n.elementType("to", null);
        Value y = new Value(out, target, x.shape());
        long sat = n.integer("saturate", 1);
        if (n.hasAttr("saturate") && (n.opset() < 19 || (sat != 0 && sat != 1))) throw n.error("attribute 'saturate' = " + sat + " needs opset 19 and 0 or 1");
        boolean saturate = sat != 0;
        if (c.values() == null) return Map.of(y, c.fill() == null ? c : Constant.fill(convert(c.fill(), target, saturate)));
        if (target == x.dtype()) return Map.of(y, c);
        WeightValues src = c.values();
        DType from = x.dtype();
        long count = x.elements();
        return Map.of(y, new Constant(null, () -> cast(src.read(), from, target, count, saturate)));
    }

    /** Row-major transpose of elements {@code width} bytes wide: output axis i is input axis perm[i]. */
    static ByteBuffer transpose(ByteBuffer in, long[] shape, long[] perm, int width) {
        int rank = shape.length;
        long[] inStride = new long[rank];
        long s = 1;
        for (int a = rank - 1; a >= 0; a--) { inStride[a] = s; s *= shape[a]; }
        long[] outShape = new long[rank], stride = new long[rank];
        for (int i = 0; i < rank; i++) { outShape[i] = shape[(int) perm[i]]; stride[i] = inStride[(int) perm[i]]; }
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(s * width)).order(ByteOrder.LITTLE_ENDIAN);
        long[] idx = new long[rank];
        for (long k = 0; k < s; k++) {
            long src = 0;
            for (int i = 0; i < rank; i++) src += idx[i] * stride[i];
            for (int b = 0; b < width; b++) out.put(in.get((int) (src * width + b)));
            for (int i = rank - 1; i >= 0; i--) {
                if (++idx[i] < outShape[i]) break;
                idx[i] = 0;
            }
        }
        return out.flip();
    }

    /** Elements of type {@code from} as type {@code to} (ONNX Cast, by {@link DType#cast}; {@code saturate} for float8 results). */
    static ByteBuffer cast(ByteBuffer in, DType from, DType to, long count, boolean saturate) {
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(to.byteSize(count))).order(ByteOrder.LITTLE_ENDIAN);
        in = in.order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) from.cast(in, i, to, out, i, saturate);
        return out;
    }

    /** A value as type {@code to} holds it (by {@link DType#cast} from f64), widened back to a double. */
    static double convert(double v, DType to, boolean saturate) {
        ByteBuffer in = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, v), out = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        DType.F64.cast(in, 0, to, out, 0, saturate);
        return to.getDouble(out, 0);
    }
}
