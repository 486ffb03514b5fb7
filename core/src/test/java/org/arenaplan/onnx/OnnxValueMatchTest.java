package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link OnnxValueMatch#mismatch} over every pair of value kinds, and the element numbering of its tensor mismatches. */
class OnnxValueMatchTest {
    private static final TensorValue A = TensorValue.ofFloats(new long[]{2}, 1, 2), B = TensorValue.ofFloats(new long[]{1}, 3);

    /** Tensors equal when their values are: the caller's comparison, reduced to what this test needs. */
    private static String equalValues(TensorValue got, TensorValue want) {
        return Arrays.equals(got.floats(), want.floats()) ? null : "differs";
    }

    /** One value of each kind mismatch tells apart, and a second of the same kind of another length where kinds have one. */
    private static Map<String, OnnxValue> kinds() {
        Map<String, OnnxValue> m = new LinkedHashMap<>();
        m.put("tensor", new OnnxValue.Tensor(A));
        m.put("sequence of 1", new OnnxValue.Sequence(List.of(A)));
        m.put("sequence of 2", new OnnxValue.Sequence(List.of(A, B)));
        m.put("empty sequence", new OnnxValue.Sequence(List.of()));
        m.put("absent optional", new OnnxValue.Optional(null));
        m.put("optional tensor", new OnnxValue.Optional(new OnnxValue.Tensor(A)));
        m.put("optional sequence of 1", new OnnxValue.Optional(new OnnxValue.Sequence(List.of(A))));
        m.put("optional sequence of 2", new OnnxValue.Optional(new OnnxValue.Sequence(List.of(A, B))));
        return m;
    }

    @Test
    void aValueMatchesOnlyItsOwnKindAndLength() {
        for (Map.Entry<String, OnnxValue> got : kinds().entrySet())
            for (Map.Entry<String, OnnxValue> want : kinds().entrySet()) {
                String why = OnnxValueMatch.mismatch(got.getValue(), want.getValue(), OnnxValueMatchTest::equalValues);
                if (got.getKey().equals(want.getKey())) assertThat(why).as(got.getKey()).isNull();
                else assertThat(why).as(got.getKey() + " vs " + want.getKey())
                        .isEqualTo("is " + got.getValue().describe() + ", the reference " + want.getValue().describe());
            }
    }

    @Test
    void aTensorMismatchIsNumberedInASequenceOnly() {
        TensorValue other = TensorValue.ofFloats(new long[]{2}, 1, 9);
        assertThat(OnnxValueMatch.mismatch(new OnnxValue.Tensor(A), new OnnxValue.Tensor(other), OnnxValueMatchTest::equalValues)).isEqualTo("differs");
        assertThat(OnnxValueMatch.mismatch(new OnnxValue.Optional(new OnnxValue.Tensor(A)), new OnnxValue.Optional(new OnnxValue.Tensor(other)),
                OnnxValueMatchTest::equalValues)).isEqualTo("differs");
        assertThat(OnnxValueMatch.mismatch(new OnnxValue.Sequence(List.of(B, A)), new OnnxValue.Sequence(List.of(B, other)),
                OnnxValueMatchTest::equalValues)).isEqualTo("element 1 differs");
        assertThat(OnnxValueMatch.mismatch(new OnnxValue.Optional(new OnnxValue.Sequence(List.of(A))), new OnnxValue.Optional(new OnnxValue.Sequence(List.of(other))),
                OnnxValueMatchTest::equalValues)).isEqualTo("element 0 differs");
    }
}
