package org.arenaplan.ir;

/**
 * A Slice of a bounded tensor along its bounded axis whose start and end ONNX computes from the
 * actual extent n in each run (ONNX Slice-13 clamps them to n; torch's {@code x[m][1:]},
 * {@code x[m].flip(0)}, and the TorchScript exporter's {@code torch.chunk(x[m], 2)}, whose start and
 * end are c = (Shape(x[m])[0] + 1) / 2 and 2c): the start and the end are each given as five
 * integers (a, b, d, e, f), the value floor((a n + b) / d) e + f, a constant c being (0, 0, 1, 1, c).
 * The importer writes them only where a n + b is not negative and nothing overflows for every n up
 * to the bound, so that ONNX's truncating integer division is this floor, and the kernels
 * ({@code device.Kernels#SLICE_BOUNDED}) compute the same values with plain 64-bit arithmetic.
 */
public final class CountedSlice {
    private CountedSlice() { }

    /** Integers per value: a, b, d, e, f. */
    public static final int TERMS = 5;

    /** floor((a n + b) / d) e + f of the five integers {@code v[at..at + 4]} (d positive, a n + b not negative: plain division). */
    public static long value(long[] v, int at, long n) {
        return (v[at] * n + v[at + 1]) / v[at + 2] * v[at + 3] + v[at + 4];
    }

    /** The five integers of the constant {@code c}. */
    public static long[] constant(long c) {
        return new long[]{0, 0, 1, 1, c};
    }

    /**
     * The rows ONNX Slice takes of an axis of {@code n} elements from {@code start} to {@code end} by
     * {@code step} (not 0): a negative start or end counts from the end; with a positive step both
     * are clamped to [0, n], with a negative one start to [0, n - 1] and end to [-1, n - 1] (none of an empty axis).
     */
    public static IndexShapeRules.Range range(long start, long end, long step, long n) {
        if (start < 0) start += n;
        if (end < 0) end += n;
        long count;
        if (step > 0) {
            start = Math.max(0, Math.min(n, start));
            end = Math.max(0, Math.min(n, end));
            count = end <= start ? 0 : (end - start - 1) / step + 1;
        } else {
            start = Math.max(0, Math.min(n - 1, start));
            end = Math.max(-1, Math.min(n - 1, end));
            count = n == 0 || start <= end ? 0 : (start - end - 1) / -step + 1;   // an empty axis: [0, n - 1] is empty
        }
        return new IndexShapeRules.Range(count == 0 ? 0 : start, step, count);
    }

    /** The rows of an axis of {@code n} actual elements by the start ({@code v[at..]}), the end ({@code v[at + 5..]}) and {@code step}. */
    public static IndexShapeRules.Range rows(long[] v, int at, long step, long n) {
        return range(value(v, at, n), value(v, at + TERMS, n), step, n);
    }

    /** The most rows {@link #rows} takes over every actual extent n from 0 to {@code bound}. */
    public static long mostRows(long[] v, int at, long step, long bound) {
        long most = 0;
        for (long n = 0; n <= bound; n++) most = Math.max(most, rows(v, at, step, n).count());
        return most;
    }
}
