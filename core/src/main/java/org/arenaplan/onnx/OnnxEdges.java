package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an imported ONNX graph's inputs and outputs map onto the planned graph's tensors. A tensor
 * input or output is the graph tensor of its name. A sequence or optional input is bound at import
 * to the value given for it ({@link OnnxImporter.Options#sequenceInputs}) and becomes one graph input
 * per tensor it holds: {@code x[0]}, {@code x[1]}, ... for a sequence {@code x} (or an optional
 * holding one), {@code x.value} for an optional holding a tensor, none for an absent optional or an
 * empty sequence. A sequence or optional output is resolved at import into tensors the same way
 * (each copied out by an Identity under those names), and is read back from them as an
 * {@link OnnxValue} to write as a SequenceProto or OptionalProto ({@link OnnxValueFile}). A name
 * already taken in the file gets {@code _} appended.
 *
 * @param inputs  the graph inputs the caller feeds, in file order (those without an initializer)
 * @param outputs the graph outputs, in file order
 * @param edges   the sequence and optional ones among them, by name
 */
public record OnnxEdges(List<String> inputs, List<String> outputs, Map<String, Edge> edges) {
    public OnnxEdges {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        edges = Map.copyOf(edges);
    }

    /**
     * A sequence or optional input or output.
     *
     * @param optional true for an optional (then {@code present} says whether it holds a value)
     * @param sequence true when it is, or holds, a sequence (false: an optional holding a tensor, or absent)
     * @param tensors  the graph tensors holding its elements, in order
     */
    public record Edge(String name, boolean optional, boolean present, boolean sequence, List<String> tensors) {
        public Edge {
            tensors = List.copyOf(tensors);
        }

        /** The kind of value file it is read from and written to ({@link OnnxValueFile#read}). */
        public Class<? extends OnnxValue> kind() {
            return optional ? OnnxValue.Optional.class : OnnxValue.Sequence.class;
        }

        /** What it is, for messages: "a sequence of 2 tensors", "an absent optional", ... */
        public String describe() {
            String seq = "a sequence of " + tensors.size() + " tensor" + (tensors.size() == 1 ? "" : "s");
            if (!optional) return seq;
            return !present ? "an absent optional" : "an optional holding " + (sequence ? seq : "a tensor");
        }

        /** Whether {@code v} is a value of this edge's kind: a sequence, or an optional as present as it is, holding a tensor or a sequence as it does. */
        boolean sameKind(OnnxValue v) {
            if (!optional) return v instanceof OnnxValue.Sequence;
            return v instanceof OnnxValue.Optional o && (o.element() != null) == present && (o.element() instanceof OnnxValue.Sequence) == sequence;
        }

        /** Its value from its tensors' values, in order. */
        OnnxValue value(List<TensorValue> values) {
            OnnxValue inner = sequence ? new OnnxValue.Sequence(values) : present ? new OnnxValue.Tensor(values.get(0)) : null;
            return optional ? new OnnxValue.Optional(inner) : inner;
        }
    }

    /** The kind of value file graph input or output {@code name} is read from ({@link OnnxValueFile#read}): a tensor's unless it is an edge. */
    public Class<? extends OnnxValue> kind(String name) {
        Edge e = edges.get(name);
        return e == null ? OnnxValue.Tensor.class : e.kind();
    }

    /**
     * The graph tensors' values for input {@code name} given {@code value}: itself for a tensor input,
     * each element under its tensor's name for a sequence or optional (bound at import, so the value
     * must hold as many tensors as the one given then).
     *
     * @throws OnnxException naming {@code what} (the file) and the input when the value is of another kind or length
     */
    public Map<String, TensorValue> feed(String name, OnnxValue value, String what) {
        Map<String, TensorValue> out = new LinkedHashMap<>();
        Edge e = edges.get(name);
        if (e == null) {
            if (!(value instanceof OnnxValue.Tensor t)) throw new OnnxException(what + ": graph input '" + name + "' is a tensor but the file holds " + value.describe());
            out.put(name, t.value());
            return out;
        }
        List<TensorValue> elements = elements(value);
        if (elements.size() != e.tensors().size() || !e.sameKind(value))
            throw new OnnxException(what + ": graph input '" + name + "' was bound at import to " + e.describe() + " but the file holds " + value.describe());
        for (int i = 0; i < elements.size(); i++) out.put(e.tensors().get(i), elements.get(i));
        return out;
    }

    /**
     * The value of output {@code name} from the graph's output tensors (by tensor name, as a run returns
     * them): the tensor itself, or the sequence or optional its tensors hold, in order.
     */
    public OnnxValue value(String name, Map<String, TensorValue> outputs) {
        Edge e = edges.get(name);
        if (e == null) return new OnnxValue.Tensor(outputs.get(name));
        List<TensorValue> values = new ArrayList<>();
        for (String t : e.tensors()) values.add(outputs.get(t));
        return e.value(values);
    }

    /** The tensors a value holds, in order (none for an absent optional). */
    static List<TensorValue> elements(OnnxValue v) {
        if (v instanceof OnnxValue.Tensor t) return List.of(t.value());
        if (v instanceof OnnxValue.Sequence s) return s.tensors();
        OnnxValue.Optional o = (OnnxValue.Optional) v;
        return o.element() == null ? List.of() : elements(o.element());
    }
}
