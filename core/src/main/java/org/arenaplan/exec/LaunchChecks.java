package org.arenaplan.exec;

import org.arenaplan.device.BoundedIndices;
import org.arenaplan.device.DataException;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.ExtentCheck;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.device.NmsScores;
import org.arenaplan.device.ReduceExtent;
import org.arenaplan.device.RoiGrids;
import org.arenaplan.device.TopKExtent;
import org.arenaplan.device.UniqueSlices;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The data a kernel call must not be launched on, refused on the host before the launch, for every
 * device alike (the executors call it; the devices never decide it): roi_align's rois whose grids
 * are undefined or unbounded ({@link RoiGrids#check}), non_max_suppression's NaN scores where no
 * score_threshold drops them ({@link NmsScores#check}), topk's k above the actual values of x bounded along
 * its axis ({@link TopKExtent#check}), argmax's and argmin's over no actual element of x bounded along the reduced axis ({@link ReduceExtent#check}), check_extent's runtime extent other than a Split's fixed parts need ({@link ExtentCheck#check}) and split_bounded's that the parts ONNX derives from it do not take ({@link ExtentCheck#parts}), reshape_extent's whose actual elements fill no whole rows of the output ({@link ExtentCheck#reshaped}), gather's and
 * gather_nd's real indices outside the actual extent of data bounded along the gathered axis ({@link BoundedIndices#check}), and unique's slices along an axis that hold
 * NaN where onnx's reference and the kernels would count them differently ({@link UniqueSlices#check}).
 * The values are read back through {@link Device#copyToHost(DeviceStream, KernelArg, byte[])} on the
 * call's own stream, after its waits, so they are the values the kernel would read.
 *
 * <p>Cost: one host copy and stream synchronization per roi_align call (16 B per roi), per
 * non_max_suppression call without score_threshold (4 B per score), per topk and reduce call over a bounded x
 * and per check_extent, split_bounded and reshape_extent call (its 8 B extent), per gather and gather_nd call over such data (its extents and its indices) and per unique call along an axis (X);
 * none for other kernels. A captured graph cannot copy to the host; {@link GraphExecutor}
 * replays the planned run's calls unchecked, and {@link Executors#run} runs planned mode, which
 * checks them, first (one untimed planned iteration where graph replay is the only mode: before it,
 * {@code run --mode graph} replayed NaN scores and rois unchecked).
 */
final class LaunchChecks {
    private LaunchChecks() { }

    /**
     * Refuses {@code call} when its data is outside what its kernel defines.
     *
     * @param stream the stream the call will be launched on
     * @throws DataException naming the op and the offending value
     */
    static void beforeLaunch(Device device, DeviceStream stream, KernelCall call) {
        if (call.name().equals(Kernels.ROI_ALIGN)) RoiGrids.check(call, floats(device, stream, call.pointers().get(1)));
        else if (call.name().equals(Kernels.NMS) && call.intArg(4) == 0) NmsScores.check(call, floats(device, stream, call.pointers().get(1)));
        else if (call.name().equals(Kernels.UNIQUE) && call.ints().length > 6 && call.intArg(6) == 1) UniqueSlices.check(call, bytes(device, stream, call.pointers().get(0)));
        else if (call.name().equals(Kernels.TOPK) && call.pointers().size() == 4) TopKExtent.check(call, extent(device, stream, call.pointers().get(1)));
        else if (call.name().equals(Kernels.REDUCE) && call.pointers().size() == 3) ReduceExtent.check(call, extent(device, stream, call.pointers().get(1)));
        else if (call.name().equals(Kernels.CHECK_EXTENT)) ExtentCheck.check(call, extent(device, stream, call.pointers().get(0)));
        else if (call.name().equals(Kernels.SPLIT_BOUNDED)) ExtentCheck.parts(call, extent(device, stream, call.pointers().get(0)));
        else if (call.name().equals(Kernels.RESHAPE_EXTENT)) ExtentCheck.reshaped(call, extent(device, stream, call.pointers().get(0)));
        else if ((call.name().equals(Kernels.GATHER) || call.name().equals(Kernels.GATHER_ND)) && call.pointers().size() >= 4)
            BoundedIndices.check(call, extent(device, stream, call.pointers().get(2)), bytes(device, stream, call.pointers().get(1)),
                    call.pointers().size() == 5 ? extent(device, stream, call.pointers().get(3)) : 0);
    }

    /** The runtime extent {@code arg} (int64 [1]) holds, read back on {@code stream}. */
    private static long extent(Device device, DeviceStream stream, KernelArg arg) {
        return ByteBuffer.wrap(bytes(device, stream, arg)).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    /** The bytes of {@code arg} read back on {@code stream}. */
    private static byte[] bytes(Device device, DeviceStream stream, KernelArg arg) {
        byte[] bytes = new byte[Math.toIntExact(arg.bytes())];
        device.copyToHost(stream, arg, bytes);
        return bytes;
    }

    /** The f32 values of {@code arg} read back on {@code stream}. */
    private static float[] floats(Device device, DeviceStream stream, KernelArg arg) {
        byte[] bytes = bytes(device, stream, arg);
        float[] values = new float[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        return values;
    }
}
