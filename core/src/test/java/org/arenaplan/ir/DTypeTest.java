package org.arenaplan.ir;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/** Element sizes, ONNX codes and the conversion rules, checked against hand-computed values and IEEE rounding. */
class DTypeTest {

    @Test
    void sizesAndCodesAreOnnxs() {
        assertThat(DType.I64.bytes()).isEqualTo(8);
        assertThat(DType.I8.bytes()).isEqualTo(1);
        assertThat(DType.BOOL.bytes()).isEqualTo(1);
        assertThat(DType.F16.bytes()).isEqualTo(2);
        assertThat(DType.F64.bytes()).isEqualTo(8);
        for (DType d : DType.values()) assertThat(DType.ofOnnx(d.onnxCode())).isEqualTo(d);
        assertThat(DType.F32.onnxCode()).isEqualTo(1);
        assertThat(DType.I64.onnxCode()).isEqualTo(7);
        assertThat(DType.BF16.onnxCode()).isEqualTo(16);
        assertThat(DType.ofOnnx(8)).isNull();   // STRING
    }

    @Test
    void everyHalfRoundTripsExactlyAndTiesRoundToEven() {
        for (int h = 0; h < 0x10000; h++) {
            float f = DType.halfToFloat((short) h);
            if (Float.isNaN(f)) {
                assertThat(Float.isNaN(DType.halfToFloat(DType.floatToHalf(f)))).isTrue();
                continue;
            }
            assertThat(DType.floatToHalf(f) & 0xFFFF).as("half 0x%04x", h).isEqualTo(h);
        }
        // Between neighbours a < b: the midpoint goes to the even one, anything off it to the nearer.
        for (int h = 0; h < 0x7BFF; h++) {
            float a = DType.halfToFloat((short) h), b = DType.halfToFloat((short) (h + 1));
            float mid = (a + b) / 2;   // exact: a half has 11 significant bits
            int even = (h & 1) == 0 ? h : h + 1;
            assertThat(DType.floatToHalf(mid) & 0xFFFF).as("midpoint after 0x%04x", h).isEqualTo(even);
            assertThat(DType.floatToHalf(Math.nextDown(mid)) & 0xFFFF).isEqualTo(h);
            assertThat(DType.floatToHalf(Math.nextUp(mid)) & 0xFFFF).isEqualTo(h + 1);
        }
        assertThat(DType.floatToHalf(65504f)).isEqualTo((short) 0x7BFF);
        assertThat(DType.floatToHalf(65519.99f)).isEqualTo((short) 0x7BFF);
        assertThat(DType.floatToHalf(65520f)).isEqualTo((short) 0x7C00);             // rounds up to infinity
        assertThat(DType.floatToHalf(-1e9f)).isEqualTo((short) 0xFC00);
        assertThat(DType.floatToHalf(0x1p-24f)).isEqualTo((short) 0x0001);           // smallest subnormal
        assertThat(DType.floatToHalf(0x1p-25f)).isEqualTo((short) 0x0000);           // tie with 0: even
        assertThat(DType.floatToHalf(0x1.8p-25f)).isEqualTo((short) 0x0001);
        assertThat(DType.floatToHalf(-0f)).isEqualTo((short) 0x8000);
    }

    @Test
    void bfloat16KeepsTheTopBitsRoundedToEven() {
        assertThat(DType.floatToBfloat16(1f)).isEqualTo((short) 0x3F80);
        assertThat(DType.floatToBfloat16(Float.intBitsToFloat(0x3F808000))).isEqualTo((short) 0x3F80);   // tie, even stays
        assertThat(DType.floatToBfloat16(Float.intBitsToFloat(0x3F818000))).isEqualTo((short) 0x3F82);   // tie, odd rounds up
        assertThat(DType.floatToBfloat16(Float.intBitsToFloat(0x3F808001))).isEqualTo((short) 0x3F81);
        assertThat(DType.floatToBfloat16(Float.MAX_VALUE)).isEqualTo((short) 0x7F80);                    // to infinity
        assertThat(Float.isNaN(cast(DType.F32, Float.NaN, DType.BF16))).isTrue();
        assertThat(DType.floatToBfloat16(Float.intBitsToFloat(0x7F800001)) & 0x7FFF).isGreaterThan(0x7F80);  // a NaN stays NaN
    }

    @Test
    void castFollowsTheDocumentedRules() {
        // float -> integer: truncate toward zero into int64 (saturating, NaN 0), then wrap to the width.
        assertThat(castLong(DType.F32, -1.5, DType.U8)).isEqualTo(255);
        assertThat(castLong(DType.F32, 300.7, DType.I8)).isEqualTo(44);
        assertThat(castLong(DType.F32, -129.9, DType.I8)).isEqualTo(127);
        assertThat(castLong(DType.F32, 3e9, DType.I32)).isEqualTo(-1294967296);
        assertThat(castLong(DType.F32, 1e20, DType.I64)).isEqualTo(Long.MAX_VALUE);
        assertThat(castLong(DType.F64, -1e300, DType.I64)).isEqualTo(Long.MIN_VALUE);
        assertThat(castLong(DType.F32, Double.NaN, DType.I32)).isZero();
        // to bool: non-zero, NaN included.
        assertThat(castLong(DType.F32, Double.NaN, DType.BOOL)).isEqualTo(1);
        assertThat(castLong(DType.F32, -0.0, DType.BOOL)).isZero();
        assertThat(castLong(DType.I64, 256, DType.BOOL)).isEqualTo(1);
        assertThat(castLong(DType.I64, 256, DType.U8)).isZero();
        // integer -> float: nearest; int64 beyond 2^53 keeps its exact value in f64.
        ByteBuffer src = TensorValue.allocate(8).putLong(0, (1L << 53) + 1);
        ByteBuffer dst = TensorValue.allocate(8);
        DType.I64.cast(src, 0, DType.F64, dst, 0);
        assertThat(dst.getDouble(0)).isEqualTo(9007199254740992.0);
        DType.I64.cast(src.putLong(0, 16777217), 0, DType.F32, dst, 0);
        assertThat(dst.getFloat(0)).isEqualTo(16777216f);
        assertThat(cast(DType.I32, 2049, DType.F16)).isEqualTo(2048f);
        // float -> float: f64 -> f16 through f32.
        assertThat(cast(DType.F64, 1.00048828125, DType.F16)).isEqualTo(1f);               // tie between 1 and 1+2^-10: even
        assertThat(cast(DType.F64, 1 + 0x1p-11 + 0x1p-20, DType.F16)).isEqualTo(1.0009765625f);
        assertThat(cast(DType.F64, 1.0004882812500002, DType.F16)).isEqualTo(1f);         // rounded to f32 first: a tie, then even
        assertThat(cast(DType.BOOL, 1, DType.F32)).isEqualTo(1f);
    }

    @Test
    void unsignedTypesReadZeroExtendedAndUint64Unsigned() {
        assertThat(DType.U16.onnxCode()).isEqualTo(4);
        assertThat(DType.U32.onnxCode()).isEqualTo(12);
        assertThat(DType.U64.onnxCode()).isEqualTo(13);
        assertThat(castLong(DType.I64, -1, DType.U16)).isEqualTo(65535);
        assertThat(castLong(DType.I64, -1, DType.U32)).isEqualTo(4294967295L);
        assertThat(castLong(DType.F32, 70000.9, DType.U16)).isEqualTo(4464);               // 70000 wraps past 65535
        // uint64: the bits of a long; past 2^63 it reads unsigned into floats, and floats that large cast back unsigned
        ByteBuffer src = TensorValue.allocate(8).putLong(0, -1L), dst = TensorValue.allocate(8);
        DType.U64.cast(src, 0, DType.F64, dst, 0);
        assertThat(dst.getDouble(0)).isEqualTo(0x1p64);
        DType.U64.cast(src.putLong(0, 0x8000_0000_0000_0401L), 0, DType.F64, dst, 0);     // 2^63 + 1025: nearest is 2^63 + 2048
        assertThat(dst.getDouble(0)).isEqualTo(0x1p63 + 2048);
        DType.U64.cast(src.putLong(0, 0x8000_0080_0000_0000L), 0, DType.F32, dst, 0);     // 2^63 + 2^39: a tie between 2^63 and 2^63 + 2^40: even
        assertThat(dst.getFloat(0)).isEqualTo(0x1p63f);
        assertThat(castLong(DType.F64, 0x1p63 + 4096, DType.U64)).isEqualTo(0x8000_0000_0000_1000L);
        assertThat(castLong(DType.F64, 1e30, DType.U64)).isEqualTo(-1L);                 // saturates at 2^64 - 1
        assertThat(castLong(DType.F64, 1e30, DType.I64)).isEqualTo(Long.MAX_VALUE);
        assertThat(DType.U64.getDouble(TensorValue.allocate(8).putLong(0, -2L), 0)).isEqualTo(0x1p64);
        assertThat(DType.parse("uint32")).isEqualTo(DType.U32);
    }

    @Test
    void tensorValuesKeepTheirBytesAndTypes() {
        TensorValue ids = TensorValue.ofLongs(DType.I64, new long[]{3}, 1, -2, (1L << 53) + 1);
        assertThat(ids.byteCount()).isEqualTo(24);
        assertThat(ids.longs()).containsExactly(1, -2, (1L << 53) + 1);
        assertThat(ids.bytes()[8]).isEqualTo((byte) 0xFE);                               // little-endian
        TensorValue mask = TensorValue.ofLongs(DType.BOOL, null, 1, 0, 7);
        assertThat(mask.bytes()).containsExactly(1, 0, 1);
        TensorValue h = TensorValue.ofDoubles(DType.F16, new long[]{2}, 1.5, 65520);
        assertThat(h.floats()).containsExactly(1.5f, Float.POSITIVE_INFINITY);
        assertThat(h.firstDifference(TensorValue.ofDoubles(DType.F16, null, 1.5, 1))).isEqualTo(1);
        assertThat(h.firstDifference(TensorValue.ofDoubles(DType.BF16, null, 1.5, 1))).isEqualTo(-2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TensorValue(DType.I32, new long[]{2}, new byte[4]))
                .hasMessageContaining("shape [2] of i32 needs 8 B, got 4");
    }

    private static float cast(DType from, double v, DType to) {
        ByteBuffer src = TensorValue.allocate(8), dst = TensorValue.allocate(8);
        DType.F64.cast(src.putDouble(0, v), 0, from, src, 0);   // v in the source type first
        from.cast(src, 0, to, dst, 0);
        return to.getFloat(dst, 0);
    }

    private static long castLong(DType from, double v, DType to) {
        ByteBuffer src = TensorValue.allocate(8), dst = TensorValue.allocate(8);
        DType.F64.cast(src.putDouble(0, v), 0, from, src, 0);
        from.cast(src, 0, to, dst, 0);
        return to.getLong(dst, 0);
    }
}
