package org.arenaplan.ir;

import java.util.Random;

/**
 * Large seeded graphs for scale tests and benchmarks: a chain of ops, each writing one tensor
 * and reading its predecessor, with occasional long skip connections (as in U-Nets and
 * residual networks). Sizes are spread over four orders of
 * magnitude, so the planner has real packing to do. Every tensor is its own storage, so the
 * graph has exactly {@code ops + 1} storages.
 */
public final class SyntheticGraphs {
    private SyntheticGraphs() { }

    /** A graph with {@code ops} ops and as many activation tensors (plus one input). */
    public static Graph layered(int ops, long seed) {
        Random r = new Random(seed);
        GraphBuilder g = new GraphBuilder("synthetic-" + ops);
        g.tensor("t0", 1 << 16).input("t0");
        for (int p = 1; p <= ops; p++) {
            String out = "t" + p;
            g.tensor(out, 256L << r.nextInt(14));
            GraphBuilder.OpBuilder op = g.op("op" + p, "Layer").in("t" + (p - 1));
            if (p > 64 && r.nextInt(16) == 0) op.in("t" + (p - 1 - r.nextInt(64)));
            op.out(out).add();
        }
        g.output("t" + ops);
        return g.build();
    }
}
