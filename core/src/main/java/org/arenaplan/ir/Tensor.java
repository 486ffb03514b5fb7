package org.arenaplan.ir;

import org.arenaplan.io.Printable;

import java.util.Arrays;
import java.util.Objects;

/**
 * A named value with a byte size. The element type and shape are optional: planning needs only
 * {@link #bytes()}; executors need both.
 */
public final class Tensor {
    private final String name;
    private final long bytes;
    private final DType dtype;
    private final long[] shape;

    public Tensor(String name, long bytes, DType dtype, long[] shape) {
        this.name = Objects.requireNonNull(name, "name");
        this.bytes = bytes;
        this.dtype = dtype;
        this.shape = shape == null ? null : shape.clone();
    }

    /** A tensor whose size is the product of its shape times the element width ({@link DType#byteSize}: packed types round up to whole bytes). */
    public static Tensor of(String name, DType dtype, long... shape) {
        long elements = 1;
        for (long d : shape) {
            if (d < 0) throw new GraphException("tensor '" + Printable.name(name) + "': negative dimension " + d + " in shape " + Arrays.toString(shape));
            try {
                elements = Math.multiplyExact(elements, d);
            } catch (ArithmeticException e) {
                throw new GraphException("tensor '" + Printable.name(name) + "': shape " + Arrays.toString(shape) + " overflows a long");
            }
        }
        long bytes;
        try {
            bytes = dtype.byteSize(elements);
        } catch (ArithmeticException e) {
            throw new GraphException("tensor '" + Printable.name(name) + "': byte size of shape " + Arrays.toString(shape) + " overflows a long");
        }
        return new Tensor(name, bytes, dtype, shape);
    }

    public String name() { return name; }

    public long bytes() { return bytes; }

    /** May be null when the graph gave only a byte size. */
    public DType dtype() { return dtype; }

    /** May be null when the graph gave only a byte size. */
    public long[] shape() { return shape == null ? null : shape.clone(); }

    public boolean hasShape() { return shape != null; }

    public long elements() {
        if (shape == null) return dtype == null ? bytes : dtype.isPacked() ? bytes * (8 / dtype.bits()) : bytes / dtype.bytes();
        long n = 1;
        for (long d : shape) n *= d;
        return n;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Tensor t)) return false;
        return name.equals(t.name) && bytes == t.bytes && dtype == t.dtype && Arrays.equals(shape, t.shape);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, bytes, dtype, Arrays.hashCode(shape));
    }

    @Override
    public String toString() {
        return name + "(" + bytes + " B" + (shape == null ? "" : ", " + Arrays.toString(shape)) + ")";
    }
}
