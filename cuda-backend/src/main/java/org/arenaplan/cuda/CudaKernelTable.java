package org.arenaplan.cuda;

import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

/**
 * How each kernel of {@link Kernels} is launched from a {@link KernelCall}: its pointer slots in
 * the CUDA signature (an optional pointer, absent from the call, is passed as null), and how many
 * work items it covers. Every CUDA kernel takes its pointers, then one {@code Ints} struct of
 * {@value #MAX_INTS} 64-bit integers and one {@code Floats} struct of {@value #MAX_FLOATS} doubles
 * (common.cuh); the two constants must equal ARENAPLAN_MAX_INTS / ARENAPLAN_MAX_FLOATS there.
 */
final class CudaKernelTable {
    static final int MAX_INTS = 40;
    static final int MAX_FLOATS = 16;
    static final int BLOCK = 256;
    static final int GEMM_TILE = 16;
    /** Outputs per gemm block side (16 x 16 threads, 4 x 4 outputs each: gemm.cuh's GEMM_OUT). */
    static final int GEMM_OUT = 64;
    static final String SLOW_COPY = CudaDevice.SLOW_COPY;
    /** conv2d as an implicit GEMM (conv_igemm.cuh), for group 1: {@link #entry} picks it. */
    static final String CONV2D_IGEMM = "conv2d_igemm";
    /** Outputs per conv2d_igemm block side (16 x 16 threads, 4 x 4 outputs each: CONV_OUT). */
    static final int CONV_OUT = 64;
    /** gemm and conv2d (group 1) on TF32 tensor cores (tf32.cuh), only with the device's tf32 option. */
    static final String GEMM_TF32 = "gemm_tf32", CONV2D_IGEMM_TF32 = "conv2d_igemm_tf32";
    /** Threads of a TF32 block (4 warps) and outputs per block side (tf32.cuh's TF32_THREADS, TF32_OUT). */
    static final int TF32_THREADS = 128, TF32_OUT = 64;

    /**
     * @param slots        pointers in the CUDA signature
     * @param optionalSlot the slot a call may leave out (gemm's C, conv2d's bias), or -1
     * @param items        work items from the call's ints (null for gemm, launched in 2-D tiles)
     * @param present      for kernels with several optional pointers: the bit mask of the slots a call
     *                     fills, from its ints (the call lists those pointers in slot order); null otherwise
     */
    record Spec(int slots, int optionalSlot, ToLongFunction<long[]> items, ToLongFunction<long[]> present) {
        Spec(int slots, int optionalSlot, ToLongFunction<long[]> items) {
            this(slots, optionalSlot, items, null);
        }
    }

    /** Largest hidden_size of the recurrent kernel: its state lives in shared memory (recurrent.cuh's RECURRENT_MAX_HIDDEN). */
    static final long RECURRENT_MAX_HIDDEN = 3072;
    /** Largest M of the det kernel: a thread eliminates its matrix in a local array (detection.cuh's DET_MAX_M). */
    static final long DET_MAX_M = 32;
    /** Largest key size dk of the linear attention kernel: a thread keeps its state column in registers (linear_attention.cuh's LINEAR_ATTENTION_MAX_DK). */
    static final long LINEAR_ATTENTION_MAX_DK = 256;
    /** Largest key count S of the flex_attention kernel: a block keeps its query row's scores in shared memory (flex_attention.cuh's FLEX_ATTENTION_MAX_S). */
    static final long FLEX_ATTENTION_MAX_S = 4096;
    /** Largest target (class) count of the tree_ensemble kernel: a thread keeps its row's scores in a local array (tree_ensemble.cuh's TREE_MAX_TARGETS). */
    static final long TREE_MAX_TARGETS = 64;
    /** Threads of a flex_attention block (two warps), one block per query row. */
    static final int FLEX_ATTENTION_THREADS = 64;
    /**
     * Threads of the one block that runs each kernel of data-dependent outputs (nonzero, compress,
     * unique, non_max_suppression; data_dependent.cuh, whose kernels take any block of up to 1024
     * threads, CUDA's limit, and are compiled with __launch_bounds__(1024)).
     */
    static final int DATA_DEPENDENT_THREADS = 1024;

    static final Map<String, Spec> SPECS = Map.ofEntries(
            Map.entry(Kernels.UNARY, new Spec(2, -1, i -> i[0])),   // (f32 moves 4 per thread when aligned; grid-stride covers any grid)
            Map.entry(Kernels.BINARY, new Spec(3, -1, i -> product(i, 2, (int) i[1]))),
            Map.entry(Kernels.GEMM, new Spec(4, 2, null)),
            Map.entry(Kernels.SOFTMAX, new Spec(3, 1, i -> i[0] * i[2])),                   // extent optional: x bounded along a normalised axis
            Map.entry(Kernels.BATCHNORM, new Spec(6, -1, i -> i[0] * i[1] * i[2])),
            Map.entry(Kernels.BATCHNORM_RUNNING, new Spec(5, 4, i -> i[1])),                // one thread per channel; running_var optional
            Map.entry(Kernels.CONV2D, new Spec(4, 2, i -> i[0] * i[4] * i[5] * i[6])),
            Map.entry(Kernels.CONV_ND, new Spec(4, 2, i -> i[1] * i[3] * strided(i, 8, 6, (int) i[0]))),
            Map.entry(Kernels.POOL, new Spec(2, -1, i -> i[1] * strided(i, 6, 7, (int) i[0]))),
            Map.entry(Kernels.POOL_INDICES, new Spec(2, -1, i -> i[1] * strided(i, 6, 7, (int) i[0]))),
            Map.entry(Kernels.RESIZE, new Spec(2, -1, i -> strided(i, 7, 5, (int) i[0]))),
            Map.entry(Kernels.GRID_SAMPLE, new Spec(3, -1, i -> i[1] * i[2] * product(i, 3 + (int) i[0], (int) i[0]))),
            Map.entry(Kernels.COL2IM, new Spec(2, -1, i -> i[1] * i[2] * strided(i, 3, 6, (int) i[0]))),
            Map.entry(Kernels.AFFINE_GRID, new Spec(2, -1, i -> i[0] * i[1] * strided(i, 2, 1, (int) i[1]))),
            Map.entry(Kernels.LRN, new Spec(2, -1, i -> i[0] * i[1] * i[2])),
            Map.entry(Kernels.TRANSPOSE, new Spec(2, -1, i -> product(i, 1, (int) i[0]))),
            Map.entry(Kernels.COPY, new Spec(2, -1, i -> i[0])),
            Map.entry(Kernels.CONCAT_SLICE, new Spec(2, -1, i -> i[0] * i[1])),
            Map.entry(Kernels.CAST, new Spec(2, -1, i -> i[0])),
            // data, indices, (extent, with per in ints: data bounded along the axis), (indicesExtent, per >= 1: the indices bounded too), y
            Map.entry(Kernels.GATHER, new Spec(5, -1, i -> i[0] * i[3] * i[2], i -> boundedIndexSlots(i, 6))),
            Map.entry(Kernels.WHERE, new Spec(4, -1, i -> product(i, 1, (int) i[0]))),
            Map.entry(Kernels.COMPARE, new Spec(3, -1, i -> product(i, 2, (int) i[1]))),
            Map.entry(Kernels.QUANTIZE, new Spec(4, 2, i -> i[0] * i[1] * i[2])),
            // one block of BLOCK threads per (direction, batch row); X, W, R always, then the flagged ones
            Map.entry(Kernels.RECURRENT, new Spec(11, -1, i -> i[5] * i[2] * BLOCK, CudaKernelTable::recurrentSlots)),
            Map.entry(Kernels.STRIDED_COPY, new Spec(2, -1, i -> product(i, 1, (int) i[0]))),
            Map.entry(Kernels.PAD, new Spec(3, 1, i -> product(i, 1, (int) i[0]))),
            Map.entry(Kernels.TRILU, new Spec(2, -1, i -> i[0] * i[1] * i[2])),
            Map.entry(Kernels.GATHER_ELEMENTS, new Spec(3, -1, i -> product(i, 1, (int) i[0]))),
            Map.entry(Kernels.SCATTER_ELEMENTS, new Spec(5, 3, i -> 1)),     // serial: updates in order; extent optional: indices and updates bounded
            Map.entry(Kernels.GATHER_ND, new Spec(5, -1, i -> i[0] * i[1] * i[3], i -> boundedIndexSlots(i, 6 + (int) i[2]))),   // as gather's, per at 6 + k
            Map.entry(Kernels.SCATTER_ND, new Spec(5, 3, i -> 1)),           // serial: updates in order; extent optional: indices and updates bounded
            Map.entry(Kernels.TENSOR_SCATTER, new Spec(4, 2, i -> i[0] * i[1] * i[4])),   // a lane per (batch, pre, inner); writeIndices optional
            Map.entry(Kernels.ONEHOT, new Spec(3, -1, i -> i[0] * i[1] * i[2])),
            Map.entry(Kernels.REDUCE, new Spec(3, 1, i -> product(i, 5, (int) i[3]))),                  // extent optional: x bounded
            Map.entry(Kernels.NORMALIZE, new Spec(6, -1, i -> product(i, 7, (int) i[5]), i -> 1 | i[1] << 1 | i[2] << 2 | 8 | i[3] << 4 | i[4] << 5)),
            Map.entry(Kernels.CUMSUM, new Spec(2, -1, i -> i[0] * i[2])),
            Map.entry(Kernels.TOPK, new Spec(4, 1, i -> i[0] * i[2])),                       // extent optional: x bounded along the axis
            Map.entry(Kernels.NLL_LOSS, new Spec(5, -1, i -> i[4] == 0 ? i[1] * i[3] : 1, i -> 3 | i[7] << 2 | 8 | i[8] << 4)),
            Map.entry(Kernels.EINSUM, new Spec(3, 1, i -> product(i, 4, (int) i[3]))),
            Map.entry(Kernels.DFT, new Spec(3, 1, i -> i[0] * i[7] * i[5] * i[2])),
            Map.entry(Kernels.REVERSE_SEQUENCE, new Spec(3, -1, i -> i[0] * i[1] * i[2])),
            Map.entry(Kernels.TFIDF, new Spec(2, -1, i -> i[0] * i[3])),   // the pool travels in the ints: at most MAX_INTS in all
            Map.entry(Kernels.TREE_ENSEMBLE, new Spec(4, 3, i -> i[0])),   // one thread per row; the label only for a classifier
            // a, b, their zero points, the scales and y's zero point when requantizing (int 9), y
            Map.entry(Kernels.QMATMUL, new Spec(9, -1, i -> i[0] * i[1] * i[3], i -> 0b1111 | (i[9] == 1 ? 0b11110000 : 0) | 1 << 8)),
            // x, w, their zero points, the scales and y's zero point when requantizing (int 3), the bias (int 14), y
            Map.entry(Kernels.QCONV, new Spec(10, -1, i -> i[10] * i[12] * strided(i, 17, 6, (int) i[9]),
                    i -> 0b1111 | (i[3] == 1 ? 0b11110000 : 0) | i[14] << 8 | 1 << 9)),
            Map.entry(Kernels.QUANTIZE_RANGE, new Spec(3, -1, i -> BLOCK)),                 // one block: a whole-tensor min and max
            Map.entry(Kernels.ROTARY, new Spec(5, 3, i -> i[0] * i[1] * i[2] * i[3])),       // positions optional
            // one thread per query row (grid-stride loops copy present_key and present_value); Q, K, V, Y always, then the flagged ones
            Map.entry(Kernels.ATTENTION, new Spec(11, -1, i -> i[0] * i[1] * i[3],
                    i -> 0b111 | i[9] << 3 | i[16] << 4 | i[16] << 5 | i[17] << 6 | 1 << 7 | i[18] << 8 | i[19] << 9 | i[20] << 10)),
            // x, w, y always; bias, past and present where has* (ints 4, 5, 7) say; every y element, then every present element
            Map.entry(Kernels.CAUSAL_CONV, new Spec(6, -1, i -> i[0] * i[1] * (i[2] + (i[7] == 1 ? i[3] - 1 : 0)),
                    i -> 0b11 | i[4] << 2 | i[5] << 3 | 1 << 4 | i[7] << 5)),
            // q, k, v, out always; past, decay, beta and present where has* (ints 6, 7, 9, 11) say; one thread per state column
            Map.entry(Kernels.LINEAR_ATTENTION, new Spec(8, -1, i -> i[0] * i[3] * i[5],
                    i -> 0b111 | i[6] << 3 | i[7] << 4 | i[9] << 5 | 1 << 6 | i[11] << 7)),
            // one thread per output element; X, W, offset, Y always, B and mask where hasBias, hasMask (ints 17, 18) say
            Map.entry(Kernels.ROI_ALIGN, new Spec(4, -1, i -> i[4] * i[1] * i[5] * i[6])),
            Map.entry(Kernels.DEFORM_CONV, new Spec(6, -1, i -> i[0] * i[4] * i[5] * i[6], i -> 0b111 | i[17] << 3 | i[18] << 4 | 1 << 5)),
            // phase 0 (int 0): y only, one thread per y element; phase 1: x, idx, y, one thread per x element
            Map.entry(Kernels.MAX_UNPOOL, new Spec(3, -1, i -> i[0] == 0 ? i[2] : i[1], i -> i[0] == 0 ? 0b100 : 0b111)),
            Map.entry(Kernels.DET, new Spec(2, -1, i -> i[0])),                            // one thread per matrix
            // one block of DATA_DEPENDENT_THREADS (geometry): a scan counts, then each thread writes its share in order
            Map.entry(Kernels.NONZERO, new Spec(3, -1, i -> 1)),
            Map.entry(Kernels.COMPRESS, new Spec(4, -1, i -> 1)),
            Map.entry(Kernels.UNIQUE, new Spec(6, -1, i -> 1)),                            // a bitonic sort of the slices first
            Map.entry(Kernels.NMS, new Spec(8, 5, i -> 1)),                                // batches, then classes in order; boxes sorted per class; boxes' extent optional
            Map.entry(Kernels.ZERO_TAIL, new Spec(2, -1, i -> i[1])),                      // one thread per element; the head skipped
            Map.entry(Kernels.TRANSPOSE_BOUNDED, new Spec(3, -1, i -> product(i, 3, (int) i[0]))),   // one thread per element of the bound
            Map.entry(Kernels.CHECK_EXTENT, new Spec(1, -1, i -> 1)),                       // one thread
            Map.entry(Kernels.SPLIT_BOUNDED, new Spec(4, -1, i -> Math.max(1, i[3] * i[4]))),   // one thread per element of y's bound (at least one: it writes the part's count)
            Map.entry(Kernels.SLICE_BOUNDED, new Spec(4, -1, i -> Math.max(1, i[11] * i[13]))),   // one thread per element of y's bound (at least one: it writes the count)
            // before and extent where hasBefore, hasExtent (ints 4, 5) say, x, y, after; one thread per element of y's bound (at least one: it writes after)
            Map.entry(Kernels.CONCAT_BOUNDED, new Spec(5, -1, i -> Math.max(1, i[1] * i[2]), i -> i[4] | i[5] << 1 | 0b11100)),
            Map.entry(Kernels.RESHAPE_EXTENT, new Spec(2, -1, i -> 1)),                     // one thread
            // the training kernels (training.cuh): one thread per element (gelu_grad), per row (softmax_grad,
            // layernorm_grad), per dx element, per dw element
            Map.entry(Kernels.GELU_GRAD, new Spec(3, -1, i -> i[0])),
            Map.entry(Kernels.SOFTMAX_GRAD, new Spec(3, -1, i -> i[0])),
            Map.entry(Kernels.LAYERNORM_GRAD, new Spec(4, -1, i -> i[0])),
            Map.entry(Kernels.CONV2D_BACKWARD_DATA, new Spec(3, -1, i -> i[0] * i[1] * i[2] * i[3])),
            Map.entry(Kernels.CONV2D_BACKWARD_FILTER, new Spec(3, -1, i -> i[4] * i[1] * i[7] * i[8])),
            // one thread per element; r, t, x, g, s1, x_new, s1_new always, s2 and s2_new for Adam (mode 1)
            Map.entry(Kernels.OPTIMIZER, new Spec(9, -1, i -> i[0], i -> i[1] == Kernels.OPTIMIZER_ADAM ? 0x1FF : 0b011011111)),
            // one block of FLEX_ATTENTION_THREADS per query row (geometry); Q or X, K from point 0 (int 7), V to point 3 (int 8), the output
            Map.entry(Kernels.FLEX_ATTENTION, new Spec(4, -1, i -> i[0] * i[1] * i[3], i -> 1 | (i[7] == 0 ? 2 : 0) | (i[8] == 3 ? 4 : 0) | 8)),
            Map.entry(SLOW_COPY, new Spec(2, -1, i -> i[0])));

    /**
     * Entry functions of the fatbin that are not kernel names: faster variants of a kernel, with
     * its pointers and ints, that {@link #entry} picks from a call's ints (never from the plan).
     */
    static final Map<String, Spec> VARIANTS = Map.of(CONV2D_IGEMM, SPECS.get(Kernels.CONV2D),
            CONV2D_IGEMM_TF32, SPECS.get(Kernels.CONV2D), GEMM_TF32, SPECS.get(Kernels.GEMM));

    /** Every entry function the device loads from the fatbin: the kernels, their variants and their typed forms. */
    static java.util.Set<String> entries() {
        java.util.Set<String> all = new java.util.TreeSet<>(SPECS.keySet());
        all.addAll(VARIANTS.keySet());
        FATBIN_TYPES.forEach((kernel, codes) -> codes.forEach(code -> {
            all.add(typed(kernel, code));
            if (kernel.equals(Kernels.CONV2D)) all.add(typed(CONV2D_IGEMM, code));
        }));
        return all;
    }

    /**
     * The entry function of {@code entry}'s form for element type {@code code} (ONNX): {@code entry}
     * itself for f32 (code 1), else {@code entry_TYPE} (gemm_f16, pool_u8; typed.cuh).
     */
    static String typed(String entry, long code) {
        return code == 1 ? entry : entry + "_" + org.arenaplan.ir.DType.ofOnnx((int) code).jsonName();
    }

    /**
     * The entry function that runs {@code call}: {@link #CONV2D_IGEMM} for a conv2d with group 1
     * (int 15), the kernel of the call's name otherwise (both give the same bits, conv_igemm.cuh);
     * for a call of another element type than f32 ({@link Kernels#typeCode}), that entry's typed
     * form ({@link #typed}).
     */
    static String entry(KernelCall call) {
        return entry(call, false);
    }

    /**
     * As {@link #entry(KernelCall)}; with {@code tf32} (the device's option, off by default) gemm
     * and conv2d with group 1 run on the TF32 tensor-core kernels, whose results differ from
     * FP32's (tf32.cuh states the bound).
     */
    static String entry(KernelCall call, boolean tf32) {
        boolean conv = call.name().equals(Kernels.CONV2D) && call.ints()[15] == 1;
        long code = Kernels.typeCode(call.name(), call.ints());
        if (tf32 && code == 1 && conv) return CONV2D_IGEMM_TF32;   // TF32 rounds f32 operands: never for another type
        if (tf32 && code == 1 && call.name().equals(Kernels.GEMM)) return GEMM_TF32;
        return typed(conv ? CONV2D_IGEMM : call.name(), code);
    }

    private static final long F16 = org.arenaplan.ir.DType.F16.onnxCode(), F64 = org.arenaplan.ir.DType.F64.onnxCode(),
            U8 = org.arenaplan.ir.DType.U8.onnxCode(), I8 = org.arenaplan.ir.DType.I8.onnxCode();

    /**
     * The element types (ONNX codes) beyond f32 that the fatbin's forms of a typed kernel compute
     * ({@link Kernels#typeInt}; one entry function per type, {@link #typed}; typed.cuh): every type the
     * simulator computes. A call of another type is refused by kernel, op and type name before launch.
     */
    static final Map<String, java.util.Set<Long>> FATBIN_TYPES = Map.of(
            Kernels.GEMM, java.util.Set.of(F16, F64),
            Kernels.CONV2D, java.util.Set.of(F16),
            Kernels.CONV_ND, java.util.Set.of(F16),
            Kernels.POOL, java.util.Set.of(F16, U8, I8),
            Kernels.POOL_INDICES, java.util.Set.of(F16, U8, I8),
            Kernels.SOFTMAX, java.util.Set.of(F16, F64),
            Kernels.NORMALIZE, java.util.Set.of(F16, F64),
            Kernels.ATTENTION, java.util.Set.of(F16),
            Kernels.RESIZE, java.util.Set.of(F16));

    /** {@code f32}, {@code f32 and f16}, {@code f32, f16 and f64}: the types of {@code kernel} the fatbin computes. */
    private static String fatbinTypes(String kernel) {
        java.util.List<String> names = new java.util.ArrayList<>(java.util.List.of("f32"));
        for (long code : new java.util.TreeSet<>(FATBIN_TYPES.getOrDefault(kernel, java.util.Set.of())))
            names.add(org.arenaplan.ir.DType.ofOnnx((int) code).jsonName());
        int last = names.size() - 1;
        return last == 0 ? names.get(0) : String.join(", ", names.subList(0, last)) + " and " + names.get(last);
    }

    /** Grid and block sizes of one launch. */
    record Geometry(int gridX, int gridY, int gridZ, int blockX, int blockY) { }

    private CudaKernelTable() { }

    static Spec spec(KernelCall call) {
        return spec(call, Kernels.SIM_ONLY);
    }

    /** {@link #spec(KernelCall)} with {@code simOnly} as the kernels the simulator runs and the fatbin lacks (refused by name). */
    static Spec spec(KernelCall call, java.util.Collection<String> simOnly) {
        Spec s = SPECS.get(call.name());
        if (s == null && simOnly.contains(call.name()))
            throw new DeviceException("kernel '" + call.name() + "' (op " + call.label() + ") runs on the simulator only; the CUDA fatbin does not have it yet (use --device sim)");
        if (Kernels.simOnlyType(call.name(), call.ints()) && !FATBIN_TYPES.getOrDefault(call.name(), java.util.Set.of()).contains(Kernels.typeCode(call.name(), call.ints()))) {
            org.arenaplan.ir.DType t = org.arenaplan.ir.DType.ofOnnx((int) Kernels.typeCode(call.name(), call.ints()));
            throw new DeviceException("kernel '" + call.name() + "' (op " + call.label() + ") in " + (t == null ? "element type " + Kernels.typeCode(call.name(), call.ints()) : t.jsonName())
                    + " has no CUDA form; the CUDA fatbin has its " + fatbinTypes(call.name()) + " forms (the types the simulator computes, Kernels.typeInt)");
        }
        if (s == null) throw new DeviceException("unknown kernel '" + call.name() + "' (op " + call.label() + "); known: " + SPECS.keySet());
        int n = call.pointers().size();
        if (s.present() != null) {
            int want = Long.bitCount(s.present().applyAsLong(call.ints()));
            if (n != want) throw new DeviceException("kernel '" + call.name() + "' (op " + call.label() + ") takes " + want + " pointers for its ints, got " + n);
        } else if (n != s.slots() && !(s.optionalSlot() >= 0 && n == s.slots() - 1)) {
            throw new DeviceException("kernel '" + call.name() + "' (op " + call.label() + ") takes " + s.slots()
                    + (s.optionalSlot() >= 0 ? " or " + (s.slots() - 1) : "") + " pointers, got " + n);
        }
        if (call.name().equals(Kernels.RECURRENT) && call.ints()[4] > RECURRENT_MAX_HIDDEN)
            throw new DeviceException("op " + call.label() + ": hidden_size " + call.ints()[4] + " exceeds the " + RECURRENT_MAX_HIDDEN
                    + " units the CUDA recurrent kernel keeps on chip (use --device sim)");
        if (call.name().equals(Kernels.LINEAR_ATTENTION) && call.ints()[4] > LINEAR_ATTENTION_MAX_DK)
            throw new DeviceException("op " + call.label() + ": key size " + call.ints()[4] + " exceeds the " + LINEAR_ATTENTION_MAX_DK
                    + " the CUDA linear_attention kernel keeps per thread (use --device sim)");
        if (call.name().equals(Kernels.TREE_ENSEMBLE) && call.ints()[8] > TREE_MAX_TARGETS)
            throw new DeviceException("op " + call.label() + ": a tree ensemble of " + call.ints()[8] + " targets exceeds the " + TREE_MAX_TARGETS
                    + " scores the CUDA tree_ensemble kernel keeps per row (use --device sim)");
        if (call.name().equals(Kernels.DET) && call.ints()[1] > DET_MAX_M)
            throw new DeviceException("op " + call.label() + ": Det of " + call.ints()[1] + " x " + call.ints()[1] + " matrices exceeds the " + DET_MAX_M
                    + " x " + DET_MAX_M + " the CUDA det kernel keeps per thread (use --device sim)");
        if ((call.name().equals(Kernels.CONV2D_BACKWARD_DATA) || call.name().equals(Kernels.CONV2D_BACKWARD_FILTER)) && call.ints()[15] != 1)
            throw new DeviceException("op " + call.label() + ": " + call.name() + " supports group 1 only, got group " + call.ints()[15]);
        if (call.name().equals(Kernels.FLEX_ATTENTION) && call.ints()[4] > FLEX_ATTENTION_MAX_S)
            throw new DeviceException("op " + call.label() + ": FlexAttention over " + call.ints()[4] + " keys exceeds the " + FLEX_ATTENTION_MAX_S
                    + " scores the CUDA flex_attention kernel keeps per query row (use --device sim)");
        if (call.ints().length > MAX_INTS || call.floats().length > MAX_FLOATS) {
            throw new DeviceException("kernel '" + call.name() + "' (op " + call.label() + ") got " + call.ints().length
                    + " ints and " + call.floats().length + " floats; the CUDA kernels take at most " + MAX_INTS + " and " + MAX_FLOATS);
        }
        return s;
    }

    /** X, W, R, then B, sequence_lens, initial_h, initial_c, P, Y, Y_h, Y_c where ints 17..24 flag them. */
    private static long recurrentSlots(long[] ints) {
        long mask = 0b111;
        for (int k = 0; k < 8; k++) if (ints[17 + k] == 1) mask |= 1L << (3 + k);
        return mask;
    }

    /** The pointer slot that call pointer {@code i} fills (skipping the optional slots the call leaves out). */
    /**
     * The slots a gather or gather_nd call fills ({@link Kernels#GATHER}, {@link Kernels#GATHER_ND}: data, indices,
     * extent, indicesExtent, y): extent where its ints hold per (int {@code perAt}), indicesExtent where per is at least 1.
     */
    private static long boundedIndexSlots(long[] ints, int perAt) {
        boolean data = ints.length > perAt;
        return 0b10011 | (data ? 0b100 : 0) | (data && ints[perAt] > 0 ? 0b1000 : 0);
    }

    static int slotOf(Spec s, long[] ints, int callPointers, int i) {
        if (s.present() != null) {
            long mask = s.present().applyAsLong(ints);
            for (int slot = 0, k = 0; slot < s.slots(); slot++) {
                if ((mask >> slot & 1) == 0) continue;
                if (k++ == i) return slot;
            }
            throw new DeviceException("pointer " + i + " has no slot in mask " + Long.toBinaryString(mask));
        }
        boolean omitted = callPointers == s.slots() - 1;
        return omitted && i >= s.optionalSlot() ? i + 1 : i;
    }

    static Geometry geometry(KernelCall call, Spec s) {
        return geometry(entry(call), call, s);
    }

    /** The grid and blocks of entry function {@code entry} (one of {@link #entries()}) running {@code call}. */
    static Geometry geometry(String entry, KernelCall call, Spec s) {
        long[] ints = call.ints();
        switch (entry) {   // conv: x over pixel tiles (N * OH * OW), y over channel tiles (M); gemm: x over N, y over M, z the batch
            case CONV2D_IGEMM, CONV2D_IGEMM + "_f16": return new Geometry(blocks(ints[0] * ints[5] * ints[6], CONV_OUT), blocks(ints[4], CONV_OUT), 1, GEMM_TILE, GEMM_TILE);
            case CONV2D_IGEMM_TF32: return new Geometry(blocks(ints[0] * ints[5] * ints[6], TF32_OUT), blocks(ints[4], TF32_OUT), 1, TF32_THREADS, 1);
            case GEMM_TF32: return new Geometry(blocks(ints[2], TF32_OUT), blocks(ints[1], TF32_OUT), (int) Math.max(1, Math.min(ints[0], 65_535)), TF32_THREADS, 1);
            case Kernels.FLEX_ATTENTION: return new Geometry((int) Math.max(1, Math.min(s.items().applyAsLong(ints), 1 << 20)), 1, 1, FLEX_ATTENTION_THREADS, 1);
            case Kernels.NONZERO, Kernels.COMPRESS, Kernels.UNIQUE, Kernels.NMS: return new Geometry(1, 1, 1, DATA_DEPENDENT_THREADS, 1);
            default: break;
        }
        if (s.items() == null) {   // gemm: ints [batch, M, N, ...]
            return new Geometry(blocks(ints[2], GEMM_OUT), blocks(ints[1], GEMM_OUT), (int) Math.max(1, Math.min(ints[0], 65_535)), GEMM_TILE, GEMM_TILE);
        }
        long items = s.items().applyAsLong(ints);
        // Grid-stride loops make any grid correct; cap it so huge tensors loop instead.
        return new Geometry((int) Math.max(1, Math.min(blocks(items, BLOCK), 1 << 20)), 1, 1, BLOCK, 1);
    }

    private static int blocks(long items, int per) {
        return (int) Math.max(1, Math.min((items + per - 1) / per, Integer.MAX_VALUE));
    }

    /** The product of {@code count} ints, {@code step} apart from {@code from} (one field of per-axis groups). */
    private static long strided(long[] ints, int from, int step, int count) {
        long p = 1;
        for (int d = 0; d < count; d++) p *= ints[from + d * step];
        return p;
    }

    private static long product(long[] ints, int from, int count) {
        long p = 1;
        for (int d = 0; d < count; d++) p *= ints[from + d];
        return p;
    }
}
