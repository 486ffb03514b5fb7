package org.arenaplan.cli;

import org.arenaplan.io.Printable;
import org.arenaplan.ir.OpKindSpelling;

import java.io.PrintWriter;

/**
 * {@code plan}'s check of a graph's op kinds for misspellings of the registry's
 * ({@link OpKindSpelling}: the rule and the words). A kind outside the registry is planned as
 * opaque, its declarations trusted, so {@code Tranpose} with an in-place hint would be granted
 * what {@code Transpose} is refused. A near miss is one warning line on stderr per kind (the plan
 * goes on, as it always did); with {@code --strict} the planner refuses it (bad input, exit 2). Kinds no registry
 * kind is near (a custom {@code MyFusedThing}) pass silently, with or without {@code --strict}.
 */
final class NearMissKinds {
    private NearMissKinds() { }

    /**
     * Warns about {@code input}'s near-miss kinds (none for a CSV problem); with {@code strict}
     * says nothing: the planner refuses them ({@code Lifetimes}, strict), named by the input.
     */
    static void check(PlanInput input, boolean strict, PrintWriter stderr) {
        if (!input.isGraph() || strict) return;
        for (OpKindSpelling.NearMiss m : OpKindSpelling.in(input.graph())) {
            stderr.println("arenaplan: warning: " + Printable.of(input.label() + ": " + m.line())
                    + " (planned as an opaque kind, its declarations taken on trust; --strict refuses it)");
        }
        stderr.flush();
    }
}
