package org.arenaplan.ops;

import java.util.ArrayList;
import java.util.List;

/**
 * The dims of a tensor split into kept and reduced groups for the {@code reduce} and
 * {@code normalize} kernels: each dim with its extent and one element stride per operand
 * (0 broadcasts). Dims of extent 1 are dropped and neighbours of one group are merged where
 * every operand's strides chain, so ranks beyond the kernels' limit rarely reach them.
 */
final class StridedWalk {
    /** One dim: its extent and a stride per operand. */
    private record Dim(long extent, long[] strides) { }

    private final List<Dim> kept = new ArrayList<>(), reduced = new ArrayList<>();

    /**
     * @param shape   the walked tensor's extents
     * @param reduce  which dims are reduced
     * @param strides per operand, its stride along each dim of {@code shape}
     */
    StridedWalk(long[] shape, boolean[] reduce, long[]... strides) {
        Boolean previous = null;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 1) continue;
            List<Dim> group = reduce[d] ? reduced : kept;
            long[] s = new long[strides.length];
            for (int k = 0; k < s.length; k++) s[k] = strides[k][d];
            Dim last = group.isEmpty() ? null : group.get(group.size() - 1);
            if (previous != null && previous == reduce[d] && last != null && chains(last, shape[d], s)) {
                group.set(group.size() - 1, new Dim(last.extent() * shape[d], s));
            } else {
                group.add(new Dim(shape[d], s));
            }
            previous = reduce[d];
        }
    }

    /** Whether the previous dim's strides are this dim's times its extent for every operand (a merge keeps the walk). */
    private static boolean chains(Dim previous, long extent, long[] strides) {
        for (int k = 0; k < strides.length; k++) if (previous.strides()[k] != extent * strides[k]) return false;
        return true;
    }

    int keptDims() { return kept.size(); }

    int reducedDims() { return reduced.size(); }

    long keptCount() {
        long n = 1;
        for (Dim d : kept) n *= d.extent();
        return n;
    }

    /** The kept group's extents, then each operand's strides over them. */
    void appendKept(List<Long> ints) { append(kept, ints); }

    /** The reduced group's extents, then each operand's strides over them. */
    void appendReduced(List<Long> ints) { append(reduced, ints); }

    private static void append(List<Dim> group, List<Long> ints) {
        for (Dim d : group) ints.add(d.extent());
        int operands = group.isEmpty() ? 0 : group.get(0).strides().length;
        for (int k = 0; k < operands; k++) for (Dim d : group) ints.add(d.strides()[k]);
    }

    static long[] longs(List<Long> v) {
        return v.stream().mapToLong(Long::longValue).toArray();
    }

    /** Row-major strides of a contiguous tensor of {@code shape}. */
    static long[] contiguous(long[] shape) {
        long[] s = new long[shape.length];
        long stride = 1;
        for (int d = shape.length - 1; d >= 0; d--) { s[d] = stride; stride *= shape[d]; }
        return s;
    }

    /** Strides of a tensor of {@code shape} broadcast (numpy, right-aligned) over {@code into}: 0 where broadcast. */
    static long[] broadcast(long[] shape, long[] into) {
        long[] own = contiguous(shape), s = new long[into.length];
        for (int d = 0; d < into.length; d++) {
            int e = d - (into.length - shape.length);
            s[d] = e < 0 || shape[e] == 1 ? 0 : own[e];
        }
        return s;
    }
}
