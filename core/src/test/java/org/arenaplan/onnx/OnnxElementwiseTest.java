package org.arenaplan.onnx;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.AllClose;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.sim.SimDevice;
import ai.onnx.proto.OnnxMl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The elementwise family imported from ONNX and run on the simulator (every executor mode, bit
 * for bit alike), each op against ONNX Runtime 1.22 on the CPU: integer and bool outputs
 * exactly, float outputs within rtol 1e-6 (arenaplan computes in double and rounds once, ONNX
 * Runtime in float), over the element types the op takes, with broadcasting; plus each opset's
 * form (Clip's attributes before 11, inputs after; Pow's mixed types from 12; Gelu from 20) and
 * the refusals (types an op does not take, fmod=0 on floats) as one line naming the node.
 */
class OnnxElementwiseTest {
    private static final int FLOAT = 1, UINT8 = 2, INT8 = 3, UINT16 = 4, INT16 = 5, INT32 = 6, INT64 = 7, BOOL = 9, DOUBLE = 11, UINT32 = 12, UINT64 = 13;

    @TempDir
    Path dir;

    /** One op: its type, attributes, input element types and shapes (broadcast against each other), the value domain of its inputs. */
    private record Case(String op, long opset, Object[] attrs, int[] types, long[][] shapes, double lo, double hi) { }

    private static Case unary(String op, double lo, double hi, Object... attrs) {
        return new Case(op, 18, attrs, new int[] {FLOAT}, new long[][] {{3, 4}}, lo, hi);
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        for (String op : List.of("Abs", "Neg", "Exp", "Floor", "Ceil", "Sign", "Erf", "Sin", "Cos", "Tan", "Atan", "Sinh", "Cosh", "Asinh",
                "Softplus", "Softsign", "HardSwish", "Mish", "Relu", "Sigmoid", "Tanh")) c.add(unary(op, -3, 3));
        for (String op : List.of("Log", "Sqrt", "Reciprocal")) c.add(unary(op, 0.1, 5));
        for (String op : List.of("Asin", "Acos", "Atanh")) c.add(unary(op, -0.95, 0.95));
        c.add(unary("Acosh", 1.01, 5));
        c.add(unary("Round", -3, 3));
        c.add(unary("HardSigmoid", -5, 5, "alpha", 0.3, "beta", 0.4));
        c.add(unary("LeakyRelu", -3, 3, "alpha", 0.2));
        c.add(unary("Elu", -3, 3, "alpha", 1.5));
        c.add(unary("Selu", -3, 3));
        c.add(unary("Celu", -3, 3, "alpha", 2.0));
        c.add(unary("ThresholdedRelu", -3, 3, "alpha", 0.5));
        c.add(unary("Shrink", -3, 3, "bias", 0.25, "lambd", 1.0));
        c.add(new Case("Gelu", 20, new Object[0], new int[] {FLOAT}, new long[][] {{3, 4}}, -3, 3));
        c.add(new Case("Gelu", 20, new Object[] {"approximate", "tanh"}, new int[] {FLOAT}, new long[][] {{3, 4}}, -3, 3));
        c.add(new Case("Exp", 13, new Object[0], new int[] {DOUBLE}, new long[][] {{5}}, -3, 3));
        for (int t : new int[] {INT8, INT32, INT64}) {
            c.add(new Case("Abs", 13, new Object[0], new int[] {t}, new long[][] {{6}}, -100, 100));
            c.add(new Case("Neg", 13, new Object[0], new int[] {t}, new long[][] {{6}}, -100, 100));
            c.add(new Case("Sign", 13, new Object[0], new int[] {t}, new long[][] {{6}}, -3, 3));
        }
        c.add(new Case("BitwiseNot", 18, new Object[0], new int[] {INT16}, new long[][] {{6}}, -100, 100));

        c.add(new Case("Not", 13, new Object[0], new int[] {BOOL}, new long[][] {{6}}, 0, 1));
        for (String op : List.of("Add", "Sub", "Mul", "Div", "Max", "Min", "Mean", "Sum")) {
            c.add(new Case(op, 13, new Object[0], new int[] {FLOAT, FLOAT}, new long[][] {{2, 3, 4}, {3, 1}}, -3, 3));
        }
        for (String op : List.of("Max", "Min", "Sum", "Mean")) {
            c.add(new Case(op, 13, new Object[0], new int[] {FLOAT, FLOAT, FLOAT}, new long[][] {{2, 1, 4}, {3, 1}, {4}}, -3, 3));
        }
        for (String op : List.of("Max", "Min")) {
            c.add(new Case(op, 13, new Object[0], new int[] {INT32, INT32}, new long[][] {{2, 3}, {3}}, -50, 50));
            c.add(new Case(op, 13, new Object[0], new int[] {DOUBLE, DOUBLE}, new long[][] {{2, 3}, {3}}, -50, 50));
        }
        for (String op : List.of("Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Equal")) {
            c.add(new Case(op, 16, new Object[0], new int[] {FLOAT, FLOAT}, new long[][] {{3, 4}, {4}}, -2, 2));
            c.add(new Case(op, 16, new Object[0], new int[] {INT64, INT64}, new long[][] {{3, 4}, {1, 4}}, -2, 2));
        }
        for (String op : List.of("And", "Or", "Xor")) c.add(new Case(op, 13, new Object[0], new int[] {BOOL, BOOL}, new long[][] {{3, 4}, {4}}, 0, 1));
        for (String op : List.of("BitwiseAnd", "BitwiseOr", "BitwiseXor")) {
            c.add(new Case(op, 18, new Object[0], new int[] {INT32, INT32}, new long[][] {{3, 4}, {4}}, -1000, 1000));
        }
        c.add(new Case("BitShift", 13, new Object[] {"direction", "LEFT"}, new int[] {UINT8, UINT8}, new long[][] {{6}, {6}}, 0, 9));

        c.add(new Case("BitShift", 13, new Object[] {"direction", "RIGHT"}, new int[] {UINT8, UINT8}, new long[][] {{6}, {1}}, 0, 9));
        c.add(new Case("Mod", 13, new Object[0], new int[] {INT32, INT32}, new long[][] {{3, 4}, {4}}, -20, 20));
        c.add(new Case("Mod", 13, new Object[] {"fmod", 1L}, new int[] {INT64, INT64}, new long[][] {{3, 4}, {4}}, -20, 20));
        c.add(new Case("Mod", 13, new Object[] {"fmod", 1L}, new int[] {FLOAT, FLOAT}, new long[][] {{3, 4}, {4}}, -20, 20));
        c.add(new Case("Pow", 15, new Object[0], new int[] {FLOAT, FLOAT}, new long[][] {{3, 4}, {4}}, 0.5, 2));
        c.add(new Case("Pow", 15, new Object[0], new int[] {FLOAT, INT64}, new long[][] {{3, 4}, {4}}, -3, 3));
        c.add(new Case("Pow", 15, new Object[0], new int[] {INT32, FLOAT}, new long[][] {{6}, {6}}, 0, 4));
        c.add(new Case("Pow", 15, new Object[0], new int[] {INT64, INT64}, new long[][] {{6}, {6}}, 0, 5));
        c.add(new Case("PRelu", 16, new Object[0], new int[] {FLOAT, FLOAT}, new long[][] {{2, 3, 4}, {3, 1}}, -3, 3));
        c.add(new Case("Clip", 13, new Object[0], new int[] {FLOAT, FLOAT, FLOAT}, new long[][] {{3, 4}, {}, {}}, -3, 3));
        c.add(new Case("Clip", 13, new Object[0], new int[] {INT32, INT32, INT32}, new long[][] {{3, 4}, {}, {}}, -30, 30));
        c.add(new Case("Clip", 9, new Object[] {"min", -0.5, "max", 1.25}, new int[] {FLOAT}, new long[][] {{3, 4}}, -3, 3));
        c.add(new Case("Clip", 9, new Object[0], new int[] {FLOAT}, new long[][] {{3, 4}}, -3, 3));
        c.add(new Case("IsNaN", 13, new Object[0], new int[] {FLOAT}, new long[][] {{6}}, -3, 3));
        c.add(new Case("IsInf", 13, new Object[] {"detect_negative", 0L}, new int[] {FLOAT}, new long[][] {{6}}, -3, 3));
        c.add(new Case("CastLike", 15, new Object[0], new int[] {FLOAT, INT32}, new long[][] {{6}, {1}}, -30, 30));
        return c;
    }

    private static final String[] NAMES = {"a", "b", "c"};

    private static TinyOnnx model(Case k, int outType) {
        TinyOnnx m = new TinyOnnx().opset(k.opset());
        List<String> in = new ArrayList<>();
        for (int i = 0; i < k.types().length; i++) {
            m.input(k.types()[i], NAMES[i], (Object[]) box(k.shapes()[i]));
            in.add(NAMES[i]);
        }
        return m.node("n", k.op(), in, List.of("y"), k.attrs()).outputOfType(outType, "y");
    }

    private static Long[] box(long[] s) {
        Long[] b = new Long[s.length];
        for (int i = 0; i < s.length; i++) b[i] = s[i];
        return b;
    }

    private static TensorValue random(Random r, int type, long[] shape, double lo, double hi) {
        DType t = DType.ofOnnx(type);
        long n = 1;
        for (long d : shape) n *= d;
        double[] v = new double[(int) n];
        for (int i = 0; i < n; i++) {
            double x = lo + (hi - lo) * r.nextDouble();
            v[i] = t == DType.BOOL ? (r.nextBoolean() ? 1 : 0) : t.isIntegral() ? Math.round(x) : x;
        }
        if (t.isIntegral()) {
            long[] l = new long[v.length];
            for (int i = 0; i < l.length; i++) l[i] = (long) v[i];
            return TensorValue.ofLongs(t, shape, l);
        }
        return TensorValue.ofDoubles(t, shape, v);
    }

    private Map<String, TensorValue> runHere(byte[] model, Map<String, TensorValue> in, String what) throws Exception {
        Path p = dir.resolve("m.onnx");
        Files.write(p, model);
        Graph g = OnnxImporter.load(p, Map.of());
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(4).withMaxDelayNanos(10_000))) {
            Executors.Comparison c = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.values()), 1, in, 1);
            assertThat(c.outputsEqual()).as(what + ": " + c.firstDifference()).isTrue();
            return c.last(Mode.PLANNED).outputs();
        }
    }

    @Test
    void everyOpMatchesOnnxRuntime() throws Exception {
        Random r = new Random(11);
        int ran = 0;
        for (Case k : cases()) {
            Map<String, TensorValue> in = new LinkedHashMap<>();
            for (int i = 0; i < k.types().length; i++) {
                boolean bound = k.op().equals("Clip") && i > 0;
                in.put(NAMES[i], bound ? random(r, k.types()[i], k.shapes()[i], i == 1 ? k.lo() / 2 : 0, i == 1 ? 0 : k.hi() / 2)
                        : random(r, k.types()[i], k.shapes()[i], k.lo(), k.hi()));
            }
            if (k.op().equals("IsNaN") || k.op().equals("IsInf")) {
                in.put("a", TensorValue.ofDoubles(DType.F32, new long[] {6}, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, -1, 3e38));
            }
            int outType = switch (k.op()) {
                case "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Equal", "IsNaN", "IsInf" -> BOOL;
                case "CastLike" -> k.types()[1];
                default -> k.types()[0];
            };
            byte[] model = model(k, outType).bytes();
            String what = k.op() + " opset " + k.opset() + " on " + DType.ofOnnx(k.types()[0]).jsonName() + " " + java.util.Arrays.toString(k.attrs());
            Map<String, TensorValue> want = OrtOracle.run(model, in), got = runHere(model, in, what);
            TensorValue w = want.get("y"), y = got.get("y");
            assertThat(y.dtype()).as(what).isEqualTo(w.dtype());
            assertThat(y.shape()).as(what).containsExactly(w.shape());
            AllClose close = AllClose.compare(y, w, 1e-6, 1e-7);   // integers exactly
            assertThat(close.ok()).as(what + ": " + close.describe(y.shape())).isTrue();
            ran++;
        }
        assertThat(ran).isEqualTo(cases().size());
    }

    /** Values of an unsigned type that break signed arithmetic: past 2^63 (uint64), past 2^31 (uint32), the limits. */
    private static long[] unsignedValues(DType t, boolean nonZero) {
        long top = t == DType.U64 ? -1L : t == DType.U32 ? 0xFFFF_FFFFL : t == DType.U16 ? 0xFFFF : 0xFF;
        long half = top >>> 1;
        long[] v = {7, half, half + 1, half + 6, top, top - 3, 1, 0, 300, 65537};
        for (int i = 0; i < v.length; i++) {
            v[i] = t == DType.U64 ? v[i] : v[i] & top;
            if (nonZero && v[i] == 0) v[i] = 3;
        }
        return v;
    }

    private static OnnxMl.TensorProto initializer(String name, TensorValue v) {
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(v.dtype().onnxCode())
                .setRawData(com.google.protobuf.ByteString.copyFrom(v.bytes()));
        for (long d : v.shape()) t.addDims(d);
        return t.build();
    }

    /**
     * uint16/32/64 through ONNX Runtime, whose Java API has neither tensors of them to feed nor
     * to read: the operands are initializers and the result is cast to int64 (bits kept) in the
     * model, so both run the same graph. Values past 2^63 and 2^31 check the unsigned division,
     * remainder, ordering and shifts.
     */
    @Test
    void unsignedOpsMatchOnnxRuntime() throws Exception {
        int compared = 0;
        for (DType t : new DType[] {DType.U16, DType.U32, DType.U64}) {
            for (Object[] k : new Object[][] {{"Max", new Object[0]}, {"Min", new Object[0]}, {"Add", new Object[0]}, {"Sub", new Object[0]},
                    {"Mul", new Object[0]}, {"Div", new Object[0]}, {"Mod", new Object[0]}, {"Mod", new Object[] {"fmod", 1L}}, {"Less", new Object[0]},
                    {"GreaterOrEqual", new Object[0]}, {"Equal", new Object[0]}, {"BitwiseAnd", new Object[0]}, {"BitwiseXor", new Object[0]},
                    {"BitShift", new Object[] {"direction", "LEFT"}}, {"BitShift", new Object[] {"direction", "RIGHT"}}, {"BitwiseNot", new Object[0]},
                    {"Clip", new Object[0]}}) {
                String op = (String) k[0];
                if (op.equals("Mod") && t == DType.U64 && ((Object[]) k[1]).length > 0) continue;   // ONNX Runtime's fmod goes through double: checked by hand below
                boolean shift = op.equals("BitShift"), unary = op.equals("BitwiseNot");
                TensorValue a = TensorValue.ofLongs(t, new long[] {10}, unsignedValues(t, false));
                long[] divisors = unsignedValues(t, true);
                TensorValue b = TensorValue.ofLongs(t, new long[] {10}, shift ? new long[] {0, 1, 3, 7, 15, 2, 5, 9, 11, 4}
                        : new long[] {divisors[4], divisors[2], 5, 7, divisors[1], 9, 2, 65535 & (t == DType.U16 ? 0xFFFF : -1L), 11, 13});
                TinyOnnx m = new TinyOnnx().opset(18).initializer(initializer("a", a));
                List<String> in = List.of("a");
                if (op.equals("Clip")) {
                    m.initializer(initializer("lo", TensorValue.ofLongs(t, new long[0], 5))).initializer(initializer("hi", TensorValue.ofLongs(t, new long[0], unsignedValues(t, false)[2])));
                    in = List.of("a", "lo", "hi");
                } else if (!unary) {
                    m.initializer(initializer("b", b));
                    in = List.of("a", "b");
                }
                byte[] model = m.node("n", op, in, List.of("r"), (Object[]) k[1]).node("c", "Cast", List.of("r"), List.of("y"), "to", (long) INT64)
                        .outputOfType(INT64, "y").bytes();
                String what = op + " " + java.util.Arrays.toString((Object[]) k[1]) + " on " + t.jsonName();
                TensorValue want;
                try {
                    want = OrtOracle.run(model, Map.of()).get("y");
                } catch (AssertionError e) {
                    if (!String.valueOf(e.getMessage()).contains("NOT_IMPLEMENTED")) throw e;
                    continue;                                             // ONNX Runtime's CPU kernels lack some op/type pairs (Max on uint16)
                }
                TensorValue got = runHere(model, Map.of(), what).get("y");
                assertThat(got.longs()).as(what).containsExactly(want.longs());
                compared++;
            }
        }
        System.out.println("unsigned op/type pairs compared with ONNX Runtime: " + compared);
        assertThat(compared).as("op/type pairs ONNX Runtime could run").isGreaterThanOrEqualTo(30);
        // uint64 fmod past 2^53, by hand: (2^63 - 1) % 2^63, (2^63 + 5) % 7 (2^63 = 8^21 leaves 1), (2^64 - 1) % (2^63 - 1)
        byte[] mod = new TinyOnnx().opset(18).initializer(initializer("a", TensorValue.ofLongs(DType.U64, new long[] {3}, Long.MAX_VALUE, Long.MIN_VALUE + 5, -1L)))
                .initializer(initializer("b", TensorValue.ofLongs(DType.U64, new long[] {3}, Long.MIN_VALUE, 7, Long.MAX_VALUE)))
                .node("n", "Mod", List.of("a", "b"), List.of("r"), "fmod", 1L).node("c", "Cast", List.of("r"), List.of("y"), "to", (long) INT64)
                .outputOfType(INT64, "y").bytes();
        assertThat(runHere(mod, Map.of(), "uint64 fmod").get("y").longs()).containsExactly(Long.MAX_VALUE, 6, 1);
        // a shift by the width or more: 0, as numpy (ONNX's reference) computes it; ONNX Runtime's CPU kernel masks the count instead
        byte[] wide = new TinyOnnx().opset(18).initializer(initializer("a", TensorValue.ofLongs(DType.U32, new long[] {3}, 1, 5, 0xFFFF_FFFFL)))
                .initializer(initializer("b", TensorValue.ofLongs(DType.U32, new long[] {3}, 31, 32, 40)))
                .node("n", "BitShift", List.of("a", "b"), List.of("r"), "direction", "LEFT").node("c", "Cast", List.of("r"), List.of("y"), "to", (long) INT64)
                .outputOfType(INT64, "y").bytes();
        assertThat(runHere(wide, Map.of(), "wide shifts").get("y").longs()).containsExactly(0x8000_0000L, 0, 0);
    }

    /** QuantizeLinear and DequantizeLinear, per tensor and per axis, with and without a zero point, against ONNX Runtime exactly (ties round to even). */
    @Test
    void quantizeAndDequantizeMatchOnnxRuntime() throws Exception {
        Random r = new Random(5);
        double[] xv = new double[24];
        for (int i = 0; i < xv.length; i++) xv[i] = r.nextGaussian() * 60;
        xv[0] = 1.25;                                                   // / 0.5 = 2.5: even, 2
        xv[1] = -0.25;                                                  // / 0.5 = -0.5: even, -0
        TensorValue x = TensorValue.ofDoubles(DType.F32, new long[] {2, 3, 4}, xv);
        List<Object[]> cases = List.of(
                new Object[] {"QuantizeLinear", 13L, UINT8, new long[0], new Object[0]},
                new Object[] {"QuantizeLinear", 13L, INT8, new long[] {3}, new Object[] {"axis", 1L}},
                new Object[] {"QuantizeLinear", 10L, UINT8, null, new Object[0]},
                new Object[] {"DequantizeLinear", 13L, UINT8, new long[0], new Object[0]},
                new Object[] {"DequantizeLinear", 13L, INT8, new long[] {3}, new Object[] {"axis", -2L}},
                new Object[] {"DequantizeLinear", 13L, INT32, null, new Object[0]});
        for (Object[] k : cases) {
            String op = (String) k[0];
            int qType = (Integer) k[2];
            long[] sShape = k[3] == null ? new long[0] : (long[]) k[3];
            boolean q = op.equals("QuantizeLinear"), zp = k[3] != null;
            long per = sShape.length == 0 ? 1 : sShape[0];
            Map<String, TensorValue> in = new LinkedHashMap<>();
            in.put("x", q ? x : random(r, qType, new long[] {2, 3, 4}, qType == UINT8 ? 0 : -128, qType == UINT8 ? 255 : 127));
            in.put("s", TensorValue.ofDoubles(DType.F32, sShape, per == 1 ? new double[] {0.5} : new double[] {0.5, 1, 2}));
            if (zp) in.put("z", TensorValue.ofLongs(DType.ofOnnx(qType), sShape, per == 1 ? new long[] {qType == UINT8 ? 128 : -3} : new long[] {-3, 0, 5}));
            TinyOnnx m = new TinyOnnx().opset((Long) k[1]).input(q ? FLOAT : qType, "x", 2L, 3L, 4L).input(FLOAT, "s", (Object[]) box(sShape));
            if (zp) m.input(qType, "z", (Object[]) box(sShape));
            byte[] model = m.node("n", op, zp ? List.of("x", "s", "z") : List.of("x", "s"), List.of("y"), (Object[]) k[4])
                    .outputOfType(q ? qType : FLOAT, "y").bytes();
            String what = op + " opset " + k[1] + " " + DType.ofOnnx(qType).jsonName() + " scale " + java.util.Arrays.toString(sShape) + (zp ? "" : " without zero point");
            TensorValue want = OrtOracle.run(model, in).get("y"), got = runHere(model, in, what).get("y");
            assertThat(got.dtype()).as(what).isEqualTo(want.dtype());
            assertThat(got.firstDifference(want)).as(what).isEqualTo(-1);
            if (q && per == 1 && zp) assertThat(got.longs()[0]).as(what + ": 2.5 + 128 rounds to even").isEqualTo(130);
        }
    }

    /**
     * Special values (NaN, the infinities, -0, subnormals, +-3e38) through the ops whose formulas lost them, against
     * ONNX Runtime element for element, the sign of a zero and a subnormal included: Sign(-0) is 0 (was -0), Relu(-0) is -0
     * (was 0), Asinh and
     * Atanh keep -0 and subnormals (were 0), Acosh(-3e38) is NaN (was -inf), Pow(1, NaN) and Pow(-1, inf) are 1 (C's
     * pow; Java's gave NaN), and Clip's absent bound is the type's largest finite value (Clip-11: numeric_limits), so
     * +-inf become +-3.4028235e38 (were kept).
     */
    @Test
    void specialValuesMatchOnnxRuntimeToTheSignOfAZero() throws Exception {
        float nan = Float.NaN, inf = Float.POSITIVE_INFINITY;
        float[] special = {nan, inf, -inf, -0f, 0f, 1e-40f, -1e-40f, 1f, -2.5f, 0.5f, -0.5f, 3e38f, -3e38f};
        long[] n = {special.length};
        for (String op : List.of("Sign", "Asinh", "Acosh", "Atanh", "Relu")) {
            TinyOnnx m = new TinyOnnx().opset(18).input("x", n[0]).output("y", n[0]).node("u", op, List.of("x"), List.of("y"));
            sameAsOnnxRuntime(m, Map.of("x", TensorValue.ofFloats(n, special)), op);
        }
        TinyOnnx pow = new TinyOnnx().opset(18).input("a", 8L).input("b", 8L).output("y", 8L).node("p", "Pow", List.of("a", "b"), List.of("y"));
        sameAsOnnxRuntime(pow, Map.of("a", TensorValue.ofFloats(new long[] {8}, 1f, 1f, -1f, -1f, 0f, -0f, nan, -8f),
                "b", TensorValue.ofFloats(new long[] {8}, nan, -inf, inf, -inf, -1f, -1f, 0f, 1f / 3)), "Pow");
        TinyOnnx clip = new TinyOnnx().opset(13).input("x", n[0]).floats("hi", 6f).output("y", n[0]).output("z", n[0])
                .node("c", "Clip", List.of("x"), List.of("y")).node("d", "Clip", List.of("x", "", "hi"), List.of("z"));
        sameAsOnnxRuntime(clip, Map.of("x", TensorValue.ofFloats(n, special)), "Clip");
    }

    /** Every output equal to ONNX Runtime's within rtol 1e-6 and atol 0, NaN to NaN, and a zero of the same sign. */
    private void sameAsOnnxRuntime(TinyOnnx m, Map<String, TensorValue> in, String what) throws Exception {
        Map<String, TensorValue> want = OrtOracle.run(m.bytes(), in), got = runHere(m.bytes(), in, what);
        for (String y : want.keySet()) {
            float[] w = want.get(y).floats(), g = got.get(y).floats();
            for (int i = 0; i < w.length; i++) {
                boolean same = w[i] != w[i] ? g[i] != g[i] : w[i] == 0 ? Float.floatToIntBits(g[i]) == Float.floatToIntBits(w[i])
                        : g[i] == w[i] || Math.abs(g[i] - w[i]) <= 1e-6 * Math.abs(w[i]);
                assertThat(same).as(what + " output " + y + " element " + i + ": " + g[i] + " vs ONNX Runtime " + w[i]).isTrue();
            }
        }
    }

    @Test
    void clipBoundsThatCrossGiveTheUpperOneAndInfiniteBoundsAreNone() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 4L).input("lo", 1L).input("hi", 1L)
                .node("c", "Clip", List.of("x", "lo", "hi"), List.of("y")).node("d", "Clip", List.of("x", "", "hi"), List.of("z"))
                .output("y", 4L).output("z", 4L);
        Map<String, TensorValue> got = runHere(m.bytes(), Map.of("x", TensorValue.ofFloats(new long[] {4}, -5f, 0f, 2f, Float.NEGATIVE_INFINITY),
                "lo", TensorValue.ofFloats(new long[] {1}, 1f), "hi", TensorValue.ofFloats(new long[] {1}, -1f)), "crossed bounds");
        assertThat(got.get("y").floats()).containsExactly(-1f, -1f, -1f, -1f);
        assertThat(got.get("z").floats()).containsExactly(-5f, -1f, -1f, Float.NEGATIVE_INFINITY);
        // constant bounds become one kernel; an infinite lower bound is no bound
        TinyOnnx k = new TinyOnnx().input("x", 4L).floats("lo", Float.NEGATIVE_INFINITY).floats("hi", 6f)
                .node("relu6", "Clip", List.of("x", "lo", "hi"), List.of("y")).output("y", 4L);
        Path p = dir.resolve("relu6.onnx");
        Files.write(p, k.bytes());
        Graph g = OnnxImporter.load(p, Map.of());
        assertThat(g.ops()).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo("Clip");
            assertThat(o.inputs()).containsExactly("x");
            assertThat(o.attrs()).containsOnlyKeys("max");
        });
        assertThat(runHere(k.bytes(), Map.of("x", TensorValue.ofFloats(new long[] {4}, Float.NEGATIVE_INFINITY, 3f, 7f, Float.NaN)), "relu6")
                .get("y").floats()).containsExactly(Float.NEGATIVE_INFINITY, 3f, 6f, Float.NaN);
    }

    @Test
    void versionDifferencesAndRefusalsNameTheNode() throws Exception {
        Path p = dir.resolve("bad.onnx");
        Files.write(p, new TinyOnnx().opset(18).input("x", 4L).node("g", "Gelu", List.of("x"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 'g' (Gelu, #0, opset 18): Gelu exists from opset 20 of the default domain");
        Files.write(p, new TinyOnnx().opset(11).input("x", 4L).input(INT64, "e", 4L).node("p", "Pow", List.of("x", "e"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 'p' (Pow, #0, opset 11): base x[4] is f32 but exponent e[4] is i64; mixed types need opset 12");
        Files.write(p, new TinyOnnx().input("x", 4L).input("d", 4L).node("m", "Mod", List.of("x", "d"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 'm' (Mod, #0, opset 13): fmod=0 is not defined for floating-point inputs");
        Files.write(p, new TinyOnnx().opset(9).input("x", 4L).input("lo", 1L).node("c", "Clip", List.of("x", "lo"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 'c' (Clip, #0, opset 9): takes one input before opset 11");
        Files.write(p, new TinyOnnx().input("x", 4L).node("o", "Or", List.of("x", "x"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 'o' (Or, #0, opset 13): input x[4] is f32, not bool");
        Files.write(p, new TinyOnnx().input(INT32, "x", 4L).node("s", "BitShift", List.of("x", "x"), List.of("y"), "direction", "UP").outputOfType(INT32, "y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 's' (BitShift, #0, opset 13): attribute direction='UP' must be LEFT or RIGHT");
        // a type the op does not take: refused when the graph runs, naming the op and the types it takes
        byte[] neg = new TinyOnnx().input(UINT8, "x", 4L).node("n", "Neg", List.of("x"), List.of("y")).outputOfType(UINT8, "y").bytes();
        assertThatThrownBy(() -> runHere(neg, Map.of("x", TensorValue.ofLongs(DType.U8, new long[] {4}, 1, 2, 3, 4)), "neg u8"))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("op 'n' (Neg): tensor 'x' is u8, which Neg does not take (it takes f64, f32, f16, bf16, i64, i32, i16, i8)");
        byte[] sqrt = new TinyOnnx().input(INT64, "x", 4L).node("q", "Sqrt", List.of("x"), List.of("y")).outputOfType(INT64, "y").bytes();
        assertThatThrownBy(() -> runHere(sqrt, Map.of("x", TensorValue.ofLongs(DType.I64, new long[] {4}, 1, 4, 9, 16)), "sqrt i64"))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("op 'q' (Sqrt): tensor 'x' is i64, which Sqrt does not take (it takes f64, f32, f16, bf16)");
    }
}
