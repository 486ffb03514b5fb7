package org.arenaplan.ir;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The four ONNX float8 types against the ONNX float8 document (docs/technical/float8.md: biases,
 * maxima, least subnormals, NaN and infinity codes) and Operators.md's Cast tables (saturate on
 * and off): every one of the 256 codes of each type to f32 and back, every tie between
 * neighbouring codes, and the out-of-range, infinity, NaN and signed-zero rows.
 */
class Float8Test {
    private static final DType[] ALL = {DType.F8E4M3FN, DType.F8E4M3FNUZ, DType.F8E5M2, DType.F8E5M2FNUZ};

    private static float decode(DType t, int code) {
        return t.getFloat(ByteBuffer.wrap(new byte[] {(byte) code}), 0);
    }

    /** Through DType.cast from an f64 element, as the Cast kernel does it. */
    private static int encode(DType t, double v, boolean saturate) {
        ByteBuffer in = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, v), out = ByteBuffer.allocate(1);
        DType.F64.cast(in, 0, t, out, 0, saturate);
        return out.get(0) & 0xFF;
    }

    private static boolean isNaNCode(DType t, int c) {
        return switch (t) {
            case F8E4M3FN -> (c & 0x7F) == 0x7F;
            case F8E5M2 -> (c & 0x7F) > 0x7C;
            default -> c == 0x80;
        };
    }

    @Test
    void codesSizesAndNames() {
        assertThat(new int[] {DType.F8E4M3FN.onnxCode(), DType.F8E4M3FNUZ.onnxCode(), DType.F8E5M2.onnxCode(), DType.F8E5M2FNUZ.onnxCode()})
                .containsExactly(17, 18, 19, 20);
        for (DType t : ALL) {
            assertThat(t.bytes()).isEqualTo(1);
            assertThat(DType.ofOnnx(t.onnxCode())).isEqualTo(t);
            assertThat(DType.parse(t.jsonName())).isEqualTo(t);
            assertThat(t.isFloat8()).isTrue();
            assertThat(t.isIntegral() || t.isFloatingPoint() || t.isFloat32Compute()).as("float8 is storage only, not an arithmetic type").isFalse();
        }
        assertThat(DType.parse("float8e4m3fn")).isEqualTo(DType.F8E4M3FN);
        assertThat(DType.parse("float8e5m2fnuz")).isEqualTo(DType.F8E5M2FNUZ);
        assertThat(DType.ofOnnx(27)).as("float6e2m3 stays unsupported").isNull();
    }

    @Test
    void documentedValues() {
        // max, least subnormal, least normal, 1.0 (float8.md's tables)
        assertThat(decode(DType.F8E4M3FN, 0x7E)).isEqualTo(448f);
        assertThat(decode(DType.F8E4M3FN, 0x01)).isEqualTo(0x1p-9f);
        assertThat(decode(DType.F8E4M3FN, 0x08)).isEqualTo(0x1p-6f);
        assertThat(decode(DType.F8E4M3FN, 0x38)).isEqualTo(1f);
        assertThat(decode(DType.F8E4M3FNUZ, 0x7F)).isEqualTo(240f);
        assertThat(decode(DType.F8E4M3FNUZ, 0x01)).isEqualTo(0x1p-10f);
        assertThat(decode(DType.F8E4M3FNUZ, 0x40)).isEqualTo(1f);
        assertThat(decode(DType.F8E5M2, 0x7B)).isEqualTo(57344f);
        assertThat(decode(DType.F8E5M2, 0x01)).isEqualTo(0x1p-16f);
        assertThat(decode(DType.F8E5M2, 0x3C)).isEqualTo(1f);
        assertThat(decode(DType.F8E5M2, 0x7C)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(decode(DType.F8E5M2, 0xFC)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(decode(DType.F8E5M2FNUZ, 0x7F)).isEqualTo(57344f);
        assertThat(decode(DType.F8E5M2FNUZ, 0x01)).isEqualTo(0x1p-17f);
        assertThat(decode(DType.F8E5M2FNUZ, 0x40)).isEqualTo(1f);
        assertThat(Float.floatToRawIntBits(decode(DType.F8E4M3FN, 0x80))).as("-0").isEqualTo(0x80000000);
        assertThat(decode(DType.F8E4M3FNUZ, 0x80)).isNaN();
        assertThat(decode(DType.F8E5M2FNUZ, 0x80)).isNaN();
    }

    @Test
    void all256CodesDecodeMonotonicallyAndRoundTrip() {
        for (DType t : ALL) {
            float prev = -1;
            for (int c = 0; c < 256; c++) {
                float v = decode(t, c);
                assertThat(Float.isNaN(v)).as(t + " code 0x%02X is NaN", c).isEqualTo(isNaNCode(t, c));
                if (c < 0x80 && !Float.isNaN(v)) {
                    assertThat(v).as(t + " code 0x%02X above the one before", c).isGreaterThan(prev);
                    prev = v;
                    if (c != 0) assertThat(Float.floatToRawIntBits(decode(t, c | 0x80))).as(t + " code 0x%02X is the negation", c | 0x80)
                            .isEqualTo(Float.floatToRawIntBits(-v));
                }
                for (boolean sat : new boolean[] {true, false}) {
                    int back = encode(t, v, sat);
                    if (Float.isNaN(v)) assertThat(isNaNCode(t, back)).as(t + " NaN 0x%02X back", c).isTrue();
                    else if (Float.isInfinite(v)) assertThat(back).isEqualTo(sat ? (c & 0x80) | 0x7B : c);
                    else assertThat(back).as(t + " code 0x%02X saturate " + sat, c).isEqualTo(c);
                }
                // from f32, f16 and bf16 elements, as the Cast kernel reads them
                if (!Float.isNaN(v)) {
                    for (DType from : new DType[] {DType.F32, DType.F16, DType.BF16}) {
                        ByteBuffer in = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN), out = ByteBuffer.allocate(1);
                        from.putFloat(in, 0, v);
                        from.cast(in, 0, t, out, 0, false);
                        assertThat(out.get(0) & 0xFF).as(t + " code 0x%02X from " + from, c).isEqualTo(c);
                    }
                }
            }
        }
    }

    @Test
    void tiesBetweenNeighboursRoundToEvenAndOthersToNearest() {
        for (DType t : ALL) {
            for (int c = 0; c < 0x7F; c++) {
                float a = decode(t, c), b = decode(t, c + 1);
                if (Float.isNaN(a) || Float.isNaN(b) || Float.isInfinite(b)) continue;
                double mid = ((double) a + b) / 2;
                int even = (c & 1) == 0 ? c : c + 1;
                for (int sign : new int[] {0, 0x80}) {
                    double s = sign == 0 ? 1 : -1;
                    int zero = sign != 0 && (t == DType.F8E4M3FNUZ || t == DType.F8E5M2FNUZ) ? 0 : sign;   // FNUZ: no -0
                    int lo = c == 0 ? zero : sign | c, hi = sign | (c + 1), ev = even == 0 ? zero : sign | even;
                    assertThat(encode(t, s * mid, true)).as(t + " tie between 0x%02X and 0x%02X", c, c + 1).isEqualTo(ev);
                    assertThat(encode(t, s * Math.nextUp(mid), true)).as(t + " just above the tie after 0x%02X", c).isEqualTo(hi);
                    assertThat(encode(t, s * Math.nextDown(mid), true)).as(t + " just below the tie after 0x%02X", c).isEqualTo(lo);
                }
            }
        }
    }

    @Test
    void saturateTablesOfCast() {
        // rows of Operators.md's Cast tables: [type, x, saturate=1, saturate=0]
        Object[][] rows = {
            {DType.F8E4M3FN, 464.0, 0x7E, 0x7E},          // a tie with 480 (not finite) rounds to 448, even
            {DType.F8E4M3FN, Math.nextUp(464.0), 0x7E, 0x7F}, {DType.F8E4M3FN, -1e6, 0xFE, 0xFF},
            {DType.F8E4M3FN, Double.POSITIVE_INFINITY, 0x7E, 0x7F}, {DType.F8E4M3FN, Double.NEGATIVE_INFINITY, 0xFE, 0xFF},
            {DType.F8E4M3FNUZ, 247.99, 0x7F, 0x7F}, {DType.F8E4M3FNUZ, 248.0, 0x7F, 0x80},   // 240 is odd: the tie goes past max
            {DType.F8E4M3FNUZ, -1e6, 0xFF, 0x80}, {DType.F8E4M3FNUZ, Double.POSITIVE_INFINITY, 0x7F, 0x80},
            {DType.F8E4M3FNUZ, Double.NEGATIVE_INFINITY, 0xFF, 0x80},
            {DType.F8E5M2, 61439.99, 0x7B, 0x7B}, {DType.F8E5M2, 61440.0, 0x7B, 0x7C},     // the tie with 65536 rounds to even: infinity
            {DType.F8E5M2, -1e6, 0xFB, 0xFC}, {DType.F8E5M2, Double.POSITIVE_INFINITY, 0x7B, 0x7C}, {DType.F8E5M2, Double.NEGATIVE_INFINITY, 0xFB, 0xFC},
            {DType.F8E5M2FNUZ, 61440.0, 0x7F, 0x80}, {DType.F8E5M2FNUZ, -1e6, 0xFF, 0x80},
            {DType.F8E5M2FNUZ, Double.POSITIVE_INFINITY, 0x7F, 0x80}, {DType.F8E5M2FNUZ, Double.NEGATIVE_INFINITY, 0xFF, 0x80},
        };
        for (Object[] r : rows) {
            DType t = (DType) r[0];
            double x = (double) r[1];
            assertThat(encode(t, x, true)).as(t + " " + x + " saturate=1").isEqualTo((int) r[2]);
            assertThat(encode(t, x, false)).as(t + " " + x + " saturate=0").isEqualTo((int) r[3]);
        }
        for (DType t : ALL) {
            boolean uz = t == DType.F8E4M3FNUZ || t == DType.F8E5M2FNUZ;
            for (boolean sat : new boolean[] {true, false}) {
                assertThat(encode(t, -0.0, sat)).as(t + " -0").isEqualTo(uz ? 0 : 0x80);
                assertThat(encode(t, -1e-30, sat)).as(t + " a negative that rounds to zero").isEqualTo(uz ? 0 : 0x80);
                assertThat(encode(t, Double.MIN_VALUE, sat)).isZero();
                assertThat(isNaNCode(t, encode(t, Double.NaN, sat))).isTrue();
                int negNaN = encode(t, Double.longBitsToDouble(0xFFF8000000000000L), sat);
                assertThat(isNaNCode(t, negNaN)).isTrue();
                assertThat(negNaN >= 0x80).as(t + " -NaN keeps its sign where the type has one (FNUZ's one NaN is 0x80)").isTrue();
            }
        }
        // the default (putFloat and the five-argument cast) saturates
        ByteBuffer out = ByteBuffer.allocate(1);
        DType.F8E5M2.putFloat(out, 0, Float.POSITIVE_INFINITY);
        assertThat(out.get(0) & 0xFF).isEqualTo(0x7B);
    }

    @Test
    void integersAndDoublesConvertInOneRounding() {
        ByteBuffer out = ByteBuffer.allocate(1);
        ByteBuffer in = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        DType.I64.putLong(in, 0, 17);                                  // 17 lies between 16 and 18 in e4m3fn: a tie, to even 16
        DType.I64.cast(in, 0, DType.F8E4M3FN, out, 0, true);
        assertThat(decode(DType.F8E4M3FN, out.get(0))).isEqualTo(16f);
        DType.U64.putLong(in, 0, -1L);                                 // 2^64 - 1: past max
        DType.U64.cast(in, 0, DType.F8E5M2, out, 0, false);
        assertThat(out.get(0) & 0xFF).isEqualTo(0x7C);
        // 1 + 2^-4 + 2^-40 as a double is just above the tie of 1 and 1.125: one rounding goes up, through f32 it would tie down to 1
        assertThat(decode(DType.F8E4M3FN, encode(DType.F8E4M3FN, 1 + 0x1p-4 + 0x1p-40, true))).isEqualTo(1.125f);
        // float8 to float8 and to integers
        ByteBuffer f8 = ByteBuffer.wrap(new byte[] {(byte) 0x7B});     // e5m2 57344
        DType.F8E5M2.cast(f8, 0, DType.F8E4M3FN, out, 0, true);
        assertThat(out.get(0) & 0xFF).isEqualTo(0x7E);
        DType.F8E5M2.cast(f8, 0, DType.F8E4M3FN, out, 0, false);
        assertThat(out.get(0) & 0xFF).isEqualTo(0x7F);
        DType.F8E5M2.cast(f8, 0, DType.I32, in, 0);
        assertThat(in.getInt(0)).isEqualTo(57344);
    }
}
