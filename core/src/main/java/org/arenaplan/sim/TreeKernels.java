package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#TREE_ENSEMBLE} (layout there), which CUDA's tree_ensemble.cuh
 * follows step for step: one row at a time, in double, trees in order. The finalization is ONNX
 * Runtime's (onnxruntime/core/providers/cpu/ml/tree_ensemble_aggregator.h, ml_common.h), the
 * oracle of the tests:
 * <ul>
 * <li>regressor, one target: s = score (average: score / trees; min, max: 0 when no leaf reached it)
 *     + base[0] when baseCount is 1; only probit applies (FinalizeScores1);</li>
 * <li>regressor, several targets: s_j = score_j (average: / trees) + base_j when baseCount = targets,
 *     then post over the row; a target no leaf reached is 0, base value or not (as for a classifier:
 *     ONNX Runtime writes its ScoreValue's has_score ? score : 0);</li>
 * <li>classifier, more than two classes: base_k added for k &lt; baseCount (a class no leaf reached
 *     then has a score); the label is the first class of largest score among those scored (the
 *     first label when none is); post over the row;</li>
 * <li>classifier, two classes: with 2 base values, when class 1 was reached s1 = base1 + s0 and
 *     s0 = -s1 (sic), else each adds its own; with 1, s0 += base0; with 1 or 0 base values and class
 *     1 unreached, one score s0 remains. pos = s1 when class 1 was reached, else s0 when class 0 was,
 *     else 0. The label: binaryCase and allPositive: label[1] when pos &gt; 0.5, else label[0];
 *     binaryCase with a negative weight: label[1] when pos &gt; 0, else label[0]; otherwise 1 when
 *     pos &gt; 0, else 0 (ONNX Runtime's positive_label_, not a class label). Two scores get post over
 *     the row; one score s: probit gives [probit(s), 0]; otherwise [1 - s, s] (binaryCase, all
 *     positive), [logistic(-s), logistic(s)] (logistic), [-s, s] (binaryCase, winner positive),
 *     [s, -s] (winner negative, or no base values), else [s, 0] (the 0 where ONNX Runtime leaves
 *     the output unwritten).</li>
 * </ul>
 * Post transforms: softmax exp(s - max) / sum; logistic 1 / (1 + e^-|s|) mirrored for s &lt; 0;
 * softmax_zero as softmax over the scores outside (-1e-7, 1e-7), those inside scaled by e^-max and
 * left out of the sum (a sum of 0 gives 0.5 each, as the ONNX reference's compute_softmax_zero); probit sqrt(2) erfinv(2s - 1) with the erfinv approximation of ml_common.h (a = 0.147).
 */
final class TreeKernels {
    private TreeKernels() { }

    /** Node record width and the leaf mode of the table. */
    static final int NODE = 8, LEAF = 7;

    static Runnable bind(KernelCall c) {
        if (!c.name().equals(Kernels.TREE_ENSEMBLE)) return null;
        SimKernels.need(c, c.ints().length > 11 && c.intArg(11) == 1 ? 4 : 3, 15);
        DType x = SimKernels.dtype(c, 2), y = SimKernels.dtype(c, 3);
        if (x != DType.F32 && x != DType.F64 && x != DType.F16 && x != DType.I64 && x != DType.I32)
            throw new DeviceException("'" + c.label() + "': tree_ensemble reads x of f32, f64, f16, int64 or int32, not " + x.jsonName());
        if (y != DType.F32 && y != DType.F64 && y != DType.F16)
            throw new DeviceException("'" + c.label() + "': tree_ensemble writes scores of f32, f64 or f16, not " + y.jsonName());
        return () -> run(c, x, y);
    }

    private static void run(KernelCall c, DType xt, DType yt) {
        int rows = i(c, 0), features = i(c, 1), targets = i(c, 8);
        boolean classifier = c.intArg(11) == 1;
        ByteBuffer xb = SimKernels.in(c, 0), tb = SimKernels.in(c, 1), y = SimKernels.out(c, 2);
        double[] table = new double[tb.capacity() / 8];
        tb.asDoubleBuffer().get(table);
        ByteBuffer label = classifier ? SimKernels.out(c, 3) : null;
        long[] ints = c.ints();
        double[] row = new double[features], out = new double[targets];
        for (int r = 0; r < rows; r++) {
            for (int f = 0; f < features; f++) row[f] = xt.getDouble(xb, r * features + f);
            long l = evaluate(ints, table, row, out);
            for (int j = 0; j < targets; j++) {
                if (yt == DType.F64) y.putDouble((r * targets + j) * 8, out[j]);
                else yt.putFloat(y, r * targets + j, (float) out[j]);
            }
            if (classifier) label.putLong(r * 8, l);
        }
        SimKernels.store(c, 2, y);
        if (classifier) SimKernels.store(c, 3, label);
    }

    /**
     * One row: the scores into {@code out} (targets of them) and, for a classifier, the label returned.
     *
     * @param ints  the call's ints ({@link Kernels#TREE_ENSEMBLE})
     * @param table the f64 table
     * @param x     the row's F features
     */
    static long evaluate(long[] ints, double[] table, double[] x, double[] out) {
        int nodes = (int) ints[4], entries = (int) ints[5], sets = (int) ints[6], trees = (int) ints[7], targets = (int) ints[8];
        int aggregate = (int) ints[9], post = (int) ints[10], baseCount = (int) ints[12];
        boolean classifier = ints[11] == 1, binaryCase = ints[13] == 1, allPositive = ints[14] == 1;
        int entryAt = NODE * nodes, setAt = entryAt + 2 * entries, rootAt = setAt + sets, baseAt = rootAt + trees, labelAt = baseAt + baseCount;
        double[] s = out;
        boolean[] has = new boolean[targets];
        java.util.Arrays.fill(s, 0);
        for (int t = 0; t < trees; t++) {
            int n = (int) table[rootAt + t];
            for (int steps = 0; table[NODE * n] != LEAF && steps <= nodes; steps++) n = next(table, n, x, setAt);
            int first = (int) table[NODE * n + 6], count = (int) table[NODE * n + 7];
            for (int e = first; e < first + count; e++) {
                int j = (int) table[entryAt + 2 * e];
                double w = table[entryAt + 2 * e + 1];
                if (aggregate <= 1) s[j] += w;
                else if (!has[j] || (aggregate == 2 ? w < s[j] : w > s[j])) s[j] = w;
                has[j] = true;
            }
        }
        if (!classifier) {
            if (targets == 1) {
                double v = (aggregate == 0 ? s[0] / trees : s[0]) + (baseCount == 1 ? table[baseAt] : 0);
                s[0] = post == 4 ? probit(v) : v;
                return 0;
            }
            for (int j = 0; j < targets; j++) s[j] = has[j] ? (aggregate == 0 ? s[j] / trees : s[j]) + (baseCount == targets ? table[baseAt + j] : 0) : 0;
            transform(post, s, targets);
            return 0;
        }
        if (targets > 2) {
            for (int k = 0; k < baseCount; k++) {
                s[k] += table[baseAt + k];
                has[k] = true;
            }
            int best = -1;
            for (int k = 0; k < targets; k++) if (has[k] && (best < 0 || s[k] > s[best])) best = k;
            unscored(s, has, targets);
            transform(post, s, targets);
            return (long) table[labelAt + Math.max(best, 0)];
        }
        int size = 2, add = -1;
        if (baseCount == 2) {
            if (has[1]) {
                s[1] = table[baseAt + 1] + s[0];
                s[0] = -s[1];
            } else {
                s[1] += table[baseAt + 1];
                s[0] += table[baseAt];
            }
        } else if (baseCount == 1) {
            s[0] += table[baseAt];
            if (!has[1]) size = 1;
        } else {
            add = 3;
            if (!has[1]) size = 1;
        }
        double pos = size == 2 && has[1] ? s[1] : has[0] ? s[0] : 0;
        long label;
        if (binaryCase) {
            boolean positive = allPositive ? pos > 0.5 : pos > 0;
            add = allPositive ? (positive ? 0 : 1) : (positive ? 2 : 3);
            label = (long) table[labelAt + (positive ? 1 : 0)];
        } else {
            label = pos > 0 ? 1 : 0;
        }
        unscored(s, has, 2);
        if (size == 2) {
            transform(post, s, 2);
            return label;
        }
        double v = s[0];
        if (post == 4) {
            s[0] = probit(v);
            s[1] = 0;
        } else if (add == 0 || add == 1) {
            s[0] = 1 - v;
            s[1] = v;
        } else if ((add == 2 || add == 3) && post == 2) {
            s[0] = logistic(-v);
            s[1] = logistic(v);
        } else if (add == 2) {
            s[0] = -v;
            s[1] = v;
        } else if (add == 3) {
            s[0] = v;
            s[1] = -v;
        } else {
            s[1] = 0;
        }
        return label;
    }

    /** Scores no leaf reached are written as 0, whatever base value they got (ONNX Runtime's ScoreValue conversion). */
    private static void unscored(double[] s, boolean[] has, int n) {
        for (int k = 0; k < n; k++) if (!has[k]) s[k] = 0;
    }

    /** The node a row goes to from node {@code n}. */
    private static int next(double[] table, int n, double[] x, int setAt) {
        int at = NODE * n, mode = (int) table[at];
        double v = x[(int) table[at + 1]], th = table[at + 2];
        boolean go = switch (mode) {
            case 0 -> v <= th;
            case 1 -> v < th;
            case 2 -> v >= th;
            case 3 -> v > th;
            case 4 -> v == th;
            case 5 -> v != th;
            default -> {
                boolean in = false;
                for (int k = (int) table[at + 6], end = k + (int) table[at + 7]; k < end && !in; k++) in = v == table[setAt + k];
                yield in;
            }
        };
        if (!go && table[at + 5] == 1 && Double.isNaN(v)) go = true;
        return (int) table[at + (go ? 3 : 4)];
    }

    /** The post transform {@code post} over the first {@code n} scores, in place (none for 0). */
    static void transform(int post, double[] s, int n) {
        switch (post) {
            case 1 -> {
                double max = Double.NEGATIVE_INFINITY, sum = 0;
                for (int k = 0; k < n; k++) max = Math.max(max, s[k]);
                for (int k = 0; k < n; k++) sum += s[k] = Math.exp(s[k] - max);
                for (int k = 0; k < n; k++) s[k] /= sum;
            }
            case 2 -> {
                for (int k = 0; k < n; k++) s[k] = logistic(s[k]);
            }
            case 3 -> {
                double max = Double.NEGATIVE_INFINITY, sum = 0;
                for (int k = 0; k < n; k++) max = Math.max(max, s[k]);
                for (int k = 0; k < n; k++)
                    if (s[k] > 1e-7 || s[k] < -1e-7) sum += s[k] = Math.exp(s[k] - max);
                    else s[k] *= Math.exp(-max);
                for (int k = 0; k < n; k++) s[k] = sum == 0 ? 0.5 : s[k] / sum;
            }
            case 4 -> {
                for (int k = 0; k < n; k++) s[k] = probit(s[k]);
            }
            default -> { }
        }
    }

    static double logistic(double v) {
        double e = 1 / (1 + Math.exp(-Math.abs(v)));
        return v < 0 ? 1 - e : e;
    }

    /** sqrt(2) erfinv(2v - 1), erfinv by the approximation with a = 0.147 (ONNX Runtime's ErfInv: -inf at 0 and +inf at 1, where the reference's erf_inv gives 0). */
    static double probit(double v) {
        double x = 2 * v - 1, sgn = x < 0 ? -1 : 1;
        x = (1 - x) * (1 + x);
        double log = Math.log(x), a = 2 / (Math.PI * 0.147) + 0.5 * log, b = 1 / 0.147 * log;
        return Math.sqrt(2) * sgn * Math.sqrt(-a + Math.sqrt(a * a - b));
    }
}
