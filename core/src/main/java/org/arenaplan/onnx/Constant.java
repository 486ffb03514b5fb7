package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.WeightValues;

import java.nio.ByteBuffer;

/**
 * A weight during import: either one {@code fill} value for every element (ConstantOfShape, or a
 * tensor whose elements are all equal) or the {@code values} read when the weight region is
 * filled; both null only for a tensor whose values cannot be read (executors seed it).
 */
record Constant(Double fill, WeightValues values) {

    static Constant fill(double v) {
        return new Constant(v, null);
    }

    /** A fill when every element is equal (checked up to the first difference), else the values. */
    static Constant of(WeightValues source, DType type) {
        if (source == null) return new Constant(null, null);
        Double u = OnnxTensors.uniform(source, type);
        return u != null ? fill(u) : new Constant(null, source);
    }

    /** int64 values {@code v}, little-endian (Constant's value_ints, a Reshape's shape made at import). */
    static Constant ofLongs(long[] v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long x : v) b.putLong(x);
        return of(bytes(b.flip()), DType.I64);
    }

    /** The first element of {@code one} repeated {@code count} times (at most 2 GiB), built when read: a fill a double cannot hold. */
    static Constant repeated(WeightValues one, DType type, long count) {
        int width = type.bytes();
        return new Constant(null, () -> {
            ByteBuffer first = one.read().order(java.nio.ByteOrder.LITTLE_ENDIAN);
            byte[] all = new byte[Math.toIntExact(count * width)];
            for (int i = 0; i < all.length; i++) all[i] = first.get(first.position() + i % width);
            return ByteBuffer.wrap(all).asReadOnlyBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        });
    }

    /** float32 values {@code v}, little-endian (Upsample-7's scales attribute made an input at import). */
    static Constant ofFloats(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (float x : v) b.putFloat(x);
        return of(bytes(b.flip()), DType.F32);
    }

    /** Values held in memory: each read gets its own read-only view. */
    static WeightValues bytes(ByteBuffer b) {
        ByteBuffer frozen = b.asReadOnlyBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        return () -> frozen.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }
}
