package org.arenaplan.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.arenaplan.ir.AttrSpec.MAX_INT32;

/**
 * The {@link OpRegistry} entries of ONNX's recurrent layers LSTM, GRU and RNN (ONNX Operators.md,
 * versions 7 and 14; 14 adds {@code layout}), with their shape rule and the facts every pass reads:
 * gates per cell, activations per direction and their defaults, the activation functions.
 *
 * <p>Inputs, positional as in ONNX: X, W, R, then the optional B, sequence_lens, initial_h (and
 * for LSTM initial_c, P); trailing ones may be left off (the importer fills an absent one before
 * a present one with its ONNX default as a constant). Outputs Y, Y_h (and for LSTM Y_c): an op
 * lists the first one, two or three, and computes only those ({@link OpSpec#minOutputs()}).
 * Shapes (layout 0 / layout 1): X [seq, batch, input] / [batch, seq, input]; W [dirs, G*H, input];
 * R [dirs, G*H, H]; B [dirs, 2*G*H] (Wb then Rb); sequence_lens [batch] (int32); initial_h,
 * initial_c, Y_h, Y_c [dirs, batch, H] / [batch, dirs, H]; P [dirs, 3*H] (i, o, f); Y
 * [seq, dirs, batch, H] / [batch, seq, dirs, H]; G = 4 (LSTM, gates i, o, f, c), 3 (GRU: z, r, h),
 * 1 (RNN); dirs = 2 when direction is bidirectional, else 1.
 */
public final class RecurrentOps {
    /** Kernel name of {@code org.arenaplan.device.Kernels#RECURRENT}. */
    static final String RECURRENT = "recurrent";

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

    private RecurrentOps() { }

    static List<OpRegistry.E> entries() {
        return List.of(
                entry(OpKinds.LSTM, 8, 3).attrs(AttrSpec.flag("input_forget"))
                        .doc("ONNX LSTM: inputs X, W, R, B, sequence_lens, initial_h, initial_c, P (peepholes); outputs Y, Y_h, Y_c, trailing ones optional"),
                entry(OpKinds.GRU, 6, 2).attrs(AttrSpec.flag("linear_before_reset"))
                        .doc("ONNX GRU: inputs X, W, R, B, sequence_lens, initial_h; outputs Y, Y_h, trailing ones optional"),
                entry(OpKinds.RNN, 6, 2)
                        .doc("ONNX RNN: inputs X, W, R, B, sequence_lens, initial_h; outputs Y, Y_h, trailing ones optional"));
    }

    private static OpRegistry.E entry(String kind, int maxInputs, int maxOutputs) {
        return OpRegistry.op(kind, 3, maxInputs).outputs(1, maxOutputs)
                .attrs(AttrSpec.requiredInteger("hidden_size", 1, MAX_INT32), AttrSpec.string("direction", "forward"),
                        AttrSpec.strings("activations", String.join(", ", defaultActivations(kind)) + " per direction"),
                        AttrSpec.reals("activation_alpha", "per activation"), AttrSpec.reals("activation_beta", "per activation"),
                        AttrSpec.optionalReal("clip", "no clip"), AttrSpec.flag("layout"))
                .shapes(RecurrentOps::shapes).kernels(RECURRENT)
                .doc("f32; one kernel for the whole sequence, no workspace");
    }

    /** Gates per cell: 4 (LSTM: i, o, f, c), 3 (GRU: z, r, h), 1 (RNN). */
    public static int gates(String kind) {
        return switch (kind) {
            case OpKinds.LSTM -> 4;
            case OpKinds.GRU -> 3;
            default -> 1;
        };
    }

    /** ONNX's activations of one direction when the node gives none. */
    public static List<String> defaultActivations(String kind) {
        return switch (kind) {
            case OpKinds.LSTM -> List.of("Sigmoid", "Tanh", "Tanh");
            case OpKinds.GRU -> List.of("Sigmoid", "Tanh");
            default -> List.of("Tanh");
        };
    }

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
     * a list of the wrong length, or a needed alpha (beta) with no default and none left in the list.
     */
    public static List<Activation> activations(OpAttrs a, String kind) {
        int dirs = directions(a);
        List<String> names = new ArrayList<>();
        String[] given = a.stringsOrNull("activations");
        if (given == null) for (int d = 0; d < dirs; d++) names.addAll(defaultActivations(kind));
        else names.addAll(Arrays.asList(given));
        int per = defaultActivations(kind).size();
        if (names.size() != per * dirs)
            throw new GraphException("attribute 'activations' " + names + " must name " + per * dirs + " functions (" + per + " per direction, " + dirs + " direction" + (dirs == 1 ? "" : "s") + ")");
        double[] alphas = orEmpty(a.realsOrNull("activation_alpha")), betas = orEmpty(a.realsOrNull("activation_beta"));
        int ia = 0, ib = 0;
        List<Activation> out = new ArrayList<>();
        for (String n : names) {
            int code = code(n);
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
    static long[][] shapes(OpAttrs a, long[][] in, int outputs) {
        String kind = a.op().kind();
        int g = gates(kind), dirs = directions(a);
        boolean batchFirst = a.integer("layout") == 1;
        long hidden = a.integer("hidden_size");
        if (a.has("clip") && !(a.real("clip") > 0)) throw new GraphException("attribute 'clip' = " + a.real("clip") + " must be positive");
        activations(a, kind);
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
}
