package org.arenaplan.onnx;

import org.arenaplan.ir.DType;

import java.util.Arrays;

/** A named tensor during import: its element type and fully known shape. */
public record Value(String name, DType dtype, long[] shape) {
    public Value {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public long dim(int axis) {
        return shape[axis];
    }

    /**
     * The number of elements, the product of the shape.
     *
     * @throws ArithmeticException when the product passes 2^63-1 (see {@link #countable()})
     */
    public long elements() {
        long n = 1;
        for (long d : shape) n = Math.multiplyExact(n, d);
        return n;
    }

    /** Whether {@link #elements()} fits in a long; a shape from a file may multiply past 2^63-1. */
    public boolean countable() {
        try {
            elements();
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return name + Arrays.toString(shape);
    }
}
