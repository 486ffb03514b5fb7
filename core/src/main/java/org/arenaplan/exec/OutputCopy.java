package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Copies a graph output to the host after the run, with its actual shape: the planned shape, or
 * for a data-dependent output ({@link Graph#bounded}, {@code ir.OpSpec.BoundedRule}) its
 * upper-bound shape with the bounded axis set to the count its runtime extent holds, and the
 * leading elements of its bytes that the shape covers (the kernel writes that row-major tensor
 * first). The bounded dimension of XLA's dynamic shapes, read back as its {@code GetDimensionSize}.
 */
final class OutputCopy {
    private OutputCopy() { }

    /**
     * @throws ExecutionException when a runtime extent holds a count outside [0, the upper bound]:
     *         a kernel that broke its contract
     */
    static TensorValue read(Device device, DeviceStream stream, Graph graph, OpLowering args, String output) {
        Tensor t = graph.tensor(output);
        DType d = t.dtype() == null ? DType.F32 : t.dtype();
        byte[] v = new byte[Math.toIntExact(t.bytes())];
        device.copyToHost(stream, args.read(output), v);
        Graph.Bounded b = graph.bounded(output);
        if (b == null) return new TensorValue(d, t.shape(), v);
        byte[] e = new byte[Long.BYTES];
        device.copyToHost(stream, args.read(b.extent()), e);
        long n = ByteBuffer.wrap(e).order(ByteOrder.LITTLE_ENDIAN).getLong();
        long[] shape = t.shape();
        if (n < 0 || n > shape[b.axis()])
            throw new ExecutionException("output '" + output + "': its runtime extent '" + b.extent() + "' holds " + n + ", outside [0, " + shape[b.axis()]
                    + "], the upper bound of axis " + b.axis() + " of " + Arrays.toString(shape));
        shape[b.axis()] = n;
        return new TensorValue(d, shape, Arrays.copyOf(v, Math.toIntExact(d.byteSize(OpLowering.product(shape)))));
    }
}
