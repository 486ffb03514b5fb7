package org.arenaplan.onnx;

import org.arenaplan.io.Printable;
import org.arenaplan.ir.OpKindSpelling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every node of a graph the importer cannot lower, found before any node is imported, so one
 * refusal names them all: op types outside {@link NodeLowering#supported()} (and the ops the importer
 * turns into weights), ops of other domains, and attributes no supported op declares
 * ({@link NodeLowering#unknownAttributes}). Cost: one pass over the nodes.
 */
final class UnsupportedNodes {
    /** Node names listed per op type or attribute before "…". */
    static final int NAMES_SHOWN = 3;

    private UnsupportedNodes() { }

    /**
     * The one-line refusal, e.g. {@code 2 unsupported op types: Erf (2 nodes: /a/Erf, /b/Erf), ReduceMean (1 node: /ln/ReduceMean);
     * unknown attribute 'alpah'; LRN takes size, alpha, beta, bias (did you mean 'alpha'?) (1 node: lrn)},
     * or null when every node's op type and attributes are supported (shapes and values are checked later, node by node).
     */
    static String describe(List<OnnxModel.Node> nodes, long opset) {
        Map<String, List<String>> ops = new LinkedHashMap<>(), attrs = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();   // an unsupported op type -> why, or what it nearly spells
        collect(nodes, "", opset, ops, attrs, notes);
        if (ops.isEmpty() && attrs.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        if (!ops.isEmpty()) parts.add(ops.size() + " unsupported op type" + (ops.size() == 1 ? "" : "s") + ": " + list(ops, notes)
                + " (supported: " + String.join(", ", new TreeSet<>(NodeLowering.supported())) + "; computed at import: "
                + String.join(", ", new TreeSet<>(NodeLowering.AS_WEIGHTS)) + "; unrolled at import: "
                + String.join(", ", new TreeSet<>(ControlFlow.ATTRS.keySet())) + "; resolved at import: "
                + String.join(", ", new TreeSet<>(Sequences.ATTRS.keySet())) + ")");
        for (Map.Entry<String, List<String>> e : attrs.entrySet()) parts.add(list(Map.of(e.getKey(), e.getValue()), Map.of()));
        return String.join("; ", parts);
    }

    /**
     * The nodes' unsupported op types and attributes, and those of the bodies of their If, Loop and
     * Scan nodes (a body node is named after its control-flow node: {@code loop/body/add}).
     */
    private static void collect(List<OnnxModel.Node> nodes, String where, long opset, Map<String, List<String>> ops, Map<String, List<String>> attrs,
                                Map<String, String> notes) {
        for (int i = 0; i < nodes.size(); i++) {
            OnnxModel.Node node = nodes.get(i);
            String name = where + Printable.name(node.name());
            if (!node.inDefaultDomain() && NodeLowering.otherDomain(node) == null) {
                String key = Printable.name(node.domain() + "." + node.opType());
                ops.computeIfAbsent(key, k -> new ArrayList<>()).add(name);
                notes.computeIfAbsent(key, k -> WHY.getOrDefault(k, ""));
            } else if (!NodeLowering.supported().contains(node.opType()) && !NodeLowering.AS_WEIGHTS.contains(node.opType())
                    && !ControlFlow.unrolls(node) && !Sequences.resolves(node)) {
                String key = node.opType().isEmpty() ? "'' (a node with no op_type)" : Printable.name(node.opType());
                ops.computeIfAbsent(key, k -> new ArrayList<>()).add(name);
                notes.computeIfAbsent(key, k -> note(node.opType()));
            } else {
                for (String a : NodeLowering.unknownAttributes(node)) if (!OlderOpsets.ownAttributes(node, opset).contains(a)) attrs.computeIfAbsent(Printable.of(NodeLowering.unknownAttributeMessage(node.opType(), a)), k -> new ArrayList<>()).add(name);
                for (Map.Entry<String, OnnxModel.Attribute> a : node.attributes().entrySet())
                    if (a.getValue().value() instanceof OnnxModel.Graph g && (ControlFlow.unrolls(node) || ControlFlow.inlines(node))) collect(g.nodes(), name + "/" + a.getKey() + "/", opset, ops, attrs, notes);
            }
        }
    }

    /** Why an op type of another domain is not imported, where there is more to say than that (after its node names). */
    private static final Map<String, String> WHY = Map.of("ai.onnx.preview.training.Gradient",
            "; Gradient asks for the symbolic gradient of the graph it sits in, which no arenaplan pass derives from a node"
            + " (ONNX Runtime has no kernel for it either); --train plans a forward graph's training step instead");

    /** What follows the node names of an unsupported op type of the default domain: the supported op type it nearly spells, else "". */
    private static String note(String opType) {
        return OpKindSpelling.suggestion(opType, NodeLowering.supported());
    }

    /** @param notes text to append after a key's node names, where there is any */
    private static String list(Map<String, List<String>> byKey, Map<String, String> notes) {
        List<String> items = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byKey.entrySet()) {
            List<String> names = e.getValue();
            String shown = String.join(", ", names.subList(0, Math.min(NAMES_SHOWN, names.size()))) + (names.size() > NAMES_SHOWN ? ", …" : "");
            String why = notes.getOrDefault(e.getKey(), "");
            items.add(e.getKey() + " (" + names.size() + " node" + (names.size() == 1 ? "" : "s") + ": " + shown + why + ")");
        }
        return String.join(", ", items);
    }
}
