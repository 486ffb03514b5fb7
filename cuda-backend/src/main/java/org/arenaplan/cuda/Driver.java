package org.arenaplan.cuda;

import jcuda.driver.CUresult;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DeviceOutOfMemoryException;

/** Turns a CUDA driver result code into a {@link DeviceException} naming the call and what it was for ({@link DeviceOutOfMemoryException} for CUDA_ERROR_OUT_OF_MEMORY). */
final class Driver {
    private Driver() { }

    static void check(int result, String call, String what) {
        if (result == CUresult.CUDA_ERROR_OUT_OF_MEMORY)
            throw new DeviceOutOfMemoryException(call + " failed for " + what + ": " + CUresult.stringFor(result) + " (the device has too little free memory)");
        if (result != CUresult.CUDA_SUCCESS) {
            throw new DeviceException(call + " failed for " + what + ": " + CUresult.stringFor(result));
        }
    }
}
