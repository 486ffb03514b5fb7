package org.arenaplan.onnx;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ONNX LSTM, GRU and RNN against ONNX Runtime on small generated models (random weights and
 * inputs): every direction, both layouts, optional inputs given, left out before a present one
 * ({@code ""}) or trailing, optional outputs absent or unread, peepholes, clip, input_forget,
 * linear_before_reset, sequence_lens, and activations with alpha and beta.
 */
class RecurrentOnnxTest {
    @TempDir
    Path dir;

    private static final int SEQ = 5, BATCH = 3, INPUT = 4, HIDDEN = 6;

    private static float[] random(int n, long seed) {
        return OnnxRuntimeDifferentialTest.random(n, seed);
    }

    /** X [SEQ, BATCH, INPUT] (or batch first), W and R for {@code gates} gates and {@code dirs} directions. */
    private static TinyOnnx model(long opset, int gates, int dirs, boolean batchFirst) {
        TinyOnnx m = new TinyOnnx().opset(opset);
        if (batchFirst) m.input("X", (long) BATCH, (long) SEQ, (long) INPUT);
        else m.input("X", (long) SEQ, (long) BATCH, (long) INPUT);
        return m.raw("W", random(dirs * gates * HIDDEN * INPUT, 1), dirs, gates * HIDDEN, INPUT)
                .raw("R", random(dirs * gates * HIDDEN * HIDDEN, 2), dirs, gates * HIDDEN, HIDDEN);
    }

    private Graph agree(TinyOnnx m, boolean batchFirst) throws Exception {
        long[] x = batchFirst ? new long[]{BATCH, SEQ, INPUT} : new long[]{SEQ, BATCH, INPUT};
        return OnnxRuntimeDifferentialTest.agree(dir, m, Map.of("X", x));
    }

    /**
     * ONNX Runtime's CPU kernels refuse layout 1, so the reference is the same node at layout 0
     * between Transposes (X [batch, seq, input] to [seq, batch, input]; Y [seq, dirs, batch, H] to
     * [batch, seq, dirs, H]; Y_h and Y_c [dirs, batch, H] to [batch, dirs, H]).
     */
    private void agreeBatchFirst(TinyOnnx m, String node, int gates, int dirs) throws Exception {
        ai.onnx.proto.OnnxMl.ModelProto mine = m.model();
        ai.onnx.proto.OnnxMl.GraphProto.Builder ref = mine.getGraph().toBuilder().clearNode();
        ref.addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setName("tx").setOpType("Transpose").addInput("X").addOutput("X_sbi")
                .addAttribute(ints("perm", 1, 0, 2)));
        for (ai.onnx.proto.OnnxMl.NodeProto n : mine.getGraph().getNodeList()) {
            if (!n.getName().equals(node)) { ref.addNode(n); continue; }
            ai.onnx.proto.OnnxMl.NodeProto.Builder b = n.toBuilder().clearAttribute().setInput(0, "X_sbi").clearOutput();
            for (ai.onnx.proto.OnnxMl.AttributeProto a : n.getAttributeList()) if (!a.getName().equals("layout")) b.addAttribute(a);
            for (int k = 0; k < n.getOutputCount(); k++) {
                String o = n.getOutput(k);
                b.addOutput(o.isEmpty() ? "" : o + "_l0");
                if (o.isEmpty()) continue;
                ref.addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setName("t" + k).setOpType("Transpose").addInput(o + "_l0").addOutput(o)
                        .addAttribute(k == 0 ? ints("perm", 2, 0, 1, 3) : ints("perm", 1, 0, 2)));
            }
            ref.addNode(b);
        }
        Map<String, org.arenaplan.ir.TensorValue> feed = Map.of("X", org.arenaplan.ir.TensorValue.ofFloats(new long[]{BATCH, SEQ, INPUT}, random(BATCH * SEQ * INPUT, 100)));
        Map<String, org.arenaplan.ir.TensorValue> want = OrtOracle.run(mine.toBuilder().setGraph(sorted(ref)).build().toByteArray(), feed);
        Path file = dir.resolve("bf.onnx");
        Files.write(file, mine.toByteArray());
        Graph g = OnnxImporter.load(file, Map.of());
        Map<String, float[]> got = WeightsTest.run(g, Map.of("X", feed.get("X").floats()));
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(want.keySet());
        for (String out : want.keySet()) {
            org.arenaplan.exec.AllClose c = org.arenaplan.exec.AllClose.compare(got.get(out), want.get(out).floats(),
                    org.arenaplan.exec.AllClose.DEFAULT_RTOL, org.arenaplan.exec.AllClose.DEFAULT_ATOL);
            assertThat(c.ok()).as("output '%s': %s", out, c.describe(g.tensor(out).shape())).isTrue();
        }
    }

    /** Nodes in an order where each reads only what earlier ones wrote (the Transposes after the node move behind it). */
    private static ai.onnx.proto.OnnxMl.GraphProto sorted(ai.onnx.proto.OnnxMl.GraphProto.Builder g) {
        List<ai.onnx.proto.OnnxMl.NodeProto> todo = new java.util.ArrayList<>(g.getNodeList());
        java.util.Set<String> known = new java.util.HashSet<>();
        g.getInputList().forEach(v -> known.add(v.getName()));
        g.getInitializerList().forEach(t -> known.add(t.getName()));
        known.add("");
        g.clearNode();
        while (!todo.isEmpty()) {
            for (java.util.Iterator<ai.onnx.proto.OnnxMl.NodeProto> it = todo.iterator(); it.hasNext(); ) {
                ai.onnx.proto.OnnxMl.NodeProto n = it.next();
                if (!known.containsAll(n.getInputList())) continue;
                g.addNode(n);
                known.addAll(n.getOutputList());
                it.remove();
            }
        }
        return g.build();
    }

    private static ai.onnx.proto.OnnxMl.AttributeProto ints(String name, long... v) {
        ai.onnx.proto.OnnxMl.AttributeProto.Builder a = ai.onnx.proto.OnnxMl.AttributeProto.newBuilder().setName(name)
                .setType(ai.onnx.proto.OnnxMl.AttributeProto.AttributeType.INTS);
        for (long x : v) a.addInts(x);
        return a.build();
    }

    private static Op only(Graph g, String kind) {
        return g.ops().stream().filter(o -> o.kind().equals(kind)).findFirst().orElseThrow();
    }

    @Test
    void lstmDefaultsWithYLeftOutIsComputedIntoAStandIn() throws Exception {
        Graph g = agree(model(13, 4, 1, false).output("Y_h").node("lstm", "LSTM", List.of("X", "W", "R"), List.of("", "Y_h"), "hidden_size", (long) HIDDEN), false);
        assertThat(only(g, "LSTM").outputs()).containsExactly("lstm#0", "Y_h");
        assertThat(g.isOutput("lstm#0")).isFalse();
    }

    @Test
    void lstmBidirectionalWithBiasInitialStatesAndPeepholes() throws Exception {
        int d = 2;
        TinyOnnx m = model(14, 4, d, false).raw("B", random(d * 8 * HIDDEN, 3), d, 8 * HIDDEN)
                .raw("h0", random(d * BATCH * HIDDEN, 4), d, BATCH, HIDDEN).raw("c0", random(d * BATCH * HIDDEN, 5), d, BATCH, HIDDEN)
                .raw("P", random(d * 3 * HIDDEN, 6), d, 3 * HIDDEN).output("Y").output("Y_h").output("Y_c")
                .node("lstm", "LSTM", List.of("X", "W", "R", "B", "", "h0", "c0", "P"), List.of("Y", "Y_h", "Y_c"),
                        "hidden_size", (long) HIDDEN, "direction", "bidirectional");
        Graph g = agree(m, false);
        Op lstm = only(g, "LSTM");
        assertThat(lstm.inputs()).hasSize(8).contains("lstm#sequence_lens");
        assertThat(g.weightFill("lstm#sequence_lens")).isEqualTo((double) SEQ);
    }

    @Test
    void lstmBatchFirstReverseWithClipAndInputForget() throws Exception {
        TinyOnnx m = model(14, 4, 1, true).raw("B", random(8 * HIDDEN, 3), 1, 8 * HIDDEN).output("Y")
                .node("lstm", "LSTM", List.of("X", "W", "R", "B"), List.of("Y"), "hidden_size", (long) HIDDEN, "direction", "reverse",
                        "layout", 1L, "clip", 0.7, "input_forget", 1L);
        agreeBatchFirst(m, "lstm", 4, 1);
    }

    @Test
    void lstmWithSequenceLengthsAndUnreadOutputsPrunedAtImport() throws Exception {
        int d = 2;
        TinyOnnx m = model(13, 4, d, false).int32s("lens", 5, 2, 0 + 3).output("out")
                .node("lstm", "LSTM", List.of("X", "W", "R", "", "lens"), List.of("Y", "Y_h", "Y_c"), "hidden_size", (long) HIDDEN, "direction", "bidirectional")
                .node("relu", "Relu", List.of("Y"), List.of("out"));
        Graph g = agree(m, false);
        assertThat(only(g, "LSTM").outputs()).containsExactly("Y");
        assertThat(g.weightFill("lstm#B")).isEqualTo(0.0);
    }

    @Test
    void gruBothResetVariantsBidirectionalWithSequenceLengths() throws Exception {
        int d = 2;
        for (long lbr = 0; lbr <= 1; lbr++) {
            TinyOnnx m = model(13, 3, d, false).raw("B", random(d * 6 * HIDDEN, 3), d, 6 * HIDDEN).int32s("lens", 4, 5, 1)
                    .raw("h0", random(d * BATCH * HIDDEN, 4), d, BATCH, HIDDEN).output("Y").output("Y_h")
                    .node("gru", "GRU", List.of("X", "W", "R", "B", "lens", "h0"), List.of("Y", "Y_h"), "hidden_size", (long) HIDDEN,
                            "direction", "bidirectional", "linear_before_reset", lbr);
            agree(m, false);
        }
    }

    @Test
    void gruBatchFirstWithActivationsTakingAlphaAndBeta() throws Exception {
        TinyOnnx m = model(14, 3, 1, true).output("Y_h")
                .node("gru", "GRU", List.of("X", "W", "R"), List.of("", "Y_h"), "hidden_size", (long) HIDDEN, "layout", 1L,
                        "activations", new String[]{"HardSigmoid", "LeakyRelu"}, "activation_alpha", new double[]{0.3, 0.05},
                        "activation_beta", new double[]{0.4}, "clip", 2.5);
        agreeBatchFirst(m, "gru", 3, 1);
    }

    @Test
    void rnnEveryDirectionAndActivation() throws Exception {
        // name, then the alpha and beta values it takes (ONNX Runtime consumes the lists in activation order)
        Object[][] acts = {{"Tanh", new double[0], new double[0]}, {"Relu", new double[0], new double[0]}, {"Sigmoid", new double[0], new double[0]},
            {"Softsign", new double[0], new double[0]}, {"Softplus", new double[0], new double[0]}, {"Elu", new double[]{0.8}, new double[0]},
            {"LeakyRelu", new double[]{0.2}, new double[0]}, {"ThresholdedRelu", new double[]{0.1}, new double[0]},
            {"Affine", new double[]{0.8}, new double[]{0.1}}, {"ScaledTanh", new double[]{0.8}, new double[]{1.3}},
            {"HardSigmoid", new double[]{0.3}, new double[]{0.4}}};
        for (Object[] a : acts) {
            for (String direction : new String[]{"forward", "reverse"}) {
                List<Object> attrs = new java.util.ArrayList<>(List.of("hidden_size", (long) HIDDEN, "direction", direction, "activations", new String[]{(String) a[0]}));
                if (((double[]) a[1]).length > 0) attrs.addAll(List.of("activation_alpha", a[1]));
                if (((double[]) a[2]).length > 0) attrs.addAll(List.of("activation_beta", a[2]));
                TinyOnnx m = model(13, 1, 1, false).raw("B", random(2 * HIDDEN, 3), 1, 2 * HIDDEN).output("Y").output("Y_h")
                        .node("rnn", "RNN", List.of("X", "W", "R", "B"), List.of("Y", "Y_h"), attrs.toArray());
                agree(m, false);
            }
        }
    }

    @Test
    void rnnBidirectionalWithSequenceLengthsAndInitialState() throws Exception {
        TinyOnnx m = model(21, 1, 2, false).int32s("lens", 1, 5, 3).raw("h0", random(2 * BATCH * HIDDEN, 4), 2, BATCH, HIDDEN).output("Y").output("Y_h")
                .node("rnn", "RNN", List.of("X", "W", "R", "", "lens", "h0"), List.of("Y", "Y_h"), "hidden_size", (long) HIDDEN, "direction", "bidirectional");
        agree(m, false);
    }

    /**
     * The ONNX backend node tests of LSTM, GRU and RNN (shared/onnx-backend/node), written at
     * opset 22 (whose versions differ from 14 only by allowing bfloat16), must each pass, not
     * merely be refused, as {@link OnnxBackendNodeTest} runs them. Skipped where ../shared is absent.
     */
    @Test
    void theOnnxNodeTestsOfTheRecurrentOpsMatchTheirReferences() throws Exception {
        Path root = OnnxModelsTest.shared("onnx-backend", "node");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(root), "ONNX backend node tests absent: " + root);
        List<Path> tests;
        try (java.util.stream.Stream<Path> s = Files.list(root)) {
            tests = s.filter(p -> p.getFileName().toString().matches("test_(lstm|gru|rnn|simple_rnn)_.*")).sorted().toList();
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(12);
        try (org.arenaplan.device.Device device = org.arenaplan.device.Devices.open("sim", org.arenaplan.device.DeviceOptions.DEFAULT).device()) {
            for (Path t : tests) {
                OnnxBackendNodeTest.Result r = OnnxBackendNodeTest.run(t, device);
                assertThat(r.outcome()).as(t.getFileName() + ": " + r.line()).isEqualTo(OnnxBackendNodeTest.Outcome.PASS);
            }
        }
    }

    /** The real model lstm_tiny (PyTorch's nn.LSTM + Linear, shape arithmetic folded at import) gives its reference output. */
    @Test
    void lstmTinyMatchesItsReferenceOutput() throws Exception {
        Path real = OnnxModelsTest.shared("models", "real");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(real.resolve("lstm_tiny.onnx")), "../shared/models/real/lstm_tiny.onnx is absent; skipping");
        Path t = Files.createDirectories(dir.resolve("lstm_tiny").resolve("test_data_set_0"));
        Files.copy(real.resolve("lstm_tiny.onnx"), t.getParent().resolve("model.onnx"));
        Files.copy(real.resolve("lstm_tiny_input_0.pb"), t.resolve("input_0.pb"));
        Files.copy(real.resolve("lstm_tiny_output_0.pb"), t.resolve("output_0.pb"));
        try (org.arenaplan.device.Device device = org.arenaplan.device.Devices.open("sim", org.arenaplan.device.DeviceOptions.DEFAULT).device()) {
            OnnxBackendNodeTest.Result r = OnnxBackendNodeTest.run(t.getParent(), device);
            assertThat(r.outcome()).as(r.line()).isEqualTo(OnnxBackendNodeTest.Outcome.PASS);
        }
    }

    @Test
    void badAttributesAreOneLineNamingTheNode() throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model(13, 4, 1, false).output("Y")
                .node("lstm", "LSTM", List.of("X", "W", "R"), List.of("Y"), "hidden_size", (long) HIDDEN, "layout", 1L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'lstm'").hasMessageContaining("'layout' needs opset 14");
        Files.write(file, model(13, 4, 1, false).output("Y")
                .node("lstm", "LSTM", List.of("X", "W", "R"), List.of("Y"), "hidden_size", (long) HIDDEN, "activations", new String[]{"Sigmoid", "Tanh", "Cosh"}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("lstm").hasMessageContaining("activation 'Cosh' is not one of");
        Files.write(file, model(13, 1, 1, false).output("Y")
                .node("rnn", "RNN", List.of("X", "W", "R"), List.of("Y"), "hidden_size", (long) HIDDEN, "activations", new String[]{"Affine"}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("rnn").hasMessageContaining("Affine needs its alpha");
        Files.write(file, new TinyOnnx().opset(13).input("X", (long) SEQ, (long) BATCH, (long) INPUT).raw("W", random(2 * HIDDEN * INPUT, 1), 2, HIDDEN, INPUT)
                .raw("R", random(2 * HIDDEN * HIDDEN, 2), 2, HIDDEN, HIDDEN).output("Y")
                .node("rnn", "RNN", List.of("X", "W", "R"), List.of("Y"), "hidden_size", (long) HIDDEN, "direction", "bidirectional",
                        "activations", new String[]{"Tanh", "LeakyRelu"}, "activation_alpha", new double[]{0.3}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("rnn").hasMessageContaining("ambiguous for RNN activations [Tanh, LeakyRelu]");
        Files.write(file, model(13, 4, 1, false).output("Y")
                .node("lstm", "LSTM", List.of("X", "W", "R"), List.of("Y"), "hidden_size", (long) HIDDEN, "direction", "sideways").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("lstm").hasMessageContaining("not forward, reverse or bidirectional");
    }
}
