package org.arenaplan.plan;

import org.arenaplan.hb.RandomStreamGraphs;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;

import java.util.ArrayList;
import java.util.List;

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
        int bad = 0, deletions = 0, required = 0, caught = 0, falseAlarms = 0;
        for (long seed = 1000; seed < 1000 + graphs; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 4), maxOps);
            for (SyncMode mode : SyncMode.values()) {
                Plan plan = StreamPlanner.plan(g, seed % 3 == 0 ? 3 : 0, mode, o);
                if (!PlanValidator.validate(plan).isEmpty() || !ByteOracle.unordered(plan).isEmpty()) {
                    bad++;
                    System.out.println("seed " + seed + " " + mode + ": " + PlanValidator.validate(plan) + " " + ByteOracle.unordered(plan));
                }
                List<SyncEvent> events = plan.sync().events();
                for (int i = 0; i < events.size(); i++) {
                    List<SyncEvent> fewer = new ArrayList<>(events);
                    fewer.remove(i);
                    Plan mutant = new Plan(plan.graph(), plan.lifetimes(), plan.problem(), plan.placement(), plan.stats(), new SyncPlan(fewer));
                    boolean unsafe = !ByteOracle.unordered(mutant).isEmpty();
                    boolean flagged = PlanValidator.validate(mutant).stream()
                            .anyMatch(v -> v.kind() == Violation.Kind.UNORDERED_REUSE || v.kind() == Violation.Kind.UNORDERED_READ);
                    deletions++;
                    if (unsafe) required++;
                    if (unsafe && flagged) caught++;
                    if (!unsafe && flagged) falseAlarms++;
                }
            }
        }
        System.out.printf("graphs=%d invalid_plans=%d deletions=%d unsafe=%d caught=%d (%.2f%%) false_alarms=%d%n", graphs, bad, deletions,
                required, caught, required == 0 ? 100.0 : 100.0 * caught / required, falseAlarms);
    }
}
