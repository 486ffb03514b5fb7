package org.arenaplan.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

/** Runs one kernel call on a device: copies the inputs in, launches, copies the output back, frees everything. */
final class KernelRun {
    private KernelRun() { }

    /**
     * @param inputs  the input arrays, in the call's pointer order
     * @param outputs length of the output (the last pointer)
     * @param call    builds the call from the pointer arguments (inputs, then output)
     */
    static float[] run(Device device, List<float[]> inputs, int outputs, Function<List<KernelArg>, KernelCall> call) {
        List<byte[]> in = inputs.stream().map(v -> TensorValue.ofFloats(null, v).bytes()).toList();
        return new TensorValue(DType.F32, null, runBytes(device, in, 4 * outputs, call)).floats();
    }

    /** The same with inputs and output as device bytes (any element type); the output starts as zeros. */
    static byte[] runBytes(Device device, List<byte[]> inputs, int outputBytes, Function<List<KernelArg>, KernelCall> call) {
        return runBytes(device, inputs, outputBytes, call, 0);
    }

    /**
     * As {@link #runBytes(Device, List, int, Function)}, every buffer's data starting {@code shift}
     * bytes past its (aligned) base: a shift that is not a multiple of 16 sends the vectorized
     * kernels down their scalar path.
     */
    static byte[] runBytes(Device device, List<byte[]> inputs, int outputBytes, Function<List<KernelArg>, KernelCall> call, int shift) {
        List<DeviceBuffer> buffers = new ArrayList<>();
        try (DeviceStream s = device.createStream("kernel-test")) {
            List<KernelArg> args = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                DeviceBuffer b = device.allocate(Math.max(1, inputs.get(i).length + shift), "input" + i);
                buffers.add(b);
                device.copyToDevice(s, inputs.get(i), b.base().plus(shift), "input" + i);
                args.add(KernelArg.read(b.base().plus(shift), inputs.get(i).length, "input" + i));
            }
            DeviceBuffer out = device.allocate(outputBytes + shift, "output");
            buffers.add(out);
            device.copyToDevice(s, new byte[outputBytes], out.base().plus(shift), "output");
            args.add(KernelArg.write(out.base().plus(shift), outputBytes, "output"));
            device.launch(s, call.apply(args));
            byte[] result = new byte[outputBytes];
            device.copyToHost(s, out.base().plus(shift), result, "output");
            return result;
        } finally {
            buffers.forEach(DeviceBuffer::close);
        }
    }

    /**
     * Runs the call over {@code buffers} (its pointers, in order; those from {@code firstOutput} on are
     * written) and returns every buffer's bytes after it: kernels with several outputs (an extent
     * and the tensor it counts) compared whole.
     */
    static byte[][] runAll(Device device, List<byte[]> buffers, int firstOutput, Function<List<KernelArg>, KernelCall> call) {
        List<DeviceBuffer> held = new ArrayList<>();
        try (DeviceStream s = device.createStream("kernel-test")) {
            List<KernelArg> args = new ArrayList<>();
            for (int i = 0; i < buffers.size(); i++) {
                byte[] data = buffers.get(i);
                DeviceBuffer b = device.allocate(Math.max(1, data.length), "buffer" + i);
                held.add(b);
                device.copyToDevice(s, data, b.base(), "buffer" + i);
                args.add(i < firstOutput ? KernelArg.read(b.base(), data.length, "buffer" + i) : KernelArg.write(b.base(), data.length, "buffer" + i));
            }
            device.launch(s, call.apply(args));
            byte[][] after = new byte[buffers.size()][];
            for (int i = 0; i < buffers.size(); i++) {
                after[i] = new byte[buffers.get(i).length];
                if (after[i].length > 0) device.copyToHost(s, held.get(i).base(), after[i], "buffer" + i);
            }
            return after;
        } finally {
            held.forEach(DeviceBuffer::close);
        }
    }

    static float[] random(long seed, int n) {
        java.util.Random r = new java.util.Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = (float) (r.nextGaussian());
        return a;
    }

    static float[] positive(long seed, int n) {
        float[] a = random(seed, n);
        for (int i = 0; i < n; i++) a[i] = Math.abs(a[i]) + 0.5f;
        return a;
    }
}
