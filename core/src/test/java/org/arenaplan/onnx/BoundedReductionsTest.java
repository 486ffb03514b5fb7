package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.TransformerOpsTest.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reductions of a bounded tensor ({@code ir.BoundedFlows#reduce}, {@code #arg}): torch's {@code x[m].sum()},
 * {@code .mean()}, {@code .max()}, {@code .amax(0)}, {@code .argmax()} ... as both torch.onnx exporters write them
 * (NonZero, Transpose, GatherND, then the Reduce op), over x [6] and rows of r [5, 3], f32 and int64, with some,
 * none and all selected, in every executor mode against ONNX Runtime: only the actual elements take part (the
 * tail's zeros would win a max of negatives, zero a product, lower a mean), a reduction of no element gives
 * ONNX Runtime's empty value (sum 0, mean 0, max -inf, prod 1), and ArgMax over no element
 * stops the run as ONNX Runtime fails it. Refused before ("ReduceSum does not read a bounded tensor"). Softmax,
 * LogSoftmax and Hardmax normalise the actual values only ({@code ir.BoundedFlows#softmax}).
 */
class BoundedReductionsTest {
    @TempDir
    Path dir;

    /**
     * sel = x[m] [n], seli = xi[m] [n] (int64), rows = r[s] [n, 3]; their reductions; seli's max and min where
     * {@code intExtremes} (over no element ONNX Runtime 1.22, this oracle, gives 0, and 1.30 -2^63 and 2^63 - 1,
     * as arenaplan does: the exports of tools/torch-exports/reduced.py check that).
     */
    private static TinyOnnx reductions(boolean intExtremes) {
        TinyOnnx t = new TinyOnnx().opset(18).input("x", 6L).input(OnnxDTypes.INT64, "xi", 6L).input(OnnxDTypes.BOOL, "m", 6L)
                .input("r", 5L, 3L).input(OnnxDTypes.BOOL, "s", 5L).ints("ax0", 0).ints("ax1", 1)
                .select("", "x", "m", "sel").node("gni", "GatherND", List.of("xi", "t"), List.of("seli")).select("2", "r", "s", "rows");
        for (String op : List.of("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2", "ReduceLogSumExp"))
            t.node(op, op, List.of("sel"), List.of(op + "_x"), "keepdims", 0L).outputOfType(OnnxDTypes.FLOAT, op + "_x");
        for (String op : intExtremes ? List.of("ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd") : List.of("ReduceSum", "ReduceProd"))
            t.node(op + "i", op, List.of("seli"), List.of(op + "_xi"), "keepdims", 0L).outputOfType(OnnxDTypes.INT64, op + "_xi");
        return t.node("rsum", "ReduceSum", List.of("rows", "ax0"), List.of("rsum"), "keepdims", 0L)      // [3]: x[m].sum(0)
                .node("rmax", "ReduceMax", List.of("rows", "ax0"), List.of("rmax"))                         // [1, 3]: amax(0, keepdim=True)
                .node("rmean", "ReduceMean", List.of("rows", "ax1"), List.of("rmean"), "keepdims", 0L)   // [n]: bounded, each row's mean
                .node("ramin", "ArgMin", List.of("rows"), List.of("ramin"), "axis", 1L, "keepdims", 0L)  // [n]: bounded
                .outputOfType(OnnxDTypes.FLOAT, "rsum").outputOfType(OnnxDTypes.FLOAT, "rmax").outputOfType(OnnxDTypes.FLOAT, "rmean")
                .outputOfType(OnnxDTypes.INT64, "ramin");
    }

    /** x[m].argmax() and r[s].argmax(0): ArgMax over the bounded axis. */
    private static TinyOnnx argMax() {
        return new TinyOnnx().opset(18).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).select("", "x", "m", "sel")
                .node("am", "ArgMax", List.of("sel"), List.of("am"), "keepdims", 0L).outputOfType(OnnxDTypes.INT64, "am");
    }

    private static final TensorValue X = TensorValue.ofFloats(new long[]{6}, -2, 5, -3, -0.5f, 4, -1);
    private static final TensorValue XI = TensorValue.ofLongs(DType.I64, new long[]{6}, -2, 5, -3, -7, 4, -1);
    private static final TensorValue R = TensorValue.ofFloats(new long[]{5, 3}, -1, -2, -3, 4, 5, 6, -7, 8, -9, 1, 1, 1, -4, -5, -6);

    private static TensorValue mask(long... bits) {
        return TensorValue.ofLongs(DType.BOOL, new long[]{bits.length}, bits);
    }

    @Test
    void reductionsOfSelectedElementsAndRowsAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        // some: x[m] = -2, -3, -0.5, -1 (all negative: the tail's zeros would be their max), rows 0, 2, 4 (negative mostly)
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, reductions(true), feed("x", X, "xi", XI, "m", mask(1, 0, 1, 1, 0, 1), "r", R, "s", mask(1, 0, 1, 0, 1)), 1e-6, 1e-6);
        assertThat(got.get("ReduceMax_x").floats()).containsExactly(-0.5f);
        assertThat(got.get("ReduceMean_x").floats()).containsExactly(-1.625f);
        assertThat(got.get("ReduceProd_x").floats()).containsExactly(3f);   // the tail's zeros would make it 0
        assertThat(got.get("ReduceMax_xi").longs()).containsExactly(-1);
        assertThat(got.get("rmax").floats()).containsExactly(-1, 8, -3);
        assertThat(got.get("rmean").shape()).containsExactly(3);
        assertThat(got.get("ramin").longs()).containsExactly(2, 2, 2);
        // none: each reduction's empty value as ONNX Runtime gives it (mean 0, max -inf, prod 1), rows [0]
        got = OnnxOpRuns.agreeInEveryMode(dir, reductions(false), feed("x", X, "xi", XI, "m", mask(0, 0, 0, 0, 0, 0), "r", R, "s", mask(0, 0, 0, 0, 0)), 1e-6, 1e-6);
        assertThat(got.get("ReduceMean_x").floats()).containsExactly(0f);
        assertThat(got.get("ReduceMax_x").floats()).containsExactly(Float.NEGATIVE_INFINITY);
        assertThat(got.get("ReduceProd_xi").longs()).containsExactly(1);
        assertThat(got.get("rmean").shape()).containsExactly(0);
        // all
        OnnxOpRuns.agreeInEveryMode(dir, reductions(true), feed("x", X, "xi", XI, "m", mask(1, 1, 1, 1, 1, 1), "r", R, "s", mask(1, 1, 1, 1, 1)), 1e-6, 1e-6);
    }

    @Test
    void anArgMaxOverNoSelectedElementStopsAsOnnxRuntimeFailsIt() throws Exception {
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, argMax(), feed("x", X, "m", mask(1, 0, 1, 1, 0, 1)), 0, 0);
        assertThat(got.get("am").longs()).containsExactly(2);   // -2, -3, -0.5, -1: the tail's zeros would win
        OnnxOpRuns.agreeInEveryMode(dir, argMax(), feed("x", X, "m", mask(1, 1, 1, 1, 1, 1)), 0, 0);
        Map<String, TensorValue> none = feed("x", X, "m", mask(0, 0, 0, 0, 0, 0));
        assertThatThrownBy(() -> OrtOracle.run(argMax().bytes(), none)).hasMessageContaining("ArgMax");
        OnnxOpRuns.stopsInEveryMode(dir, argMax(), none, "'am': ArgMax: its input holds no element along the reduced axis in this run "
                + "(the runtime extent of its bounded input is 0); there is no index to return, and ONNX Runtime fails such a run");
    }

    /**
     * softmax(x[m], 0), log_softmax(x[m], 0), Hardmax of x[m] and, over rows r[s] [n, 3], softmax along the rows (the
     * bounded axis) and log_softmax along axis 1 (each row's own), at {@code opset}; before opset 13 Softmax normalises
     * the axes from axis on taken together, all n * 3 values of the rows (a lane of 3 values to a row). Refused before
     * ("Softmax does not read a bounded tensor").
     */
    private static TinyOnnx softmaxes(long opset) {
        TinyOnnx t = new TinyOnnx().opset(opset).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).input("r", 5L, 3L).input(OnnxDTypes.BOOL, "s", 5L)
                .select("", "x", "m", "sel").select("2", "r", "s", "rows");
        for (String op : List.of("Softmax", "LogSoftmax", "Hardmax"))
            t.node(op, op, List.of("sel"), List.of(op + "_x"), "axis", 0L).outputOfType(OnnxDTypes.FLOAT, op + "_x");
        return t.node("rsm", "Softmax", List.of("rows"), List.of("rsm"), "axis", 0L).node("rlsm", "LogSoftmax", List.of("rows"), List.of("rlsm"), "axis", 1L)
                .outputOfType(OnnxDTypes.FLOAT, "rsm").outputOfType(OnnxDTypes.FLOAT, "rlsm");
    }

    @Test
    void softmaxesOfSelectedElementsAndRowsAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        for (long opset : new long[]{11, 18}) {
            // some: x[m] = -2, -3, -0.5, -1 (the tail's zeros would take part in the sum), rows 0, 2, 4
            Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, softmaxes(opset), feed("x", X, "m", mask(1, 0, 1, 1, 0, 1), "r", R, "s", mask(1, 0, 1, 0, 1)), 1e-6, 1e-6);
            assertThat(got.get("Softmax_x").shape()).containsExactly(4);
            assertThat(got.get("Hardmax_x").floats()).containsExactly(0, 0, 1, 0);
            assertThat(got.get("rsm").shape()).containsExactly(3, 3);
            // none: empty outputs, as ONNX Runtime gives them
            got = OnnxOpRuns.agreeInEveryMode(dir, softmaxes(opset), feed("x", X, "m", mask(0, 0, 0, 0, 0, 0), "r", R, "s", mask(0, 0, 0, 0, 0)), 1e-6, 1e-6);
            assertThat(got.get("LogSoftmax_x").shape()).containsExactly(0);
            assertThat(got.get("rlsm").shape()).containsExactly(0, 3);
            OnnxOpRuns.agreeInEveryMode(dir, softmaxes(opset), feed("x", X, "m", mask(1, 1, 1, 1, 1, 1), "r", R, "s", mask(1, 1, 1, 1, 1)), 1e-6, 1e-6);
        }
    }

    @Test
    void aReductionOfABoundedAxisWithWiderAxesBeforeItStaysRefused() throws Exception {
        // NonZero's [2, n] is bounded along axis 1, with 2 rows before it: its actual elements are not its leading ones
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18).input("x", 2L, 3L).node("nz", "NonZero", List.of("x"), List.of("y"))
                        .node("r", "ReduceMax", List.of("y"), List.of("z"), "keepdims", 0L).outputOfType(OnnxDTypes.INT64, "z"),
                "op 'r' (ReduceMax, position 1) reads 'y', a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs; "
                        + "ReduceMax reads it only where its kernels leave the result compact, and here the bounded axis 1 of X [2, 6] has axes of more than one element before it");
    }
}
