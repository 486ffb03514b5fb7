package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.OptionalOutputs;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.ir.AttrSpec.MAX_INT32;

/**
 * ONNX's recurrent layers LSTM, GRU and RNN (ONNX Operators.md, versions 7 and 14; 14 adds
 * {@code layout}; 22 only adds bfloat16): registry facts,
 * lowering to one {@link Kernels#RECURRENT} call, ONNX import.
 *
 * <p>Inputs, positional as in ONNX: X, W, R, then the optional B, sequence_lens, initial_h (and
 * for LSTM initial_c, P); trailing ones may be left off, and the importer fills one left out
 * before a present one with its ONNX default as a constant (B, initial_h, initial_c and P zeros,
 * sequence_lens the sequence length). Outputs Y, Y_h (and for LSTM Y_c): an op lists the first
 * one, two or three and computes only those ({@link OptionalOutputs} says which an ONNX node
 * gets). Shapes (layout 0 / layout 1): X [seq, batch, input] / [batch, seq, input]; W [dirs, G*H,
 * input]; R [dirs, G*H, H]; B [dirs, 2*G*H] (Wb then Rb); sequence_lens [batch] (int32);
 * initial_h, initial_c, Y_h, Y_c [dirs, batch, H] / [batch, dirs, H]; P [dirs, 3*H] (i, o, f); Y
 * [seq, dirs, batch, H] / [batch, seq, dirs, H]; G = 4 (LSTM, gates i, o, f, c), 3 (GRU: z, r,
 * h), 1 (RNN); dirs = 2 when direction is bidirectional, else 1.
 *
 * <p>Lowering: the whole sequence, every direction and batch row, in one launch that keeps its
 * running state on chip, so the op needs no device bytes beyond its inputs and the outputs it
 * lists. Element types: f32 data, int32 sequence_lens. {@code hidden_size} defaults at import to
 * R's last extent.
 */
final class RecurrentOps implements OpFamily {
    /** Inputs after X, W, R, in the kernel's presence-flag order; then the outputs Y, Y_h, Y_c. */
    private static final int OPTIONAL_INPUTS = 5, OUTPUTS = 3;

    /**
     * The three cells, each declared once with its kind: gates per cell, its recurrent kernel's
     * cell code, its optional inputs after X, W, R, its outputs, and ONNX's activations of one
     * direction when a node gives none.
     */
    enum Cell {
        LSTM("LSTM", 4, Kernels.CELL_LSTM, 5, 3, List.of("Sigmoid", "Tanh", "Tanh")),
        GRU("GRU", 3, Kernels.CELL_GRU, 3, 2, List.of("Sigmoid", "Tanh")),
        RNN("RNN", 1, Kernels.CELL_RNN, 3, 2, List.of("Tanh"));

        final String kind;
        final int gates, code, optionalInputs, outputs;
        final List<String> defaultActivations;

        Cell(String kind, int gates, int code, int optionalInputs, int outputs, List<String> defaultActivations) {
            this.kind = kind;
            this.gates = gates;
            this.code = code;
            this.optionalInputs = optionalInputs;
            this.outputs = outputs;
            this.defaultActivations = defaultActivations;
        }
    }

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                entry(Cell.LSTM).attrs(AttrSpec.flag("input_forget"))
                        .doc("ONNX LSTM: inputs X, W, R, B, sequence_lens, initial_h, initial_c, P (peepholes); outputs Y, Y_h, Y_c, trailing ones optional").build(),
                entry(Cell.GRU).attrs(AttrSpec.flag("linear_before_reset"))
                        .doc("ONNX GRU: inputs X, W, R, B, sequence_lens, initial_h; outputs Y, Y_h, trailing ones optional").build(),
                entry(Cell.RNN)
                        .doc("ONNX RNN: inputs X, W, R, B, sequence_lens, initial_h; outputs Y, Y_h, trailing ones optional").build());
    }

    private static OpDefinition.Builder entry(Cell cell) {
        return OpDefinition.op(cell.kind, 3, 3 + cell.optionalInputs).outputs(1, cell.outputs)
                .attrs(AttrSpec.requiredInteger("hidden_size", 1, MAX_INT32), AttrSpec.string("direction", "forward"),
                        AttrSpec.strings("activations", String.join(", ", cell.defaultActivations) + " per direction"),
                        AttrSpec.reals("activation_alpha", "per activation"), AttrSpec.reals("activation_beta", "per activation"),
                        AttrSpec.optionalReal("clip", "no clip"), AttrSpec.flag("layout"))
                .shapes((a, in, n) -> shapes(cell, a, in, n)).kernels(Kernels.RECURRENT)
                // W [dirs, G*H, input] and R [dirs, G*H, H] times the input and the state, per step and batch row (X's first two extents)
                .flops((a, in, out) -> 2 * (OpSpec.FlopRule.elements(in[1]) + OpSpec.FlopRule.elements(in[2])) * in[0][0] * in[0][1])
                .doc("f32; one kernel for the whole sequence, no workspace")
                .lower((op, l) -> List.of(lower(cell, op, l))).onnx(n -> importNode(cell, n));
    }

    /**
     * The activation functions ONNX allows in recurrent layers, by kernel code (the index), with
     * whether they take alpha and beta: Relu, Tanh, Sigmoid, Affine (alpha*x + beta), LeakyRelu,
     * ThresholdedRelu, ScaledTanh (alpha*tanh(beta*x)), HardSigmoid, Elu, Softsign, Softplus.
     */
    public static final List<String> ACTIVATIONS = List.of("Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu",
            "ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus");
    private static final boolean[] TAKES_ALPHA = {false, false, false, true, true, true, true, true, true, false, false};
    private static final boolean[] TAKES_BETA = {false, false, false, true, false, false, true, true, false, false, false};
    /**
     * Defaults where ONNX's operator of the same name and ONNX Runtime agree (LeakyRelu 0.01,
     * HardSigmoid 0.2 and 0.5, Elu 1.0); NaN where they differ (Affine, ThresholdedRelu,
     * ScaledTanh), so such an activation needs its alpha (and beta) given.
     */
    private static final double[] ALPHA = {0, 0, 0, Double.NaN, 0.01, Double.NaN, Double.NaN, 0.2, 1.0, 0, 0};
    private static final double[] BETA = {0, 0, 0, Double.NaN, 0, 0, Double.NaN, 0.5, 0, 0, 0};

    /** 2 for {@code bidirectional}, 1 for {@code forward} or {@code reverse}; {@link GraphException} otherwise. */
    public static int directions(OpAttrs a) {
        String d = a.string("direction");
        return switch (d) {
            case "forward", "reverse" -> 1;
            case "bidirectional" -> 2;
            default -> throw new GraphException("attribute 'direction' = \"" + d + "\" is not forward, reverse or bidirectional");
        };
    }

    /**
     * One activation: its kernel code (an index of {@link #ACTIVATIONS}) and the alpha and beta it
     * uses (0 where it takes none).
     */
    public record Activation(int code, double alpha, double beta) { }

    /**
     * The activations of every direction, in order (f, g, h of direction 0, then of direction 1),
     * with alpha and beta consumed from the lists in that order by the activations that take them
     * (as ONNX Runtime reads them: {@code activation_alpha} "consumed in the order of activation
     * functions"). Names are case-insensitive. Throws {@link GraphException} for an unknown name,
     * a list of the wrong length, a needed alpha (beta) with no default and none left in the list,
     * or an RNN whose lists ONNX Runtime's RNN would read another way (it reads them by position).
     */
    static List<Activation> activations(OpAttrs a, Cell cell) {
        int dirs = directions(a);
        List<String> names = new ArrayList<>();
        String[] given = a.stringsOrNull("activations");
        if (given == null) for (int d = 0; d < dirs; d++) names.addAll(cell.defaultActivations);
        else names.addAll(Arrays.asList(given));
        int per = cell.defaultActivations.size();
        if (names.size() != per * dirs)
            throw new GraphException("attribute 'activations' " + names + " must name " + per * dirs + " functions (" + per + " per direction, " + dirs + " direction" + (dirs == 1 ? "" : "s") + ")");
        double[] alphas = orEmpty(a.realsOrNull("activation_alpha")), betas = orEmpty(a.realsOrNull("activation_beta"));
        int ia = 0, ib = 0;
        List<Activation> out = new ArrayList<>();
        for (String n : names) {
            int code = code(n);
            if (cell == Cell.RNN && (TAKES_ALPHA[code] && alphas.length > 0 && ia != out.size() || TAKES_BETA[code] && betas.length > 0 && ib != out.size()))
                throw new GraphException("activation_alpha/activation_beta are ambiguous for RNN activations " + names
                        + ": ONNX Runtime's RNN reads them by activation position, ONNX and its LSTM and GRU in order of the activations that take them");
            double alpha = 0, beta = 0;
            if (TAKES_ALPHA[code]) alpha = ia < alphas.length ? alphas[ia++] : ALPHA[code];
            if (TAKES_BETA[code]) beta = ib < betas.length ? betas[ib++] : BETA[code];
            if (Double.isNaN(alpha) || Double.isNaN(beta))
                throw new GraphException("activation " + n + " needs its " + (Double.isNaN(alpha) ? "alpha" : "beta")
                        + " in 'activation_" + (Double.isNaN(alpha) ? "alpha" : "beta") + "' (ONNX and ONNX Runtime disagree on its default)");
            out.add(new Activation(code, alpha, beta));
        }
        if (ia < alphas.length || ib < betas.length)
            throw new GraphException("attributes 'activation_alpha'/'activation_beta' give " + alphas.length + "/" + betas.length
                    + " values, the activations " + names + " take " + ia + "/" + ib);
        return out;
    }

    private static double[] orEmpty(double[] v) {
        return v == null ? new double[0] : v;
    }

    private static int code(String name) {
        for (int k = 0; k < ACTIVATIONS.size(); k++) if (ACTIVATIONS.get(k).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) return k;
        throw new GraphException("activation '" + name + "' is not one of " + ACTIVATIONS);
    }

    /**
     * The output shapes (Y, Y_h, Y_c, as many as listed) from X, W and R; checks every input's
     * shape and the attributes. {@link GraphException} with the reason.
     */
    private static long[][] shapes(Cell cell, OpAttrs a, long[][] in, int outputs) {
        int g = cell.gates, dirs = directions(a);
        boolean batchFirst = a.integer("layout") == 1;
        long hidden = a.integer("hidden_size");
        if (a.has("clip") && !(a.real("clip") > 0)) throw new GraphException("attribute 'clip' = " + a.real("clip") + " must be positive");
        activations(a, cell);
        long[] x = in[0];
        if (x.length != 3) throw new GraphException("X " + Arrays.toString(x) + " must have rank 3");
        long seq = batchFirst ? x[1] : x[0], batch = batchFirst ? x[0] : x[1], input = x[2];
        long gh = Math.multiplyExact(g, hidden);
        expect(in, 1, "W", dirs, gh, input);
        expect(in, 2, "R", dirs, gh, hidden);
        expect(in, 3, "B", dirs, Math.multiplyExact(2, gh));
        expect(in, 4, "sequence_lens", batch);
        long[] state = batchFirst ? new long[]{batch, dirs, hidden} : new long[]{dirs, batch, hidden};
        expect(in, 5, "initial_h", state);
        expect(in, 6, "initial_c", state);
        expect(in, 7, "P", dirs, Math.multiplyExact(3, hidden));
        long[] y = batchFirst ? new long[]{batch, seq, dirs, hidden} : new long[]{seq, dirs, batch, hidden};
        long[][] out = new long[Math.max(1, outputs)][];
        out[0] = y;
        for (int k = 1; k < out.length; k++) out[k] = state.clone();
        return out;
    }

    private static void expect(long[][] in, int j, String name, long... shape) {
        if (j >= in.length) return;
        if (!Arrays.equals(in[j], shape))
            throw new GraphException("input #" + j + " (" + name + ") " + Arrays.toString(in[j]) + " must be " + Arrays.toString(shape));
    }

    // ---- lowering ----

    private static KernelCall lower(Cell cell, Op op, OpLowering l) {
        OpAttrs a = OpAttrs.of(op);
        String kind = cell.kind;
        List<RecurrentOps.Activation> acts;
        try {
            acts = activations(a, cell);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        for (int j = 0; j < op.inputs().size(); j++) {
            String t = op.inputs().get(j);
            DType want = j == 4 ? DType.I32 : DType.F32;
            if (l.dtype(t) != want)
                throw fail(op, "input #" + j + " '" + t + "' is " + l.dtype(t).jsonName() + "; " + kind + " takes " + want.jsonName() + " there");
        }
        for (String t : op.outputs()) {
            if (l.dtype(t) != DType.F32) throw fail(op, "output '" + t + "' is " + l.dtype(t).jsonName() + "; " + kind + " computes f32 only");
        }
        long[] x = l.shape(op, op.inputs().get(0));
        boolean batchFirst = a.integer("layout") == 1;
        long seq = batchFirst ? x[1] : x[0], batch = batchFirst ? x[0] : x[1];
        int dirs = directions(a);
        long[] ints = new long[11 + 6 + OPTIONAL_INPUTS + OUTPUTS];
        ints[0] = cell.code;
        ints[1] = seq;
        ints[2] = batch;
        ints[3] = x[2];
        ints[4] = a.integer("hidden_size");
        ints[5] = dirs;
        ints[6] = a.string("direction").equals("reverse") ? 1 : 0;
        ints[7] = batchFirst ? 1 : 0;
        ints[8] = cell == Cell.GRU ? a.integer("linear_before_reset") : 0;
        ints[9] = cell == Cell.LSTM ? a.integer("input_forget") : 0;
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

    // ---- ONNX import ----

    private static Lowered importNode(Cell cell, NodeContext n) {
        String kind = cell.kind;
        int g = cell.gates;
        Value x = n.input(0), w = n.input(1), r = n.input(2);
        n.require(x.dtype() == DType.F32, "X " + x + " is " + x.dtype().jsonName() + "; " + kind + " runs on f32 only");
        n.require(x.rank() == 3 && w.rank() == 3 && r.rank() == 3, "X " + x + ", W " + w + " and R " + r + " must have rank 3");
        n.require(n.opset() >= 14 || !n.hasAttr("layout"), "attribute 'layout' needs opset 14");
        long layout = n.flag("layout", false) ? 1 : 0;
        long hidden = n.integer("hidden_size", r.dim(2));
        n.require(hidden == r.dim(2) && r.dim(1) == g * hidden, "hidden_size " + hidden + " does not fit R " + r + " (" + g + " gates)");
        String direction = n.string("direction", "forward");
        long dirs = direction.equals("bidirectional") ? 2 : 1;
        long seq = layout == 1 ? x.dim(1) : x.dim(0), batch = layout == 1 ? x.dim(0) : x.dim(1);
        long[] state = layout == 1 ? new long[]{batch, dirs, hidden} : new long[]{dirs, batch, hidden};

        List<Value> defaults = List.of(new Value("B", DType.F32, new long[]{dirs, 2 * g * hidden}),
                new Value("sequence_lens", DType.I32, new long[]{batch}), new Value("initial_h", DType.F32, state),
                new Value("initial_c", DType.F32, state), new Value("P", DType.F32, new long[]{dirs, 3 * hidden}));
        int optional = cell.optionalInputs;
        int last = 2;
        for (int j = 3; j < 3 + optional; j++) if (n.hasInput(j)) last = j;
        n.require(n.inputCount() <= 3 + optional, "has " + n.inputCount() + " inputs; " + kind + " takes at most " + (3 + optional));
        List<String> inputs = new ArrayList<>(List.of(x.name(), w.name(), r.name()));
        Map<Value, Double> constants = new LinkedHashMap<>();
        for (int j = 3; j <= last; j++) {
            if (n.hasInput(j)) {
                inputs.add(n.input(j).name());
                continue;
            }
            Value d = defaults.get(j - 3);
            Value c = new Value(n.opName() + "#" + d.name(), d.dtype(), d.shape());
            constants.put(c, j == 4 ? (double) seq : 0.0);
            inputs.add(c.name());
        }

        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("hidden_size", hidden);
        attrs.put("direction", direction);
        if (n.hasAttr("activations")) attrs.put("activations", n.strings("activations", null));
        if (n.hasAttr("activation_alpha")) attrs.put("activation_alpha", n.reals("activation_alpha", null));
        if (n.hasAttr("activation_beta")) attrs.put("activation_beta", n.reals("activation_beta", null));
        if (n.hasAttr("clip")) attrs.put("clip", n.real("clip", 0));
        if (layout == 1) attrs.put("layout", 1L);
        if (cell == Cell.LSTM && n.hasAttr("input_forget")) attrs.put("input_forget", n.integer("input_forget", 0));
        if (cell == Cell.GRU && n.hasAttr("linear_before_reset")) attrs.put("linear_before_reset", n.integer("linear_before_reset", 0));

        long[] y = layout == 1 ? new long[]{batch, seq, dirs, hidden} : new long[]{seq, dirs, batch, hidden};
        List<OptionalOutputs.Slot> slots = new ArrayList<>(List.of(new OptionalOutputs.Slot(DType.F32, y), new OptionalOutputs.Slot(DType.F32, state)));
        if (cell.outputs == 3) slots.add(new OptionalOutputs.Slot(DType.F32, state));
        return new Lowered(kind, inputs, OptionalOutputs.of(n, 0, slots), attrs, false, List.of(), constants);
    }
}
