package org.arenaplan.plan;

import org.arenaplan.hb.DataSync;
import org.arenaplan.io.GraphJson;
import org.arenaplan.ir.Graph;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A bench command (not a test): times {@link CliqueBound}'s search against the straightforward
 * one it replaced ({@link CliqueBoundReference}) on the problem of graph files planned with their
 * own streams and the data events alone, and says whether both found the same clique. Run after
 * {@code mvn -pl core test-compile}:
 * <pre>java -cp "core/target/classes:core/target/test-classes:$(cat core/target/cp.txt)" org.arenaplan.plan.CliqueBoundBench GRAPH.json... [--no-reference]</pre>
 */
public final class CliqueBoundBench {
    private CliqueBoundBench() { }

    public static void main(String[] args) throws Exception {
        boolean reference = !Arrays.asList(args).contains("--no-reference");
        for (String a : args) {
            if (a.startsWith("--")) continue;
            Graph g = GraphJson.read(Path.of(a));
            ArenaPlanner.Options o = ArenaPlanner.Options.DEFAULT.withPlanner("greedy-size");
            Problem p = StreamPlanner.attempt(g, DataSync.events(g), o, Planners.byName("greedy-size", o.plannerOptions())).problem();
            long pairs = 0;
            for (int i = 0; i < p.size(); i++) pairs += p.extraConflicts(i).length;
            long t0 = System.nanoTime();
            CliqueBound.Clique c = CliqueBound.search(p);
            long t1 = System.nanoTime();
            String line = String.format("%s: %d buffers, %d extra pairs, %d instants; bound %d B (%d members); search %.1f ms",
                    a, p.size(), pairs / 2, LiveBytes.of(p).points(), c.bytes(), c.members().length, (t1 - t0) / 1e6);
            if (reference) {
                CliqueBound.Clique r = CliqueBoundReference.search(p);
                long t2 = System.nanoTime();
                boolean same = r.bytes() == c.bytes() && r.instant() == c.instant() && Arrays.equals(r.members(), c.members());
                line += String.format("; reference %.1f ms, %s", (t2 - t1) / 1e6, same ? "same clique" : "DIFFERENT: " + r.bytes() + " B");
            }
            System.out.println(line);
        }
    }
}
