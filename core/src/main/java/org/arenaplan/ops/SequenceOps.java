package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.device.KernelCall;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * ONNX ReverseSequence (opset 10) on {@link Kernels#REVERSE_SEQUENCE}: for each batch entry b,
 * the first {@code sequence_lens[b]} steps along {@code time_axis} in reverse order, the rest
 * copied; {@code batch_axis} and {@code time_axis} are 0 and 1 in either order. Any element type;
 * sequence_lens int64 [batch], each in [0, steps] (outside: an error naming the op on the
 * simulator, a trap on CUDA). No version differences.
 */
final class SequenceOps implements OpFamily {
    static final String REVERSE_SEQUENCE = "ReverseSequence";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(OpDefinition.op(REVERSE_SEQUENCE, 2, 2).attrs(AttrSpec.integer("batch_axis", 1, 0, 1), AttrSpec.integer("time_axis", 0, 0, 1))
                .shape(ShapeRules::sameAsFirst).kernels(Kernels.REVERSE_SEQUENCE)
                .doc("inputs input [time, batch, ...] or [batch, time, ...], sequence_lens int64 [batch]; each batch entry's first steps reversed")
                .lower((op, l) -> List.of(lower(op, l))).onnx(REVERSE_SEQUENCE, 10, SequenceOps::importReverseSequence).build());
    }

    /** ints [d0, d1, inner, timeAxis, elementBytes, lensDtype]. */
    private static KernelCall lower(Op op, OpLowering l) {
        String x = op.inputs().get(0), lens = op.inputs().get(1), y = OpLowering.out(op);
        l.sameType(op, x, y);
        long[] s = l.shape(op, x);
        int time = (int) OpAttrs.of(op).integer("time_axis");
        if (s.length < 2 || time == OpAttrs.of(op).integer("batch_axis")) throw fail(op, "needs rank 2 or more and batch_axis != time_axis");
        if (l.dtype(lens) != DType.I64 || l.elements(lens) != s[1 - time]) throw fail(op, "sequence_lens " + lens + " must be int64 [" + s[1 - time] + "]");
        long inner = OpLowering.product(Arrays.copyOfRange(s, 2, s.length));
        long[] ints = {s[0], s[1], inner, time, l.dtype(x).bytes(), DType.I64.onnxCode()};
        return l.call(op, Kernels.REVERSE_SEQUENCE, List.of(l.read(x), l.read(lens), l.write(y)), ints);
    }

    private static Lowered importReverseSequence(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 2);
        Value x = n.input(0), lens = n.input(1);
        long batch = n.integer("batch_axis", 1), time = n.integer("time_axis", 0);
        n.require(x.rank() >= 2, "input " + x + " must have rank 2 or more");
        n.require(batch != time && (batch == 0 || batch == 1) && (time == 0 || time == 1), "batch_axis " + batch + " and time_axis " + time + " must be 0 and 1");
        n.require(lens.dtype() == DType.I64 && lens.rank() == 1 && lens.dim(0) == x.dim((int) batch), "sequence_lens " + lens + " must be int64 [" + x.dim((int) batch) + "]");
        return NodeLowering.op(n, REVERSE_SEQUENCE, List.of(x.name(), lens.name()), x.shape(), Map.of("batch_axis", batch, "time_axis", time));
    }
}
