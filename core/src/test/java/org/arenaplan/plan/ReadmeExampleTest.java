package org.arenaplan.plan;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's Java API example, verbatim, with its claims checked. */
class ReadmeExampleTest {
    @Test
    void theReadmeExampleDoesWhatItSays() {
        Graph g = new GraphBuilder("block")
                .tensor("x", DType.F32, 1024, 1024).tensor("w", DType.F32, 1024, 1024)
                .tensor("h", DType.F32, 1024, 1024).tensor("r", DType.F32, 1024, 1024).tensor("y", DType.F32, 1024, 1024)
                .input("x", true)                                            // donated: reusable after its last read
                .weight("w")                                                  // read-only weight region, not the arena
                .op("mm", OpKinds.MATMUL).in("x", "w").out("h").add()
                .op("relu", OpKinds.RELU).in("h").out("r").inPlace().add()   // may overwrite h
                .op("mm2", OpKinds.MATMUL).in("r", "w").out("y").add()
                .output("y")
                .build();
        Plan plan = ArenaPlanner.plan(g);
        assertThat(plan.arenaBytes()).isEqualTo(8L << 20);
        assertThat(plan.addressOf("r")).isEqualTo(plan.addressOf("h"));
        assertThat(plan.addressOf("y")).isEqualTo(plan.addressOf("x"));
        assertThat(PlanValidator.validate(plan)).isEmpty();
    }
}
