package org.arenaplan.ir;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.arenaplan.ir.Float8E8M0.RoundMode;
import org.junit.jupiter.api.Test;

/**
 * Float8E8M0 against the ONNX reference implementation: the expected codes were printed by
 * {@code onnx.numpy_helper.to_float8e8m0(values, saturate, round_mode)} of onnx 1.23.1 for the
 * values below (f32), in each round mode, with and without saturation.
 */
class Float8E8M0Test {
    private static final float[] VALUES = {0f, -0f, 1f, 1.5f, 1.75f, 1.25f, 0x1.4000020000000p+0f, 0x1.8000020000000p+0f, 3f, -3f, 0.75f,
        0x1p-127f, 0x1p-126f, 3 * 0x1p-128f, 0x1p-149f, 5 * 0x1p-130f, 1.7e38f, 3.4e38f, 0x1p127f, 1.5f * 0x1p127f,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 0.124f, 1.1f, 1e-40f, 6e-39f};
    private static final int[] UP = {0, 0, 127, 128, 128, 128, 128, 128, 129, 129, 127, 1, 1, 1, 1, 1, 254, 254, 254, 254, 255, 255, 255, 124, 128, 1, 1};
    private static final int[] DOWN = {0, 0, 127, 127, 127, 127, 127, 127, 128, 128, 126, 0, 1, 0, 0, 0, 253, 254, 254, 254, 255, 255, 255, 123, 127, 0, 0};
    private static final int[] NEAREST = {0, 0, 127, 128, 128, 127, 127, 128, 129, 129, 127, 0, 1, 1, 0, 0, 254, 254, 254, 254, 255, 255, 255, 124, 127, 0, 1};
    private static final int[] UP_UNSATURATED = {0, 0, 127, 128, 128, 128, 128, 128, 129, 129, 127, 1, 1, 1, 1, 1, 254, 255, 254, 255, 255, 255, 255, 124, 128, 1, 1};
    private static final int[] NEAREST_UNSATURATED = {0, 0, 127, 128, 128, 127, 127, 128, 129, 129, 127, 0, 1, 1, 0, 0, 254, 255, 254, 255, 255, 255, 255, 124, 127, 0, 1};

    private static int[] encode(boolean saturate, RoundMode mode) {
        int[] c = new int[VALUES.length];
        for (int i = 0; i < c.length; i++) c[i] = Float8E8M0.fromFloat(VALUES[i], saturate, mode);
        return c;
    }

    @Test
    void encodesAsTheOnnxReferenceInEveryRoundMode() {
        assertThat(encode(true, RoundMode.UP)).containsExactly(UP);
        assertThat(encode(true, RoundMode.DOWN)).containsExactly(DOWN);
        assertThat(encode(true, RoundMode.NEAREST)).containsExactly(NEAREST);
        assertThat(encode(false, RoundMode.UP)).containsExactly(UP_UNSATURATED);
        assertThat(encode(false, RoundMode.DOWN)).containsExactly(DOWN);
        assertThat(encode(false, RoundMode.NEAREST)).containsExactly(NEAREST_UNSATURATED);
    }

    @Test
    void decodesEveryCodeToItsPowerOfTwo() {
        for (int c = 0; c < 255; c++) assertThat((double) Float8E8M0.toFloat(c)).as("code %d", c).isEqualTo(Math.scalb(1.0, c - 127));
        assertThat(Float8E8M0.toFloat(255)).isNaN();
        // a power of two comes back as its own code in every mode; not 2^-127 (code 0), an f32 subnormal
        // whose mantissa bit the reference's up rounds to code 1
        assertThat(Float8E8M0.fromFloat(Float8E8M0.toFloat(0), true, RoundMode.UP)).isEqualTo(1);
        for (int c = 1; c < 255; c++)
            for (RoundMode m : RoundMode.values()) assertThat(Float8E8M0.fromFloat(Float8E8M0.toFloat(c), true, m)).isEqualTo(c);
    }

    @Test
    void castGoesThroughF32AndReadsRoundModeAndSaturate() {
        ByteBuffer src = TensorValue.allocate(8), dst = TensorValue.allocate(1);
        // f64 1 + 2^-30 rounds to f32 1.0 first (as the reference's np.asarray(x, float32)): code 127, not 128
        src.putDouble(0, 1 + 0x1p-30);
        DType.F64.cast(src, 0, DType.F8E8M0, dst, 0, true, RoundMode.UP);
        assertThat(dst.get(0) & 0xFF).isEqualTo(127);
        // int64 3: 2^1.58 -> up 129 (4), down 128 (2)
        src.putLong(0, 3);
        DType.I64.cast(src, 0, DType.F8E8M0, dst, 0, true, RoundMode.UP);
        assertThat(dst.get(0) & 0xFF).isEqualTo(129);
        DType.I64.cast(src, 0, DType.F8E8M0, dst, 0, true, RoundMode.DOWN);
        assertThat(dst.get(0) & 0xFF).isEqualTo(128);
        // 3.4e38 saturates at 2^127 (254), or without saturate becomes NaN (255)
        src.putFloat(0, 3.4e38f);
        DType.F32.cast(src, 0, DType.F8E8M0, dst, 0, true, RoundMode.UP);
        assertThat(dst.get(0) & 0xFF).isEqualTo(254);
        DType.F32.cast(src, 0, DType.F8E8M0, dst, 0, false, RoundMode.UP);
        assertThat(dst.get(0) & 0xFF).isEqualTo(255);
        // and back: code 130 is 8 in f16 and int32
        dst.put(0, (byte) 130);
        ByteBuffer out = TensorValue.allocate(4);
        DType.F8E8M0.cast(dst, 0, DType.I32, out, 0);
        assertThat(out.getInt(0)).isEqualTo(8);
        DType.F8E8M0.cast(dst, 0, DType.F16, out, 0);
        assertThat(DType.F16.getFloat(out, 0)).isEqualTo(8f);
    }

    @Test
    void isStorageOnly() {
        assertThat(DType.F8E8M0.isIntegral()).isFalse();
        assertThat(DType.F8E8M0.isFloat8()).isFalse();
        assertThat(DType.F8E8M0.isFloatingPoint()).isFalse();
        assertThat(DType.ofOnnx(24)).isEqualTo(DType.F8E8M0);
        assertThat(DType.parse("float8e8m0")).isEqualTo(DType.F8E8M0);
    }
}
