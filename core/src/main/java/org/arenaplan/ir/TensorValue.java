package org.arenaplan.ir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A tensor's elements on the host: element type, shape (null when only a flat count is known)
 * and the bytes exactly as the device holds them (little-endian, {@link DType#bytes()} per
 * element). Graph inputs, outputs and {@code .pb} files are these; the element rules are
 * {@link DType}'s. Immutable: constructors and accessors copy.
 */
public final class TensorValue {
    private final DType dtype;
    private final long[] shape;
    private final byte[] bytes;

    /** @throws IllegalArgumentException when the byte count is not the shape's element count times the element size */
    public TensorValue(DType dtype, long[] shape, byte[] bytes) {
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        this.shape = shape == null ? null : shape.clone();
        this.bytes = bytes.clone();
        if (bytes.length % dtype.bytes() != 0)
            throw new IllegalArgumentException(bytes.length + " B is not a whole number of " + dtype.jsonName() + " elements");
        if (shape == null && dtype.isPacked())
            throw new IllegalArgumentException("a " + dtype.jsonName() + " value needs a shape: its " + bytes.length + " B may hold a padded last byte");
        if (shape != null && dtype.byteSize(product(shape)) != bytes.length)
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " of " + dtype.jsonName() + " needs "
                    + dtype.byteSize(product(shape)) + " B, got " + bytes.length);
    }

    /** f32 values of the given shape (null: flat). */
    public static TensorValue ofFloats(long[] shape, float... values) {
        ByteBuffer b = allocate(4L * values.length);
        b.asFloatBuffer().put(values);
        return new TensorValue(DType.F32, shape, b.array());
    }

    /** Values of an integral type (int64 ... bool), each stored in the type's width. */
    public static TensorValue ofLongs(DType dtype, long[] shape, long... values) {
        if (!dtype.isIntegral() && !dtype.isPackedInteger()) throw new IllegalArgumentException(dtype + " is not integral");
        ByteBuffer b = allocate(dtype.byteSize(values.length));
        for (int i = 0; i < values.length; i++) dtype.putLong(b, i, values[i]);
        return new TensorValue(dtype, shape, b.array());
    }

    /** Values converted to {@code dtype} by {@link DType#cast} from f64. */
    public static TensorValue ofDoubles(DType dtype, long[] shape, double... values) {
        ByteBuffer src = allocate(8L * values.length);
        src.asDoubleBuffer().put(values);
        ByteBuffer b = allocate(dtype.byteSize(values.length));
        for (int i = 0; i < values.length; i++) DType.F64.cast(src, i, dtype, b, i);
        return new TensorValue(dtype, shape, b.array());
    }

    /** A little-endian buffer of {@code bytes} (at most 2 GiB: one Java array). */
    public static ByteBuffer allocate(long bytes) {
        if (bytes > Integer.MAX_VALUE - 8) throw new IllegalArgumentException(bytes + " B exceed a host array (2 GiB)");
        return ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    public DType dtype() { return dtype; }

    /** May be null (a flat value). */
    public long[] shape() { return shape == null ? null : shape.clone(); }

    public int elements() { return shape != null ? Math.toIntExact(product(shape)) : bytes.length / dtype.bytes(); }

    public int byteCount() { return bytes.length; }

    /** A copy of the device bytes. */
    public byte[] bytes() { return bytes.clone(); }

    /** A read-only little-endian view of the bytes. */
    public ByteBuffer buffer() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Element {@code i} as a double (see {@link DType#getDouble}). */
    public double getDouble(int i) {
        return dtype.getDouble(buffer(), i);
    }

    /** Every element as a double. */
    public double[] doubles() {
        ByteBuffer b = buffer();
        double[] d = new double[elements()];
        for (int i = 0; i < d.length; i++) d[i] = dtype.getDouble(b, i);
        return d;
    }

    /** The elements of an f32, f16 or bf16 value widened to f32. */
    public float[] floats() {
        if (!dtype.isFloat32Compute()) throw new IllegalStateException("a " + dtype.jsonName() + " value has no f32 elements");
        ByteBuffer b = buffer();
        float[] f = new float[elements()];
        for (int i = 0; i < f.length; i++) f[i] = dtype.getFloat(b, i);
        return f;
    }

    /** The elements of an integral value (int64 ... bool, and the packed uint4 ... int2). */
    public long[] longs() {
        if (!dtype.isIntegral() && !dtype.isPackedInteger()) throw new IllegalStateException("a " + dtype.jsonName() + " value has no integer elements");
        ByteBuffer b = buffer();
        long[] l = new long[elements()];
        for (int i = 0; i < l.length; i++) l[i] = dtype.getLong(b, i);
        return l;
    }

    /** Element {@code i} for messages: an integer, or a float as Java prints it. */
    public String format(int i) {
        return dtype.isIntegral() || dtype.isPackedInteger() ? Long.toString(dtype.getLong(buffer(), i)) : dtype == DType.F64 ? Double.toString(getDouble(i)) : Float.toString(dtype.getFloat(buffer(), i));
    }

    /** Same type and bytes (bit for bit; shapes are not compared). */
    public boolean sameBits(TensorValue o) {
        return dtype == o.dtype && Arrays.equals(bytes, o.bytes);
    }

    /** The first element whose bits differ from {@code o}'s, or -1; -2 when the types or sizes differ. */
    public int firstDifference(TensorValue o) {
        if (dtype != o.dtype || bytes.length != o.bytes.length) return -2;
        int at = Arrays.mismatch(bytes, o.bytes);
        if (at < 0 || !dtype.isPacked()) return at < 0 ? -1 : at / dtype.bytes();
        int differ = (bytes[at] ^ o.bytes[at]) & 0xFF;        // the lowest differing element of that byte
        return at * (8 / dtype.bits()) + Integer.numberOfTrailingZeros(differ) / dtype.bits();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorValue t && sameBits(t) && Arrays.equals(shape, t.shape);
    }

    @Override
    public int hashCode() {
        return 31 * dtype.hashCode() + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return dtype.jsonName() + (shape == null ? "[" + elements() + "]" : Arrays.toString(shape));
    }

    private static long product(long[] s) {
        long p = 1;
        for (long d : s) p = Math.multiplyExact(p, d);
        return p;
    }
}
