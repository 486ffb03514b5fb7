package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpChecks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Shape inference and attribute resolution, one ONNX op at a time, for opsets
 * {@link #MIN_OPSET}..{@link #MAX_OPSET} (older opsets reach it only through
 * {@link OlderOpsets}, node by node, as their opset-9 meaning): dispatches each node by op type to the
 * {@link OnnxImport} declared with its kind's registry entry ({@code org.arenaplan.ops}, found
 * through the {@link OnnxOpTable} service), which maps it to a kind carrying exactly the
 * attributes that kind documents, defaults filled in, so kernels never guess. Each op family's
 * class there lists the version differences it handles (ONNX Changelog.md; version 22 of every
 * supported op differs from its predecessor only by types, chiefly bfloat16, and by clarified
 * text). Opsets 23..28, audited against the Changelog of onnx/onnx as of August 2026 (its last
 * opset is 28): the versions of supported ops they introduce (Cast, CastLike, Constant,
 * ConstantOfShape, DequantizeLinear, Flatten, Identity, Pad, QuantizeLinear, Reshape, Shape,
 * Size, Squeeze, Transpose, Unsqueeze at 23, 24 and 25; TopK 24; Range 27; Celu 28) add element
 * types, which the type checks refuse where arenaplan has none (float4e2m1, float8e8m0,
 * int2/uint2), and these attributes: Cast/CastLike {@code round_mode} (24), DequantizeLinear
 * {@code output_dtype} (23), QuantizeLinear {@code precision} (23), Range {@code stash_type}
 * (27); each family's class says how it handles them. Constant and ConstantOfShape (weights
 * here) change by types only. The op types new there that are imported: Attention (23, 24, 25)
 * and RotaryEmbedding (23) in {@code ops.TransformerOps}, RMSNormalization (23) in
 * {@code ops.NormalizationOps}. The helpers here
 * build the {@link Lowered} result the importers share.
 *
 * <p>Not handled: op types without an {@link OnnxImport}, and training-time outputs:
 * BatchNormalization-9's mean, var, saved_mean and saved_var (opsets 9..13; training_mode 1 from
 * 14 is imported), Dropout's mask when read.
 */
public final class NodeLowering {
    static final long MIN_OPSET = 9;
    static final long MAX_OPSET = 28;

    /** The imports by op type, loaded on first use. */
    private static final class Table {
        static final Map<String, OnnxImport> IMPORTS = load();

        private static Map<String, OnnxImport> load() {
            List<OnnxOpTable> t = ServiceLoader.load(OnnxOpTable.class, NodeLowering.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
            if (t.size() != 1) throw new IllegalStateException("expected one org.arenaplan.onnx.OnnxOpTable service (org.arenaplan.ops.Operators), found " + t.size());
            Map<String, OnnxImport> m = new LinkedHashMap<>();
            for (OnnxImport i : t.get(0).imports()) {
                if (m.put(i.opType(), i) != null) throw new IllegalStateException("ONNX op type " + i.opType() + " imported twice");
            }
            return Collections.unmodifiableMap(m);
        }
    }

    /**
     * Attributes of the op types the importer turns into weights (ConstantOfShape, Constant);
     * any other attribute is an error, never silently dropped.
     */
    private static final Map<String, Set<String>> WEIGHT_ATTRS = weightAttrs();

    private static Map<String, Set<String>> weightAttrs() {
        Map<String, Set<String>> m = new LinkedHashMap<>(ImportTimeOps.ATTRS);
        m.put("ConstantOfShape", Set.of("value"));
        m.put("Constant", Set.of("value", "value_int", "value_ints", "value_float", "value_floats", "value_string", "value_strings", "sparse_value"));
        return Collections.unmodifiableMap(m);
    }

    /** Op types the importer turns into weights rather than lowering (Constant, ConstantOfShape and {@link ImportTimeOps}: their values are known at import). */
    static final Set<String> AS_WEIGHTS = WEIGHT_ATTRS.keySet();

    /**
     * The ai.onnx.preview domain and the op types of it the importer takes (FlexAttention,
     * version 1); and the domain of the stage nodes the importer makes of a FlexAttention with
     * modifiers ({@link ControlFlow}), which a file may not use (its nodes are refused as another
     * domain's).
     */
    static final String PREVIEW_DOMAIN = "ai.onnx.preview", STAGE_DOMAIN = "arenaplan";
    /** The version of the ai.onnx.preview domain whose ops the importer implements (FlexAttention-1). */
    static final long PREVIEW_OPSET = 1;

    /**
     * A domain other than the default one whose op types {@code ops} the importer takes, at the
     * versions {@code first..last}, in all of which those ops mean what the importer implements
     * (ONNX IR 3+: the version a model imports decides what an op means).
     */
    record Domain(String name, long first, long last, Set<String> ops, Map<String, Long> since) {
        Domain(String name, long first, long last, Set<String> ops) {
            this(name, first, last, ops, Map.of());
        }

        /** The first version of this domain that has op type {@code op} (Operators-ml.md, "since version"). */
        long since(String op) {
            return since.getOrDefault(op, first);
        }

        /** {@code 1} or {@code 1..5}. */
        String versions() {
            return first == last ? "" + first : first + ".." + last;
        }
    }

    /** ai.onnx.preview at version 1 (FlexAttention-1). */
    static final Domain PREVIEW = new Domain(PREVIEW_DOMAIN, PREVIEW_OPSET, PREVIEW_OPSET, Set.of("FlexAttention"));
    /**
     * The other domains taken: ai.onnx.preview; ai.onnx.preview.training (Adagrad-1, Adam-1,
     * Momentum-1); ai.onnx.ml at 1..5 (Binarizer-1, ArrayFeatureExtractor-1, TreeEnsembleRegressor-1/3
     * and TreeEnsembleClassifier-1/3 are the schemas in force at every version up to 5, onnx 1.23.1's
     * {@code onnx_ml_opset_version()}; version 3 adds only the {@code _as_tensor} attributes, which
     * the importer reads at any version; TreeEnsemble exists from 5).
     */
    static final List<Domain> OTHER_DOMAINS = List.of(PREVIEW, new Domain("ai.onnx.preview.training", 1, 1, Set.of("Adagrad", "Adam", "Momentum")),
            new Domain("ai.onnx.ml", 1, 5, Set.of("Binarizer", "ArrayFeatureExtractor", "TreeEnsemble", "TreeEnsembleRegressor", "TreeEnsembleClassifier"),
                    Map.of("TreeEnsemble", 5L)));

    /** The domain of {@code node} when it is one of {@link #OTHER_DOMAINS} and its op type one the importer takes there, else null. */
    static Domain otherDomain(OnnxModel.Node node) {
        for (Domain d : OTHER_DOMAINS) if (d.name().equals(node.domain()) && d.ops().contains(node.opType())) return d;
        return null;
    }

    private NodeLowering() { }

    /** Op types lowered by {@link #lower} (Constant and ConstantOfShape become weights in the importer). */
    static Set<String> supported() {
        return Table.IMPORTS.keySet();
    }

    /** The registry kind op type {@code opType} imports as, or null for an op type without an import. */
    static String kindOf(String opType) {
        OnnxImport i = Table.IMPORTS.get(opType);
        return i == null ? null : i.kind();
    }

    static Lowered lower(NodeContext n) {
        OnnxImport i = Table.IMPORTS.get(n.opType());
        if (i == null) throw n.error("unsupported op '" + n.opType() + "'");   // UnsupportedNodes lists these before any node is lowered
        // below opset 9 OlderOpsets has checked the op means what it means at 9 (the registry's floor)
        n.require(n.opset() >= i.sinceOpset() || (n.opset() < MIN_OPSET && i.sinceOpset() <= MIN_OPSET), n.opType() + " exists from opset " + i.sinceOpset() + " of the default domain");
        return i.importer().lower(n);
    }

    /**
     * The node's attributes that its op type does not take ({@link OnnxImport#attributes()}), in
     * file order (empty for op types without an import); checked for every node before any is
     * lowered, folded or turned into a weight.
     */
    static List<String> unknownAttributes(OnnxModel.Node node) {
        Set<String> allowed = allowedAttributes(node.opType());
        List<String> unknown = new ArrayList<>();
        if (allowed == null) return unknown;                 // unsupported op: the dispatch in lower says so
        for (String name : node.attributes().keySet()) if (!allowed.contains(name)) unknown.add(name);
        return unknown;
    }

    /** The refusal of attribute {@code name} on an op of type {@code opType}, naming what the op takes (and the likely intended one). */
    static String unknownAttributeMessage(String opType, String name) {
        Set<String> takes = allowedAttributes(opType);
        OnnxImport i = Table.IMPORTS.get(opType);
        if (i != null) takes.removeAll(i.internal());   // arenaplan's own: a file's node does not take them
        return OpChecks.unknownAttribute(name, takes, opType);
    }

    /** The attribute names op type {@code opType} takes, or null for an op type the importer does not know. */
    private static Set<String> allowedAttributes(String opType) {
        OnnxImport i = Table.IMPORTS.get(opType);
        if (i != null) return new LinkedHashSet<>(i.attributes());
        if (ControlFlow.ATTRS.containsKey(opType)) return ControlFlow.ATTRS.get(opType);
        if (Sequences.ATTRS.containsKey(opType)) return Sequences.ATTRS.get(opType);
        return WEIGHT_ATTRS.get(opType);
    }

    // ---- helpers for the importers ----

    /** One output of input 0's type: the ir op {@code kind} over {@code inputs}. */
    public static Lowered op(NodeContext n, String kind, List<String> inputs, long[] shape, Map<String, Object> attrs) {
        return op(n, kind, inputs, shape, attrs, n.input(0).dtype());
    }

    /** One output of type {@code dtype}: the ir op {@code kind} over {@code inputs}. */
    public static Lowered op(NodeContext n, String kind, List<String> inputs, long[] shape, Map<String, Object> attrs, DType dtype) {
        return new Lowered(kind, inputs, List.of(output(n, shape, dtype)), attrs, false, extraOutputs(n));
    }

    /** Output 0 with input 0's type; checks it is named and its extents are not negative. */
    public static Value output(NodeContext n, long[] shape) {
        return output(n, shape, n.input(0).dtype());
    }

    public static Value output(NodeContext n, long[] shape, DType dtype) {
        n.require(!n.node().outputs().isEmpty() && !n.node().outputs().get(0).isEmpty(), "has no output");
        for (long d : shape)    // the message only on failure: building it per axis was O(rank^2) (breakonnx: rank 100,000 took minutes)
            if (d < 0) throw n.error("inferred a negative dimension in shape " + Arrays.toString(shape) + " from inputs " + n.shapes());
        return new Value(n.node().outputs().get(0), dtype, shape);
    }

    /** Outputs past the first: optional training-time outputs this importer does not produce. */
    public static List<String> extraOutputs(NodeContext n) {
        List<String> out = n.node().outputs();
        List<String> dropped = new ArrayList<>();
        for (int k = 1; k < out.size(); k++) if (!out.get(k).isEmpty()) dropped.add(out.get(k));
        return dropped;
    }

    /** Output 0, of {@code shape}, a view of all of input 0 as the view kind {@code kind}. */
    public static Lowered view(NodeContext n, String kind, long[] shape) {
        Value in = n.input(0);
        Value out = output(n, shape);
        n.require(out.elements() == in.elements(), "output shape " + Arrays.toString(shape) + " holds " + out.elements()
                + " elements but the input " + in + " holds " + in.elements());
        return new Lowered(kind, List.of(in.name()), List.of(out), Map.of(), true, extraOutputs(n));
    }

    /** The names of inputs from..to-1, which must share input {@code from}'s element type (ONNX type constraint T). */
    public static List<String> names(NodeContext n, int from, int to) {
        List<String> inputs = new ArrayList<>();
        for (int i = from; i < to; i++) {
            n.require(n.input(i).dtype() == n.input(from).dtype(), "input " + n.input(from) + " is " + n.input(from).dtype().jsonName()
                    + " but " + n.input(i) + " is " + n.input(i).dtype().jsonName() + "; they must have one type");
            inputs.add(n.input(i).name());
        }
        return inputs;
    }

    /** The broadcast shape of inputs from..to-1. */
    public static long[] broadcastAll(NodeContext n, int from, int to) {
        long[] shape = n.input(from).shape();
        for (int i = from + 1; i < to; i++) shape = broadcast(n, shape, n.input(i).shape());
        return shape;
    }

    /** Numpy (multidirectional) broadcasting. */
    public static long[] broadcast(NodeContext n, long[] a, long[] b) {
        int r = Math.max(a.length, b.length);
        long[] out = new long[r];
        for (int i = 0; i < r; i++) {
            long da = i < r - a.length ? 1 : a[i - (r - a.length)];
            long db = i < r - b.length ? 1 : b[i - (r - b.length)];
            if (da != db && da != 1 && db != 1)    // the message only on failure: it names every input (Sum of 50,000 inputs was O(n^2))
                throw n.error("shapes " + Arrays.toString(a) + " and " + Arrays.toString(b) + " do not broadcast (inputs " + n.shapes() + ")");
            out[i] = da == 1 ? db : da;
        }
        return out;
    }
}
