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
        if (got.getClass() != want.getClass()
                || got instanceof OnnxValue.Optional g && want instanceof OnnxValue.Optional w && (g.element() == null) != (w.element() == null)
                || got instanceof OnnxValue.Optional g2 && want instanceof OnnxValue.Optional w2 && g2.element() != null && g2.element().getClass() != w2.element().getClass())
            return "is " + got.describe() + ", the reference " + want.describe();
        List<TensorValue> a = OnnxEdges.elements(got), b = OnnxEdges.elements(want);
        if (a.size() != b.size()) return "is " + got.describe() + ", the reference " + want.describe();
        boolean one = got instanceof OnnxValue.Tensor || got instanceof OnnxValue.Optional o && o.element() instanceof OnnxValue.Tensor;
        for (int i = 0; i < a.size(); i++) {
            String why = tensors.apply(a.get(i), b.get(i));
            if (why != null) return one ? why : "element " + i + " " + why;
        }
        return null;
    }
}
