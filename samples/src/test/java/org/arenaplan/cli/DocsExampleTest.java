package org.arenaplan.cli;

import org.arenaplan.io.GraphJson;
import org.arenaplan.io.PlanJson;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The graph and plan examples in docs/cli.md are real: the graph plans into the plan shown. */
class DocsExampleTest {
    private static String jsonBlockAfter(String doc, String heading) {
        int at = doc.indexOf(heading);
        int start = doc.indexOf("```json\n", at) + "```json\n".length();
        return doc.substring(start, doc.indexOf("```", start));
    }

    @Test
    void theDocumentedGraphPlansIntoTheDocumentedPlan() throws Exception {
        Path docs = Path.of("..", "docs", "cli.md");
        Assumptions.assumeTrue(Files.exists(docs), "docs/cli.md is not beside this module");
        String doc = Files.readString(docs);
        Plan plan = ArenaPlanner.plan(GraphJson.parse(jsonBlockAfter(doc, "### Graph JSON"), "docs/cli.md graph example"));
        PlanJson.PlanDocument shown = PlanJson.parse(jsonBlockAfter(doc, "### Plan JSON"), "docs/cli.md plan example");
        assertThat(shown.offsets()).containsExactly(plan.placement().offsets());
        assertThat(shown.arenaBytes()).isEqualTo(plan.arenaBytes());
        assertThat(shown.stats().lowerBoundBytes()).isEqualTo(plan.stats().lowerBoundBytes());
        assertThat(shown.stats().sumBytes()).isEqualTo(plan.stats().sumBytes());
        for (var t : shown.tensors().values()) assertThat(t.address()).as(t.name()).isEqualTo(plan.addressOf(t.name()));
    }
}
