// tree_ensemble: the simulator's TreeKernels step for step (org.arenaplan.device.Kernels#TREE_ENSEMBLE):
// one thread per row, trees walked in order, leaf entries aggregated and finalized in double as
// ONNX Runtime's tree_ensemble_aggregator.h does, each score rounded once to its type.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// Largest target (class) count: a thread keeps its row's scores in a local array (CudaKernelTable.TREE_MAX_TARGETS).
#define TREE_MAX_TARGETS 64
#define TREE_NODE 8
#define TREE_LEAF 7

__device__ __forceinline__ double tree_logistic(double v) {
    double e = 1.0 / (1.0 + exp(-fabs(v)));
    return v < 0 ? 1.0 - e : e;
}

// sqrt(2) erfinv(2v - 1), erfinv by the approximation with a = 0.147 (ONNX Runtime's ErfInv).
__device__ __forceinline__ double tree_probit(double v) {
    double x = 2.0 * v - 1.0, sgn = x < 0 ? -1.0 : 1.0;
    x = (1.0 - x) * (1.0 + x);
    double lg = log(x), a = 2.0 / (3.141592653589793 * 0.147) + 0.5 * lg, b = 1.0 / 0.147 * lg;
    return sqrt(2.0) * sgn * sqrt(-a + sqrt(a * a - b));
}

// post: 0 none, 1 softmax, 2 logistic, 3 softmax_zero, 4 probit, over s[0..n).
__device__ __forceinline__ void tree_transform(int post, double* s, int n) {
    if (post == 1 || post == 3) {
        double mx = -INFINITY, sum = 0;
        for (int k = 0; k < n; k++) mx = fmax(mx, s[k]);
        for (int k = 0; k < n; k++) {
            if (post == 1 || s[k] > 1e-7 || s[k] < -1e-7) { s[k] = exp(s[k] - mx); sum += s[k]; }
            else s[k] *= exp(-mx);
        }
        for (int k = 0; k < n; k++) s[k] = post == 3 && sum == 0 ? 0.5 : s[k] / sum;
    } else if (post == 2) {
        for (int k = 0; k < n; k++) s[k] = tree_logistic(s[k]);
    } else if (post == 4) {
        for (int k = 0; k < n; k++) s[k] = tree_probit(s[k]);
    }
}

__device__ __forceinline__ long long tree_next(const double* table, long long n, const void* x, long long row, int xcode, long long setAt) {
    const double* nd = table + TREE_NODE * n;
    int mode = (int) nd[0];
    double v = is_integral(xcode) ? int_to_double(load_int(x, row + (long long) nd[1], xcode), xcode)
                                  : xcode == DT_DOUBLE ? ((const double*) x)[row + (long long) nd[1]] : (double) load_float(x, row + (long long) nd[1], xcode);
    double th = nd[2];
    bool go;
    switch (mode) {
        case 0: go = v <= th; break;
        case 1: go = v < th; break;
        case 2: go = v >= th; break;
        case 3: go = v > th; break;
        case 4: go = v == th; break;
        case 5: go = v != th; break;
        default: {
            go = false;
            for (long long k = (long long) nd[6], end = k + (long long) nd[7]; k < end && !go; k++) go = v == table[setAt + k];
        }
    }
    if (!go && nd[5] == 1 && v != v) go = true;
    return (long long) nd[go ? 3 : 4];
}

// ptrs: x [rows, F], table (f64), scores [rows, targets], label [rows] (int64, classifier only);
// ints: rows, F, xDtype, scoresDtype, nodes, entries, setValues, trees, targets, aggregate, post,
// classifier, baseCount, binaryCase, allPositive.
extern "C" __global__ void tree_ensemble(const void* x, const double* table, void* scores, long long* label, Ints ints, Floats floats) {
    long long rows = ints.v[0], features = ints.v[1], nodes = ints.v[4], entries = ints.v[5], sets = ints.v[6], trees = ints.v[7];
    int xcode = (int) ints.v[2], ycode = (int) ints.v[3], targets = (int) ints.v[8], aggregate = (int) ints.v[9], post = (int) ints.v[10];
    int baseCount = (int) ints.v[12];
    bool classifier = ints.v[11] == 1, binaryCase = ints.v[13] == 1, allPositive = ints.v[14] == 1;
    if (targets > TREE_MAX_TARGETS) __trap();
    long long entryAt = TREE_NODE * nodes, setAt = entryAt + 2 * entries, rootAt = setAt + sets, baseAt = rootAt + trees, labelAt = baseAt + baseCount;
    FOR_EACH_ITEM(r, rows) {
        double s[TREE_MAX_TARGETS];
        bool has[TREE_MAX_TARGETS];
        for (int j = 0; j < targets; j++) { s[j] = 0; has[j] = false; }
        for (long long t = 0; t < trees; t++) {
            long long n = (long long) table[rootAt + t];
            for (long long steps = 0; table[TREE_NODE * n] != TREE_LEAF && steps <= nodes; steps++) n = tree_next(table, n, x, r * features, xcode, setAt);
            long long first = (long long) table[TREE_NODE * n + 6], count = (long long) table[TREE_NODE * n + 7];
            for (long long e = first; e < first + count; e++) {
                int j = (int) table[entryAt + 2 * e];
                double w = table[entryAt + 2 * e + 1];
                if (aggregate <= 1) s[j] += w;
                else if (!has[j] || (aggregate == 2 ? w < s[j] : w > s[j])) s[j] = w;
                has[j] = true;
            }
        }
        long long lab = 0;
        if (!classifier) {
            if (targets == 1) {
                double v = (aggregate == 0 ? s[0] / (double) trees : s[0]) + (baseCount == 1 ? table[baseAt] : 0.0);
                s[0] = post == 4 ? tree_probit(v) : v;
            } else {
                for (int j = 0; j < targets; j++)
                    s[j] = has[j] ? (aggregate == 0 ? s[j] / (double) trees : s[j]) + (baseCount == targets ? table[baseAt + j] : 0.0) : 0.0;
                tree_transform(post, s, targets);
            }
        } else if (targets > 2) {
            for (int k = 0; k < baseCount; k++) { s[k] += table[baseAt + k]; has[k] = true; }
            int best = -1;
            for (int k = 0; k < targets; k++) if (has[k] && (best < 0 || s[k] > s[best])) best = k;
            for (int k = 0; k < targets; k++) if (!has[k]) s[k] = 0;
            tree_transform(post, s, targets);
            lab = (long long) table[labelAt + (best < 0 ? 0 : best)];
        } else {
            int size = 2, add = -1;
            if (baseCount == 2) {
                if (has[1]) { s[1] = table[baseAt + 1] + s[0]; s[0] = -s[1]; }
                else { s[1] += table[baseAt + 1]; s[0] += table[baseAt]; }
            } else if (baseCount == 1) {
                s[0] += table[baseAt];
                if (!has[1]) size = 1;
            } else {
                add = 3;
                if (!has[1]) size = 1;
            }
            double pos = size == 2 && has[1] ? s[1] : has[0] ? s[0] : 0.0;
            if (binaryCase) {
                bool positive = allPositive ? pos > 0.5 : pos > 0;
                add = allPositive ? (positive ? 0 : 1) : (positive ? 2 : 3);
                lab = (long long) table[labelAt + (positive ? 1 : 0)];
            } else {
                lab = pos > 0 ? 1 : 0;
            }
            for (int k = 0; k < 2; k++) if (!has[k]) s[k] = 0;
            if (size == 2) {
                tree_transform(post, s, 2);
            } else {
                double v = s[0];
                if (post == 4) { s[0] = tree_probit(v); s[1] = 0; }
                else if (add == 0 || add == 1) { s[0] = 1 - v; s[1] = v; }
                else if ((add == 2 || add == 3) && post == 2) { s[0] = tree_logistic(-v); s[1] = tree_logistic(v); }
                else if (add == 2) { s[0] = -v; s[1] = v; }
                else if (add == 3) { s[0] = v; s[1] = -v; }
                else s[1] = 0;
            }
        }
        for (int j = 0; j < targets; j++) {
            if (ycode == DT_DOUBLE) ((double*) scores)[r * targets + j] = s[j];
            else store_float(scores, r * targets + j, ycode, (float) s[j]);
        }
        if (classifier) label[r] = lab;
    }
}
