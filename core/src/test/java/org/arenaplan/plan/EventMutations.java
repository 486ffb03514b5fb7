package org.arenaplan.plan;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncPlan;

import java.util.ArrayList;
import java.util.List;

/**
 * Deletes each event of a plan in turn and asks both the byte oracle (is the mutant really
 * unsafe?) and the validator (does it say so?). Tallies over many plans.
 */
final class EventMutations {
    int deletions;
    int required;
    int caught;
    int falseAlarms;

    void mutate(Plan plan) {
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

    double caughtPercent() {
        return required == 0 ? 100.0 : 100.0 * caught / required;
    }
}
