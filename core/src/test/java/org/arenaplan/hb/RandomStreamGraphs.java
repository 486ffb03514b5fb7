package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded random scheduled graphs for the streams tests: computed ops (some with in-place hints),
 * view chains and slices, concats written in place (member slices), donated and caller-owned
 * inputs, ops spread at random over the given number of streams.
 */
public final class RandomStreamGraphs {
    private static final long[] SIZES = {64, 96, 128, 192, 256};

    private RandomStreamGraphs() { }

    public static Graph generate(long seed, int streams, int maxOps) {
        Random r = new Random(seed);
        GraphBuilder b = new GraphBuilder("random-" + seed);
        List<String> avail = new ArrayList<>();
        List<Long> size = new ArrayList<>();
        List<String> memberable = new ArrayList<>();
        int inputs = 1 + r.nextInt(2);
        for (int i = 0; i < inputs; i++) {
            String x = "x" + i;
            long s = SIZES[r.nextInt(SIZES.length)];
            b.tensor(x, s).input(x, r.nextInt(3) == 0);
            avail.add(x);
            size.add(s);
        }
        int ops = 3 + r.nextInt(Math.max(1, maxOps - 2));
        for (int p = 0; p < ops; p++) {
            int stream = r.nextInt(streams);
            int kind = r.nextInt(10);
            String out = "t" + p;
            String name = "op" + p;
            if (kind < 3) {
                int i = pick(r, avail.size());
                String base = avail.get(i);
                long bs = size.get(i);
                boolean slice = r.nextBoolean() && bs >= 128;
                long s = slice ? bs / 2 : bs;
                long off = slice && r.nextBoolean() ? bs - s : 0;
                b.tensor(out, s).op(name, slice ? "Slice" : "Reshape").in(base).out(out).view(0, 0, off).stream(stream).add();
                avail.add(out);
                size.add(s);
            } else if (kind == 3 && memberable.size() >= 2) {
                String m1 = memberable.remove(r.nextInt(memberable.size()));
                String m2 = memberable.remove(r.nextInt(memberable.size()));
                long s1 = size.get(avail.indexOf(m1));
                long s2 = size.get(avail.indexOf(m2));
                b.tensor(out, s1 + s2).op(name, "Concat").in(m1, m2).out(out).member(0, 0, 0).member(1, 0, s1).stream(stream).add();
                avail.add(out);
                size.add(s1 + s2);
                memberable.add(out);
            } else {
                int i = pick(r, avail.size());
                String a = avail.get(i);
                long s = r.nextInt(3) == 0 ? SIZES[r.nextInt(SIZES.length)] : size.get(i);
                GraphBuilder.OpBuilder op;
                String c = avail.get(pick(r, avail.size()));
                if (r.nextBoolean() && !c.equals(a)) {   // (Add(a, a) in place: the foundation's replay and liveness disagree; see the report)
                    op = b.tensor(out, s).op(name, "Add").in(a, c);
                } else {
                    op = b.tensor(out, s).op(name, "Relu").in(a);
                }
                if (s == size.get(i) && r.nextInt(3) == 0) op.inPlace(0, 0);
                op.out(out).stream(stream).add();
                avail.add(out);
                size.add(s);
                memberable.add(out);
            }
        }
        Set<String> outputs = new LinkedHashSet<>();
        outputs.add(avail.get(avail.size() - 1));
        if (r.nextBoolean()) outputs.add(avail.get(inputs + r.nextInt(avail.size() - inputs)));
        for (String o : outputs) b.output(o);
        return b.build();
    }

    /** Biased to recent tensors, so chains are long and branches short-lived. */
    private static int pick(Random r, int n) {
        int back = Math.min(n - 1, (int) Math.abs(r.nextGaussian() * 3));
        return n - 1 - back;
    }
}
