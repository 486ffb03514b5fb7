package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;

/** Tiny literal fixtures so a scenario fits in a few lines. */
public final class Fixtures {
    public static final long MiB = 1L << 20;

    private Fixtures() { }

    /** A one-buffer-per-row problem: {@code buf("a", size, lower, upper)}... */
    public static Problem problem(long alignment, Object[]... rows) {
        int n = rows.length;
        String[] ids = new String[n];
        long[] lo = new long[n], hi = new long[n], sz = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = (String) rows[i][0];
            sz[i] = ((Number) rows[i][1]).longValue();
            lo[i] = ((Number) rows[i][2]).longValue();
            hi[i] = ((Number) rows[i][3]).longValue();
        }
        return new Problem(ids, lo, hi, sz, alignment);
    }

    public static Object[] buf(String id, long size, long lower, long upper) {
        return new Object[]{id, size, lower, upper};
    }

    /** Six buffers on which every heuristic of best ends at 23 B, one above the lower bound (22 B; found by a seeded random sweep). */
    public static Object[][] heuristicsGapRows() {
        return new Object[][]{
                buf("b0", 3, 3, 4), buf("b1", 7, 1, 4), buf("b2", 8, 5, 7),
                buf("b3", 7, 2, 6), buf("b4", 5, 3, 6), buf("b5", 5, 4, 5)};
    }

    /**
     * A random problem of 1 to {@code maxBuffers} buffers starting at 0 to {@code starts - 1},
     * half of them living 1 to 4 positions and half 1 to {@code longLife}, with many equal starts
     * and ends; sizes from {@code size} (0 included), alignment 1, 8 or 16.
     */
    public static Problem randomProblem(java.util.Random r, int maxBuffers, int starts, int longLife,
                                        java.util.function.ToLongFunction<java.util.Random> size) {
        int n = 1 + r.nextInt(maxBuffers);
        String[] ids = new String[n];
        long[] lo = new long[n], hi = new long[n], sz = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = "b" + i;
            lo[i] = r.nextInt(starts);
            hi[i] = lo[i] + 1 + r.nextInt(r.nextBoolean() ? 4 : longLife);
            sz[i] = size.applyAsLong(r);
        }
        return new Problem(ids, lo, hi, sz, 1 + r.nextInt(3) * 8);
    }

    /**
     * The textbook chain: x = input; a = matmul(x); b = bias(a); c = gelu(b) + x; d = norm(c);
     * y = matmul(d); every tensor 64 MiB; y a graph output.
     */
    public static Graph textbookChain(boolean inPlace, boolean donateX) {
        GraphBuilder g = new GraphBuilder("chain");
        for (String t : new String[]{"x", "a", "b", "c", "d", "y"}) g.tensor(t, 64 * MiB);
        g.tensor("w1", 1024).tensor("bias", 1024).tensor("w2", 1024).weight("w1").weight("bias").weight("w2");
        g.tensor("scale", 1024).tensor("shift", 1024).weight("scale").weight("shift");
        g.input("x", donateX);
        g.op("matmul1", "MatMul").in("x", "w1").out("a").add();
        GraphBuilder.OpBuilder bias = g.op("bias", "Add").in("a", "bias").out("b");
        if (inPlace) bias.inPlace();
        bias.add();
        GraphBuilder.OpBuilder gelu = g.op("gelu_add", "GeluAdd").in("b", "x").out("c");
        if (inPlace) gelu.inPlace();
        gelu.add();
        g.op("norm", "LayerNormalization").in("c", "scale", "shift").out("d").add();
        g.op("matmul2", "MatMul").in("d", "w2").out("y").add();
        g.output("y");
        return g.build();
    }

    public static Plan plan(Graph g, String planner) {
        return ArenaPlanner.plan(g, ArenaPlanner.Options.DEFAULT.withPlanner(planner));
    }

    /** Whether the byte ranges of two tensors overlap in the plan. */
    public static boolean shareBytes(Plan p, String a, String b) {
        long a0 = p.addressOf(a), a1 = a0 + p.graph().tensor(a).bytes();
        long b0 = p.addressOf(b), b1 = b0 + p.graph().tensor(b).bytes();
        return a0 < b1 && b0 < a1;
    }
}
