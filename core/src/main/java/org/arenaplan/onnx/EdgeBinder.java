package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds an ONNX graph's sequence and optional inputs and outputs (ONNX IR, TypeProto
 * {@code sequence_type} and {@code optional_type}) to tensors, as {@link OnnxEdges} records them. A
 * plan's inputs and outputs are tensors, so an input is bound to the value given for it
 * ({@link OnnxImporter.Options#sequenceInputs}): one tensor graph input per tensor the value holds,
 * {@code x[0]}, {@code x[1]}, ... or {@code x.value}, its length, presence and element shapes fixed
 * by the value. An output is bound to the tensors the import resolved it into ({@link Sequences}),
 * each copied out by an Identity node under the same kind of name. The importer owns the graph;
 * this class reaches it through {@link Graph} only.
 */
final class EdgeBinder {

    /** What binding needs of the graph being imported. */
    interface Graph {
        /** A tensor name starting with {@code want} that no name in the file and no value takes, reserved. */
        String fresh(String want);

        /** Declares tensor graph input {@code v}, whose value is known at import to be {@code value}. */
        void input(Value v, TensorValue value);

        /** Adds an Identity node writing tensor {@code from} into a new tensor {@code to}, after the graph's nodes. */
        void copy(String from, String to);
    }

    private final String file;
    private final Map<String, OnnxValue> given;
    private final Map<String, OnnxEdges.Edge> edges = new LinkedHashMap<>();   // in file order: inputs, then outputs

    /**
     * @param file  the model, for messages
     * @param given the values given for sequence and optional graph inputs, by input name
     */
    EdgeBinder(String file, Map<String, OnnxValue> given) {
        this.file = file;
        this.given = given;
    }

    /** The sequence and optional inputs and outputs bound so far, by name. */
    Map<String, OnnxEdges.Edge> edges() {
        return edges;
    }

    /** Whether a graph input or output is declared a sequence or an optional, which the import binds. */
    static boolean bindable(OnnxModel.ValueInfo v) {
        return "a sequence".equals(v.notTensor()) || "an optional".equals(v.notTensor());
    }

    /**
     * Checks the value given for graph input {@code in}, declared a sequence or an optional:
     * there is one, of the declared kind, and it conforms to the declared type ({@link GivenValueCheck}).
     *
     * @throws OnnxException naming the file and the input: no value (saying how to give one), a value of the other kind, or one that does not conform
     */
    void check(OnnxModel.ValueInfo in) {
        OnnxValue v = given.get(in.name());
        if (v == null)
            throw new OnnxException(file + ": graph input '" + in.name() + "' is " + in.notTensor() + ", whose length and element shapes arenaplan fixes at import:"
                    + " give its value with --input " + in.name() + "=FILE.pb (" + (in.notTensor().equals("a sequence") ? "a SequenceProto" : "an OptionalProto") + ", onnx-data.proto)");
        boolean optional = in.notTensor().equals("an optional");
        if ((v instanceof OnnxValue.Optional) != optional || v instanceof OnnxValue.Tensor)
            throw new OnnxException(file + ": graph input '" + in.name() + "' is " + in.notTensor() + " but the value given for it is " + v.describe());
        GivenValueCheck.check(file, in, v);
    }

    /**
     * Binds each graph input declared a sequence or an optional that has a value, in file order; call once the file's names are reserved.
     *
     * @throws OnnxException naming the file and the element: a packed element type, more than 2^63-1 elements; or a value given for a tensor input
     */
    void bindInputs(List<OnnxModel.ValueInfo> inputs, Graph g) {
        for (OnnxModel.ValueInfo in : inputs) {
            OnnxValue v = given.get(in.name());
            if (!bindable(in) || v == null) continue;
            edges.put(in.name(), bindInput(in.name(), v, g));
        }
        for (String name : given.keySet())
            if (!edges.containsKey(name))
                throw new OnnxException(file + ": --input " + name + ": graph input '" + name + "' is a tensor (or has an initializer), not a sequence or optional; give it a TensorProto file");
    }

    /** A sequence or optional graph input bound to {@code v}: one graph input per tensor it holds ({@link OnnxEdges} names them). */
    private OnnxEdges.Edge bindInput(String name, OnnxValue v, Graph g) {
        boolean optional = v instanceof OnnxValue.Optional;
        OnnxValue inner = optional ? ((OnnxValue.Optional) v).element() : v;
        List<String> tensors = new ArrayList<>();
        List<TensorValue> elements = OnnxEdges.elements(v);
        for (int i = 0; i < elements.size(); i++) {
            TensorValue t = elements.get(i);
            String what = "graph input '" + name + "' " + (inner instanceof OnnxValue.Sequence ? "element " + i : "value");
            String tensor = g.fresh(inner instanceof OnnxValue.Sequence ? name + "[" + i + "]" : name + ".value");
            if (t.dtype().isPacked()) throw new OnnxException(file + ": " + what + " is " + t.dtype().jsonName() + ", a packed type, which a sequence or optional input does not take");
            Value val = new Value(tensor, t.dtype(), t.shape());
            if (!val.countable()) throw new OnnxException(file + ": " + what + " " + val + " has more than 2^63-1 elements");
            g.input(val, t);
            tensors.add(tensor);
        }
        return new OnnxEdges.Edge(name, optional, !optional || inner != null, inner instanceof OnnxValue.Sequence, tensors);
    }

    /** Tells {@code flow} what each bound input holds, before any node reads it. */
    void give(ControlFlow flow) {
        for (Map.Entry<String, OnnxEdges.Edge> e : edges.entrySet()) flow.given(e.getKey(), held(e.getValue()));
    }

    /** What {@link Sequences} holds for a bound input. */
    private static Object held(OnnxEdges.Edge e) {
        Object inner = e.sequence() ? new Sequences.Seq(e.tensors(), null) : e.present() ? e.tensors().get(0) : null;
        return e.optional() ? new Sequences.Opt(inner) : inner;
    }

    /**
     * The graph's tensor outputs after its nodes are imported, in file order: a tensor output
     * itself, a sequence or optional one bound to the tensors it holds ({@link #bindOutput}).
     *
     * @throws OnnxException naming the file and the output when it is declared a sequence but the nodes compute an optional, or the reverse
     */
    List<String> bindOutputs(List<OnnxModel.ValueInfo> outputs, ControlFlow flow, Graph g) {
        List<String> tensors = new ArrayList<>();
        for (OnnxModel.ValueInfo o : outputs) {
            Object held = flow.held(o.name());
            if (held == null) {                         // a tensor (the importer refuses one declared a sequence or optional)
                tensors.add(o.name());
                continue;
            }
            if (o.notTensor() != null && !o.notTensor().equals(held instanceof Sequences.Seq ? "a sequence" : "an optional"))
                throw new OnnxException(file + ": graph output '" + o.name() + "' is declared " + o.notTensor() + " but the nodes compute " + flow.notTensor(o.name()));
            OnnxEdges.Edge e = bindOutput(o.name(), held, g);
            edges.put(o.name(), e);
            tensors.addAll(e.tensors());
        }
        return tensors;
    }

    /**
     * A sequence or optional graph output: each tensor it holds copied out by an Identity node into
     * a graph output named as {@link OnnxEdges} says (a tensor may sit in a sequence twice, or be an input).
     */
    private OnnxEdges.Edge bindOutput(String name, Object held, Graph g) {
        boolean optional = held instanceof Sequences.Opt;
        Object inner = optional ? ((Sequences.Opt) held).element() : held;
        List<String> from = inner instanceof Sequences.Seq s ? s.tensors() : inner == null ? List.of() : List.of((String) inner);
        List<String> tensors = new ArrayList<>();
        for (int i = 0; i < from.size(); i++) {
            String tensor = g.fresh(inner instanceof Sequences.Seq ? name + "[" + i + "]" : name + ".value");
            g.copy(from.get(i), tensor);
            tensors.add(tensor);
        }
        return new OnnxEdges.Edge(name, optional, !optional || inner != null, inner instanceof Sequences.Seq, tensors);
    }
}
