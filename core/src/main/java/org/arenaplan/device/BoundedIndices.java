package org.arenaplan.device;

import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The indices of a {@link Kernels#GATHER} or {@link Kernels#GATHER_ND} call over data bounded along
 * the gathered axis (the call's extent pointer; {@code ir.BoundedFlows#gather}, {@code #gatherNd}):
 * each <em>real</em> index (GatherND: the first of each real tuple) must lie in [-a, a), a the
 * actual extent of that axis in this run, as ONNX Gather and GatherND need and ONNX Runtime checks
 * ("indices element out of data bounds", "invalid index found"), also where a is 0. Every index of
 * indices known before the run is real; of bounded indices (the call's second extent) only the
 * leading ones their own runtime extent covers, the tail's zeros being padding, which the kernels
 * write as zeros without reading data. Checked on the host before the launch for every device
 * ({@code exec.LaunchChecks}); the simulator's kernels check again, CUDA's trap.
 */
public final class BoundedIndices {
    private BoundedIndices() { }

    /** The actual extent of an axis of {@code bound} elements whose runtime extent is {@code extent}: extent within [0, bound]. */
    public static long actualExtent(long extent, long bound) {
        return Math.min(Math.max(extent, 0), bound);
    }

    /**
     * The actual elements of a bounded tensor of {@code total} elements (held compactly, its actual
     * ones leading) with {@code per} elements to one step of its bounded axis: min(max(extent, 0),
     * total / per) * per; 0 where per is 0.
     */
    public static long actualElements(long extent, long per, long total) {
        return per <= 0 ? 0 : Math.min(Math.max(extent, 0), total / per) * per;
    }

    /**
     * The real indices of {@code c} (GatherND: tuples): all of them, or where the call has the
     * indices' runtime extent ({@code indicesExtent}, 5 pointers) the leading ones it covers.
     */
    public static long real(KernelCall c, long indicesExtent) {
        Layout l = Layout.of(c);
        return c.pointers().size() == 5 ? actualElements(indicesExtent, l.per, l.count) : l.count;
    }

    /**
     * @param c             a gather or gather_nd call with data's runtime extent (4 or 5 pointers; layouts in {@link Kernels}); {@code c.label()} names the op
     * @param extent        the runtime extent of data along the gathered axis, as the device holds it
     * @param indices       the bytes of the call's indices, as the device holds them
     * @param indicesExtent the runtime extent of bounded indices (5 pointers), else ignored
     * @throws DataException naming the op, the first real index outside [-a, a), its element and a
     */
    public static void check(KernelCall c, long extent, byte[] indices, long indicesExtent) {
        Layout l = Layout.of(c);
        long a = actualExtent(extent, l.bound), real = real(c, indicesExtent);
        ByteBuffer b = ByteBuffer.wrap(indices).order(ByteOrder.LITTLE_ENDIAN);
        for (long j = 0; j < real; j++) {
            int at = Math.toIntExact(j * l.stride);
            long v = l.type.getLong(b, at);
            if (v < -a || v >= a)
                throw new DataException(String.format("'%s': %s: index %d (element %d of its indices) is outside the %d slices its data holds along %s in this run "
                        + "(the runtime extent of its bounded data); ONNX %s takes indices in [-s, s - 1] for an axis of s", c.label(), l.op, v, at, a,
                        c.name().equals(Kernels.GATHER) ? "the gathered axis" : "axis 0", l.op));
        }
    }

    /** Where a gather or gather_nd call's ints put the bound, the index count, the tuple length, the index type and per. */
    private record Layout(String op, long bound, long count, int stride, DType type, long per) {
        static Layout of(KernelCall c) {
            long[] i = c.ints();
            if (c.name().equals(Kernels.GATHER)) return new Layout("Gather", i[1], i[3], 1, DType.ofOnnx(i[5]), i.length > 6 ? i[6] : 0);
            int k = (int) i[2];
            return new Layout("GatherND", i[4], i[0] * i[1], k, DType.ofOnnx(i[5 + k]), i.length > 6 + k ? i[6 + k] : 0);
        }
    }
}
