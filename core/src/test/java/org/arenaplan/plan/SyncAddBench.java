package org.arenaplan.plan;

import org.arenaplan.hb.StreamGraphsForTests;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;

/**
 * A bench command (not a test): what {@code --sync add} reaches within the default time limit
 * (10 s) on inception-like graphs of growing size, 4 streams, planner {@code best}. After
 * {@code mvn -pl core test-compile}:
 * <pre>java -cp core/target/classes:core/target/test-classes org.arenaplan.plan.SyncAddBench [blocks...]</pre>
 */
public final class SyncAddBench {
    private SyncAddBench() { }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[]{3, 20, 200, 1000} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        ArenaPlanner.Options o = ArenaPlanner.Options.DEFAULT;
        for (int blocks : sizes) {
            Graph g = StreamGraphsForTests.inceptionLike(blocks, 4);
            long t0 = System.nanoTime();
            Plan one = ArenaPlanner.plan(g, o);
            long t1 = System.nanoTime();
            Plan none = StreamPlanner.plan(g, 4, SyncMode.NONE, o);
            long t2 = System.nanoTime();
            Plan add = StreamPlanner.plan(g, 4, SyncMode.ADD, o);
            long t3 = System.nanoTime();
            long reuse = add.sync().events().stream().filter(e -> e.reason() == SyncEvent.Reason.REUSE).count();
            System.out.printf("%,7d ops: 1 stream %,d B (%.0f ms) | none %,d B (%.0f ms) | add %,d B, %d reuse events (%.0f ms)%n",
                    g.opCount(), one.arenaBytes(), (t1 - t0) / 1e6, none.arenaBytes(), (t2 - t1) / 1e6, add.arenaBytes(), reuse, (t3 - t2) / 1e6);
        }
    }
}
