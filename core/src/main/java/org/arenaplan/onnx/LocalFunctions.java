package org.arenaplan.onnx;

import org.arenaplan.io.Printable;
import ai.onnx.proto.OnnxMl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Inlines a model's local functions ({@code ModelProto.functions}, ONNX IR 8+; IR 9 attribute
 * defaults, IR 10 overloads): every node that calls one (same domain, op_type and overload) is
 * replaced by the function's body, so the importer sees only operators. Exporters write them:
 * PyTorch's {@code export_modules_as_functions} and its dynamo exporter (one function per module
 * in torch 2.1-2.5), onnxscript.
 *
 * <p>Steps, per call (ONNX IR, "Functions"): the function's formal inputs take the call's actual
 * inputs (a missing trailing one is {@code ""}, an omitted optional input); its formal outputs are
 * the call's outputs; every other value the body defines gets a fresh name, the call's name
 * (or {@code op_type#i}) then {@code /} then the body's name, made unique in the model; an
 * attribute that refers to the function's ({@code ref_attr_name}) takes the call's value, else the
 * function's default ({@code attribute_proto}), else is left out, as ONNX Runtime does (onnx
 * 1.23's Python inliner drops the defaults). The body
 * is inlined again where it calls functions (nested calls), and inside If/Loop/Scan bodies the
 * outer names the body reads are renamed too (names a subgraph defines shadow them). Cost:
 * linear in the nodes of the expanded graph.
 *
 * <p>Refused, naming the file and the function: a function that calls itself (directly or not),
 * a call with more inputs or outputs than the function declares, a function that imports a
 * domain at another opset than the model (arenaplan imports each domain at one version; the ONNX
 * checker asks the same), a function naming one formal input or output twice, a node of a body
 * (or of an If/Loop/Scan body nested in it) in a domain its function's {@code opset_import} does
 * not import (an empty {@code opset_import} imports none), a call in a domain the model does not import (ONNX IR, "Functions" and "Operator Sets";
 * the ONNX checker and ONNX Runtime refuse each), and a function body reading a name that is none
 * of its inputs and no earlier node's output; calls nested more than {@link #MAX_DEPTH} deep; an expansion past
 * {@link ControlFlow#MAX_NODES} nodes (a function calling another twice, 30 levels deep, is
 * 2^30 nodes: refused before it fills the heap).
 */
final class LocalFunctions {
    /** The deepest nesting of calls inlined (a chain that repeats a function is recursion, refused as such at any depth). */
    private static final int MAX_DEPTH = 64;

    private final String file;
    private final Map<String, OnnxMl.FunctionProto> functions = new HashMap<>();
    private final Map<String, List<String>> overloadsOf = new HashMap<>();   // key with overload "" -> the overloads defined, quoted
    private final Set<String> used = new HashSet<>();
    /** The domains the model imports ("ai.onnx" read as ""). */
    private final Set<String> modelDomains = new HashSet<>();
    private int calls;
    /** Plain nodes (not calls) the inlined bodies have produced so far. */
    private long expanded;

    private LocalFunctions(String file) {
        this.file = file;
    }

    /**
     * The model's graph with every call of a local function inlined; the graph itself when the
     * model has no functions.
     *
     * @throws OnnxException as the class comment says
     */
    static OnnxMl.GraphProto inline(OnnxMl.ModelProto m, String file) {
        if (m.getFunctionsCount() == 0) return m.getGraph();
        LocalFunctions l = new LocalFunctions(file);
        Map<String, Long> modelOpsets = new HashMap<>();
        for (OnnxMl.OperatorSetIdProto o : m.getOpsetImportList()) modelOpsets.put(domain(o.getDomain()), o.getVersion());
        l.modelDomains.addAll(modelOpsets.keySet());
        for (OnnxMl.FunctionProto f : m.getFunctionsList()) {
            distinct(f, "input", f.getInputList(), file);
            distinct(f, "output", f.getOutputList(), file);
            Set<String> imports = new HashSet<>();
            for (OnnxMl.OperatorSetIdProto o : f.getOpsetImportList()) imports.add(domain(o.getDomain()));
            checkImportedByFunction(f.getNodeList(), imports, "local function '" + name(f) + "': ", file);
            for (OnnxMl.OperatorSetIdProto o : f.getOpsetImportList()) {
                Long model = modelOpsets.get(domain(o.getDomain()));
                if (model != null && model != o.getVersion())
                    throw new OnnxException(file + ": local function '" + name(f) + "' imports the domain '" + o.getDomain() + "' at opset " + o.getVersion()
                            + " but the model imports it at opset " + model + "; arenaplan reads each domain at one version (as the ONNX checker asks)");
            }
            if (l.functions.put(key(f.getDomain(), f.getName(), f.getOverload()), f) != null)
                throw new OnnxException(file + ": local function '" + name(f) + "' is defined twice");
            l.overloadsOf.computeIfAbsent(key(f.getDomain(), f.getName(), ""), k -> new ArrayList<>()).add("'" + f.getOverload() + "'");
        }
        l.names(m.getGraph());
        return m.getGraph().toBuilder().clearNode().addAllNode(l.expand(m.getGraph().getNodeList(), new ArrayList<>())).build();
    }

    /** Refuses a function naming one formal input (or output) twice: a body could not tell the two apart (ONNX IR, static single assignment; the ONNX checker refuses it). */
    private static void distinct(OnnxMl.FunctionProto f, String field, List<String> names, String file) {
        Set<String> seen = new HashSet<>();
        for (String n : names)
            if (!seen.add(n))
                throw new OnnxException(file + ": local function '" + name(f) + "' declares the " + field + " '" + n + "' twice (its " + field
                        + " field; formal " + field + "s are distinct names, ONNX IR static single assignment, as the ONNX checker asks)");
    }

    /**
     * Refuses node {@code n} when its domain is not among {@code imports}: the model's for a call
     * in the graph, the function's own {@code opset_import} for every node of a function body
     * (ONNX IR: a model or function imports every domain its nodes use; the ONNX checker and ONNX
     * Runtime refuse the model).
     *
     * @param where the message's start after the file ("" or "local function 'F': ")
     * @param whose "the model's" or "the function's"
     */
    private static void checkImported(OnnxMl.NodeProto n, Set<String> imports, String where, String whose, String file) {
        if (imports.contains(domain(n.getDomain()))) return;
        throw new OnnxException(file + ": " + where + "node '" + Printable.name(n.getName().isEmpty() ? n.getOpType() : n.getName()) + "' ("
                + Printable.name((n.getDomain().isEmpty() ? "" : n.getDomain() + ".") + n.getOpType()) + ") uses "
                + (n.getDomain().isEmpty() ? "the default domain ''" : "the domain '" + Printable.name(n.getDomain()) + "'") + ", which " + whose
                + " opset_import does not import (a model or function imports every domain its nodes use, as the ONNX checker asks)");
    }

    /**
     * Refuses a node of a function body, or of an If/Loop/Scan body nested in it at any depth, in
     * a domain the function's {@code opset_import} does not import: a nested graph has no
     * opset_import of its own, so its nodes use the function's (the ONNX checker, full_check,
     * refuses "No opset import for domain" there too).
     *
     * @param where the message's start after the file: the function, then each node and attribute holding the nested body
     */
    private static void checkImportedByFunction(List<OnnxMl.NodeProto> nodes, Set<String> imports, String where, String file) {
        for (OnnxMl.NodeProto n : nodes) {
            checkImported(n, imports, where, "the function's", file);
            for (OnnxMl.AttributeProto a : n.getAttributeList()) {
                String inside = where + "node '" + Printable.name(n.getName().isEmpty() ? n.getOpType() : n.getName()) + "' attribute '" + Printable.name(a.getName()) + "': ";
                if (a.hasG()) checkImportedByFunction(a.getG().getNodeList(), imports, inside, file);
                for (OnnxMl.GraphProto g : a.getGraphsList()) checkImportedByFunction(g.getNodeList(), imports, inside, file);
            }
        }
    }

    private static String domain(String d) {
        return d.equals("ai.onnx") ? "" : d;
    }

    private static String key(String domain, String name, String overload) {
        return domain(domain) + "\u0000" + name + "\u0000" + overload;
    }

    private static String name(OnnxMl.FunctionProto f) {
        return (f.getDomain().isEmpty() ? "" : f.getDomain() + ".") + f.getName() + (f.getOverload().isEmpty() ? "" : ":" + f.getOverload());
    }

    /** Every name the graph and its subgraphs use, so that fresh names never meet one. */
    private void names(OnnxMl.GraphProto g) {
        for (OnnxMl.ValueInfoProto v : g.getInputList()) used.add(v.getName());
        for (OnnxMl.ValueInfoProto v : g.getOutputList()) used.add(v.getName());
        for (OnnxMl.TensorProto t : g.getInitializerList()) used.add(t.getName());
        for (OnnxMl.NodeProto n : g.getNodeList()) {
            used.addAll(n.getInputList());
            used.addAll(n.getOutputList());
            for (OnnxMl.AttributeProto a : n.getAttributeList()) {
                if (a.hasG()) names(a.getG());
                for (OnnxMl.GraphProto sub : a.getGraphsList()) names(sub);
            }
        }
    }

    private String fresh(String want) {
        String name = want;
        while (!used.add(name)) name += "_";
        return name;
    }

    /** {@code nodes} with every call expanded; {@code chain}: the functions being expanded, outermost first. */
    private List<OnnxMl.NodeProto> expand(List<OnnxMl.NodeProto> nodes, List<String> chain) {
        List<OnnxMl.NodeProto> out = new ArrayList<>(nodes.size());
        for (OnnxMl.NodeProto n : nodes) {
            OnnxMl.FunctionProto f = functions.get(key(n.getDomain(), n.getOpType(), n.getOverload()));
            if (f != null && chain.isEmpty()) checkImported(n, modelDomains, "", "the model's", file);   // bodies: checked where defined; other nodes: by OnnxImporter
            if (f == null) {
                if (!chain.isEmpty() && ++expanded > ControlFlow.MAX_NODES)
                    throw new OnnxException(file + ": inlining local functions reaches more than " + ControlFlow.MAX_NODES + " nodes (in "
                            + outline(chain) + "); arenaplan stops there");
                refuseUndefinedOverload(n);
                out.add(withExpandedSubgraphs(n, chain));
                continue;
            }
            String fn = name(f);
            if (chain.contains(fn))
                throw new OnnxException(file + ": local function '" + fn + "' calls itself (" + String.join(" -> ", chain) + " -> " + fn + "); ONNX functions are not recursive");
            if (chain.size() >= MAX_DEPTH)
                throw new OnnxException(file + ": calls of local functions nest more than " + MAX_DEPTH + " deep ("
                        + outline(chain) + " -> " + fn + "); arenaplan inlines at most " + MAX_DEPTH + " levels");
            List<String> inner = new ArrayList<>(chain);
            inner.add(fn);
            out.addAll(expand(body(n, f), inner));
        }
        return out;
    }

    /** A call chain for a message: whole up to four functions, else the outer two and inner two around "...". */
    private static String outline(List<String> chain) {
        if (chain.size() <= 4) return String.join(" -> ", chain);
        return chain.get(0) + " -> " + chain.get(1) + " -> ... -> " + chain.get(chain.size() - 2) + " -> " + chain.get(chain.size() - 1);
    }

    /** A node naming a local function (domain and op_type) by an overload the model does not define (IR 10). */
    private void refuseUndefinedOverload(OnnxMl.NodeProto n) {
        List<String> overloads = overloadsOf.get(key(n.getDomain(), n.getOpType(), ""));
        if (overloads == null) return;
        String fn = (n.getDomain().isEmpty() ? "" : n.getDomain() + ".") + n.getOpType();
        throw new OnnxException(Printable.of(file + ": node '" + (n.getName().isEmpty() ? n.getOpType() : n.getName()) + "' calls local function '" + fn
                + "' with overload '" + n.getOverload() + "', which the model does not define (its overloads of '" + fn + "': " + String.join(", ", overloads) + ")"));
    }

    /** A node whose If/Loop/Scan bodies may call functions too. */
    private OnnxMl.NodeProto withExpandedSubgraphs(OnnxMl.NodeProto n, List<String> chain) {
        boolean any = false;
        for (OnnxMl.AttributeProto a : n.getAttributeList()) any |= a.hasG();
        if (!any) return n;
        OnnxMl.NodeProto.Builder b = n.toBuilder().clearAttribute();
        for (OnnxMl.AttributeProto a : n.getAttributeList()) {
            if (!a.hasG()) {
                b.addAttribute(a);
                continue;
            }
            OnnxMl.GraphProto g = a.getG();
            b.addAttribute(a.toBuilder().setG(g.toBuilder().clearNode().addAllNode(expand(g.getNodeList(), chain))));
        }
        return b.build();
    }

    /** One call's body, renamed and with its attributes bound (not yet expanded itself). */
    private List<OnnxMl.NodeProto> body(OnnxMl.NodeProto call, OnnxMl.FunctionProto f) {
        String fn = name(f);
        String callName = call.getName().isEmpty() ? call.getOpType() + "#" + calls : call.getName();
        calls++;
        if (call.getInputCount() > f.getInputCount() || call.getOutputCount() > f.getOutputCount())
            throw new OnnxException(file + ": node '" + callName + "' calls local function '" + fn + "' with " + call.getInputCount() + " inputs and "
                    + call.getOutputCount() + " outputs; it declares " + f.getInputCount() + " and " + f.getOutputCount());
        Map<String, String> scope = new HashMap<>();
        for (int i = 0; i < f.getInputCount(); i++) scope.put(f.getInput(i), i < call.getInputCount() ? call.getInput(i) : "");
        Map<String, String> formalOutputs = new HashMap<>();
        for (int j = 0; j < f.getOutputCount(); j++)
            formalOutputs.put(f.getOutput(j), j < call.getOutputCount() && !call.getOutput(j).isEmpty() ? call.getOutput(j) : null);
        Map<String, OnnxMl.AttributeProto> bound = new LinkedHashMap<>();
        for (OnnxMl.AttributeProto d : f.getAttributeProtoList()) bound.put(d.getName(), d);
        for (OnnxMl.AttributeProto a : call.getAttributeList()) bound.put(a.getName(), a);

        List<OnnxMl.NodeProto> out = new ArrayList<>(f.getNodeCount());
        int i = 0;
        for (OnnxMl.NodeProto n : f.getNodeList()) {
            OnnxMl.NodeProto.Builder b = n.toBuilder().clearInput().clearOutput().clearAttribute()
                    .setName(callName + "/" + (n.getName().isEmpty() ? n.getOpType() + "#" + i : n.getName()));
            for (String in : n.getInputList()) {
                if (in.isEmpty()) { b.addInput(""); continue; }
                String actual = scope.get(in);
                if (actual == null)
                    throw new OnnxException(file + ": local function '" + fn + "': node '" + (n.getName().isEmpty() ? n.getOpType() + "#" + i : n.getName())
                            + "' reads '" + in + "', which is none of the function's inputs and no earlier node's output");
                b.addInput(actual);
            }
            for (String o : n.getOutputList()) {
                if (!o.isEmpty() && scope.containsKey(o))   // a formal input or an earlier node's output
                    throw new OnnxException(file + ": local function '" + fn + "': node '" + (n.getName().isEmpty() ? n.getOpType() + "#" + i : n.getName())
                            + "' writes '" + o + "', which the function already defines (a function body names each value once: ONNX IR, static single assignment)");
                String actual;
                if (o.isEmpty()) actual = "";
                else if (formalOutputs.get(o) != null) actual = formalOutputs.get(o);
                else actual = fresh(callName + "/" + o);
                scope.put(o, actual);
                b.addOutput(actual);
            }
            for (OnnxMl.AttributeProto a : n.getAttributeList()) {
                OnnxMl.AttributeProto bind = bind(a, bound, scope);
                if (bind != null) b.addAttribute(bind);
            }
            out.add(b.build());
            i++;
        }
        for (int j = 0; j < call.getOutputCount(); j++) {   // a formal output that is a formal input: passed through
            String formal = f.getOutput(j), actual = call.getOutput(j);
            if (actual.isEmpty() || out.stream().anyMatch(n -> n.getOutputList().contains(actual)) || !scope.containsKey(formal)) continue;
            out.add(OnnxMl.NodeProto.newBuilder().setName(callName + "/" + formal).setOpType("Identity").addInput(scope.get(formal)).addOutput(actual).build());
        }
        for (Map.Entry<String, String> o : formalOutputs.entrySet())
            if (o.getValue() != null && !scope.containsKey(o.getKey()) && !o.getKey().isEmpty())
                throw new OnnxException(file + ": local function '" + fn + "' declares output '" + o.getKey() + "', which no node of its body computes");
        return out;
    }

    /** An attribute of a body node: a reference takes the call's value (or the default, or none); a subgraph reads renamed outer names. */
    private OnnxMl.AttributeProto bind(OnnxMl.AttributeProto a, Map<String, OnnxMl.AttributeProto> bound, Map<String, String> scope) {
        if (!a.getRefAttrName().isEmpty()) {
            OnnxMl.AttributeProto value = bound.get(a.getRefAttrName());
            return value == null ? null : value.toBuilder().setName(a.getName()).build();
        }
        if (a.hasG()) return a.toBuilder().setG(subgraph(a.getG(), bound, scope)).build();
        return a;
    }

    /** An If/Loop/Scan body inside a function: outer names renamed where the body does not define them itself. */
    private OnnxMl.GraphProto subgraph(OnnxMl.GraphProto g, Map<String, OnnxMl.AttributeProto> bound, Map<String, String> outer) {
        Map<String, String> scope = new HashMap<>(outer);
        for (OnnxMl.ValueInfoProto v : g.getInputList()) scope.remove(v.getName());
        for (OnnxMl.TensorProto t : g.getInitializerList()) scope.remove(t.getName());
        for (OnnxMl.NodeProto n : g.getNodeList()) for (String o : n.getOutputList()) scope.remove(o);
        OnnxMl.GraphProto.Builder b = g.toBuilder().clearNode().clearOutput();
        for (OnnxMl.ValueInfoProto v : g.getOutputList()) b.addOutput(v.toBuilder().setName(scope.getOrDefault(v.getName(), v.getName())));
        for (OnnxMl.NodeProto n : g.getNodeList()) {
            OnnxMl.NodeProto.Builder nb = n.toBuilder().clearInput().clearAttribute();
            for (String in : n.getInputList()) nb.addInput(scope.getOrDefault(in, in));
            for (OnnxMl.AttributeProto a : n.getAttributeList()) {
                OnnxMl.AttributeProto bind = bind(a, bound, scope);
                if (bind != null) nb.addAttribute(bind);
            }
            b.addNode(nb);
        }
        return b.build();
    }
}
