package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.util.List;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#NONZERO}, {@link Kernels#COMPRESS}, {@link Kernels#UNIQUE} and {@link Kernels#NMS} (layouts there), the
 * kernels of data-dependent outputs ({@code ir.OpSpec.BoundedRule}): each writes the actual count
 * into its extent argument and the actual row-major tensor into the leading elements of its
 * upper-bound output, zeros after. data_dependent.cuh repeats them step for step.
 */
final class DataDependentKernels {
    private DataDependentKernels() { }

    /** The computation of {@code c}, or null when it is not one of these kernels. */
    static Runnable bind(KernelCall c) {
        return switch (c.name()) {
            case Kernels.NONZERO -> nonZero(c);
            case Kernels.COMPRESS -> compress(c);
            case Kernels.UNIQUE -> unique(c);
            case Kernels.NMS -> nms(c);
            default -> null;
        };
    }

    private static Runnable nonZero(KernelCall c) {
        if (c.ints().length < 2) throw fail(c, "takes ints [n, rank, shape[rank], dtype]");
        int rank = i(c, 1);
        if (rank < 1 || rank > Kernels.NONZERO_MAX_RANK) throw fail(c, "rank " + rank + " is outside 1.." + Kernels.NONZERO_MAX_RANK);
        SimKernels.need(c, 3, 3 + rank);
        int n = i(c, 0);
        DType t = SimKernels.dtype(c, 2 + rank);
        if (!t.isIntegral() && !t.isFloatingPoint()) throw fail(c, "takes bool, integers, f16, bf16, f32 and f64, not " + t.jsonName());
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) shape[d] = c.intArg(2 + d);
        size(c, 0, (long) n * t.bytes());
        size(c, 1, 8);
        size(c, 2, 8L * rank * n);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), e = SimKernels.out(c, 1), y = SimKernels.out(c, 2);
            int count = 0;
            for (int k = 0; k < n; k++) if (nonZero(t, x, k)) count++;
            int j = 0;
            for (int k = 0; k < n; k++) {
                if (!nonZero(t, x, k)) continue;
                long rest = k;
                for (int d = rank - 1; d >= 0; d--) {
                    y.putLong(8 * (d * count + j), rest % shape[d]);
                    rest /= shape[d];
                }
                j++;
            }
            e.putLong(0, count);
            SimKernels.store(c, 1, e);
            SimKernels.store(c, 2, y);
        };
    }

    /** Whether element {@code k} of {@code x} is not zero (a NaN is not zero; -0.0 is). */
    private static boolean nonZero(DType t, ByteBuffer x, int k) {
        return t.isIntegral() ? t.getLong(x, k) != 0 : t.getDouble(x, k) != 0;
    }

    private static Runnable compress(KernelCall c) {
        SimKernels.need(c, 4, 5);
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), m = i(c, 3), es = SimKernels.elementBytes(c, 4);
        if (m > n) throw fail(c, "condition of " + m + " values is longer than the axis of " + n);
        size(c, 0, (long) outer * n * inner * es);
        size(c, 1, m);
        size(c, 2, 8);
        size(c, 3, (long) outer * m * inner * es);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), cond = SimKernels.in(c, 1), e = SimKernels.out(c, 2), y = SimKernels.out(c, 3);
            int count = 0;
            for (int s = 0; s < m; s++) if (cond.get(s) != 0) count++;
            int j = 0;
            for (int s = 0; s < m; s++) {
                if (cond.get(s) == 0) continue;
                for (int o = 0; o < outer; o++)
                    for (int k = 0; k < inner; k++) SimKernels.move(x, (o * n + s) * inner + k, y, (o * count + j) * inner + k, es);
                j++;
            }
            e.putLong(0, count);
            SimKernels.store(c, 2, e);
            SimKernels.store(c, 3, y);
        };
    }

    private static Runnable unique(KernelCall c) {
        SimKernels.need(c, 6, 6);
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), sorted = i(c, 3);
        DType t = SimKernels.dtype(c, 4);
        if (!t.isIntegral() && !t.isFloatingPoint()) throw fail(c, "takes bool, integers, f16, bf16, f32 and f64, not " + t.jsonName());
        int es = SimKernels.elementBytes(c, 5);
        if (es != t.bytes()) throw fail(c, "element size " + es + " is not " + t.jsonName() + "'s");
        size(c, 0, (long) outer * n * inner * es);
        size(c, 1, 8);
        size(c, 2, (long) outer * n * inner * es);
        for (int k = 3; k < 6; k++) size(c, k, 8L * n);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), e = SimKernels.out(c, 1), y = SimKernels.out(c, 2);
            ByteBuffer indices = SimKernels.out(c, 3), inverse = SimKernels.out(c, 4), counts = SimKernels.out(c, 5);
            // the slices sorted (equal ones by index), so each run of equal slices starts at its first occurrence: O(n log n) slice
            // comparisons where data_dependent.cuh's serial unique makes O(n * c) for c distinct slices (the simulator's O(n^2) ran a
            // 200,000-element X for minutes); the outputs are the same (KernelEmulationTest)
            Integer[] order = new Integer[n];
            for (int s = 0; s < n; s++) order[s] = s;
            java.util.Arrays.sort(order, (a, b) -> {
                int r = compareSlices(t, x, outer, n, inner, a, b);
                return r != 0 ? r : Integer.compare(a, b);
            });
            int[] group = new int[n], first = new int[n], size = new int[n];
            int count = 0;
            for (int k = 0; k < n; k++) {
                if (k == 0 || compareSlices(t, x, outer, n, inner, order[k - 1], order[k]) != 0) first[count++] = order[k];
                group[order[k]] = count - 1;
                size[count - 1]++;
            }
            int[] position = new int[count];   // of each distinct slice in Y: ascending (sorted = 1) or by first occurrence
            Integer[] byFirst = new Integer[count];
            for (int g = 0; g < count; g++) byFirst[g] = g;
            if (sorted != 1) java.util.Arrays.sort(byFirst, (a, b) -> Integer.compare(first[a], first[b]));
            for (int p = 0; p < count; p++) position[byFirst[p]] = p;
            for (int g = 0; g < count; g++) {
                int p = position[g], s = first[g];
                for (int o = 0; o < outer; o++)
                    for (int k = 0; k < inner; k++) SimKernels.move(x, (o * n + s) * inner + k, y, (o * count + p) * inner + k, es);
                indices.putLong(8 * p, s);
                counts.putLong(8 * p, size[g]);
            }
            for (int s = 0; s < n; s++) inverse.putLong(8 * s, position[group[s]]);
            e.putLong(0, count);
            for (int k = 1; k < 6; k++) SimKernels.store(c, k, List.of(e, y, indices, inverse, counts).get(k - 1));
        };
    }

    /** Slices a and b of x [outer, n, inner] compared element by element in row-major order of (o, i): -1, 0 or 1. */
    private static int compareSlices(DType t, ByteBuffer x, int outer, int n, int inner, int a, int b) {
        for (int o = 0; o < outer; o++) {
            for (int k = 0; k < inner; k++) {
                int ia = (o * n + a) * inner + k, ib = (o * n + b) * inner + k;
                int r = t.isIntegral() ? (t == DType.U64 ? Long.compareUnsigned(t.getLong(x, ia), t.getLong(x, ib)) : Long.compare(t.getLong(x, ia), t.getLong(x, ib)))
                        : compareValues(t.getDouble(x, ia), t.getDouble(x, ib));
                if (r != 0) return r;
            }
        }
        return 0;
    }

    /** Floats by value: -0.0 equals 0.0; a NaN equals a NaN and is above every number (numpy.unique's equal_nan). */
    private static int compareValues(double a, double b) {
        boolean na = Double.isNaN(a), nb = Double.isNaN(b);
        if (na || nb) return na == nb ? 0 : na ? 1 : -1;
        return a < b ? -1 : a > b ? 1 : 0;
    }

    private static Runnable nms(KernelCall c) {
        boolean bounded = c.pointers().size() == 8;   // the boxes' runtime extent at 5 (Kernels#NMS)
        SimKernels.need(c, bounded ? 8 : 7, 6);
        int batches = i(c, 0), bound = i(c, 1), classes = i(c, 2), center = i(c, 3), hasScore = i(c, 4), per = i(c, 5), ext = bounded ? 6 : 5;
        size(c, 0, 16L * batches * bound);
        size(c, 1, 4L * batches * classes * bound);
        size(c, 2, 8);
        size(c, 3, 4);
        size(c, 4, 4);
        if (bounded) size(c, 5, 8);
        size(c, ext, 8);
        size(c, ext + 1, 24L * batches * classes * per);
        if (bounded && (batches != 1 || classes != 1)) throw new DeviceException("'" + c.label() + "': non_max_suppression: boxes bounded along N need B = C = 1, not "
                + batches + " and " + classes);
        return () -> {
            float[] boxes = SimKernels.inFloats(c, 0), scores = SimKernels.inFloats(c, 1);
            int n = bounded ? (int) Math.max(0, Math.min(SimKernels.in(c, 5).getLong(0), bound)) : bound;
            long maxOut = Math.min(Math.max(0, SimKernels.in(c, 2).getLong(0)), n);
            if (maxOut > per) throw new DeviceException("'" + c.label() + "': non_max_suppression: max_output_boxes_per_class is " + SimKernels.in(c, 2).getLong(0)
                    + " at run time, above the " + per + " per class the plan reserved (its value at import)");
            float iou = SimKernels.inFloats(c, 3)[0], threshold = SimKernels.inFloats(c, 4)[0];
            ByteBuffer e = SimKernels.out(c, ext), y = SimKernels.out(c, ext + 1);
            int count = 0;
            for (int b = 0; b < batches; b++) {
                for (int cl = 0; cl < classes; cl++) {
                    int start = count, prev = -1;
                    int at = (b * classes + cl) * bound;
                    while (count - start < maxOut) {
                        int best = -1;
                        for (int k = 0; k < n; k++) {
                            float s = scores[at + k];
                            if (hasScore == 1 && !(s > threshold)) continue;
                            if (prev >= 0 && !(s < scores[at + prev] || (s == scores[at + prev] && k > prev))) continue;
                            if (best < 0 || s > scores[at + best] || (s == scores[at + best] && k < best)) best = k;
                        }
                        if (best < 0) break;
                        prev = best;
                        boolean keep = true;
                        for (int r = start; r < count && keep; r++) keep = !suppressed(boxes, (b * bound + best) * 4, (b * bound + (int) y.getLong(8 * (3 * r + 2))) * 4, center, iou);
                        if (keep) {
                            y.putLong(8 * (3 * count), b);
                            y.putLong(8 * (3 * count + 1), cl);
                            y.putLong(8 * (3 * count + 2), best);
                            count++;
                        }
                    }
                }
            }
            e.putLong(0, count);
            SimKernels.store(c, ext, e);
            SimKernels.store(c, ext + 1, y);
        };
    }

    /**
     * Whether the box at {@code p} (the candidate) overlaps the one at {@code q} (kept) with an IoU
     * above {@code threshold}, in f32 step for step as onnx's reference {@code suppress_by_iou}
     * (onnx/reference/ops/op_non_max_suppression.py).
     */
    static boolean suppressed(float[] box, int p, int q, int center, float threshold) {
        float x1Min, x1Max, x2Min, x2Max, y1Min, y1Max, y2Min, y2Max;
        if (center == 0) {
            x1Min = lower(box[p + 1], box[p + 3]); x1Max = upper(box[p + 1], box[p + 3]);
            x2Min = lower(box[q + 1], box[q + 3]); x2Max = upper(box[q + 1], box[q + 3]);
            y1Min = lower(box[p], box[p + 2]); y1Max = upper(box[p], box[p + 2]);
            y2Min = lower(box[q], box[q + 2]); y2Max = upper(box[q], box[q + 2]);
        } else {
            float w1 = box[p + 2] / 2, h1 = box[p + 3] / 2, w2 = box[q + 2] / 2, h2 = box[q + 3] / 2;
            x1Min = box[p] - w1; x1Max = box[p] + w1; x2Min = box[q] - w2; x2Max = box[q] + w2;
            y1Min = box[p + 1] - h1; y1Max = box[p + 1] + h1; y2Min = box[q + 1] - h2; y2Max = box[q + 1] + h2;
        }
        float ixMin = pyMax(x1Min, x2Min), ixMax = pyMin(x1Max, x2Max);
        if (ixMax <= ixMin) return false;
        float iyMin = pyMax(y1Min, y2Min), iyMax = pyMin(y1Max, y2Max);
        if (iyMax <= iyMin) return false;
        float inter = (ixMax - ixMin) * (iyMax - iyMin);
        if (inter <= 0) return false;
        float area1 = (x1Max - x1Min) * (y1Max - y1Min), area2 = (x2Max - x2Min) * (y2Max - y2Min);
        float union = area1 + area2 - inter;
        if (area1 <= 0 || area2 <= 0 || union <= 0) return false;
        return inter / union > threshold;
    }

    /** Python's min(a, b) and max(a, b), and the reference's max_min: their NaN and signed-zero choices kept. */
    private static float pyMin(float a, float b) { return b < a ? b : a; }

    private static float pyMax(float a, float b) { return b > a ? b : a; }

    private static float lower(float lhs, float rhs) { return lhs >= rhs ? rhs : lhs; }

    private static float upper(float lhs, float rhs) { return lhs >= rhs ? lhs : rhs; }

    private static void size(KernelCall c, int k, long bytes) {
        if (c.pointer(k).bytes() != bytes) throw fail(c, "argument " + k + " (" + c.pointer(k).tensor() + ") has " + c.pointer(k).bytes() + " B, the layout needs " + bytes);
    }

    private static DeviceException fail(KernelCall c, String why) {
        return new DeviceException("'" + c.label() + "': kernel " + c.name() + ": " + why);
    }
}
