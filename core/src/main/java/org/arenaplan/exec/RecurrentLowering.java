package org.arenaplan.exec;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.RecurrentOps;

import java.util.ArrayList;
import java.util.List;

/**
 * LSTM, GRU and RNN ({@link RecurrentOps}) to one {@link Kernels#RECURRENT} call: the whole
 * sequence, every direction and batch row, in one launch that keeps its running state on chip, so
 * the op needs no device bytes beyond its inputs and the outputs it lists (which it computes; the
 * others it skips). Checks the element types: f32 data, int32 sequence_lens.
 */
final class RecurrentLowering {
    /** Inputs after X, W, R, in the kernel's presence-flag order; then the outputs Y, Y_h, Y_c. */
    private static final int OPTIONAL_INPUTS = 5, OUTPUTS = 3;

    private RecurrentLowering() { }

    static KernelCall lower(OpLowering l, Op op) {
        OpAttrs a = OpAttrs.of(op);
        String kind = op.kind();
        List<RecurrentOps.Activation> acts;
        try {
            acts = RecurrentOps.activations(a, kind);
        } catch (GraphException e) {
            throw OpLowering.fail(op, e.getMessage());
        }
        for (int j = 0; j < op.inputs().size(); j++) {
            String t = op.inputs().get(j);
            DType want = j == 4 ? DType.I32 : DType.F32;
            if (l.dtype(t) != want)
                throw OpLowering.fail(op, "input #" + j + " '" + t + "' is " + l.dtype(t).jsonName() + "; " + kind + " takes " + want.jsonName() + " there");
        }
        for (String t : op.outputs()) {
            if (l.dtype(t) != DType.F32) throw OpLowering.fail(op, "output '" + t + "' is " + l.dtype(t).jsonName() + "; " + kind + " computes f32 only");
        }
        long[] x = l.shape(op, op.inputs().get(0));
        boolean batchFirst = a.integer("layout") == 1;
        long seq = batchFirst ? x[1] : x[0], batch = batchFirst ? x[0] : x[1];
        int dirs = RecurrentOps.directions(a);
        long[] ints = new long[11 + 6 + OPTIONAL_INPUTS + OUTPUTS];
        ints[0] = switch (kind) {
            case OpKinds.LSTM -> Kernels.CELL_LSTM;
            case OpKinds.GRU -> Kernels.CELL_GRU;
            default -> Kernels.CELL_RNN;
        };
        ints[1] = seq;
        ints[2] = batch;
        ints[3] = x[2];
        ints[4] = a.integer("hidden_size");
        ints[5] = dirs;
        ints[6] = a.string("direction").equals("reverse") ? 1 : 0;
        ints[7] = batchFirst ? 1 : 0;
        ints[8] = kind.equals(OpKinds.GRU) ? a.integer("linear_before_reset") : 0;
        ints[9] = kind.equals(OpKinds.LSTM) ? a.integer("input_forget") : 0;
        ints[10] = a.has("clip") ? 1 : 0;
        double[] floats = new double[13];
        floats[0] = a.has("clip") ? a.real("clip") : 0;
        for (int k = 0; k < acts.size(); k++) {
            ints[11 + k] = acts.get(k).code();
            floats[1 + k] = acts.get(k).alpha();
            floats[7 + k] = acts.get(k).beta();
        }
        List<KernelArg> args = new ArrayList<>();
        for (int j = 0; j < op.inputs().size(); j++) {
            args.add(l.read(op.inputs().get(j)));
            if (j >= 3) ints[17 + (j - 3)] = 1;
        }
        for (int k = 0; k < op.outputs().size(); k++) {
            args.add(l.write(op.outputs().get(k)));
            ints[17 + OPTIONAL_INPUTS + k] = 1;
        }
        return l.call(op, Kernels.RECURRENT, args, ints, floats);
    }
}
