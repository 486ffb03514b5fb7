package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;

import java.util.List;
import java.util.function.BiFunction;

/**
 * Compares a computed {@link OnnxValue} with a reference one element by element: the same kind
 * (tensor, sequence, optional), the same presence, the same number of tensors, and then each tensor
 * as the caller compares tensors (like numpy's allclose, {@code org.arenaplan.exec.AllClose}).
 */
public final class OnnxValueMatch {
    private OnnxValueMatch() { }

    /**
     * Why {@code got} does not match {@code want}, or null when it does.
     *
     * @param tensors why one tensor does not match its reference (got, want), or null when it does
     */
    public static String mismatch(OnnxValue got, OnnxValue want, BiFunction<TensorValue, TensorValue, String> tensors) {
        List<TensorValue> a = OnnxEdges.elements(got), b = OnnxEdges.elements(want);
        if (!sameKind(got, want) || a.size() != b.size()) return "is " + got.describe() + ", the reference " + want.describe();
        for (int i = 0; i < a.size(); i++) {
            String why = tensors.apply(a.get(i), b.get(i));
            if (why != null) return holdsOneTensor(got) ? why : "element " + i + " " + why;
        }
        return null;
    }

    /** Whether both are tensors, both sequences, or both optionals that {@link #holdTheSame} (the length is checked apart). */
    private static boolean sameKind(OnnxValue got, OnnxValue want) {
        if (got.getClass() != want.getClass()) return false;
        return !(got instanceof OnnxValue.Optional g) || holdTheSame(g, (OnnxValue.Optional) want);
    }

    /** Whether two optionals are both absent, or both hold a tensor, or both a sequence. */
    private static boolean holdTheSame(OnnxValue.Optional got, OnnxValue.Optional want) {
        boolean gotAbsent = got.element() == null, wantAbsent = want.element() == null;
        if (gotAbsent || wantAbsent) return gotAbsent == wantAbsent;
        return got.element().getClass() == want.element().getClass();
    }

    /** Whether a value is one tensor by its kind (a tensor, an optional holding one), whose mismatch is not numbered as an element's. */
    private static boolean holdsOneTensor(OnnxValue v) {
        return v instanceof OnnxValue.Tensor || v instanceof OnnxValue.Optional o && o.element() instanceof OnnxValue.Tensor;
    }
}
