package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;

import java.util.List;

/**
 * A value at an ONNX graph's edge (a graph input or output) as ONNX's test data holds it: a
 * tensor ({@code TensorProto}), a sequence of tensors ({@code SequenceProto} of
 * {@code tensor_values}) or an optional, absent or holding a tensor or a sequence of tensors
 * ({@code OptionalProto}; onnx-data.proto). Sequences of sequences, maps and sparse tensors are
 * not among them ({@link OnnxValueFile} refuses them).
 */
public sealed interface OnnxValue {

    /** One tensor. */
    record Tensor(TensorValue value) implements OnnxValue { }

    /** A sequence of tensors, in order (possibly none). */
    record Sequence(List<TensorValue> tensors) implements OnnxValue {
        public Sequence {
            tensors = List.copyOf(tensors);
        }
    }

    /** An optional: {@code element} is null when absent, else a {@link Tensor} or a {@link Sequence}. */
    record Optional(OnnxValue element) implements OnnxValue {
        public Optional {
            if (element instanceof Optional) throw new IllegalArgumentException("an optional holds a tensor or a sequence, not an optional");
        }
    }

    /** What the value is, for messages: "a tensor", "a sequence of 3 tensors", "an absent optional", "an optional holding ...". */
    default String describe() {
        if (this instanceof Sequence s) return "a sequence of " + s.tensors().size() + " tensor" + (s.tensors().size() == 1 ? "" : "s");
        if (this instanceof Optional o) return o.element() == null ? "an absent optional" : "an optional holding " + o.element().describe();
        return "a tensor";
    }
}
