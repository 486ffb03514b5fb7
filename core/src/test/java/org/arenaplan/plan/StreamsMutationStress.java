package org.arenaplan.plan;

import org.arenaplan.hb.RandomStreamGraphs;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;


/**
 * A longer run of the mutation test than CI's, as a command (not a test). After
 * {@code mvn -pl core test-compile}:
 * <pre>java -cp core/target/classes:core/target/test-classes org.arenaplan.plan.StreamsMutationStress [graphs] [maxOps]</pre>
 * Random graphs on 2-5 streams (every third one with streams assigned to 3), both sync modes:
 * every plan must validate and pass the byte oracle; then each event is deleted in turn and the
 * validator's verdict compared with the oracle's.
 */
public final class StreamsMutationStress {
    private StreamsMutationStress() { }

    public static void main(String[] args) {
        int graphs = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        int maxOps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        ArenaPlanner.Options o = ArenaPlanner.Options.DEFAULT.withAlignment(32);
        int bad = 0;
        EventMutations m = new EventMutations();
        for (long seed = 1000; seed < 1000 + graphs; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 4), maxOps);
            for (SyncMode mode : SyncMode.values()) {
                Plan plan = StreamPlanner.plan(g, seed % 3 == 0 ? 3 : 0, mode, o);
                if (!PlanValidator.validate(plan).isEmpty() || !ByteOracle.unordered(plan).isEmpty()) {
                    bad++;
                    System.out.println("seed " + seed + " " + mode + ": " + PlanValidator.validate(plan) + " " + ByteOracle.unordered(plan));
                }
                m.mutate(plan);
            }
        }
        System.out.printf("graphs=%d invalid_plans=%d deletions=%d unsafe=%d caught=%d (%.2f%%) false_alarms=%d%n", graphs, bad, m.deletions,
                m.required, m.caught, m.caughtPercent(), m.falseAlarms);
    }
}
