package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random scheduled graphs with views, slices, in-place hints, donation and weights. */
public final class RandomGraphs {
    private static final long[] SIZES = {256, 512, 1024, 4096, 10_000, 65_536, 100_000, 1 << 20};

    private RandomGraphs() { }

    public static Graph generate(long seed) {
        Random r = new Random(seed);
        GraphBuilder g = new GraphBuilder("random-" + seed);
        List<String> arena = new ArrayList<>();
        List<String> weights = new ArrayList<>();
        int inputs = 1 + r.nextInt(3);
        for (int i = 0; i < inputs; i++) {
            String t = "in" + i;
            g.tensor(t, SIZES[r.nextInt(SIZES.length)]).input(t, r.nextInt(3) == 0);
            arena.add(t);
        }
        int nWeights = r.nextInt(3);
        for (int i = 0; i < nWeights; i++) {
            String t = "w" + i;
            g.tensor(t, 1024).weight(t);
            weights.add(t);
        }
        int ops = 3 + r.nextInt(23);
        List<String> produced = new ArrayList<>();
        for (int p = 0; p < ops; p++) {
            int kind = r.nextInt(10);
            if (kind < 2) {
                String base = arena.get(r.nextInt(arena.size()));
                long baseBytes = g.tensorOf(base).bytes();
                String v = "v" + p;
                if (kind == 0 || baseBytes < 512) {
                    g.tensor(v, baseBytes);
                    g.op("view" + p, "Reshape").in(base).out(v).view().add();
                } else {
                    long len = 256 + r.nextInt((int) Math.min(baseBytes - 256, 1 << 16));
                    long off = r.nextInt((int) (baseBytes - len + 1));
                    g.tensor(v, len);
                    g.op("slice" + p, "Slice").in(base).out(v).view(0, 0, off).add();
                }
                arena.add(v);
                produced.add(v);
                continue;
            }
            GraphBuilder.OpBuilder op = g.op("op" + p, "K");
            int reads = 1 + r.nextInt(3);
            String first = null;
            for (int k = 0; k < reads; k++) {
                String t = arena.get(r.nextInt(arena.size()));
                if (first == null) first = t;
                op.in(t);
            }
            if (!weights.isEmpty() && r.nextBoolean()) op.in(weights.get(r.nextInt(weights.size())));
            int outs = r.nextInt(5) == 0 ? 2 : 1;
            for (int k = 0; k < outs; k++) {
                String t = "t" + p + "_" + k;
                long size = r.nextInt(3) == 0 ? g.tensorOf(first).bytes() : SIZES[r.nextInt(SIZES.length)];
                g.tensor(t, size);
                op.out(t);
                arena.add(t);
                produced.add(t);
            }
            if (r.nextInt(3) == 0) op.inPlace();
            op.add();
        }
        int nOut = 1 + r.nextInt(2);
        for (int k = 0; k < nOut && !produced.isEmpty(); k++) {
            String t = produced.remove(r.nextInt(produced.size()));
            g.output(t);
        }
        return g.build();
    }
}
