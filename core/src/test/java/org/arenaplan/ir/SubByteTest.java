package org.arenaplan.ir;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The packed sub-byte types against the ONNX documents (int4.md, int2.md, float4.md: value
 * ranges, two's complement, the E2M1 value table, ties to even, saturation; packing with the
 * first element in the low bits, ceil(n * bits / 8) bytes) and the ONNX reference (numpy_helper's
 * {@code _pack_4bitx2} / {@code _pack_2bitx4}): every code of each type both ways, packing with
 * odd counts, and the sizes every tensor gets from {@link DType#byteSize}.
 */
class SubByteTest {
    private static final DType[] PACKED = {DType.U4, DType.I4, DType.F4E2M1, DType.U2, DType.I2};

    /** Through DType.cast from an f64 element, as the Cast kernel does it: the code of element 0. */
    private static int encode(DType t, double v) {
        ByteBuffer in = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, v), out = ByteBuffer.allocate(1);
        DType.F64.cast(in, 0, t, out, 0);
        return out.get(0) & 0xFF;
    }

    private static int[] unsigned(byte[] b) {
        int[] u = new int[b.length];
        for (int i = 0; i < b.length; i++) u[i] = b[i] & 0xFF;
        return u;
    }

    private static double decode(DType t, int code) {
        return t.getDouble(ByteBuffer.wrap(new byte[] {(byte) code}), 0);
    }

    @Test
    void codesWidthsAndNames() {
        assertThat(new int[] {DType.U4.onnxCode(), DType.I4.onnxCode(), DType.F4E2M1.onnxCode(), DType.U2.onnxCode(), DType.I2.onnxCode()})
                .containsExactly(21, 22, 23, 25, 26);
        assertThat(new int[] {DType.U4.bits(), DType.I4.bits(), DType.F4E2M1.bits(), DType.U2.bits(), DType.I2.bits(), DType.U8.bits(), DType.F32.bits()})
                .containsExactly(4, 4, 4, 2, 2, 8, 32);
        for (DType t : PACKED) {
            assertThat(t.isPacked()).isTrue();
            assertThat(t.isIntegral()).as(t + " is storage only").isFalse();
            assertThat(t.isFloatingPoint()).isFalse();
            assertThat(DType.ofOnnx(t.onnxCode())).isEqualTo(t);
            assertThat(DType.parse(t.jsonName())).isEqualTo(t);
        }
        assertThat(DType.parse("int4")).isEqualTo(DType.I4);
        assertThat(DType.parse("float4e2m1")).isEqualTo(DType.F4E2M1);
        assertThat(DType.ofOnnx(27)).as("float6e2m3 stays unsupported").isNull();
        assertThat(DType.U8.isPacked()).isFalse();
    }

    @Test
    void byteSizesRoundUpToWholeBytes() {
        // n * 1 and n / 2 (rounded down) are both wrong for odd counts: 7 int4 take 4 bytes
        long[][] want4 = {{0, 0}, {1, 1}, {2, 1}, {3, 2}, {7, 4}, {8, 4}, {9, 5}, {1001, 501}};
        long[][] want2 = {{0, 0}, {1, 1}, {3, 1}, {4, 1}, {5, 2}, {7, 2}, {9, 3}, {1001, 251}};
        for (DType t : PACKED)
            for (long[] w : t.bits() == 4 ? want4 : want2) assertThat(t.byteSize(w[0])).as(t + " x " + w[0]).isEqualTo(w[1]);
        assertThat(DType.F32.byteSize(7)).isEqualTo(28);
        assertThat(DType.I4.byteSize(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / 2 + 1);
        // a tensor's size, the planner's input, is its byte size
        assertThat(Tensor.of("w", DType.I4, 3, 5).bytes()).isEqualTo(8);
        assertThat(Tensor.of("w", DType.U2, 7, 1).bytes()).isEqualTo(2);
        assertThat(Tensor.of("w", DType.F4E2M1, 3, 5).elements()).isEqualTo(15);
        // a value must hold exactly that many bytes, and a packed one needs its shape (its last byte may be padding)
        assertThat(new TensorValue(DType.I4, new long[] {7}, new byte[4]).elements()).isEqualTo(7);
        assertThatThrownBy(() -> new TensorValue(DType.I4, new long[] {7}, new byte[3])).hasMessageContaining("needs 4 B, got 3");
        assertThatThrownBy(() -> new TensorValue(DType.I4, new long[] {7}, new byte[7])).hasMessageContaining("needs 4 B, got 7");
        assertThatThrownBy(() -> new TensorValue(DType.U2, null, new byte[2])).hasMessageContaining("needs a shape");
    }

    @Test
    void everyIntegerCodeBothWays() {
        for (DType t : new DType[] {DType.U4, DType.I4, DType.U2, DType.I2}) {
            boolean signed = t == DType.I4 || t == DType.I2;
            int codes = 1 << t.bits();
            for (int c = 0; c < codes; c++) {
                long v = signed && c >= codes / 2 ? c - codes : c;           // two's complement
                assertThat(decode(t, c)).as(t + " code " + c).isEqualTo((double) v);
                assertThat(encode(t, v)).as(t + " " + v).isEqualTo(c);
                // integers keep the low bits (Cast between fixed-point types), floats round to nearest even first
                assertThat(encode(t, v + codes)).isEqualTo(c);
                assertThat(encode(t, v + 0.4)).isEqualTo(c);
                assertThat(encode(t, v - 0.4)).isEqualTo(c);
            }
        }
        assertThat(DType.I4.getLong(ByteBuffer.wrap(new byte[] {(byte) 0x8F}), 1)).isEqualTo(-8);
        assertThat(DType.I4.getLong(ByteBuffer.wrap(new byte[] {(byte) 0x8F}), 0)).isEqualTo(-1);
        assertThat(DType.U4.getLong(ByteBuffer.wrap(new byte[] {(byte) 0x8F}), 0)).isEqualTo(15);
        assertThat(DType.I2.getLong(ByteBuffer.wrap(new byte[] {(byte) 0b10_01_11_00}), 1)).isEqualTo(-1);
        assertThat(DType.I2.getLong(ByteBuffer.wrap(new byte[] {(byte) 0b10_01_11_00}), 3)).isEqualTo(-2);
        // ties to even: 2.5 -> 2, 3.5 -> 4, -0.5 -> 0; int4 of 8 wraps to -8 (code 8), of -9 to 7 (ONNX Cast: "truncating")
        assertThat(encode(DType.I4, 2.5)).isEqualTo(2);
        assertThat(encode(DType.I4, 3.5)).isEqualTo(4);
        assertThat(encode(DType.I4, -0.5)).isEqualTo(0);
        assertThat(encode(DType.I4, 8)).isEqualTo(8);
        assertThat(encode(DType.I4, -9)).isEqualTo(7);
        assertThat(encode(DType.U2, 1.5)).isEqualTo(2);
        assertThat(encode(DType.I2, Double.NaN)).isEqualTo(0);
    }

    @Test
    void everyFloat4CodeBothWays() {
        double[] magnitude = {0, 0.5, 1, 1.5, 2, 3, 4, 6};      // float4.md's table
        for (int c = 0; c < 16; c++) {
            double v = c < 8 ? magnitude[c] : -magnitude[c - 8];
            assertThat(decode(DType.F4E2M1, c)).as("code " + c).isEqualTo(v);
            assertThat(Double.doubleToRawLongBits(decode(DType.F4E2M1, c)) < 0).as("sign of code " + c).isEqualTo(c >= 8);
            assertThat(encode(DType.F4E2M1, c == 8 ? -0.0 : v)).as("value " + v).isEqualTo(c);
            // from f32, f16 and bf16 sources too
            for (DType from : new DType[] {DType.F32, DType.F16, DType.BF16}) {
                ByteBuffer in = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN), out = ByteBuffer.allocate(1);
                from.putFloat(in, 0, (float) (c == 8 ? -0.0 : v));
                from.cast(in, 0, DType.F4E2M1, out, 0);
                assertThat(out.get(0) & 0xF).as(from + " " + v).isEqualTo(c);
            }
        }
    }

    @Test
    void float4RoundsTiesToEvenAndSaturates() {
        // each midpoint between neighbours goes to the code with mantissa bit 0; just past it, to the nearer code
        double[][] ties = {{0.25, 0}, {0.75, 1}, {1.25, 1}, {1.75, 2}, {2.5, 2}, {3.5, 4}, {5, 4}};
        for (double[] t : ties) {
            assertThat(decode(DType.F4E2M1, encode(DType.F4E2M1, t[0]))).as("tie " + t[0]).isEqualTo(t[1]);
            assertThat(decode(DType.F4E2M1, encode(DType.F4E2M1, -t[0]))).as("tie " + -t[0]).isEqualTo(-t[1]);
            double up = Math.nextUp(t[0]), down = Math.nextDown(t[0]);
            assertThat(decode(DType.F4E2M1, encode(DType.F4E2M1, up))).as("above " + t[0]).isGreaterThan(t[0]);
            assertThat(decode(DType.F4E2M1, encode(DType.F4E2M1, down))).as("below " + t[0]).isLessThan(t[0]);
        }
        // float4.md: x > 6 gives 6, x < -6 gives -6, +-inf +-6; -0 stays -0, tiny negatives -0
        for (double v : new double[] {6.0001, 7, 1e6, Double.POSITIVE_INFINITY, Double.MAX_VALUE}) {
            assertThat(encode(DType.F4E2M1, v)).as("" + v).isEqualTo(0x7);
            assertThat(encode(DType.F4E2M1, -v)).as("" + -v).isEqualTo(0xF);
        }
        assertThat(encode(DType.F4E2M1, -0.0)).isEqualTo(0x8);
        assertThat(encode(DType.F4E2M1, -1e-7)).isEqualTo(0x8);
        assertThat(encode(DType.F4E2M1, 1e-7)).isEqualTo(0x0);
        // NaN: code 8 (the ONNX reference's ml_dtypes, and the node test test_cast_FLOAT_to_FLOAT4E2M1), code 0 for a negative NaN
        assertThat(encode(DType.F4E2M1, Double.NaN)).isEqualTo(0x8);
        assertThat(encode(DType.F4E2M1, Double.longBitsToDouble(0xFFF8000000000000L))).isEqualTo(0x0);
        // one rounding from the double: 2.5 + 2^-40 rounds up to 3, where rounding through f32 would land on the tie and give 2
        assertThat(decode(DType.F4E2M1, encode(DType.F4E2M1, 2.5 + 0x1p-40))).isEqualTo(3.0);
    }

    @Test
    void packingPutsTheFirstElementInTheLowBitsAndKeepsNeighbours() {
        // numpy_helper._pack_4bitx2 of [1, 2, 3, 5, -8, -6, 3]: 0x21, 0x53, 0xA8, 0x03 (the odd last element padded with zero bits)
        TensorValue v = TensorValue.ofLongs(DType.I4, new long[] {7}, 1, 2, 3, 5, -8, -6, 3);
        assertThat(unsigned(v.bytes())).containsExactly(0x21, 0x53, 0xA8, 0x03);
        assertThat(v.longs()).containsExactly(1, 2, 3, 5, -8, -6, 3);
        // _pack_2bitx4 of [0, 1, -1, -2, 1]: 0b10_11_01_00, then 0b01
        TensorValue w = TensorValue.ofLongs(DType.I2, new long[] {5}, 0, 1, -1, -2, 1);
        assertThat(unsigned(w.bytes())).containsExactly(0b1011_0100, 0b01);
        assertThat(w.longs()).containsExactly(0, 1, -1, -2, 1);
        // writing one element leaves the others in its byte alone
        ByteBuffer b = ByteBuffer.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF});
        DType.U2.putLong(b, 5, 0);
        assertThat(b.get(1) & 0xFF).isEqualTo(0b1111_0011);
        assertThat(b.get(0) & 0xFF).isEqualTo(0xFF);
        DType.F4E2M1.putFloat(b, 0, 1.5f);
        assertThat(b.get(0) & 0xFF).isEqualTo(0xF3);
        // the first differing element is found inside a byte
        TensorValue x = TensorValue.ofLongs(DType.U4, new long[] {5}, 1, 2, 3, 4, 5), y = TensorValue.ofLongs(DType.U4, new long[] {5}, 1, 2, 3, 9, 5);
        assertThat(x.firstDifference(y)).isEqualTo(3);
        assertThat(x.format(3)).isEqualTo("4");
    }
}
