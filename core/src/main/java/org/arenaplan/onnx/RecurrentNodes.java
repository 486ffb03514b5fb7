package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.RecurrentOps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ONNX LSTM, GRU and RNN nodes as {@link RecurrentOps} kinds. Version differences in opsets 9..21
 * (ONNX Changelog.md): version 7 throughout, version 14 adds {@code layout} (batch-first X, Y and
 * states), refused before 14. {@code hidden_size} defaults to R's last extent. An optional input
 * left out ({@code ""}) before a present one gets its ONNX default as a constant: B zeros,
 * sequence_lens the sequence length for every batch row, initial_h and initial_c zeros, P zeros;
 * trailing ones are left off. Outputs as {@link OptionalOutputs} says.
 */
final class RecurrentNodes {
    private RecurrentNodes() { }

    static Lowered lower(NodeContext n) {
        String kind = n.opType();
        int g = RecurrentOps.gates(kind);
        Value x = n.input(0), w = n.input(1), r = n.input(2);
        n.require(x.dtype() == DType.F32, "X " + x + " is " + x.dtype().jsonName() + "; " + kind + " runs on f32 only");
        n.require(x.rank() == 3 && w.rank() == 3 && r.rank() == 3, "X " + x + ", W " + w + " and R " + r + " must have rank 3");
        n.require(n.opset() >= 14 || !n.hasAttr("layout"), "attribute 'layout' needs opset 14");
        long layout = n.integer("layout", 0);
        n.require(layout == 0 || layout == 1, "attribute 'layout' = " + layout + " must be 0 or 1");
        long hidden = n.integer("hidden_size", r.dim(2));
        n.require(hidden == r.dim(2) && r.dim(1) == g * hidden, "hidden_size " + hidden + " does not fit R " + r + " (" + g + " gates)");
        String direction = n.string("direction", "forward");
        long dirs = direction.equals("bidirectional") ? 2 : 1;
        long seq = layout == 1 ? x.dim(1) : x.dim(0), batch = layout == 1 ? x.dim(0) : x.dim(1);
        long[] state = layout == 1 ? new long[]{batch, dirs, hidden} : new long[]{dirs, batch, hidden};

        List<Value> defaults = List.of(new Value("B", DType.F32, new long[]{dirs, 2 * g * hidden}),
                new Value("sequence_lens", DType.I32, new long[]{batch}), new Value("initial_h", DType.F32, state),
                new Value("initial_c", DType.F32, state), new Value("P", DType.F32, new long[]{dirs, 3 * hidden}));
        int optional = kind.equals(OpKinds.LSTM) ? 5 : 3;
        int last = 2;
        for (int j = 3; j < 3 + optional; j++) if (n.hasInput(j)) last = j;
        n.require(n.inputCount() <= 3 + optional, "has " + n.inputCount() + " inputs; " + kind + " takes at most " + (3 + optional));
        List<String> inputs = new ArrayList<>(List.of(x.name(), w.name(), r.name()));
        Map<Value, Constant> constants = new LinkedHashMap<>();
        for (int j = 3; j <= last; j++) {
            if (n.hasInput(j)) {
                inputs.add(n.input(j).name());
                continue;
            }
            Value d = defaults.get(j - 3);
            Value c = new Value(n.opName() + "#" + d.name(), d.dtype(), d.shape());
            constants.put(c, Constant.fill(j == 4 ? seq : 0.0));
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
        if (kind.equals(OpKinds.LSTM) && n.hasAttr("input_forget")) attrs.put("input_forget", n.integer("input_forget", 0));
        if (kind.equals(OpKinds.GRU) && n.hasAttr("linear_before_reset")) attrs.put("linear_before_reset", n.integer("linear_before_reset", 0));

        long[] y = layout == 1 ? new long[]{batch, seq, dirs, hidden} : new long[]{seq, dirs, batch, hidden};
        List<OptionalOutputs.Slot> slots = new ArrayList<>(List.of(new OptionalOutputs.Slot(DType.F32, y), new OptionalOutputs.Slot(DType.F32, state)));
        if (kind.equals(OpKinds.LSTM)) slots.add(new OptionalOutputs.Slot(DType.F32, state));
        return new Lowered(kind, inputs, OptionalOutputs.of(n, 0, slots), attrs, false, List.of(), constants);
    }
}
