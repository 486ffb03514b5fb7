package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Copies a graph output to the host after the run, with its actual shape: the planned shape, or
 * for a bounded output ({@link Graph#bounded}: a data-dependent one, {@code ir.OpSpec.BoundedRule},
 * or one computed from it, {@code ir.OpSpec.BoundedFlow}) its upper-bound shape with the bounded
 * axis set to the count its runtime extent holds (at most the bound: {@link Graph.Bounded}), and the
 * leading elements of its bytes that the shape covers (the kernel writes that row-major tensor
 * first). The bounded dimension of XLA's dynamic shapes, read back as its {@code GetDimensionSize}.
 */
final class OutputCopy {
    private OutputCopy() { }

    /**
     * @throws ExecutionException when a runtime extent holds a count outside [0, the upper bound]
     *         (a kernel that broke its contract), or the output's actual bytes exceed {@link HostArrays#MAX_BYTES}
     */
    static TensorValue read(Device device, DeviceStream stream, Graph graph, OpLowering args, String output) {
        Tensor t = graph.tensor(output);
        DType d = t.dtype() == null ? DType.F32 : t.dtype();
        Graph.Bounded b = graph.bounded(output);
        long[] shape = t.shape();
        if (b != null) {   // the actual shape first, then only the bytes it covers (the bound may be past a host array's limit)
            byte[] e = new byte[Long.BYTES];
            device.copyToHost(stream, args.read(b.extent()), e);
            long n = ByteBuffer.wrap(e).order(ByteOrder.LITTLE_ENDIAN).getLong();
            boolean own = graph.producer(b.extent()) == graph.producer(output);   // else a tensor computed from one, whose bound a prefix Slice may cut
            if (n < 0 || (own && n > shape[b.axis()]))
                throw new ExecutionException("output '" + output + "': its runtime extent '" + b.extent() + "' holds " + n + ", outside [0, " + shape[b.axis()]
                        + "], the upper bound of axis " + b.axis() + " of " + Arrays.toString(shape));
            shape[b.axis()] = Math.min(n, shape[b.axis()]);
        }
        long bytes = shape == null ? t.bytes() : d.byteSize(OpLowering.product(shape));   // a tensor declared by its bytes alone has no shape (and no bound)
        if (bytes > HostArrays.MAX_BYTES) throw new ExecutionException(HostArrays.tooLarge("graph output", output, shape, bytes));
        byte[] v = new byte[(int) bytes];
        KernelArg all = args.read(output);
        if (bytes > 0) device.copyToHost(stream, new KernelArg(all.pointer(), bytes, KernelArg.Access.READ, all.tensor(), all.sources()), v);
        return new TensorValue(d, shape, v);
    }
}
