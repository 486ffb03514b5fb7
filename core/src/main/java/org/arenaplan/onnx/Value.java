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

    public long elements() {
        long n = 1;
        for (long d : shape) n = Math.multiplyExact(n, d);
        return n;
    }

    @Override
    public String toString() {
        return name + Arrays.toString(shape);
    }
}
