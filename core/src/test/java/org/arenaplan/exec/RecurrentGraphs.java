package org.arenaplan.exec;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;

import java.util.List;

/** Graphs around LSTM, GRU and RNN ops with several outputs, some never read, for the executor tests. */
final class RecurrentGraphs {
    static final int SEQ = 4, BATCH = 2, INPUT = 3, HIDDEN = 5;

    private RecurrentGraphs() { }

    static List<Graph> all() {
        return List.of(lstm(), gruAndRnn());
    }

    /**
     * x -> LSTM (bidirectional, every input, outputs Y, Y_h, Y_c; Y_c never read) -> tanh(Y) and
     * relu(Y_h) as the graph outputs.
     */
    static Graph lstm() {
        int d = 2, g = 4;
        GraphBuilder b = new GraphBuilder("lstm3").tensor("x", DType.F32, SEQ, BATCH, INPUT).input("x")
                .tensor("W", DType.F32, d, g * HIDDEN, INPUT).weight("W").tensor("R", DType.F32, d, g * HIDDEN, HIDDEN).weight("R")
                .tensor("B", DType.F32, d, 2 * g * HIDDEN).weight("B").tensor("lens", DType.I32, BATCH).weight("lens", SEQ - 1)
                .tensor("h0", DType.F32, d, BATCH, HIDDEN).weight("h0").tensor("c0", DType.F32, d, BATCH, HIDDEN).weight("c0")
                .tensor("P", DType.F32, d, 3 * HIDDEN).weight("P")
                .tensor("Y", DType.F32, SEQ, d, BATCH, HIDDEN).tensor("Y_h", DType.F32, d, BATCH, HIDDEN).tensor("Y_c", DType.F32, d, BATCH, HIDDEN)
                .tensor("ty", DType.F32, SEQ, d, BATCH, HIDDEN).tensor("rh", DType.F32, d, BATCH, HIDDEN);
        b.op("lstm", "LSTM").in("x", "W", "R", "B", "lens", "h0", "c0", "P").out("Y", "Y_h", "Y_c")
                .attr("hidden_size", (long) HIDDEN).attr("direction", "bidirectional").add();
        b.op("ty", OpKinds.TANH).in("Y").out("ty").add();
        b.op("rh", OpKinds.RELU).in("Y_h").out("rh").add();
        return b.output("ty").output("rh").build();
    }

    /** x -> GRU (outputs Y, Y_h; Y never read) -> RNN over sigmoid(Y_h) batch first (output Y only). */
    static Graph gruAndRnn() {
        GraphBuilder b = new GraphBuilder("gru-rnn").tensor("x", DType.F32, SEQ, BATCH, INPUT).input("x")
                .tensor("Wg", DType.F32, 1, 3 * HIDDEN, INPUT).weight("Wg").tensor("Rg", DType.F32, 1, 3 * HIDDEN, HIDDEN).weight("Rg")
                .tensor("Y", DType.F32, SEQ, 1, BATCH, HIDDEN).tensor("Y_h", DType.F32, 1, BATCH, HIDDEN)
                .tensor("s", DType.F32, 1, BATCH, HIDDEN)
                .tensor("Wr", DType.F32, 1, HIDDEN, HIDDEN).weight("Wr").tensor("Rr", DType.F32, 1, HIDDEN, HIDDEN).weight("Rr")
                .tensor("Z", DType.F32, 1, BATCH, 1, HIDDEN);
        b.op("gru", "GRU").in("x", "Wg", "Rg").out("Y", "Y_h").attr("hidden_size", (long) HIDDEN).attr("linear_before_reset", 1L)
                .attr("direction", "reverse").add();
        b.op("s", OpKinds.SIGMOID).in("Y_h").out("s").add();
        b.op("rnn", "RNN").in("s", "Wr", "Rr").out("Z").attr("hidden_size", (long) HIDDEN).attr("layout", 1L)
                .attr("activations", new String[]{"Relu"}).add();
        return b.output("Z").build();
    }
}
