package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.junit.jupiter.api.Test;

/** How kernel calls map onto the CUDA signatures; pure Java, no GPU needed. */
class CudaKernelTableTest {

    /** A host-only stand-in: the table never dereferences buffers. */
    private record FakeBuffer(long bytes, String owner) implements DeviceBuffer {
        @Override public boolean isLive() { return true; }
        @Override public void close() { }
    }

    private static KernelCall call(String name, int pointers, long[] ints, double[] floats) {
        List<KernelArg> args = new ArrayList<>();
        for (int i = 0; i < pointers; i++) args.add(KernelArg.read(new FakeBuffer(1024, "t" + i).base(), 1024, "t" + i));
        return new KernelCall(name, args, ints, floats, "op");
    }

    @Test
    void everyKernelOfTheConventionHasASpec() {
        assertThat(CudaKernelTable.SPECS.keySet()).containsAll(Kernels.ALL);
    }

    @Test
    void everyKernelTheOpRegistryNamesHasASpec() {
        // the training kernels (Kernels.TRAINING) and flex_attention included: nothing is simulator-only today
        assertThat(Kernels.SIM_ONLY).isEmpty();
        java.util.Set<String> deployed = new java.util.TreeSet<>(org.arenaplan.ir.OpRegistry.kernels());
        deployed.removeAll(Kernels.SIM_ONLY);
        assertThat(CudaKernelTable.SPECS.keySet()).containsAll(deployed).containsAll(Kernels.TRAINING);
    }

    @Test
    void aSimulatorOnlyKernelIsRefusedNamingItsOp() {
        // the mechanism for a kernel added to the simulator before its CUDA form (Kernels.SIM_ONLY, empty today)
        KernelCall c = call("next_kernel", 2, new long[4], new double[0]);
        assertThatThrownBy(() -> CudaKernelTable.spec(c, List.of("next_kernel"))).isInstanceOf(DeviceException.class)
                .hasMessage("kernel 'next_kernel' (op op) runs on the simulator only; the CUDA fatbin does not have it yet (use --device sim)");
        assertThatThrownBy(() -> CudaKernelTable.spec(c)).hasMessageContaining("unknown kernel 'next_kernel'");
    }

    @Test
    void trainingAndFlexAttentionCallsTakeTheirPointersAndRefuseWhatTheKernelsCannotHold() {
        long[] conv = {1, 3, 8, 8, 4, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0};
        assertThat(CudaKernelTable.spec(call(Kernels.CONV2D_BACKWARD_FILTER, 3, conv, new double[0])).slots()).isEqualTo(3);
        long[] grouped = conv.clone();
        grouped[15] = 2;
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.CONV2D_BACKWARD_DATA, 3, grouped, new double[0])))
                .isInstanceOf(DeviceException.class).hasMessage("op op: conv2d_backward_data supports group 1 only, got group 2");
        // flex_attention: Q, K, V, Y from point 0 to 3; X, Y from 1 to 2 (in slots 0 and 3); S beyond shared memory refused
        long[] all = {1, 2, 1, 5, CudaKernelTable.FLEX_ATTENTION_MAX_S, 8, 8, 0, 3, 1, 1}, middle = all.clone();
        middle[7] = 1;
        middle[8] = 2;
        CudaKernelTable.Spec s = CudaKernelTable.spec(call(Kernels.FLEX_ATTENTION, 4, all, new double[1]));
        assertThat(CudaKernelTable.slotOf(s, middle, 2, 1)).isEqualTo(3);
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.FLEX_ATTENTION, 4, middle, new double[1]))).hasMessageContaining("takes 2 pointers for its ints, got 4");
        CudaKernelTable.Geometry g = CudaKernelTable.geometry(call(Kernels.FLEX_ATTENTION, 4, all, new double[1]), s);
        assertThat(List.of(g.gridX(), g.blockX())).containsExactly(10, CudaKernelTable.FLEX_ATTENTION_THREADS);   // a block per query row
        all[4]++;
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.FLEX_ATTENTION, 4, all, new double[1]))).isInstanceOf(DeviceException.class)
                .hasMessage("op op: FlexAttention over 4097 keys exceeds the 4096 scores the CUDA flex_attention kernel keeps per query row (use --device sim)");
    }

    @Test
    void aTypeTheFatbinLacksIsRefusedNamingKernelOpAndType() {
        long[] f32 = {1, 3, 5, 7, 0, 0, 21, 35, 0, 0, 0, 0};
        assertThat(CudaKernelTable.spec(call(Kernels.GEMM, 3, Kernels.withType(Kernels.GEMM, f32, 1), new double[] {1, 0}))).isNotNull();
        KernelCall half = call(Kernels.GEMM, 3, Kernels.withType(Kernels.GEMM, f32, org.arenaplan.ir.DType.F16.onnxCode()), new double[] {1, 0});
        assertThat(CudaKernelTable.spec(half)).isNotNull();   // gemm.cuh computes f16
        assertThat(CudaKernelTable.entry(half, true)).isEqualTo("gemm_f16");   // never the TF32 kernel
        KernelCall bf16 = call(Kernels.GEMM, 3, Kernels.withType(Kernels.GEMM, f32, org.arenaplan.ir.DType.BF16.onnxCode()), new double[] {1, 0});
        assertThatThrownBy(() -> CudaKernelTable.spec(bf16)).isInstanceOf(DeviceException.class)
                .hasMessage("kernel 'gemm' (op op) in bf16 has no CUDA form; the CUDA fatbin has its f32, f16 and f64 forms (the types the simulator computes, Kernels.typeInt)");
        long[] pool = new long[5 + 7 * 2];
        pool[0] = 2;
        KernelCall f64 = call(Kernels.POOL, 2, Kernels.withType(Kernels.POOL, pool, org.arenaplan.ir.DType.F64.onnxCode()), new double[0]);
        assertThatThrownBy(() -> CudaKernelTable.spec(f64)).isInstanceOf(DeviceException.class).hasMessageContaining("'pool' (op op) in f64")
                .hasMessageContaining("its f32, u8, i8 and f16 forms");
    }

    @Test
    void everyTypeTheSimulatorComputesHasATypedEntryFunction() {
        // Kernels.typeInt's types: f16 for all eight kernels, f64 for gemm and softmax, u8 and i8 for the pools
        long f16 = org.arenaplan.ir.DType.F16.onnxCode(), f64 = org.arenaplan.ir.DType.F64.onnxCode();
        long u8 = org.arenaplan.ir.DType.U8.onnxCode(), i8 = org.arenaplan.ir.DType.I8.onnxCode();
        long[] conv = {2, 3, 17, 21, 70, 9, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
        KernelCall c = call(Kernels.CONV2D, 4, Kernels.withType(Kernels.CONV2D, conv, f16), new double[0]);
        assertThat(CudaKernelTable.spec(c)).isNotNull();
        assertThat(CudaKernelTable.entry(c, true)).isEqualTo("conv2d_igemm_f16");   // f16 never takes TF32
        assertThat(CudaKernelTable.geometry("conv2d_igemm_f16", c, CudaKernelTable.spec(c))).isEqualTo(new CudaKernelTable.Geometry(4, 2, 1, 16, 16));
        long[] grouped = conv.clone();
        grouped[15] = 3;
        assertThat(CudaKernelTable.entry(call(Kernels.CONV2D, 4, Kernels.withType(Kernels.CONV2D, grouped, f16), new double[0]))).isEqualTo("conv2d_f16");
        long[] gemm = {1, 3, 5, 7, 0, 0, 21, 35, 0, 0, 0, 0};
        assertThat(CudaKernelTable.entry(call(Kernels.GEMM, 3, Kernels.withType(Kernels.GEMM, gemm, f64), new double[] {1, 0}), true)).isEqualTo("gemm_f64");
        assertThat(CudaKernelTable.entry(call(Kernels.SOFTMAX, 2, Kernels.withType(Kernels.SOFTMAX, new long[] {1, 4, 1, 0}, f64), new double[0]))).isEqualTo("softmax_f64");
        long[] pool = new long[5 + 7 * 2];
        pool[0] = 2;
        assertThat(CudaKernelTable.entry(call(Kernels.POOL, 2, Kernels.withType(Kernels.POOL, pool, u8), new double[0]))).isEqualTo("pool_u8");
        assertThat(CudaKernelTable.entry(call(Kernels.POOL, 2, pool, new double[0]))).isEqualTo(Kernels.POOL);   // f32: the kernel's own entry
        assertThat(CudaKernelTable.entries()).contains("gemm_f16", "gemm_f64", "conv2d_f16", "conv2d_igemm_f16", "conv_nd_f16", "pool_f16", "pool_u8", "pool_i8",
                "pool_indices_f16", "pool_indices_u8", "pool_indices_i8", "softmax_f16", "softmax_f64", "normalize_f16", "normalize_f64", "attention_f16", "resize_f16");
        assertThat(CudaKernelTable.FATBIN_TYPES).containsOnlyKeys(Kernels.GEMM, Kernels.CONV2D, Kernels.CONV_ND, Kernels.POOL, Kernels.POOL_INDICES,
                Kernels.SOFTMAX, Kernels.NORMALIZE, Kernels.ATTENTION, Kernels.RESIZE);
        assertThat(CudaKernelTable.FATBIN_TYPES.get(Kernels.POOL)).containsExactlyInAnyOrder(f16, u8, i8);
        assertThat(CudaKernelTable.FATBIN_TYPES.get(Kernels.POOL_INDICES)).containsExactlyInAnyOrder(f16, u8, i8);
    }

    @Test
    void aTreeEnsembleBeyondTheTargetsAThreadKeepsIsRefusedNamingItsOp() {
        long[] ints = {8, 3, 1, 1, 7, 6, 2, 2, CudaKernelTable.TREE_MAX_TARGETS, 1, 0, 0, 0, 0, 0};
        assertThat(CudaKernelTable.spec(call(Kernels.TREE_ENSEMBLE, 3, ints, new double[0])).slots()).isEqualTo(4);   // a regressor leaves the label out
        ints[8]++;
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.TREE_ENSEMBLE, 3, ints, new double[0])))
                .isInstanceOf(DeviceException.class).hasMessage("op op: a tree ensemble of 65 targets exceeds the 64 scores the CUDA tree_ensemble kernel keeps per row (use --device sim)");
    }

    @Test
    void detBeyondWhatAThreadKeepsIsRefusedNamingItsOpAndMaxUnpoolTakesOnePointerPerPhase() {
        assertThat(CudaKernelTable.spec(call(Kernels.DET, 2, new long[] {4, CudaKernelTable.DET_MAX_M}, new double[0])).slots()).isEqualTo(2);
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.DET, 2, new long[] {4, CudaKernelTable.DET_MAX_M + 1}, new double[0])))
                .isInstanceOf(DeviceException.class).hasMessage("op op: Det of 33 x 33 matrices exceeds the 32 x 32 the CUDA det kernel keeps per thread (use --device sim)");
        long[] zero = {0, 12, 70, 4, 1, 2, 4, 6, 1, 2, 5, 7}, scatter = zero.clone();
        scatter[0] = 1;
        CudaKernelTable.Spec s = CudaKernelTable.spec(call(Kernels.MAX_UNPOOL, 1, zero, new double[0]));
        assertThat(CudaKernelTable.slotOf(s, zero, 1, 0)).isEqualTo(2);   // y only, in y's slot
        assertThat(CudaKernelTable.spec(call(Kernels.MAX_UNPOOL, 3, scatter, new double[0])).slots()).isEqualTo(3);
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.MAX_UNPOOL, 3, zero, new double[0]))).hasMessageContaining("takes 1 pointers for its ints, got 3");
    }

    @Test
    void gemmWithoutCPassesANullInTheCSlot() {
        long[] ints = {1, 3, 5, 7, 0, 0, 21, 35, 0, 0, 0, 0};
        KernelCall c = call(Kernels.GEMM, 3, ints, new double[] {1, 0});
        CudaKernelTable.Spec s = CudaKernelTable.spec(c);
        assertThat(List.of(CudaKernelTable.slotOf(s, new long[0], 3, 0), CudaKernelTable.slotOf(s, new long[0], 3, 1), CudaKernelTable.slotOf(s, new long[0], 3, 2)))
                .containsExactly(0, 1, 3);
        assertThat(CudaKernelTable.slotOf(s, new long[0], 4, 2)).isEqualTo(2);
        CudaKernelTable.Geometry g = CudaKernelTable.geometry(c, s);
        assertThat(g).isEqualTo(new CudaKernelTable.Geometry(1, 1, 1, 16, 16));
    }

    @Test
    void conv2dWithGroupOneRunsAsImplicitGemmInTilesOfChannelsAndPixels() {
        // x 2 x 3 x 17 x 21, 70 filters of 3 x 3, stride 2, pad 1 -> y 2 x 70 x 9 x 11: 198 pixels, 70 channels
        long[] ints = {2, 3, 17, 21, 70, 9, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
        KernelCall c = call(Kernels.CONV2D, 4, ints, new double[0]);
        assertThat(CudaKernelTable.entry(c)).isEqualTo(CudaKernelTable.CONV2D_IGEMM);
        assertThat(CudaKernelTable.geometry(c, CudaKernelTable.spec(c))).isEqualTo(new CudaKernelTable.Geometry(4, 2, 1, 16, 16));
        long[] grouped = ints.clone();
        grouped[15] = 2;
        grouped[1] = 4;
        KernelCall g = call(Kernels.CONV2D, 4, grouped, new double[0]);
        assertThat(CudaKernelTable.entry(g)).isEqualTo(Kernels.CONV2D);
        assertThat(CudaKernelTable.geometry(g, CudaKernelTable.spec(g)).blockY()).isEqualTo(1);
        assertThat(CudaKernelTable.entries()).contains(CudaKernelTable.CONV2D_IGEMM).containsAll(CudaKernelTable.SPECS.keySet());
    }

    @Test
    void tf32IsOnlyTakenWhenAskedForAndThenRunsFourWarpsPerTile() {
        long[] conv = {2, 3, 17, 21, 70, 9, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
        KernelCall c = call(Kernels.CONV2D, 4, conv, new double[0]);
        KernelCall g = call(Kernels.GEMM, 3, new long[] {3, 70, 130, 37, 0, 0, 0, 0, 0, 0, 0, 0}, new double[] {1, 0});
        assertThat(CudaKernelTable.entry(c, false)).isEqualTo(CudaKernelTable.CONV2D_IGEMM);
        assertThat(CudaKernelTable.entry(g, false)).isEqualTo(Kernels.GEMM);
        assertThat(CudaKernelTable.entry(c, true)).isEqualTo(CudaKernelTable.CONV2D_IGEMM_TF32);
        assertThat(CudaKernelTable.entry(g, true)).isEqualTo(CudaKernelTable.GEMM_TF32);
        assertThat(CudaKernelTable.geometry(CudaKernelTable.GEMM_TF32, g, CudaKernelTable.spec(g))).isEqualTo(new CudaKernelTable.Geometry(3, 2, 3, 128, 1));
        assertThat(CudaKernelTable.geometry(CudaKernelTable.CONV2D_IGEMM_TF32, c, CudaKernelTable.spec(c))).isEqualTo(new CudaKernelTable.Geometry(4, 2, 1, 128, 1));
        KernelCall grouped = call(Kernels.CONV2D, 4, new long[] {1, 4, 9, 9, 6, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1}, new double[0]);
        assertThat(CudaKernelTable.entry(grouped, true)).isEqualTo(Kernels.CONV2D);
    }

    @Test
    void gridCoversEveryWorkItemOfABroadcast() {
        // y of shape [3, 1000], b broadcast over rows: 3000 items, 256 per block.
        long[] ints = {0, 2, 3, 1000, 1000, 1, 0, 1};
        KernelCall c = call(Kernels.BINARY, 3, ints, new double[0]);
        CudaKernelTable.Geometry g = CudaKernelTable.geometry(c, CudaKernelTable.spec(c));
        assertThat((long) g.gridX() * g.blockX()).isGreaterThanOrEqualTo(3000).isLessThan(3000 + 256);
    }

    @Test
    void badCallsNameTheKernelAndOp() {
        assertThatThrownBy(() -> CudaKernelTable.spec(call("nope", 2, new long[] {1}, new double[0])))
                .isInstanceOf(DeviceException.class).hasMessageContaining("unknown kernel 'nope' (op op)");
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.UNARY, 3, new long[] {1, 0}, new double[0])))
                .hasMessageContaining("kernel 'unary' (op op) takes 2 pointers, got 3");
        assertThatThrownBy(() -> CudaKernelTable.spec(call(Kernels.COPY, 2, new long[CudaKernelTable.MAX_INTS + 1], new double[0])))
                .hasMessageContaining("at most " + CudaKernelTable.MAX_INTS);
    }

    @Test
    void dataDependentKernelsRunInOneBlockTheirLaunchBoundsAllow() throws Exception {
        for (String k : List.of(Kernels.NONZERO, Kernels.COMPRESS, Kernels.UNIQUE, Kernels.NMS)) {
            CudaKernelTable.Geometry g = CudaKernelTable.geometry(k, call(k, 0, new long[] {1 << 20, 1, 1 << 20, 1, 1, 1}, new double[0]),
                    CudaKernelTable.SPECS.get(k));
            assertThat(List.of(g.gridX(), g.gridY(), g.gridZ(), g.blockX(), g.blockY())).as(k).containsExactly(1, 1, 1, CudaKernelTable.DATA_DEPENDENT_THREADS, 1);
        }
        String header = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/cuda/data_dependent.cuh"));
        assertThat(header).contains("#define DD_MAX_THREADS " + CudaKernelTable.DATA_DEPENDENT_THREADS + "\n");   // __launch_bounds__ and the shared arrays
    }

    @Test
    void javaStructSizesMatchTheCudaHeader() throws Exception {
        String header = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/cuda/common.cuh"));
        assertThat(header).contains("#define ARENAPLAN_MAX_INTS " + CudaKernelTable.MAX_INTS + "\n")
                .contains("#define ARENAPLAN_MAX_FLOATS " + CudaKernelTable.MAX_FLOATS + "\n");
    }
}
