package org.arenaplan.onnx;

import org.arenaplan.io.InputException;
import org.arenaplan.io.Printable;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns an ONNX model into an ir {@link Graph}.
 *
 * <p>Steps:
 * <ol>
 *   <li>Decode the file ({@link OnnxProtos}; model-local functions inlined by
 *       {@link LocalFunctions}); check the default-domain opset is within
 *       {@link OlderOpsets#MIN_OPSET}..{@link NodeLowering#MAX_OPSET} (below 9 each node is
 *       imported only where its op means what it means at opset 9: {@link OlderOpsets}).</li>
 *   <li>Graph inputs that are not initializers get their shapes, each symbolic dim taken from
 *       {@code dims} (by its name, or {@code INPUT.AXIS} to override any axis of an input).</li>
 *   <li>Nodes in file order are the schedule. Initializers, Constants and ConstantOfShape nodes
 *       with a constant shape are weights (read-only region): a fill when all their elements are
 *       equal, else their values as the file holds them ({@link OnnxTensors}). Constant
 *       subgraphs over weights are folded into weights: views (Reshape, Flatten, Squeeze,
 *       Unsqueeze, Identity, Dropout) share the values, Transpose and Cast compute theirs when
 *       the weight region is filled ({@link ConstantFolding}).</li>
 *   <li>Every other node is lowered ({@link NodeLowering}); view-like ops become views of
 *       their input. Shapes the file declares (graph outputs, value_info) must equal the
 *       inferred ones, unless an {@code INPUT.AXIS} override changed the input's shape; their
 *       declared element types must equal the inferred ones always. Ops with
 *       several outputs list them as {@link OptionalOutputs} says: absent trailing ones and
 *       trailing ones nothing reads are not computed.</li>
 *   <li>Concats are written in place where {@link ConcatInPlace} proves it legal.</li>
 * </ol>
 * Declared graph inputs stay graph inputs even when no node reads them (a caller may feed them);
 * a graph output that is a constant is copied out of the weight region by a {@code Copy} op.
 * If, Loop and Scan are unrolled into their bodies' nodes where what they need is known at
 * import ({@link ControlFlow}); otherwise refused. Sequence and optional values are resolved at
 * import into the tensors they hold ({@link Sequences}); a graph input that is one is bound to the
 * value given for it ({@link Options#sequenceInputs}: one tensor graph input per element), and is
 * refused without one; a graph output that is one is copied out into tensors ({@link EdgeBinder}
 * binds both; {@link OnnxEdges} records the binding).
 * A FlexAttention's score_mod and prob_mod are refused
 * (between the stages of the op). The other domains taken are ai.onnx.preview (FlexAttention)
 * and ai.onnx.preview.training (Adagrad, Adam, Momentum) and ai.onnx.ml (Binarizer, ArrayFeatureExtractor,
 * TreeEnsemble, TreeEnsembleRegressor, TreeEnsembleClassifier;
 * {@link NodeLowering#OTHER_DOMAINS}).
 * Not supported: ops from any other domain.
 */
public final class OnnxImporter {

    /**
     * @param dims          values of symbolic dims by name, or {@code INPUT.AXIS} overrides
     * @param concatInPlace write Concat inputs into slices of the output where legal
     * @param elementwiseInPlace hint elementwise ops to overwrite input 0 where it dies, and the training optimizers each updated tensor over the one it updates
     * @param donateInputs  graph inputs are donated (reusable after their last read)
     * @param inputValues   values of graph inputs known before import (e.g. the files a run will feed): an
     *                      input of at most {@link #MAX_CONSTANT_VALUES} elements that a node needs as a
     *                      constant operand (Reduce axes, Reshape's shape, Split's extents, Slice's starts,
     *                      Expand's shape, OneHot's depth, a Range's limit) is read from here (only there:
     *                      nothing is folded through a graph input, so data operands still run on the kernels),
     *                      so the graph is specialised to these values; the input stays a graph input
     * @param sequenceInputs values of the graph inputs declared a sequence or an optional (ONNX TypeProto
     *                      sequence_type, optional_type), which the import binds: each becomes one tensor graph
     *                      input per tensor it holds, their count and shapes fixed by the value ({@link OnnxEdges});
     *                      such an input without a value here is refused
     */
    public record Options(Map<String, Long> dims, boolean concatInPlace, boolean elementwiseInPlace, boolean donateInputs,
                          Map<String, TensorValue> inputValues, Map<String, OnnxValue> sequenceInputs) {
        public static final Options DEFAULT = new Options(Map.of(), true, true, false);

        public Options {
            dims = Map.copyOf(dims);
            inputValues = Map.copyOf(inputValues);
            sequenceInputs = Map.copyOf(sequenceInputs);
        }

        public Options(Map<String, Long> dims, boolean concatInPlace, boolean elementwiseInPlace, boolean donateInputs) {
            this(dims, concatInPlace, elementwiseInPlace, donateInputs, Map.of(), Map.of());
        }

        public Options(Map<String, Long> dims, boolean concatInPlace, boolean elementwiseInPlace) {
            this(dims, concatInPlace, elementwiseInPlace, false);
        }

        public Options withDims(Map<String, Long> d) { return new Options(d, concatInPlace, elementwiseInPlace, donateInputs, inputValues, sequenceInputs); }

        public Options withConcatInPlace(boolean c) { return new Options(dims, c, elementwiseInPlace, donateInputs, inputValues, sequenceInputs); }

        public Options withElementwiseInPlace(boolean e) { return new Options(dims, concatInPlace, e, donateInputs, inputValues, sequenceInputs); }

        /** Graph inputs donated: the runtime uploaded them, so their bytes may be reused after their last read. */
        public Options withDonateInputs(boolean d) { return new Options(dims, concatInPlace, elementwiseInPlace, d, inputValues, sequenceInputs); }

        /** Values of graph inputs known before import (see {@code inputValues}). */
        public Options withInputValues(Map<String, TensorValue> v) { return new Options(dims, concatInPlace, elementwiseInPlace, donateInputs, v, sequenceInputs); }

        /** Values of sequence and optional graph inputs (see {@code sequenceInputs}). */
        public Options withSequenceInputs(Map<String, OnnxValue> v) { return new Options(dims, concatInPlace, elementwiseInPlace, donateInputs, inputValues, v); }
    }

    private final String file;
    private final Options options;
    private final Map<String, Value> values = new HashMap<>();
    private final Map<String, Constant> weights = new HashMap<>();
    private final Map<String, String> dropped = new HashMap<>();        // unproduced optional output -> producing node
    private final Map<String, String> dataDependent = new HashMap<>();  // value computed from a data-dependent output -> the node of that output
    /** The rewrites of nodes that read a value read from an upper bound, or a count tied to a NonZero's runtime extent. */
    private final BoundedRewrites bounded = new BoundedRewrites(new BoundedRewrites.Importer() {
        @Override public double[] constant(String name) { return constantValues(name); }
        @Override public Value value(String name) { return values.get(name); }
        @Override public boolean isWeight(String name) { return weights.containsKey(name); }
        @Override public Value int64Weight(String want, long[] shape, long[] v, NodeContext at) { return OnnxImporter.this.int64Weight(want, shape, v, at); }
        @Override public String fresh(String want) { return OnnxImporter.this.fresh(want); }
        @Override public void node(OnnxModel.Node node, int index, long opset) { OnnxImporter.this.node(node, index, opset); }
        @Override public List<ConcatInPlace.Scheduled> schedule() { return schedule; }
        @Override public Map<String, String> dataDependent() { return dataDependent; }
    });
    /** Masked assignment over rows, read by rows; the nodes it defers until something else reads them. */
    private final RowMasks rowMasks = new RowMasks(new RowMasks.Importer() {
        @Override public Value value(String name) { return values.get(name); }
        @Override public void define(Value v, String origin) {
            values.put(v.name(), v);
            dataDependent.put(v.name(), origin);
        }
        @Override public void undefine(String name) {
            values.remove(name);
            dataDependent.remove(name);
        }
        @Override public double[] constant(String name) { return constantValues(name); }
        @Override public String origin(String name) { return dataDependent.get(name); }
        @Override public String fresh(String want) { return OnnxImporter.this.fresh(want); }
        @Override public void node(OnnxModel.Node node, int index, long opset) { OnnxImporter.this.node(node, index, opset); }
    }, bounded.counts(), bounded.shapes());
    private final List<ConcatInPlace.Scheduled> schedule = new ArrayList<>();
    /** The Ifs imported as their else branch, to be proved on the built graph. */
    private EmptyGuards emptyGuards;
    private final List<String> graphInputs = new ArrayList<>();
    private final Set<String> fileNames = new HashSet<>();             // every tensor name the file uses
    private final Set<String> usedDims = new HashSet<>();
    private boolean axisOverridden;
    /** Whether a graph input's symbolic dim ({@code dim_param}) took a value from {@code dims}: declared numbers may then be stale. */
    private boolean symbolicInput;
    private final ImportFolding folding = new ImportFolding();
    private Map<Integer, ConcatInPlace.Decision> concatDecisions = Map.of();
    private final Map<String, TensorValue> given = new HashMap<>();            // inputValues and the tensors of bound sequence inputs
    private final EdgeBinder edges;                                            // sequence and optional graph inputs and outputs
    private final List<String> fedInputs = new ArrayList<>();                  // graph inputs the caller feeds, in file order
    private final List<String> outputTensors = new ArrayList<>();              // the graph's tensor outputs, edges expanded
    private final Map<String, Integer> writers = new HashMap<>();               // the main graph's node outputs: the index of the node that writes each
    private List<OnnxModel.Node> mainNodes = List.of();
    private final Map<String, String> notKnown = new HashMap<>();              // why a value computed from constants is not one: a kernel refused them on its path

    /** An imported graph and how its ONNX inputs and outputs map onto its tensors. */
    public record Imported(Graph graph, OnnxEdges edges) { }

    private OnnxImporter(String file, Options options) {
        this.file = file;
        this.options = options;
        this.edges = new EdgeBinder(file, options.sequenceInputs());
        given.putAll(options.inputValues());
    }

    /** Imports with concat in place on; {@code dims} gives every symbolic dim a value. */
    public static Graph load(Path file, Map<String, Long> dims) {
        return load(file, Options.DEFAULT.withDims(dims));
    }

    public static Graph load(Path file, Options options) {
        return convert(OnnxProtos.read(file), file.toString(), options);
    }

    /**
     * Imports {@code file} with its sequence and optional inputs bound ({@link Options#sequenceInputs}), saying how its edges map onto tensors.
     *
     * @throws OnnxException in one line naming the file (and the node, input or output): an unreadable
     *         model, an unsupported node, a sequence or optional input without a value or with one of
     *         another kind, a value named for no such input
     */
    public static Imported importModel(Path file, Options options) {
        return importModel(OnnxProtos.read(file), file.toString(), options);
    }

    /** {@link #importModel(Path, Options)} of a decoded model; {@code file} names it in errors. @throws OnnxException as {@link #importModel(Path, Options)} */
    public static Imported importModel(OnnxModel model, String file, Options options) {
        OnnxImporter imp = new OnnxImporter(file, options).run(model);
        return new Imported(imp.build(model), new OnnxEdges(imp.fedInputs, model.graph().outputs().stream().map(OnnxModel.ValueInfo::name).toList(), imp.edges.edges()));
    }

    /**
     * The graph inputs of a model declared a sequence or an optional, by name, each with the kind
     * of value file it is read from ({@link OnnxValueFile#read}), in file order: what a caller
     * must read before import to give {@link Options#sequenceInputs}.
     *
     * @throws OnnxException naming the file when it is not a readable ONNX model
     */
    public static Map<String, Class<? extends OnnxValue>> sequenceInputs(Path file) {
        Map<String, Class<? extends OnnxValue>> kinds = new LinkedHashMap<>();
        for (OnnxModel.ValueInfo in : OnnxProtos.read(file).graph().inputs()) {
            if ("a sequence".equals(in.notTensor())) kinds.put(in.name(), OnnxValue.Sequence.class);
            if ("an optional".equals(in.notTensor())) kinds.put(in.name(), OnnxValue.Optional.class);
        }
        return kinds;
    }

    /** @param file the name used in error messages */
    public static Graph convert(OnnxModel model, String file, Options options) {
        return new OnnxImporter(file, options).run(model).build(model);
    }

    /** What {@link ConcatInPlace} decided for each Concat of a model (a report for users). */
    public static List<String> concatReport(Path file, Options options) {
        OnnxImporter imp = new OnnxImporter(file.toString(), options).run(OnnxProtos.read(file));
        List<String> lines = new ArrayList<>();
        for (ConcatInPlace.Decision d : imp.concatDecisions.values())
            lines.add(d.concat() + ": " + (d.inPlace() ? "in place" : "copy (" + d.refusal() + ")"));
        return lines;
    }

    /**
     * The values of the graph inputs' named symbolic dims ({@code dim_param}) read from the shapes
     * of the values given for them, as {@code --dim NAME=V} would give them: the first input in
     * file order naming a dim decides it. An input with no given value, a given value of another
     * rank, an input with an initializer and a sequence or optional input give none.
     *
     * @param shapes the given values' shapes by graph input name ("" for the model's one input
     *               without an initializer, where it has one); a name the file has no input of is ignored
     * @param from   where each value of {@code shapes} came from, by the same key ({@code --input x=a.pb}), for the message
     * @param known  dims given otherwise ({@code --dim}); they are not read here (each value is checked against them later)
     * @return dim name to extent, in order of appearance
     * @throws InputException when a later value gives a dim another extent than the value that decided it,
     *                        naming both sources, the inputs, their axes and the dim
     */
    public static Map<String, Long> dimsOfGiven(Path file, Map<String, long[]> shapes, Map<String, String> from, Set<String> known) {
        List<OnnxModel.ValueInfo> fed = fedInputs(OnnxProtos.read(file));
        Map<String, Long> dims = new LinkedHashMap<>();
        Map<String, String> decidedBy = new HashMap<>();
        for (OnnxModel.ValueInfo in : fed) {
            String key = shapes.containsKey(in.name()) || fed.size() > 1 ? in.name() : "";
            long[] shape = shapes.get(key);
            if (shape == null || in.notTensor() != null || !in.hasShape() || shape.length != in.dims().size()) continue;
            for (int a = 0; a < shape.length; a++) {
                OnnxModel.Dim d = in.dims().get(a);
                if (d.value() != null || d.param().isEmpty() || known.contains(d.param())) continue;
                String here = from.getOrDefault(key, "the value") + " (input '" + in.name() + "' axis " + a + ")";
                Long before = dims.putIfAbsent(d.param(), shape[a]);
                if (before == null) decidedBy.put(d.param(), here);
                else if (before != shape[a])
                    throw new InputException(from.getOrDefault(key, "the value of input '" + in.name() + "'") + ": input '" + in.name() + "' axis " + a
                            + " is dim '" + d.param() + "' = " + shape[a] + ", but " + decidedBy.get(d.param()) + " made " + d.param() + " = " + before
                            + "; give files that agree, or --dim " + d.param() + "=VALUE");
            }
        }
        return dims;
    }

    /** The symbolic dim names of a model's graph inputs, in order of appearance. */
    public static List<String> symbolicDims(Path file) {
        Set<String> names = new LinkedHashSet<>();
        for (OnnxModel.ValueInfo in : fedInputs(OnnxProtos.read(file)))
            for (OnnxModel.Dim d : in.dims()) if (d.value() == null && !d.param().isEmpty()) names.add(d.param());
        return List.copyOf(names);
    }

    /** The graph inputs a run feeds: those without an initializer of the same name (an initializer gives an input its default). */
    private static List<OnnxModel.ValueInfo> fedInputs(OnnxModel m) {
        Set<String> inits = new HashSet<>();
        for (OnnxModel.TensorData t : m.graph().initializers()) inits.add(t.name());
        return m.graph().inputs().stream().filter(in -> !inits.contains(in.name())).toList();
    }

    /**
     * A model using an op of another domain the importer takes ({@link NodeLowering#OTHER_DOMAINS}:
     * ai.onnx.preview, ai.onnx.preview.training, ai.onnx.ml) imports that domain at a version whose meaning
     * arenaplan implements (ONNX IR 3+: a model imports every domain it uses, and the version
     * decides what an op means).
     *
     * @throws OnnxException naming the file, the first such node and the version imported (or its absence)
     */
    private void checkOtherDomainOpsets(OnnxModel model) {
        for (NodeLowering.Domain d : NodeLowering.OTHER_DOMAINS) {
            OnnxModel.Node first = firstOf(model.graph().nodes(), n -> NodeLowering.otherDomain(n) == d);
            if (first == null) continue;
            Long v = model.opsets().get(d.name());
            String node = "node '" + Printable.name(first.name()) + "' (" + first.opType() + ")";
            if (v == null && model.irVersion() >= 3)
                throw new OnnxException(file + ": opset_import names no version of the " + d.name() + " domain, which " + node
                        + " uses (ONNX IR 3+: a model imports every domain it uses; " + first.opType() + " is " + d.name() + " version " + d.versions() + ")");
            if (v != null && (v < d.first() || v > d.last()))
                throw new OnnxException(file + ": opset " + v + " of the " + d.name() + " domain, which " + node
                        + " uses, is not " + (d.first() == d.last() ? "the version" : "a version") + " arenaplan imports (" + d.versions() + ")");
            OnnxModel.Node early = v == null ? null : firstOf(model.graph().nodes(), n -> NodeLowering.otherDomain(n) == d && d.since(n.opType()) > v);
            if (early != null)
                throw new OnnxException(file + ": node '" + Printable.name(early.name()) + "' (" + early.opType() + "): "
                        + early.opType() + " exists from version " + d.since(early.opType()) + " of the " + d.name() + " domain; the model imports version " + v);
        }
    }

    /** The first node that {@code matches}, in the graph or a subgraph, or null. */
    private static OnnxModel.Node firstOf(List<OnnxModel.Node> nodes, java.util.function.Predicate<OnnxModel.Node> matches) {
        for (OnnxModel.Node n : nodes) {
            if (matches.test(n)) return n;
            for (OnnxModel.Attribute a : n.attributes().values()) {
                if (!(a.value() instanceof OnnxModel.Graph g)) continue;
                OnnxModel.Node in = firstOf(g.nodes(), matches);
                if (in != null) return in;
            }
        }
        return null;
    }

    private OnnxImporter run(OnnxModel model) {
        long opset = model.defaultOpset();
        if (model.irVersion() >= 3 && !model.opsets().containsKey("") && !model.opsets().containsKey("ai.onnx")
                && model.graph().nodes().stream().anyMatch(OnnxModel.Node::inDefaultDomain))
            throw new OnnxException(file + ": opset_import names no version of the default ONNX domain, which its nodes use (ONNX IR 3+: a model imports every domain it uses)");
        checkOtherDomainOpsets(model);
        if (opset < OlderOpsets.MIN_OPSET || opset > NodeLowering.MAX_OPSET)
            throw new OnnxException(file + ": opset " + opset + " of the default ONNX domain is outside the supported range "
                    + OlderOpsets.MIN_OPSET + ".." + NodeLowering.MAX_OPSET);
        OnnxModel.Graph g = model.graph();
        for (int i = 0; opset < 9 && i < g.nodes().size(); i++)   // an old version's own attributes are not "unknown": its version is the reason
            OlderOpsets.checkVersion(g.nodes().get(i), new NodeContext(file, g.nodes().get(i), i, opset, List.of(), this::constantValues), opset);
        String unsupported = UnsupportedNodes.describe(g.nodes(), opset);
        if (unsupported != null) throw new OnnxException(file + ": " + unsupported);
        Set<String> read = new HashSet<>();
        ControlFlow.reads(g.nodes(), read);
        for (OnnxModel.ValueInfo o : g.outputs()) read.add(o.name());
        Set<String> unread = new HashSet<>();
        for (OnnxModel.TensorData t : g.initializers()) {
            if (DType.ofOnnx(t.dataType()) == null && !read.contains(t.name())) {      // a weight nothing reads need not have a type arenaplan has
                unread.add(t.name());
                continue;
            }
            DType dt = dtype(t.dataType(), "initializer '" + t.name() + "'");
            Value v = new Value(t.name(), dt, t.dims());
            if (!v.countable()) throw new OnnxException(file + ": initializer " + v + " has more than 2^63-1 elements");
            if (values.putIfAbsent(t.name(), v) != null)
                throw new OnnxException(file + ": initializer '" + t.name() + "' is given twice (a graph names each value once: ONNX IR, static single assignment)");
            weights.put(t.name(), Constant.of(t.source(), dt));
        }
        Set<String> listedInputs = new HashSet<>();
        for (OnnxModel.ValueInfo in : g.inputs()) {
            if (!listedInputs.add(in.name()))
                throw new OnnxException(file + ": graph input '" + in.name() + "' is listed twice (a graph names each value once: ONNX IR, static single assignment)");
            if (unread.contains(in.name())) continue;
            if (values.containsKey(in.name())) {             // IR < 4 lists initializers as inputs too; from IR 4 the initializer is the input's default
                checkDefault(in, values.get(in.name()));
                continue;
            }
            fedInputs.add(in.name());
            if (EdgeBinder.bindable(in)) {
                edges.check(in);
                continue;                                   // bound below, once the file's names are known
            }
            if (in.notTensor() != null)
                throw new OnnxException(file + ": graph input '" + in.name() + "' is " + in.notTensor()
                        + ", not a tensor: arenaplan plans tensors only " + NOT_AT_THE_EDGE);
            values.put(in.name(), new Value(in.name(), dtype(in.elemType(), "graph input '" + in.name() + "'"), inputShape(in)));
            graphInputs.add(in.name());
        }
        for (OnnxModel.ValueInfo o : g.outputs())
            if (o.notTensor() != null && !EdgeBinder.bindable(o)) throw notATensorOutput(o.name(), o.notTensor());
        checkDimsUsed();
        Set<String> unknown = new TreeSet<>(options.inputValues().keySet());
        unknown.addAll(options.sequenceInputs().keySet());
        unknown.removeAll(listedInputs);
        if (!unknown.isEmpty())   // before any node: a shape operand's refusal would hide the misspelt name
            throw new OnnxException(file + ": --input names no graph input of this model: " + unknown + " (its graph inputs: " + graphInputs + ")");
        for (String name : options.inputValues().keySet())
            if (!graphInputs.contains(name))   // listed, but its initializer made it a weight above
                throw new OnnxException(file + ": --input " + name + ": graph input '" + name + "' has an initializer, its default value (ONNX IR 4+), which arenaplan"
                        + " plans as a constant weight; it takes no other value (its graph inputs without one: " + graphInputs + ")");
        fileNames.addAll(values.keySet());
        mainNodes = g.nodes();
        for (int i = 0; i < g.nodes().size(); i++)
            for (String out : g.nodes().get(i).outputs()) {
                fileNames.add(out);
                if (!out.isEmpty()) writers.putIfAbsent(out, i);
            }
        for (OnnxModel.ValueInfo o : g.outputs()) fileNames.add(o.name());
        for (OnnxModel.ValueInfo in : g.inputs()) fileNames.add(in.name());   // a sequence input's too: no element of another takes its name
        EdgeBinder.Graph graph = new EdgeBinder.Graph() {
            @Override public String fresh(String want) { return OnnxImporter.this.fresh(want); }
            @Override public void input(Value v, TensorValue value) {
                values.put(v.name(), v);
                graphInputs.add(v.name());
                given.put(v.name(), value);
            }
            @Override public void copy(String from, String to) {
                node(new OnnxModel.Node(to, "Identity", "", List.of(from), List.of(to), Map.of()), g.nodes().size(), opset);
            }
        };
        edges.bindInputs(g.inputs(), graph);
        ControlFlow flow = new ControlFlow(new ControlFlow.Importer() {
            @Override public void node(OnnxModel.Node node, int index) { OnnxImporter.this.node(node, index, opset); }
            @Override public Value value(String name) { return values.get(name); }
            @Override public double[] constant(String name) { return constantValues(name); }
            @Override public void weight(Value v, Constant c, NodeContext at) { addWeight(v, c, at); }
            @Override public NodeContext context(OnnxModel.Node node, int index) { return new NodeContext(file, node, index, opset, List.of(), OnnxImporter.this::constantValues); }
            @Override public String fresh(String want) { return OnnxImporter.this.fresh(want); }
            @Override public EmptyGuards emptyGuards() { return emptyGuards; }
            @Override public void readAsConstant(String name, String reader) {
                BoundShapes.Read r = bounded.boundRead(name);
                if (r != null) bounded.shapes().readAsConstant(r, reader);
            }
        });
        Map<String, OnnxModel.Node> producers = new HashMap<>();
        for (OnnxModel.Node node : g.nodes()) for (String o : node.outputs()) producers.put(o, node);
        emptyGuards = new EmptyGuards(new EmptyGuards.Importer() {
            @Override public OnnxModel.Node producer(String name) { return producers.get(name); }
            @Override public double[] constant(String name) { return constantValues(name); }
            @Override public String counted(String name) { return bounded.counted(name); }
            @Override public Value value(String name) { return values.get(name); }
        });
        try {
            edges.give(flow);
            for (int i = 0; i < g.nodes().size(); i++) flow.top(g.nodes().get(i), i);
            outputTensors.addAll(edges.bindOutputs(g.outputs(), flow, graph));   // checkDeclaredType refuses a tensor declared a sequence or optional
            rowMasks.finish(outputTensors);
        } finally {
            folding.close();
        }
        Set<String> outputNames = new HashSet<>(outputTensors);
        OptionalOutputs.prune(schedule, outputNames);
        for (OnnxModel.ValueInfo v : g.outputs()) checkDeclaredType(v, "graph output");
        for (OnnxModel.ValueInfo v : g.valueInfo()) checkDeclaredType(v, "value_info");
        if (!axisOverridden) {
            for (OnnxModel.ValueInfo v : g.outputs()) checkDeclared(v, "graph output");
            for (OnnxModel.ValueInfo v : g.valueInfo()) checkDeclared(v, "value_info");
        }
        if (options.concatInPlace()) concatDecisions = ConcatInPlace.decide(schedule, outputNames);
        return this;
    }

    /** Why a graph input or output may not be a map, sparse tensor or opaque value (the end of the one-line refusal). */
    private static final String NOT_AT_THE_EDGE = "(map, sparse tensor and opaque values are not supported at graph inputs and outputs;"
            + " a sequence or optional is, bound at import to the value given for it)";

    private OnnxException notATensorOutput(String name, String what) {
        return new OnnxException(file + ": graph output '" + name + "' is " + what + ", not a tensor: arenaplan plans tensors only " + NOT_AT_THE_EDGE);
    }

    private DType dtype(int code, String what) {
        String problem = OnnxDTypes.problem(code);
        if (problem != null) throw new OnnxException(file + ": " + what + (code != 0 && OnnxDTypes.name(code) != null
                ? " has ONNX element type " + OnnxDTypes.describe(code) + ", which arenaplan does not support"
                : " has element type code " + code + ", which " + problem));
        return DType.ofOnnx(code);
    }

    /**
     * A graph input that an initializer of the same name gives its default value (ONNX IR,
     * "Graphs": the initializer's type and shape are the input's): the input's declared element
     * type and every declared fixed extent must be the initializer's, else the model is refused
     * naming both (the importer plans the initializer; a disagreement surfaced later as an
     * output that infers to another shape).
     *
     * @throws OnnxException naming the input, its declaration and the initializer's
     */
    private void checkDefault(OnnxModel.ValueInfo in, Value init) {
        String both = file + ": graph input '" + in.name() + "' is declared ";
        String its = " but its initializer (the input's default value) is ";
        if (in.notTensor() != null) throw new OnnxException(both + in.notTensor() + its + "a tensor");
        DType declared = in.elemType() == 0 ? null : DType.ofOnnx(in.elemType());
        if (in.elemType() != 0 && declared != init.dtype())
            throw new OnnxException(both + (declared == null ? "of element type " + in.elemType() : declared.jsonName()) + its + init.dtype().jsonName());
        if (!in.hasShape()) return;
        boolean agree = in.dims().size() == init.shape().length;
        for (int a = 0; agree && a < init.shape().length; a++)
            agree = in.dims().get(a).value() == null || in.dims().get(a).value() == init.shape()[a];
        if (!agree)
            throw new OnnxException(both + in.dims().stream().map(d -> d.value() != null ? d.value().toString() : d.param().isEmpty() ? "?" : d.param()).toList()
                    + its + Arrays.toString(init.shape()));
    }

    private long[] inputShape(OnnxModel.ValueInfo in) {
        if (!in.hasShape()) throw new OnnxException(file + ": graph input '" + in.name() + "' declares no shape (not even its rank); the importer needs one in the file");
        long[] shape = new long[in.dims().size()];
        for (int a = 0; a < shape.length; a++) {
            OnnxModel.Dim d = in.dims().get(a);
            String axisKey = in.name() + "." + a;
            Long v = options.dims().get(axisKey);
            if (v != null) {
                usedDims.add(axisKey);
                axisOverridden = true;
            } else if (d.value() != null) {
                v = d.value();
            }
            if (v == null && !d.param().isEmpty() && options.dims().containsKey(d.param())) {
                v = options.dims().get(d.param());
                usedDims.add(d.param());
                symbolicInput = true;
            }
            if (v == null) {
                String name = d.param().isEmpty() ? axisKey : d.param();
                throw new OnnxException(file + ": graph input '" + in.name() + "' axis " + a + " is symbolic ('" + name + "') and has no value; give one with --dim " + name + "=VALUE");
            }
            if (v < 0) throw new OnnxException(file + ": graph input '" + in.name() + "' axis " + a + " has negative extent " + v);
            shape[a] = v;
        }
        if (!new Value(in.name(), DType.F32, shape).countable())
            throw new OnnxException(file + ": graph input '" + in.name() + "' " + Arrays.toString(shape) + " has more than 2^63-1 elements");
        return shape;
    }

    /**
     * A declared element type (ONNX {@code TypeProto.Tensor.elem_type}; 0 = not given) must be the
     * inferred one: a graph output declared int32 that the nodes compute as f32 is refused, not
     * written as f32 under an int32 name. Dim overrides do not change types, so this always runs.
     * A declaration that is no tensor type at all (a sequence, an optional, a map or a sparse
     * tensor: ONNX {@code TypeProto}'s other cases) for a value the nodes compute as a tensor is
     * refused too, as onnx's checker refuses it ("type case mismatch").
     *
     * @throws OnnxException naming the file, {@code what} and the value, declared and inferred types
     */
    private void checkDeclaredType(OnnxModel.ValueInfo declared, String what) {
        Value inferred = values.get(declared.name());
        if (inferred == null) return;
        if (declared.notTensor() != null)   // onnx's checker: "type case mismatch" / "has unsupported type: seq(tensor(float))"
            throw new OnnxException(file + ": " + what + " '" + declared.name() + "' is declared " + declared.notTensor()
                    + " but the nodes compute it as a tensor (" + inferred.dtype().jsonName() + " " + Arrays.toString(inferred.shape())
                    + "): arenaplan plans tensors only (sequence, optional and map values are not supported)");
        if (declared.elemType() == 0) return;
        if (declared.elemType() != inferred.dtype().onnxCode()) {
            DType d = DType.ofOnnx(declared.elemType());
            throw new OnnxException(file + ": " + what + " '" + declared.name() + "' is declared with element type "
                    + (d == null ? OnnxDTypes.describe(declared.elemType()) : d.jsonName() + " (ONNX data_type " + declared.elemType() + ")") + " but infers to "
                    + inferred.dtype().jsonName() + " (ONNX data_type " + inferred.dtype().onnxCode() + ", from the nodes that compute it)");
        }
    }

    /**
     * A declared shape whose dims are all known (numbers, or symbols given in dims) must match the
     * inferred one. In a model whose graph inputs have symbolic dims given values, a declared
     * <em>number</em> may be the extent of the shapes the model was exported at (PyTorch's dynamo
     * exporter declares a bidirectional LSTM's output {@code [s77, 16, 10]} for an input
     * {@code [s77, s27]}): a mismatch only on such axes is stale, not wrong, and the inferred shape
     * stands, as ONNX Runtime runs such a model (it warns that the shapes differ). A declared shape
     * of as many elements as the inferred one is taken as stale too, and the inferred shape stands:
     * PyTorch's TorchScript exporter declares {@code scatter_reduce(..., "amax")}'s output at opsets
     * 16/17 {@code [15]} (the shape of its If's other branch, which flattens a 0-d input) where the
     * nodes compute {@code [3, 5]}; the bytes are the same, in the same order, and ONNX Runtime
     * runs it with the inferred shape (onnxruntime/core/graph/graph.cc, MergeShapeInfo: below the
     * latest opset a conflicting declared shape is "Falling back to lenient merge", a warning).
     * Any other mismatch (a declared symbol, or another element count, in a model without symbolic
     * input dims) is refused: a reader of the declared shape would read other bytes.
     *
     * @throws OnnxException naming the file, {@code what}, the value, and both shapes
     */
    private void checkDeclared(OnnxModel.ValueInfo declared, String what) {
        Value inferred = values.get(declared.name());
        if (!declared.hasShape() || inferred == null) return;
        long[] want = new long[declared.dims().size()];
        boolean staleOnly = symbolicInput && want.length == inferred.rank();
        for (int a = 0; a < want.length; a++) {
            OnnxModel.Dim d = declared.dims().get(a);
            Long v = d.value() != null ? d.value() : options.dims().get(d.param());
            if (v == null) return;
            want[a] = v;
            if (staleOnly && d.value() == null && v != inferred.shape()[a]) staleOnly = false;
        }
        Value declaredShape = new Value("", DType.F32, want);
        boolean sameBytes = declared.dims().stream().allMatch(d -> d.value() != null) && declaredShape.countable()
                && declaredShape.elements() == inferred.elements() && !dataDependent.containsKey(declared.name());
        if (!Arrays.equals(want, inferred.shape()) && !staleOnly && !sameBytes && !withinBound(declared.name(), want, inferred.shape()))
            throw new OnnxException(file + ": " + what + " '" + declared.name() + "' is declared " + Arrays.toString(want) + " but infers to "
                    + Arrays.toString(inferred.shape()) + " (from the nodes that compute it)");
    }

    /**
     * Whether {@code name} is a data-dependent output ({@link org.arenaplan.ir.OpSpec.BoundedRule}),
     * or computed from one, declared with an actual extent: its upper bound {@code bound} on every
     * axis but one (the one the kind's rule names, for a data-dependent output itself), and at most
     * the bound there (the file records the shape of one run, as the backend tests' NonZero does).
     */
    private boolean withinBound(String name, long[] declared, long[] bound) {
        if (!dataDependent.containsKey(name) || declared.length != bound.length) return false;
        int axis = bounded.directBoundedAxis(name);   // computed from a data-dependent output: its bounded axis is found when the graph is built (ir.OpSpec.BoundedFlow), -1 here
        int differ = 0;
        for (int a = 0; a < bound.length; a++) {
            if (declared[a] > bound[a] || (axis >= 0 && a != axis && declared[a] != bound[a])) return false;
            if (declared[a] != bound[a]) differ++;
        }
        return differ <= 1;
    }

    /** Whether kind {@code kind} reads a bounded tensor ({@link org.arenaplan.ir.OpSpec.BoundedFlow}); the graph refuses any other reader of one. */
    private static boolean readsBounded(String kind) {
        org.arenaplan.ir.OpSpec spec = org.arenaplan.ir.OpRegistry.get(kind);
        return spec == null || spec.carries() != null;
    }

    private void checkDimsUsed() {
        Set<String> unused = new TreeSet<>(options.dims().keySet());
        unused.removeAll(usedDims);
        if (!unused.isEmpty())
            throw new OnnxException(file + ": --dim names no symbolic dim or input axis of this model: " + unused + " (its graph inputs: "
                    + graphInputs.stream().map(n -> n + Arrays.toString(values.get(n).shape())).toList() + ")");
    }

    /** A value name no file name and no value holds yet, {@code want} or {@code want} with {@code _} added. */
    private String fresh(String want) {
        String name = want;
        while (fileNames.contains(name) || values.containsKey(name)) name += "_";
        fileNames.add(name);
        return name;
    }

    private void node(OnnxModel.Node node, int index, long opset) {
        List<Value> ins = new ArrayList<>();
        NodeContext probe = new NodeContext(file, node, index, opset, List.of(), this::constantValues);
        node = OlderOpsets.adapt(node, probe, opset, new OlderOpsets.Rewrites() {
            @Override public String floats(String want, float[] v) {
                String name = fresh(want);
                addWeight(new Value(name, DType.F32, new long[]{v.length}), Constant.ofFloats(v), probe);
                return name;
            }
            @Override public long[] shape(String value) {
                Value v = values.get(value);
                return v == null ? null : v.shape();
            }
            @Override public String unsqueeze(String name, String input, long[] axes) {
                String out = fresh(name);
                OnnxImporter.this.node(new OnnxModel.Node(out, "Unsqueeze", "", List.of(input), List.of(out),
                        Map.of("axes", new OnnxModel.Attribute("axes", OnnxModel.Attribute.INTS, axes))), index, opset);
                return out;
            }
        });
        if (rowMasks.take(node, index, opset)) return;
        for (String in : node.inputs()) {
            if (in.isEmpty()) { ins.add(null); continue; }
            Value v = values.get(in);
            if (v == null && dropped.containsKey(in))
                throw probe.error("reads '" + Printable.name(in) + "', an optional output of node '" + Printable.name(dropped.get(in)) + "' that inference does not produce");
            Integer writer = writers.get(in);
            if (v == null && writer != null && writer == index)
                throw probe.error("reads '" + Printable.name(in) + "', which it writes itself: a cycle (ONNX IR: a graph's nodes are topologically sorted, each reading only values defined before it)");
            if (v == null && writer != null && writer > index) {
                OnnxModel.Node w = mainNodes.get(writer);
                throw probe.error("reads '" + Printable.name(in) + "', which node '" + Printable.name(w.name()) + "' (" + Printable.name(w.opType()) + ", #" + writer
                        + ") writes only later: the nodes are out of topological order, or form a cycle (ONNX IR: a graph's nodes are topologically sorted)");
            }
            if (v == null) throw probe.error("reads '" + Printable.name(in) + "', which no earlier node, initializer or graph input defines");
            ins.add(v);
        }
        node = bounded.reshapeByBoundShape(node, ins, opset, probe);
        node = bounded.sliceByBoundShape(node, ins, probe);
        node = bounded.expandByBoundShape(node, ins, probe);
        node = bounded.splitWithinBound(node, ins, opset, probe);
        NodeContext n = new NodeContext(file, node, index, opset, ins, this::constantValues, this::knownValue, this::whyNotKnown);
        OlderOpsets.checkShapes(node, ins, n, opset);
        if (!org.arenaplan.ir.PackedTypes.ONNX_TYPES.contains(node.opType()))
            for (Value v : ins)
                if (v != null && v.dtype().isPacked()) throw n.error(org.arenaplan.ir.PackedTypes.refusal(node.opType(), v.name(), v.dtype()));
        if (bounded.elementCount(node, ins, index, opset, n)) return;   // ReduceProd(Shape(X)), X bounded: the actual count, computed in the run
        Lowered toExtent = bounded.expandToExtentOf(node, ins);
        if (toExtent != null) {   // Expand(X, [.., count, ..]), the count a NonZero's runtime extent: ExpandAs by its output, checked when the graph is built
            for (Value v : toExtent.outputs()) define(v, n);
            for (Value v : toExtent.outputs()) dataDependent.put(v.name(), dataDependent.get(toExtent.inputs().get(1)));
            schedule.add(new ConcatInPlace.Scheduled(n.opName(), toExtent));
            return;
        }
        Value expandAs = bounded.expandAsOf(node, ins);
        BoundShapes.Read carried = expandAs == null ? bounded.shapes().carried(node, ins, this::constantValues) : null;
        if (carried != null) bounded.shapes().put(node.outputs().get(0), carried);   // whichever way the node is imported (folded, a view of a constant, run)
        if (expandAs == null && carried == null && !bounded.readsAtMost(node, ins) && !bounded.slices().reads(node, ins))
            for (Value v : ins) {
                BoundShapes.Read r = v == null ? null : bounded.boundRead(v.name());
                if (r != null) bounded.shapes().readAsConstant(r, "'" + n.opName() + "' (" + node.opType() + ")");
            }
        if (expandAs == null && ConstantFolding.folds(n, weights.keySet())) {
            for (Map.Entry<Value, Constant> e : ConstantFolding.fold(n, weights).entrySet()) addWeight(e.getKey(), e.getValue(), n);
            return;
        }
        if (bounded.nonZeroAgain(node, ins, index, opset)) return;
        bounded.recordCount(node, ins, opset, n);
        String origin = null;   // the node whose data-dependent output (ir.OpSpec.BoundedRule) this one reads, directly or not
        for (Value v : ins) if (v != null && dataDependent.containsKey(v.name())) origin = dataDependent.get(v.name());
        if (ImportTimeOps.TYPES.contains(node.opType())) {
            OnnxException refusal = origin == null ? null : n.error("reads a tensor computed from a data-dependent output of node '" + origin
                    + "', whose shape is known only after its kernel runs; " + node.opType() + " is evaluated at import, from the upper bound");
            if (refusal != null && !node.opType().equals("Shape")) throw refusal;
            for (Map.Entry<Value, Constant> e : ImportTimeOps.evaluate(n).entrySet()) {
                addWeight(e.getKey(), e.getValue(), n);
                int rank = ins.get(0).shape().length;
                long start = ImportTimeOps.clamp(n.integer("start", 0), rank);
                if (refusal != null) bounded.shapes().shape(e.getKey().name(), ins.get(0), start, start + e.getKey().shape()[0], refusal);
            }
            return;
        }
        if (origin != null && (bounded.gatherAcrossBoundedAxis(node, ins, index, opset) || bounded.gatherNdAsGather(node, ins, index, opset, n))) return;
        if (expandAs != null) {   // Expand(X, Shape(Y)), Y bounded: ExpandAs(X, Y), checked when the graph is built (ir.BoundedFlows.expandAs)
            Value x = ins.get(0);
            n.require(node.outputs().size() == 1 && !node.outputs().get(0).isEmpty(), "has no output");
            Lowered l = new Lowered(org.arenaplan.ir.OpKinds.EXPAND_AS, List.of(x.name(), expandAs.name()), List.of(new Value(node.outputs().get(0), x.dtype(), expandAs.shape())),
                    Map.of(), false, List.of());
            for (Value v : l.outputs()) define(v, n);
            for (Value v : l.outputs()) dataDependent.put(v.name(), origin);
            schedule.add(new ConcatInPlace.Scheduled(n.opName(), l));
            bounded.recordCounts(node, ins, l);   // X of Y's shape: a copy (the graph refuses an unbounded X where Y is bounded)
            return;
        }
        switch (node.opType()) {
            case "ConstantOfShape" -> constantOfShape(n);
            case "Constant" -> constant(n);
            default -> {
                Lowered l;
                try {
                    l = NodeLowering.lower(n);
                } catch (ArithmeticException e) {
                    throw n.error("a tensor size overflows a long (inputs " + n.shapes() + ")");
                } catch (OnnxException e) {
                    throw origin == null ? e : atBound(e, ins);
                }
                for (Value v : l.outputs())
                    if (!v.countable()) throw n.error("output " + v + " has more than 2^63-1 elements (inputs " + n.shapes() + ")");
                if (!org.arenaplan.ir.PackedTypes.ONNX_TYPES.contains(node.opType()))
                    for (Value v : l.outputs())
                        if (v.dtype().isPacked()) throw n.error(org.arenaplan.ir.PackedTypes.refusal(node.opType(), v.name(), v.dtype()));
                l = namedStandIns(l, n);
                if (origin != null) l = bounded.slices().withExtent(bounded.withClampedK(bounded.withRest(bounded.withConcatExtents(bounded.withPartExtents(bounded.withReshapeExtent(l))))));
                if (origin != null)   // an output made a constant at import (Dropout's mask) has the upper bound's shape, not the run's
                    for (Value c : l.constants().keySet())
                        if (node.outputs().contains(c.name()))
                            throw n.error("reads a tensor computed from a data-dependent output of node '" + origin + "', whose shape is known only after its kernel runs; its output '"
                                    + c.name() + "' is a constant made at import, of the upper bound's shape " + java.util.Arrays.toString(c.shape()));
                for (Map.Entry<Value, Double> c : l.constants().entrySet()) addWeight(c.getKey(), Constant.fill(c.getValue()), n);
                for (Map.Entry<Value, TensorValue> c : l.tables().entrySet())
                    addWeight(c.getKey(), Constant.of(Constant.bytes(java.nio.ByteBuffer.wrap(c.getValue().bytes())), c.getValue().dtype()), n);
                for (String d : l.dropped()) dropped.put(d, n.opName());
                if (l.view() && weights.containsKey(l.inputs().get(0))) {
                    Value base = values.get(l.inputs().get(0)), view = l.outputs().get(0);
                    if (view.elements() == base.elements() && view.dtype() == base.dtype()) {
                        addWeight(view, weights.get(base.name()), n);   // the view shares its base's values
                        return;
                    }
                    l = new Lowered(l.kind(), l.inputs(), l.outputs(), l.attrs(), false, l.dropped());   // part of a weight: computed
                }
                Map<Value, Constant> folded = folding.fold(l, values, this::constantTensor);
                if (folded != null) {
                    for (Map.Entry<Value, Constant> e : folded.entrySet()) addWeight(e.getKey(), e.getValue(), n);
                    return;
                }
                if (carried != null) bounded.shapes().readAsConstant(carried, "'" + n.opName() + "' (" + node.opType() + ")");
                String why = folding.refusal() != null ? "node '" + n.opName() + "' (" + node.opType() + ", #" + index + ") could not be evaluated at import: " + folding.refusal()
                        : l.inputs().stream().map(notKnown::get).filter(java.util.Objects::nonNull).findFirst().orElse(null);
                if (why != null) for (Value v : l.outputs()) notKnown.put(v.name(), why);
                Map<String, TensorValue> derived = given.isEmpty() ? null : folding.evaluate(l, values, this::knownValue, MAX_DERIVED_VALUES);
                if (derived != null) known.putAll(derived);      // for shape operands downstream; the op still runs
                for (Value v : l.outputs()) define(v, n);
                boolean flows = origin != null && readsBounded(l.kind());   // a kind that reads no bounded tensor is refused where it does, so its outputs are never bounded
                for (Value v : l.outputs())
                    if (flows || BoundedRewrites.boundedAxis(n.opName(), l, v.name(), v.shape()) >= 0) dataDependent.put(v.name(), flows ? origin : n.opName());
                schedule.add(new ConcatInPlace.Scheduled(n.opName(), l));
                bounded.recordCounts(node, ins, l);
            }
        }
    }

    /**
     * {@code refusal} of a node's shapes, one of whose inputs is computed from a data-dependent
     * output, with that input named (with all such inputs, where they are held at different upper
     * bounds: Split-18's num_outputs parts of a bound 5, [3] and [2], added): its shape is the upper bound, where the other shapes may hold a
     * count of one run (an Expand by {@code ReduceSum} of a mask given with {@code --input}: the
     * dynamo exporter's {@code y[mask] = v}), so the mismatch is the bound's, not the file's.
     */
    private OnnxException atBound(OnnxException refusal, List<Value> ins) {
        List<Value> held = ins.stream().filter(i -> i != null && dataDependent.containsKey(i.name())).distinct().toList();
        Value v = held.get(0);
        if (held.size() > 1 && held.stream().anyMatch(i -> !Arrays.equals(i.shape(), v.shape()))) {   // Split-18's num_outputs parts added: [3] and [2] of a bound 5
            java.util.function.Function<java.util.function.Function<Value, String>, String> each =
                    f -> held.stream().map(f).distinct().collect(java.util.stream.Collectors.joining(" and "));
            return new OnnxException(refusal.getMessage() + "; " + each.apply(i -> "'" + i.name() + "'") + " are computed from data-dependent outputs (node "
                    + each.apply(i -> "'" + dataDependent.get(i.name()) + "'") + ") and held at their upper bounds " + each.apply(i -> Arrays.toString(i.shape()))
                    + ", their actual extents known only after the run: ONNX takes their actual shapes, which may fit in one run and not in another, and arenaplan"
                    + " does not plan an op over inputs held at different upper bounds", refusal);
        }
        return new OnnxException(refusal.getMessage() + "; '" + v.name() + "' is computed from a data-dependent output of node '" + dataDependent.get(v.name())
                + "' and held at its upper bound " + Arrays.toString(v.shape()) + ", its actual extent known only after that kernel runs", refusal);
    }

    /** A new int64 weight of {@code shape} holding {@code v}, named {@code want} or a fresh variant of it, made for node {@code at}. */
    private Value int64Weight(String want, long[] shape, long[] v, NodeContext at) {
        Value w = new Value(fresh(want), DType.I64, shape);
        addWeight(w, Constant.ofLongs(v), at);
        return w;
    }

    /** {@code l} with each output the file left out before a present one named ({@link OptionalOutputs#standIn}). */
    private Lowered namedStandIns(Lowered l, NodeContext n) {
        if (l.outputs().stream().noneMatch(v -> v.name().isEmpty())) return l;
        List<Value> outs = new ArrayList<>();
        for (int k = 0; k < l.outputs().size(); k++) {
            Value v = l.outputs().get(k);
            if (v.name().isEmpty()) {
                v = new Value(OptionalOutputs.standIn(n.opName(), k, fileNames), v.dtype(), v.shape());
                fileNames.add(v.name());
            }
            outs.add(v);
        }
        return new Lowered(l.kind(), l.inputs(), outs, l.attrs(), l.view(), l.dropped(), l.constants(), l.tables());
    }

    private void define(Value v, NodeContext n) {
        if (values.putIfAbsent(v.name(), v) != null) throw n.error("writes '" + v.name() + "', which is already defined");
    }

    private void addWeight(Value v, Constant c, NodeContext n) {
        define(v, n);
        weights.put(v.name(), c);
    }

    /**
     * The values of a constant known at import (a weight of at most {@link #MAX_CONSTANT_VALUES}
     * elements, or an integer graph input of that size whose value the caller gave), else null.
     */
    private double[] constantValues(String name) {
        Constant c = weights.get(name);
        Value v = values.get(name);
        if (c == null && known.containsKey(name)) return known.get(name).doubles();
        TensorValue given = this.given.get(name);
        if (c == null && v != null && given != null && graphInputs.contains(name) && v.elements() <= MAX_CONSTANT_VALUES
                && given.dtype() == v.dtype() && Arrays.equals(given.shape(), v.shape())) return given.doubles();
        if (c == null || v == null || v.elements() > MAX_CONSTANT_VALUES) return null;
        if (c.fill() != null) {
            double[] d = new double[(int) v.elements()];
            Arrays.fill(d, c.fill());
            return d;
        }
        return c.values() == null ? null : OnnxTensors.doubles(c.values(), v.dtype(), v.elements());
    }

    /**
     * Values known at import for a tensor that is not a constant: a graph input given in
     * {@link Options#inputValues}, or what an op computes from such values (evaluated at import
     * as {@link ImportFolding} folds, while the op itself still runs). Shape operands read them
     * (an expanded CenterCropPad computes its Pad's pads from the input 'shape'); only tensors of
     * at most {@link #MAX_DERIVED_VALUES} elements are carried, so data never runs twice.
     */
    private final Map<String, TensorValue> known = new HashMap<>();

    /** The most elements of a tensor whose value is derived at import from given graph inputs (shape-sized: a rank's worth of pads or extents). */
    static final long MAX_DERIVED_VALUES = 16;

    /** A constant's values, a derived value, or a given graph input's value. */
    private TensorValue knownValue(String name) {
        TensorValue t = constantTensor(name);
        if (t != null) return t;
        if (known.containsKey(name)) return known.get(name);
        Value v = values.get(name);
        TensorValue given = this.given.get(name);
        if (v == null || given == null || !graphInputs.contains(name) || weights.containsKey(name)) return null;
        return given.dtype() == v.dtype() && Arrays.equals(given.shape(), v.shape()) ? given : null;
    }

    /** The values of a constant known at import, with its type and shape (as {@link #constantValues} limits them), else null. */
    private TensorValue constantTensor(String name) {
        Constant c = weights.get(name);
        Value v = values.get(name);
        if (c == null || v == null || v.elements() > MAX_CONSTANT_VALUES) return null;
        if (c.fill() != null) {
            double[] d = new double[(int) v.elements()];
            Arrays.fill(d, c.fill());
            return TensorValue.ofDoubles(v.dtype(), v.shape(), d);
        }
        if (c.values() == null) return null;
        ByteBuffer b = c.values().read().order(ByteOrder.LITTLE_ENDIAN);
        byte[] bytes = new byte[Math.toIntExact(v.dtype().byteSize(v.elements()))];
        b.get(bytes);
        return new TensorValue(v.dtype(), v.shape(), bytes);
    }

    /**
     * Why a value a node needs as a constant is not known at import although it may look like one:
     * a kernel refused the constants on its path ({@link #notKnown}), or it is a weight past
     * {@link #MAX_CONSTANT_VALUES} elements (breakonnx: a 100,000-entry Reshape shape was said to be
     * "not a constant"); else null.
     */
    private String whyNotKnown(String name) {
        String why = notKnown.get(name);
        Value v = values.get(name);
        if (why != null || v == null || !weights.containsKey(name) || !v.countable() || v.elements() <= MAX_CONSTANT_VALUES) return why;
        return String.format("'%s' holds %,d elements, more than the %,d an operand read at import may hold", name, v.elements(), MAX_CONSTANT_VALUES);
    }

    /** Constants with more elements are not read at import: operands such as shapes and axes are small. */
    static final long MAX_CONSTANT_VALUES = 1 << 16;

    /** A weight of the given shape, every element the 'value' attribute (0.0f by default). */
    private void constantOfShape(NodeContext n) {
        long[] shape = n.constantInts(0, "the shape");
        OnnxModel.TensorData value = n.tensor("value");
        DType dt = value == null ? DType.F32 : dtype(value.dataType(), "attribute 'value' of node '" + n.opName() + "'");
        n.require(!dt.isPacked(), "attribute 'value' is " + dt.jsonName() + ", a packed sub-byte type, which ConstantOfShape does not fill here");
        n.require(value == null || (value.elementCount() == 1 && value.source() != null), "attribute 'value' must hold exactly one element");
        for (long d : shape) if (d < 0) throw n.error("shape " + Arrays.toString(shape) + " has a negative extent");
        Value out = new Value(n.node().outputs().get(0), dt, shape);
        n.require(out.countable(), "output " + out + " has more than 2^63-1 elements (the shape is input #0)");
        Double fill = value == null ? Double.valueOf(0.0) : value.uniform();
        if (fill == null) {   // an int64 beyond 2^53, which a double fill would round: its bytes repeated
            n.require(out.countable() && dt.byteSize(out.elements()) <= Integer.MAX_VALUE, "output " + out + " of the int64 value "
                    + dt.getLong(value.source().read().order(ByteOrder.LITTLE_ENDIAN), 0) + " (beyond 2^53) exceeds 2 GiB, the most arenaplan holds repeated");
            addWeight(out, Constant.repeated(value.source(), dt, out.elements()), n);
            return;
        }
        addWeight(out, Constant.fill(fill), n);
    }

    /** Constant's value attributes, of which a node gives exactly one (Constant-12's schema; onnx's checker and shape inference refuse two). */
    private static final List<String> CONSTANT_VALUES = List.of("value", "value_int", "value_ints", "value_float", "value_floats", "value_string", "value_strings", "sparse_value");

    private void constant(NodeContext n) {
        List<String> given = CONSTANT_VALUES.stream().filter(n::hasAttr).toList();
        n.require(given.size() <= 1, "gives " + given.size() + " value attributes " + given + "; Constant takes exactly one");
        OnnxModel.TensorData t = n.tensor("value");
        if (t != null) {
            DType dt = dtype(t.dataType(), "attribute 'value' of node '" + n.opName() + "'");
            addWeight(new Value(n.node().outputs().get(0), dt, t.dims()), Constant.of(t.source(), dt), n);
            return;
        }
        if (n.hasAttr("value_ints") || n.hasAttr("value_int")) {
            long[] v = n.hasAttr("value_ints") ? n.ints("value_ints", null) : new long[]{n.integer("value_int", 0)};
            addWeight(new Value(n.node().outputs().get(0), DType.I64, n.hasAttr("value_ints") ? new long[]{v.length} : new long[0]), Constant.ofLongs(v), n);
            return;
        }
        if (n.hasAttr("value_float")) {
            addWeight(new Value(n.node().outputs().get(0), DType.F32, new long[0]), Constant.fill((float) n.real("value_float", 0)), n);
            return;
        }
        if (n.hasAttr("value_floats")) {   // Constant-12: a 1-D float tensor
            double[] d = n.reals("value_floats", null);
            float[] v = new float[d.length];
            for (int i = 0; i < v.length; i++) v[i] = (float) d[i];   // read from float32 fields: exact
            addWeight(new Value(n.node().outputs().get(0), DType.F32, new long[]{v.length}), Constant.ofFloats(v), n);
            return;
        }
        throw n.error("only the attributes 'value', 'value_int', 'value_ints', 'value_float' and 'value_floats' are supported");
    }

    private Graph build(OnnxModel model) {
        GraphBuilder b = new GraphBuilder(model.graph().name().isEmpty() ? Path.of(file).getFileName().toString() : model.graph().name());
        for (String in : graphInputs) {
            b.tensor(tensor(values.get(in)));
            b.input(in, options.donateInputs());
        }
        Set<String> declared = new HashSet<>(graphInputs);
        Map<String, String> readAs = constantOutputsRead();
        for (ConcatInPlace.Scheduled s : schedule) {
            for (String in : s.op().inputs()) {
                String name = readAs.getOrDefault(in, in);
                if (weights.containsKey(name) && declared.add(name)) declareWeight(b, name, new Value(name, values.get(in).dtype(), values.get(in).shape()));
            }
            for (Value v : s.op().outputs()) if (declared.add(v.name())) b.tensor(tensor(v));
        }
        Set<String> members = new HashSet<>();
        for (Map.Entry<Integer, ConcatInPlace.Decision> e : concatDecisions.entrySet())
            if (e.getValue().inPlace()) members.addAll(schedule.get(e.getKey()).op().inputs());
        for (int p = 0; p < schedule.size(); p++) {
            ConcatInPlace.Scheduled s = schedule.get(p);
            Lowered l = s.op();
            GraphBuilder.OpBuilder op = b.op(s.name(), l.kind())
                    .in(l.inputs().stream().map(in -> readAs.getOrDefault(in, in)).toArray(String[]::new))
                    .out(l.outputs().stream().map(Value::name).toArray(String[]::new));
            l.attrs().forEach(op::attr);
            if (l.view()) op.view(0, 0, Shapes.viewOffset(l, values.get(l.inputs().get(0))));
            if (options.elementwiseInPlace() && mayOverwriteInput0(l, members)) op.inPlace();
            if (options.elementwiseInPlace()) for (int[] h : groupHints(l, members)) op.inPlace(h[0], h[1]);
            ConcatInPlace.Decision d = concatDecisions.get(p);
            if (d != null && d.inPlace()) for (int j = 0; j < d.offsets().length; j++) op.member(j, 0, d.offsets()[j]);
            op.add();
        }
        for (String o : outputTensors) {
            if (dropped.containsKey(o))
                throw new OnnxException(file + ": graph output '" + o + "' is an optional output of node '" + dropped.get(o) + "' that inference does not produce");
            if (!values.containsKey(o)) throw new OnnxException(file + ": graph output '" + o + "' is never written by any node");
            if (bounded.boundRead(o) != null) bounded.shapes().readAsConstant(bounded.boundRead(o), "graph output '" + o + "'");
            if (weights.containsKey(o) && !declared.contains(o)) copyConstantOut(b, o, readAs.get(o), declared);
            b.output(o);
        }
        Graph g;
        try {
            g = b.build();
        } catch (GraphException e) {
            throw new OnnxException(file + ": " + e.getMessage() + bounded.shapes().constantReads(), e);
        }
        bounded.shapes().check(g);
        bounded.checkRests(g);
        emptyGuards.check(g);
        return g;
    }

    private void declareWeight(GraphBuilder b, String name, Value v) {
        b.tensor(tensor(v));
        Constant c = weights.get(name);
        if (c.fill() != null) b.weight(name, c.fill());
        else if (c.values() != null) b.weight(name, c.values());
        else b.weight(name);
    }

    /**
     * The constants that are graph outputs and that ops also read, each with the name the ops read
     * it under instead (its weight, already in {@link #weights}): one name cannot be both the
     * weight and the copy the caller gets ({@link #copyConstantOut}), as a folded
     * {@code Identity(W) -> out} read by a later node makes it.
     */
    private Map<String, String> constantOutputsRead() {
        Set<String> read = new HashSet<>();
        for (ConcatInPlace.Scheduled s : schedule) read.addAll(s.op().inputs());
        Map<String, String> readAs = new HashMap<>();
        for (String o : outputTensors) {
            if (!weights.containsKey(o) || !read.contains(o) || readAs.containsKey(o)) continue;
            String w = o + "#constant";
            while (values.containsKey(w) || weights.containsKey(w) || graphInputs.contains(w)) w += "_";
            weights.put(w, weights.get(o));
            readAs.put(o, w);
        }
        return readAs;
    }

    /**
     * A graph output that is a constant: a weight under another name ({@code weight}, the one the
     * ops read it as, or a new one when null), copied to the output by a Copy op at the end.
     */
    private void copyConstantOut(GraphBuilder b, String output, String weight, Set<String> declared) {
        String w = weight;
        Value v = values.get(output);
        if (w == null) {
            w = output + "#constant";
            while (values.containsKey(w) || declared.contains(w)) w += "_";
            weights.put(w, weights.get(output));
            declareWeight(b, w, new Value(w, v.dtype(), v.shape()));
        }
        b.tensor(tensor(v));
        declared.add(output);
        b.op("copy_constant_" + output, OpKinds.COPY).in(w).out(output).add();
    }

    /**
     * Whether an elementwise op gets an in-place hint over input 0: same shape and type, and
     * not a hint liveness always refuses (input 0 a weight or a caller-owned graph input, the
     * output a Concat member slice with a fixed home).
     */
    private boolean mayOverwriteInput0(Lowered l, Set<String> members) {
        OpSpec spec = OpRegistry.get(l.kind());
        if (spec == null || !spec.elementwise() || !spec.mayRunInPlace(0)) return false;
        return mayOverwrite(l.outputs().get(0), values.get(l.inputs().get(0)), members);
    }

    /** Whether a hint of {@code out} over {@code in} can be granted: same shape and type, {@code in} no weight nor caller-owned graph input, {@code out} no Concat member. */
    private boolean mayOverwrite(Value out, Value in, Set<String> members) {
        if (weights.containsKey(in.name()) || (graphInputs.contains(in.name()) && !options.donateInputs()) || members.contains(out.name())) return false;
        return out.dtype() == in.dtype() && Arrays.equals(out.shape(), in.shape());
    }

    /**
     * The in-place hints of a kind with tensor groups ({@code OpSpec.InPlaceGroups}: the training
     * optimizers' X_new over X), as {output, input} pairs, where {@link #mayOverwrite} allows.
     */
    private List<int[]> groupHints(Lowered l, Set<String> members) {
        OpSpec spec = OpRegistry.get(l.kind());
        List<int[]> hints = new ArrayList<>();
        if (spec == null || spec.inPlaceGroups() == null) return hints;
        for (int o = 0; o < l.outputs().size(); o++) {
            int j = spec.inPlaceGroups().input(o, l.inputs().size());
            if (j >= 0 && mayOverwrite(l.outputs().get(o), values.get(l.inputs().get(j)), members)) hints.add(new int[]{o, j});
        }
        return hints;
    }

    private Tensor tensor(Value v) {
        try {
            return Tensor.of(v.name(), v.dtype(), v.shape());
        } catch (GraphException e) {
            throw new OnnxException(file + ": " + e.getMessage(), e);
        }
    }
}
