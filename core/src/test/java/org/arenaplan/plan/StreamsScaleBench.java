package org.arenaplan.plan;

import org.arenaplan.hb.DataSync;
import org.arenaplan.hb.HappensBefore;
import org.arenaplan.hb.HbConflicts;
import org.arenaplan.hb.StreamAssigner;
import org.arenaplan.hb.StreamGraphsForTests;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;

import java.util.List;

/**
 * A bench command (not a test): times each streams phase on a large inception-like graph and
 * the whole plan with 1 and N streams side by side. Run after {@code mvn -pl core test-compile}:
 * <pre>java -cp core/target/classes:core/target/test-classes org.arenaplan.plan.StreamsScaleBench [blocks] [streams] [reps]</pre>
 * Each block has 17 ops; 7,000 blocks are 119,000 ops. The last repetition is the one to read
 * (the first ones warm the JIT up).
 */
public final class StreamsScaleBench {
    private StreamsScaleBench() { }

    public static void main(String[] args) {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 7000;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Graph g0 = StreamGraphsForTests.inceptionLike(blocks, 4);
        ArenaPlanner.Options o = ArenaPlanner.Options.DEFAULT.withPlanner("greedy-size");
        for (int rep = 0; rep < reps; rep++) {
            long t0 = System.nanoTime();
            Graph g = StreamAssigner.assign(g0, n);
            long t1 = System.nanoTime();
            List<SyncEvent> events = DataSync.events(g);
            long t2 = System.nanoTime();
            HappensBefore hb = HappensBefore.of(g, events);
            long t3 = System.nanoTime();
            Lifetimes l = Lifetimes.of(g, hb, false);
            long t4 = System.nanoTime();
            HbConflicts c = HbConflicts.of(l, hb);
            long t5 = System.nanoTime();
            Plan one = ArenaPlanner.plan(g0, o);
            long t6 = System.nanoTime();
            Plan many = StreamPlanner.plan(g0, n, SyncMode.NONE, o);
            long t7 = System.nanoTime();
            List<Violation> v = PlanValidator.validate(many);
            long t8 = System.nanoTime();
            System.out.printf("%,d ops, %d streams: assign %.0f ms, data events %.0f ms (%,d events), happens-before %.0f ms, "
                            + "liveness %.0f ms, unordered pairs %.0f ms (%,d pairs)%n"
                            + "  plan 1 stream %.0f ms, plan %d streams %.0f ms (x%.2f), validate %d streams %.0f ms (%d violations)%n",
                    g.opCount(), n, ms(t0, t1), ms(t1, t2), events.size(), ms(t2, t3), ms(t3, t4), ms(t4, t5), c.pairs(),
                    ms(t5, t6), n, ms(t6, t7), ms(t6, t7) / ms(t5, t6), n, ms(t7, t8), v.size());
            if (rep == reps - 1) System.out.printf("  arena 1 stream %,d B, %d streams %,d B%n", one.arenaBytes(), n, many.arenaBytes());
        }
    }

    private static double ms(long a, long b) {
        return (b - a) / 1e6;
    }
}
