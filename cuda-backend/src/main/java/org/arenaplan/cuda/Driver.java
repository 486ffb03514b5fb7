package org.arenaplan.cuda;

import jcuda.driver.CUresult;
import org.arenaplan.device.DeviceException;

/** Turns a CUDA driver result code into a {@link DeviceException} naming the call and what it was for. */
final class Driver {
    private Driver() { }

    static void check(int result, String call, String what) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new DeviceException(call + " failed for " + what + ": " + CUresult.stringFor(result));
        }
    }
}
