package org.arenaplan.onnx;

import org.arenaplan.ir.OpKinds;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which Concats write their inputs straight into slices of their output (ir member
 * declarations), so the copy and the second copy of the data disappear.
 *
 * <p>Steps, per Concat in schedule order:
 * <ol>
 *   <li>Contiguity: every extent before the concat axis must be 1 (e.g. axis 1 of an NCHW
 *       tensor with batch 1). Then input j is one contiguous byte range of the output, starting
 *       at the summed bytes of inputs 0..j-1.</li>
 *   <li>Every input must be computed by a non-view op of this graph: graph inputs and weights
 *       live elsewhere, and a view's bytes belong to its base.</li>
 *   <li>No input may be a graph output (the caller owns those bytes), appear twice in this
 *       Concat, or already be a member of an earlier Concat (one tensor, one address).</li>
 *   <li>All inputs qualify, or none is declared: a Concat is either pure storage (no device
 *       work) or a full copy, never a mix.</li>
 * </ol>
 * Why that suffices: a member's bytes lie inside the output's storage, which liveness keeps
 * alive from the first member's write to the last read through any member or the output, and
 * no two members overlap; writers of other members touch disjoint slices. Views of a member
 * follow it into the slice. Not guaranteed: that the arena shrinks; the output's storage is
 * now live from its first member's write, which may raise the peak elsewhere (rare; the
 * saving is measured per model in docs/onnx.md).
 */
final class ConcatInPlace {
    /** A lowered node in schedule order. */
    record Scheduled(String name, Lowered op) { }

    /** One Concat's outcome: byte offsets of its inputs, or why it stays a copy. */
    record Decision(String concat, long[] offsets, String refusal) {
        boolean inPlace() {
            return offsets != null;
        }
    }

    private ConcatInPlace() { }

    /** Decisions keyed by schedule position, for every Concat. */
    static Map<Integer, Decision> decide(List<Scheduled> ops, Set<String> graphOutputs) {
        Map<String, Integer> computedBy = new HashMap<>();
        for (int p = 0; p < ops.size(); p++) {
            Lowered l = ops.get(p).op();
            if (!l.view()) for (Value v : l.outputs()) computedBy.put(v.name(), p);
        }
        Map<String, Value> values = new HashMap<>();
        for (Scheduled s : ops) for (Value v : s.op().outputs()) values.put(v.name(), v);
        Set<String> members = new HashSet<>();
        Map<Integer, Decision> out = new LinkedHashMap<>();
        for (int p = 0; p < ops.size(); p++) {
            Lowered l = ops.get(p).op();
            if (!l.kind().equals(OpKinds.CONCAT)) continue;
            String refusal = refusal(l, computedBy, values, graphOutputs, members);
            if (refusal != null) {
                out.put(p, new Decision(ops.get(p).name(), null, refusal));
                continue;
            }
            long[] offsets = new long[l.inputs().size()];
            long at = 0;
            for (int j = 0; j < offsets.length; j++) {
                Value v = values.get(l.inputs().get(j));
                offsets[j] = at;
                at += v.elements() * v.dtype().bytes();
                members.add(v.name());
            }
            out.put(p, new Decision(ops.get(p).name(), offsets, null));
        }
        return out;
    }

    private static String refusal(Lowered concat, Map<String, Integer> computedBy, Map<String, Value> values,
                                  Set<String> graphOutputs, Set<String> members) {
        Value out = concat.outputs().get(0);
        if (concat.attrs().containsKey("extents"))   // onnx.BoundedRewrites#withConcatExtents
            return "it reads a tensor computed from a data-dependent output, held at its upper bound, whose actual rows go after the actual rows before them";
        int axis = ((Long) concat.attrs().get("axis")).intValue();
        for (int d = 0; d < axis; d++)
            if (out.dim(d) != 1) return "axis " + axis + " slices of " + out + " are not contiguous (extent " + out.dim(d) + " on axis " + d + ")";
        Set<String> seen = new HashSet<>();
        for (String in : concat.inputs()) {
            if (!computedBy.containsKey(in)) return "'" + in + "' is a graph input, a weight or a view, not an op result";
            if (graphOutputs.contains(in)) return "'" + in + "' is a graph output";
            if (!seen.add(in)) return "'" + in + "' appears twice";
            if (members.contains(in)) return "'" + in + "' is already written in place into an earlier Concat";
            if (values.get(in).dtype() != out.dtype()) return "'" + in + "' has another element type than the output";
        }
        return null;
    }
}
