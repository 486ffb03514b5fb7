package org.arenaplan.schedule;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Irregularly wired graphs in the style of RandWire (Xie et al., "Exploring Randomly Wired Neural
 * Networks for Image Recognition", ICCV 2019): a random undirected graph on N nodes, Watts-Strogatz
 * {@code ws} (ring lattice of K neighbours, each edge rewired with probability P) or
 * Erdős-Rényi {@code er} (each pair with probability P), oriented from lower to higher node index.
 * Every node is a NAS-cell style block over NCHW feature maps:
 * <pre>
 *   agg_i  = Concat(inputs, axis 1)  (a copy; the only input itself when there is one; x for a source)
 *   relu_i = Relu(agg_i), in place where legal (over its own Concat, or an input no other node reads)
 *   out_i  = Conv 3x3, pad 1, to c_i channels, c_i drawn from {C/2, C, 2C}
 * </pre>
 * and the graph output is the Concat of the nodes without successors. The file order is node by
 * node in index order (what an exporter emits). The varied channel counts give tensors of
 * different sizes, as in real irregular networks. The same arguments give the same graph.
 */
public final class IrregularGraphs {
    /**
     * @param wiring   {@code ws} or {@code er}
     * @param nodes    at least 2
     * @param k        ring-lattice neighbours for {@code ws} (even, below nodes)
     * @param p        rewiring probability ({@code ws}) or edge probability ({@code er}), 0..1
     * @param channels C; node widths are C/2, C or 2C
     * @param image    H = W of every feature map
     */
    public record Spec(String wiring, int nodes, int k, double p, long channels, long image, long batch, long seed) {
        public Spec {
            wiring = wiring.toLowerCase(Locale.ROOT);
            if (!wiring.equals("ws") && !wiring.equals("er")) throw new IllegalArgumentException("wiring must be ws or er, got '" + wiring + "'");
            if (nodes < 2) throw new IllegalArgumentException("nodes must be at least 2, got " + nodes);
            if (wiring.equals("ws") && (k < 2 || k % 2 != 0 || k >= nodes))
                throw new IllegalArgumentException("k must be even, at least 2 and below nodes (" + nodes + "), got " + k);
            if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("p must lie in [0, 1], got " + p);
            if (channels < 2 || image < 1 || batch < 1) throw new IllegalArgumentException("channels must be at least 2, image and batch at least 1");
        }
    }

    private IrregularGraphs() { }

    /** The graph of {@code s}, named {@code randwire-WIRING-N-SEED}. */
    public static Graph randWire(Spec s) {
        SplittableRandom r = new SplittableRandom(s.seed());
        List<TreeSet<Integer>> preds = edges(s, r);
        GraphBuilder b = new GraphBuilder("randwire-" + s.wiring() + "-" + s.nodes() + "-" + s.seed());
        long c = s.channels(), hw = s.image();
        b.tensor("x", DType.F32, s.batch(), c, hw, hw).input("x");
        String[] out = new String[s.nodes()];
        long[] width = new long[s.nodes()];
        boolean[] used = new boolean[s.nodes()];
        int[] readers = new int[s.nodes()];
        for (TreeSet<Integer> ps : preds) for (int j : ps) readers[j]++;
        long[] widths = {Math.max(1, c / 2), c, 2 * c};
        for (int i = 0; i < s.nodes(); i++) {
            List<String> in = new ArrayList<>();
            long inC = 0;
            if (preds.get(i).isEmpty()) {
                in.add("x");
                inC = c;
            }
            for (int j : preds.get(i)) {
                in.add(out[j]);
                inC += width[j];
                used[j] = true;
            }
            String p = "n" + i + ".";
            String agg = in.size() == 1 ? in.get(0) : concat(b, p + "concat", in, s.batch(), inC, hw);
            b.tensor(p + "relu", DType.F32, s.batch(), inC, hw, hw);
            GraphBuilder.OpBuilder relu = b.op(p + "relu", OpKinds.RELU).in(agg).out(p + "relu");
            if (in.size() > 1 || (!agg.equals("x") && readers[preds.get(i).first()] == 1)) relu.inPlace();
            relu.add();
            width[i] = widths[r.nextInt(widths.length)];
            String w = p + "conv.w";
            b.tensor(w, DType.F32, width[i], inC, 3, 3).weight(w);
            out[i] = p + "conv";
            b.tensor(out[i], DType.F32, s.batch(), width[i], hw, hw);
            b.op(out[i], OpKinds.CONV).in(p + "relu", w).out(out[i])
                    .attr("kernel_shape", new long[]{3, 3}).attr("strides", new long[]{1, 1})
                    .attr("pads", new long[]{1, 1, 1, 1}).attr("dilations", new long[]{1, 1}).attr("group", 1L).add();
        }
        List<String> sinks = new ArrayList<>();
        long sinkC = 0;
        for (int i = 0; i < s.nodes(); i++) {
            if (!used[i]) {
                sinks.add(out[i]);
                sinkC += width[i];
            }
        }
        String y = sinks.size() == 1 ? sinks.get(0) : concat(b, "y", sinks, s.batch(), sinkC, hw);
        b.output(y);
        try {
            return b.build();
        } catch (GraphException e) {
            throw new IllegalStateException("generator produced an invalid graph: " + e.getMessage(), e);
        }
    }

    private static String concat(GraphBuilder b, String name, List<String> in, long batch, long channels, long hw) {
        b.tensor(name, DType.F32, batch, channels, hw, hw);
        b.op(name, OpKinds.CONCAT).in(in.toArray(new String[0])).out(name).attr("axis", 1L).add();
        return name;
    }

    /** Predecessors of each node: the undirected random graph oriented from lower to higher index. */
    private static List<TreeSet<Integer>> edges(Spec s, SplittableRandom r) {
        int n = s.nodes();
        boolean[][] adj = new boolean[n][n];
        if (s.wiring().equals("er")) {
            for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (r.nextDouble() < s.p()) adj[i][j] = adj[j][i] = true;
        } else {
            for (int i = 0; i < n; i++) for (int d = 1; d <= s.k() / 2; d++) { int j = (i + d) % n; adj[i][j] = adj[j][i] = true; }
            for (int d = 1; d <= s.k() / 2; d++) {
                for (int i = 0; i < n; i++) {
                    int j = (i + d) % n;
                    if (!adj[i][j] || r.nextDouble() >= s.p()) continue;
                    int t = r.nextInt(n);
                    if (t == i || adj[i][t]) continue;
                    adj[i][j] = adj[j][i] = false;
                    adj[i][t] = adj[t][i] = true;
                }
            }
        }
        List<TreeSet<Integer>> preds = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            TreeSet<Integer> p = new TreeSet<>();
            for (int j = 0; j < i; j++) if (adj[i][j]) p.add(j);
            preds.add(p);
        }
        return preds;
    }
}
