package org.arenaplan.sim;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class StressTest {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);

    private String lastLine() {
        String[] lines = buf.toString(StandardCharsets.UTF_8).trim().split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void safePlansSurviveRandomDelays() {
        int code = StressCommand.run(300, 4, 11, false, false, out);
        assertThat(lastLine()).isEqualTo("premature_reuses=0 runs=300");
        assertThat(code).isZero();
    }

    @Test
    void theUnsafePlannerIsCaughtInMostSeeds() {
        Stress.Result r = Stress.run(Stress.Options.live(100, 4, 12), UnsafePlanner::plan, out);
        assertThat(r.prematureReuses()).isGreaterThan(50);
        assertThat(lastLine()).isEqualTo("premature_reuses=" + r.prematureReuses() + " runs=100");
        assertThat(StressCommand.run(20, 4, 12, true, false, out)).isEqualTo(1);
    }

    @Test
    void exhaustiveCheckProvesSmallSafePlansAndCatchesUnsafeOnes() {
        Stress.Result safe = Stress.run(Stress.Options.exhaustive(100, 3, 13), Stress::defaultPlan, out);
        assertThat(safe.prematureReuses()).isZero();
        assertThat(safe.truncated()).isZero();
        assertThat(safe.interleavings()).isGreaterThan(safe.runs());
        Stress.Result unsafe = Stress.run(Stress.Options.exhaustive(100, 3, 13), UnsafePlanner::plan, out);
        assertThat(unsafe.prematureReuses()).isGreaterThan(25);
    }

    @Test
    void randomGraphsAreDeterministic() {
        assertThat(org.arenaplan.io.GraphJson.toString(RandomGraphs.generate(5, 20, 3))).isEqualTo(org.arenaplan.io.GraphJson.toString(RandomGraphs.generate(5, 20, 3)));
    }
}
