package org.arenaplan.ops;

import org.arenaplan.ir.DType;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;

import java.util.List;

/** Checks and names shared by the importers of the reduction, normalisation and loss families. */
final class FamilyImports {
    private FamilyImports() { }

    /** Requires between {@code min} and {@code max} inputs (omitted optional ones counted). */
    static void requireInputs(NodeContext n, int min, int max) {
        n.require(n.inputCount() >= min && n.inputCount() <= max, "has " + n.inputCount() + " inputs; " + n.opType() + " takes "
                + (min == max ? "" + min : min + " to " + max));
    }

    /** Whether the node names output {@code k}. */
    static boolean hasOutput(NodeContext n, int k) {
        List<String> out = n.node().outputs();
        return k < out.size() && !out.get(k).isEmpty();
    }

    /** Output k's name, or a name of its own for an omitted output the kernel still writes. */
    static String outputName(NodeContext n, int k) {
        return hasOutput(n, k) ? n.node().outputs().get(k) : n.opName() + "#" + k;
    }

    /** The shape a rule computes, its {@link org.arenaplan.ir.GraphException} turned into the node's one-line error. */
    static long[] shape(NodeContext n, java.util.function.Supplier<long[]> rule) {
        try {
            return rule.get();
        } catch (org.arenaplan.ir.GraphException e) {
            throw n.error(e.getMessage());
        }
    }

    /** Attributes an importer resolved, read through the kind's registry entry (its defaults) before the op exists. */
    static org.arenaplan.ir.OpAttrs attrsOf(String kind, java.util.Map<String, Object> attrs) {
        return org.arenaplan.ir.OpAttrs.of(new org.arenaplan.ir.Op(kind, kind, List.of(), List.of(), 0, attrs, null, null, null));
    }

    static void requireF32(NodeContext n, Value v) {
        n.require(v.dtype() == DType.F32, "input " + v + " is " + v.dtype().jsonName() + "; " + n.opType() + " computes f32 only");
    }

    /** Checks input {@code v} has one of the element types the node's kind declares it computes ({@code OpSpec.computes}). */
    static void requireComputed(NodeContext n, Value v) {
        org.arenaplan.ir.OpSpec spec = org.arenaplan.ir.OpRegistry.get(n.kind());
        n.require(!spec.refuses(v.dtype()), "input " + v + " is " + v.dtype().jsonName() + "; " + n.opType() + " computes " + spec.computesText());
    }
}
