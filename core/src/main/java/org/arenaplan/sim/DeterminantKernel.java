package org.arenaplan.sim;

import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#DET} (layout and arithmetic documented there), which
 * determinant.cuh repeats step for step: Gaussian elimination with partial pivoting in double, one
 * matrix at a time.
 */
final class DeterminantKernel {
    private DeterminantKernel() { }

    static Runnable bind(KernelCall c) {
        SimKernels.need(c, 2, 2);
        int batch = i(c, 0), m = i(c, 1);
        DetectionKernels.check(c, 0, DType.F32, (long) batch * m * m);
        DetectionKernels.check(c, 1, DType.F32, batch);
        return () -> {
            float[] x = SimKernels.inFloats(c, 0), y = new float[batch];
            double[] a = new double[m * m];
            for (int b = 0; b < batch; b++) {
                for (int e = 0; e < m * m; e++) a[e] = x[b * m * m + e];
                y[b] = (float) determinant(a, m);
            }
            SimKernels.storeFloats(c, 1, y);
        };
    }

    /** The determinant of the row-major m x m matrix {@code a}, which it overwrites. */
    static double determinant(double[] a, int m) {
        double det = 1.0;
        for (int k = 0; k < m; k++) {
            int p = k;
            for (int r = k + 1; r < m; r++) if (Math.abs(a[r * m + k]) > Math.abs(a[p * m + k])) p = r;
            double pivot = a[p * m + k];
            if (pivot == 0.0) return 0.0;
            if (p != k) {
                for (int j = k; j < m; j++) {
                    double t = a[k * m + j];
                    a[k * m + j] = a[p * m + j];
                    a[p * m + j] = t;
                }
                det = -det;
            }
            det *= pivot;
            for (int r = k + 1; r < m; r++) {
                double f = a[r * m + k] / pivot;
                for (int j = k + 1; j < m; j++) a[r * m + j] -= f * a[k * m + j];
            }
        }
        return det;
    }
}
