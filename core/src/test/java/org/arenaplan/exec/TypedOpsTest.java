package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Cast, Gather, Where, Equal and elementwise ops on non-f32 types, on the simulator, against
 * values computed by hand; every graph runs planned, per-tensor and pool with identical bits.
 */
class TypedOpsTest {
    private static final DeviceOptions DELAYS = DeviceOptions.DEFAULT.withSeed(5).withMaxDelayNanos(50_000);

    /** Every mode on one and on three streams; all must agree bit for bit. Returns the outputs. */
    private static Map<String, TensorValue> run(Graph g, Map<String, TensorValue> inputs) {
        Map<String, TensorValue> first = null;
        for (int streams : new int[]{1, 3}) {
            Plan plan = streams == 1 ? ArenaPlanner.plan(g) : StreamPlanner.plan(g, streams, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
            assertThat(PlanValidator.validate(plan)).isEmpty();
            try (SimDevice d = SimDevice.open(DELAYS)) {
                Executors.Comparison c = Executors.run(plan, d, List.of(Mode.values()), 2, inputs, 1);
                assertThat(c.outputsEqual()).as(g.name() + " on " + streams + " stream(s): " + c.firstDifference()).isTrue();
                assertThat(d.hazards()).isEmpty();
                Map<String, TensorValue> out = c.last(Mode.PLANNED).outputs();
                if (first == null) first = out;
                else for (String o : g.outputs()) assertThat(out.get(o)).as(o).isEqualTo(first.get(o));
            }
        }
        return first;
    }

    private static double nan() {
        return Double.NaN;
    }

    @Test
    void castBetweenTheListedTypes() {
        GraphBuilder b = new GraphBuilder("casts").tensor("x", DType.F32, 6).input("x");
        DType[] to = {DType.I64, DType.I32, DType.I8, DType.U8, DType.BOOL, DType.F16, DType.BF16};
        for (DType t : to) {
            b.tensor("y_" + t.jsonName(), t, 6).op("cast_" + t.jsonName(), "Cast").in("x").out("y_" + t.jsonName()).attr("to", (long) t.onnxCode()).add();
            b.output("y_" + t.jsonName());
        }
        b.tensor("back", DType.F32, 6).op("back", "Cast").in("y_i64").out("back").attr("to", 1L).add().output("back");
        b.tensor("h2b", DType.BF16, 6).op("h2b", "Cast").in("y_f16").out("h2b").attr("to", 16L).add().output("h2b");
        Map<String, TensorValue> out = run(b.build(), Map.of("x", TensorValue.ofFloats(new long[]{6}, 1.5f, -2.5f, 300.7f, Float.NaN, 65520f, -0f)));
        assertThat(out.get("y_i64").longs()).containsExactly(1, -2, 300, 0, 65520, 0);
        assertThat(out.get("y_i64").byteCount()).isEqualTo(48);
        assertThat(out.get("y_i32").longs()).containsExactly(1, -2, 300, 0, 65520, 0);
        assertThat(out.get("y_i8").longs()).containsExactly(1, -2, 44, 0, -16, 0);
        assertThat(out.get("y_u8").longs()).containsExactly(1, 254, 44, 0, 240, 0);
        assertThat(out.get("y_bool").bytes()).containsExactly(1, 1, 1, 1, 1, 0);
        assertThat(out.get("y_f16").floats()).containsExactly(1.5f, -2.5f, 300.75f, Float.NaN, Float.POSITIVE_INFINITY, -0f);
        assertThat(out.get("y_bf16").floats()).containsExactly(1.5f, -2.5f, 300f, Float.NaN, 65536f, -0f);
        assertThat(out.get("back").floats()).containsExactly(1f, -2f, 300f, 0f, 65520f, 0f);
        assertThat(out.get("h2b").floats()).containsExactly(1.5f, -2.5f, 300f, Float.NaN, Float.POSITIVE_INFINITY, -0f);
    }

    @Test
    void gatherTakesNegativeIndicesAndAnyAxisAndElementSize() {
        Graph g = new GraphBuilder("gathers")
                .tensor("data", DType.F32, 3, 4).tensor("rows", DType.I64, 2).tensor("cols", DType.I32, 2, 2)
                .tensor("ids", DType.I64, 4).tensor("idx", DType.I64, 2)
                .tensor("r", DType.F32, 2, 4).tensor("c", DType.F32, 3, 2, 2).tensor("v", DType.I64, 2)
                .input("data").input("rows").input("cols").input("ids").input("idx")
                .op("g0", "Gather").in("data", "rows").out("r").attr("axis", 0L).add()
                .op("g1", "Gather").in("data", "cols").out("c").attr("axis", -1L).add()
                .op("g2", "Gather").in("ids", "idx").out("v").add()
                .output("r").output("c").output("v").build();
        float[] data = new float[12];
        for (int i = 0; i < 12; i++) data[i] = i;
        Map<String, TensorValue> out = run(g, Map.of("data", TensorValue.ofFloats(new long[]{3, 4}, data),
                "rows", TensorValue.ofLongs(DType.I64, new long[]{2}, -1, 0),
                "cols", TensorValue.ofLongs(DType.I32, new long[]{2, 2}, 3, -4, 1, 1),
                "ids", TensorValue.ofLongs(DType.I64, new long[]{4}, 10, 20, 30, (1L << 53) + 1),
                "idx", TensorValue.ofLongs(DType.I64, new long[]{2}, 3, -4)));
        assertThat(out.get("r").floats()).containsExactly(8, 9, 10, 11, 0, 1, 2, 3);
        assertThat(out.get("c").floats()).containsExactly(3, 0, 1, 1, 7, 4, 5, 5, 11, 8, 9, 9);
        assertThat(out.get("v").longs()).containsExactly((1L << 53) + 1, 10);
    }

    @Test
    void anIndexOutOfRangeIsNamedNotReadPastTheAxis() {
        Graph g = new GraphBuilder("bad-gather").tensor("data", DType.F32, 3, 2).tensor("i", DType.I64, 1).tensor("y", DType.F32, 1, 2)
                .input("data").input("i").op("emb", "Gather").in("data", "i").out("y").add().output("y").build();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            assertThatThrownBy(() -> Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1,
                    Map.of("data", TensorValue.ofFloats(null, new float[6]), "i", TensorValue.ofLongs(DType.I64, null, -4)), 1))
                    .hasMessageContaining("'emb': gather index -4 (element 0) is out of range for an axis of 3");
        }
    }

    @Test
    void equalAndWhereBroadcastOverAnyType() {
        Graph g = new GraphBuilder("masks")
                .tensor("a", DType.I64, 2, 3).tensor("b", DType.I64, 3).tensor("eq", DType.BOOL, 2, 3)
                .tensor("x", DType.F32, 2, 3).tensor("fill", DType.F32, 1).tensor("w", DType.F32, 2, 3)
                .tensor("h", DType.F16, 4).tensor("k", DType.F16, 4).tensor("heq", DType.BOOL, 4)
                .tensor("xi", DType.I32, 1, 3).tensor("wi", DType.I32, 2, 3)
                .input("a").input("b").input("x").input("h").input("k").input("xi").weight("fill", -1e9)
                .op("eq", "Equal").in("a", "b").out("eq").add()
                .op("where", "Where").in("eq", "x", "fill").out("w").add()
                .op("heq", "Equal").in("h", "k").out("heq").add()
                .op("wi", "Where").in("eq", "xi", "xi").out("wi").add()
                .output("eq").output("w").output("heq").output("wi").build();
        Map<String, TensorValue> out = run(g, Map.of(
                "a", TensorValue.ofLongs(DType.I64, new long[]{2, 3}, 1, 2, 3, 4, 5, 6),
                "b", TensorValue.ofLongs(DType.I64, new long[]{3}, 1, 5, 3),
                "x", TensorValue.ofFloats(new long[]{2, 3}, 10, 20, 30, 40, 50, 60),
                "h", TensorValue.ofDoubles(DType.F16, new long[]{4}, 1, nan(), -0.0, 0.1),
                "k", TensorValue.ofDoubles(DType.F16, new long[]{4}, 1, nan(), 0.0, 0.1000001),
                "xi", TensorValue.ofLongs(DType.I32, new long[]{1, 3}, 7, 8, 9)));
        assertThat(out.get("eq").bytes()).containsExactly(1, 0, 1, 0, 1, 0);
        assertThat(out.get("w").floats()).containsExactly(10, -1e9f, 30, -1e9f, 50, -1e9f);
        assertThat(out.get("heq").bytes()).containsExactly(1, 0, 1, 1);   // NaN equals nothing; -0 == 0; 0.1000001 rounds to 0.1's half
        assertThat(out.get("wi").longs()).containsExactly(7, 8, 9, 7, 8, 9);
    }

    @Test
    void integerAndHalfArithmeticWrapAndRound() {
        Graph g = new GraphBuilder("ints")
                .tensor("a", DType.I32, 4).tensor("b", DType.I32, 4).tensor("s", DType.I32, 4).tensor("q", DType.I32, 4)
                .tensor("u", DType.U8, 2).tensor("v", DType.U8, 2).tensor("m", DType.U8, 2)
                .tensor("l", DType.I64, 3).tensor("rl", DType.I64, 3)
                .tensor("h", DType.F16, 2).tensor("k", DType.F16, 2).tensor("hs", DType.F16, 2)
                .input("a").input("b").input("u").input("v").input("l").input("h").input("k")
                .op("add", OpKinds.ADD).in("a", "b").out("s").add()
                .op("div", "Div").in("a", "b").out("q").add()
                .op("mul", OpKinds.MUL).in("u", "v").out("m").add()
                .op("relu", OpKinds.RELU).in("l").out("rl").add()
                .op("hadd", OpKinds.ADD).in("h", "k").out("hs").add()
                .output("s").output("q").output("m").output("rl").output("hs").build();
        Map<String, TensorValue> out = run(g, Map.of(
                "a", TensorValue.ofLongs(DType.I32, null, 7, -7, Integer.MAX_VALUE, 5), "b", TensorValue.ofLongs(DType.I32, null, 2, 2, 1, -1),
                "u", TensorValue.ofLongs(DType.U8, null, 200, 3), "v", TensorValue.ofLongs(DType.U8, null, 2, 100),
                "l", TensorValue.ofLongs(DType.I64, null, -3, 0, 5),
                "h", TensorValue.ofDoubles(DType.F16, null, 0.1, 65504), "k", TensorValue.ofDoubles(DType.F16, null, 0.2, 32)));
        assertThat(out.get("s").longs()).containsExactly(9, -5, Integer.MIN_VALUE, 4);
        assertThat(out.get("q").longs()).containsExactly(3, -3, Integer.MAX_VALUE, -5);
        assertThat(out.get("m").longs()).containsExactly(144, 44);
        assertThat(out.get("rl").longs()).containsExactly(0, 0, 5);
        // f16 0.0999755859375 + 0.199951171875 = 1228.5 units of 2^-12: a tie, rounded to the even 1228.
        assertThat(out.get("hs").floats()).containsExactly(0.2998046875f, Float.POSITIVE_INFINITY);
    }

    /**
     * Token ids (int64) pick rows of an f32 embedding (Gather), plus positions, relu; padding
     * (id 0, found by Equal) is masked with Where through a bool view; the ids also come out cast to f32.
     */
    static Graph tokenEmbedding() {
        return new GraphBuilder("token-embedding")
                .tensor("ids", DType.I64, 2, 6).tensor("emb", DType.F32, 16, 8).tensor("pos", DType.F32, 6, 8)
                .tensor("e", DType.F32, 2, 6, 8).tensor("h", DType.F32, 2, 6, 8).tensor("r", DType.F32, 2, 6, 8)
                .tensor("zero_id", DType.I64, 1).tensor("pad", DType.BOOL, 2, 6).tensor("pad3", DType.BOOL, 2, 6, 1)
                .tensor("zero", DType.F32, 1).tensor("y", DType.F32, 2, 6, 8).tensor("idsf", DType.F32, 2, 6)
                .input("ids").weight("emb").weight("pos").weight("zero_id", 0).weight("zero", 0)
                .op("embed", "Gather").in("emb", "ids").out("e").attr("axis", 0L).add()
                .op("add_pos", OpKinds.ADD).in("e", "pos").out("h").inPlace().add()
                .op("relu", OpKinds.RELU).in("h").out("r").inPlace().add()
                .op("is_pad", "Equal").in("ids", "zero_id").out("pad").add()
                .op("unsqueeze", "Unsqueeze").in("pad").out("pad3").view().add()
                .op("mask", "Where").in("pad3", "zero", "r").out("y").add()
                .op("ids_f32", "Cast").in("ids").out("idsf").attr("to", 1L).add()
                .output("y").output("idsf").build();
    }

    @Test
    void tokenIdsThroughGatherToF32RunTheSameInEveryMode() {
        Graph g = tokenEmbedding();
        long[] ids = {3, 15, 0, 7, 7, -1, 0, 1, 2, 3, 4, 5};
        Map<String, TensorValue> out = run(g, Map.of("ids", TensorValue.ofLongs(DType.I64, new long[]{2, 6}, ids)));
        float[] emb = WeightRegion.values(g, g.tensor("emb"), 1).floats(), pos = WeightRegion.values(g, g.tensor("pos"), 1).floats();
        float[] y = out.get("y").floats();
        for (int t = 0; t < 12; t++) {
            long row = ids[t] < 0 ? ids[t] + 16 : ids[t];
            for (int k = 0; k < 8; k++) {
                float want = ids[t] == 0 ? 0f : Math.max(0f, emb[(int) row * 8 + k] + pos[(t % 6) * 8 + k]);
                assertThat(y[t * 8 + k]).as("token %d, channel %d", t, k).isEqualTo(want);
            }
        }
        assertThat(out.get("idsf").floats()).containsExactly(3, 15, 0, 7, 7, -1, 0, 1, 2, 3, 4, 5);
    }

    @Test
    void opsRefuseTypesTheyDoNotComputeByName() {
        Graph g = new GraphBuilder("i32-matmul").tensor("a", DType.I32, 2, 2).tensor("b", DType.I32, 2, 2).tensor("c", DType.I32, 2, 2)
                .input("a").input("b").op("mm", OpKinds.MATMUL).in("a", "b").out("c").add().output("c").build();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            assertThatThrownBy(() -> Executors.runAllModes(ArenaPlanner.plan(g), d))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("op 'mm' (MatMul): tensor 'a' is i32; MatMul computes f32, f16 and f64");
        }
        Graph lrn = new GraphBuilder("f16-lrn").tensor("a", DType.F16, 1, 2, 2, 2).tensor("c", DType.F16, 1, 2, 2, 2)
                .input("a").op("n", "LRN").in("a").out("c").attr("size", 3L).add().output("c").build();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            assertThatThrownBy(() -> Executors.runAllModes(ArenaPlanner.plan(lrn), d))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("op 'n' (LRN): tensor 'a' is f16; LRN computes f32 only");
        }
        Graph mixedFloats = new GraphBuilder("mixed-matmul").tensor("a", DType.F16, 2, 2).tensor("b", DType.F32, 2, 2).tensor("c", DType.F16, 2, 2)
                .input("a").input("b").op("mm", OpKinds.MATMUL).in("a", "b").out("c").add().output("c").build();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            assertThatThrownBy(() -> Executors.runAllModes(ArenaPlanner.plan(mixedFloats), d))
                    .hasMessageContaining("op 'mm' (MatMul): tensor 'b' is f32 and 'a' is f16; MatMul computes one type at a time");
        }
        Graph mixed = new GraphBuilder("mixed").tensor("a", DType.I64, 2).tensor("b", DType.I32, 2).tensor("c", DType.I64, 2)
                .input("a").input("b").op("add", OpKinds.ADD).in("a", "b").out("c").add().output("c").build();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            assertThatThrownBy(() -> Executors.runAllModes(ArenaPlanner.plan(mixed), d))
                    .hasMessageContaining("op 'add' (Add): 'a' is i64 but 'b' is i32; they must have one type");
        }
    }
}
