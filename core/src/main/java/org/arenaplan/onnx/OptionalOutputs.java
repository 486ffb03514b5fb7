package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ONNX nodes with several positional outputs, some optional (LSTM's Y, Y_h, Y_c; TopK's Values,
 * Indices; LayerNormalization's Mean, InvStdDev; MaxPool's Indices), as ir ops whose every listed
 * output is a tensor of its own (ONNX IR spec, "Optional inputs and outputs": an empty name, or a
 * name left off the end of the list, means the output is absent). The rules, applied in this order:
 * <ol>
 *   <li>{@link #of}: trailing absent outputs are not listed, so the op does not compute them; an
 *       absent output before a present one is listed under an empty name, still computed, into
 *       a tensor that nothing reads;</li>
 *   <li>{@link #standIn}: the importer names that tensor {@code <node>#<k>} (the plan shows its
 *       bytes, live at its op's position only);</li>
 *   <li>{@link #prune}: once every node is known, trailing outputs that no node reads and that are
 *       not graph outputs are dropped too, down to the kind's {@link OpSpec#minOutputs()}: not
 *       computed either.</li>
 * </ol>
 * Variadic kinds (Split, whose output count is its meaning) are never pruned.
 */
public final class OptionalOutputs {
    private OptionalOutputs() { }

    /** One output position: its element type and shape, as the op's shape rule gives them. */
    public record Slot(DType dtype, long[] shape) { }

    /**
     * The outputs to list for {@code slots} (one per position the op kind has): the node's name
     * where it gives one, an empty name where it leaves out an output before a present one;
     * trailing absent ones left off. The first {@code required} outputs must be named.
     */
    public static List<Value> of(NodeContext n, int required, List<Slot> slots) {
        List<String> names = n.node().outputs();
        n.require(names.size() <= slots.size(), "has " + names.size() + (names.size() == 1 ? " output; " : " outputs; ") + n.opType() + " has at most " + slots.size());
        int last = -1;
        for (int k = 0; k < names.size(); k++) if (!names.get(k).isEmpty()) last = k;
        n.require(last >= 0, "has no output");
        List<Value> out = new ArrayList<>();
        for (int k = 0; k <= last; k++) {
            n.require(k >= required || !names.get(k).isEmpty(), "output #" + k + " is required and has no name");
            Slot s = slots.get(k);
            for (long d : s.shape()) if (d < 0) throw n.error("inferred a negative dimension in shape " + Arrays.toString(s.shape()) + " of output #" + k);
            out.add(new Value(names.get(k), s.dtype(), s.shape()));
        }
        return out;
    }

    /** The name of the tensor computed for output #k of node {@code opName}, left out by the file: one no defined name takes. */
    static String standIn(String opName, int k, Set<String> taken) {
        String name = opName + "#" + k;
        while (taken.contains(name)) name += "_";
        return name;
    }

    /** Whether {@code l} has runtime extents it writes for its other outputs among its last outputs, which no op reads ({@link OpSpec.BoundedFlow#extentOutputs}). */
    private static boolean writesExtents(OpSpec spec, String name, Lowered l) {
        if (spec.carries() == null) return false;
        org.arenaplan.ir.Op op = new org.arenaplan.ir.Op(name, l.kind(), l.inputs(), l.outputs().stream().map(Value::name).toList(), 0, l.attrs(), null, null, null);
        return spec.carries().extentOutputs(org.arenaplan.ir.OpAttrs.of(op), l.outputs().size()) < l.outputs().size();
    }

    /**
     * {@code schedule} with the trailing outputs nothing reads left off (rule 3 above), in place.
     *
     * @param graphOutputs the model's graph outputs, which are read by the caller
     */
    static void prune(List<ConcatInPlace.Scheduled> schedule, Set<String> graphOutputs) {
        Set<String> read = new HashSet<>(graphOutputs);
        for (ConcatInPlace.Scheduled s : schedule) read.addAll(s.op().inputs());
        for (int p = 0; p < schedule.size(); p++) {
            Lowered l = schedule.get(p).op();
            OpSpec spec = OpRegistry.get(l.kind());
            if (spec == null || !spec.hasOptionalOutputs() || writesExtents(spec, schedule.get(p).name(), l)) continue;
            int keep = l.outputs().size();
            while (keep > spec.minOutputs() && !read.contains(l.outputs().get(keep - 1).name())) keep--;
            if (keep == l.outputs().size()) continue;
            schedule.set(p, new ConcatInPlace.Scheduled(schedule.get(p).name(),
                    new Lowered(l.kind(), l.inputs(), l.outputs().subList(0, keep), l.attrs(), l.view(), l.dropped(), l.constants(), l.tables())));
        }
    }
}
