package org.arenaplan.cli;

import org.arenaplan.io.InputException;
import org.arenaplan.ir.OpKindSpelling;

import java.io.PrintWriter;

/**
 * {@code plan}'s check of a graph's op kinds for misspellings of the registry's
 * ({@link OpKindSpelling}: the rule and the words). A kind outside the registry is planned as
 * opaque, its declarations trusted, so {@code Tranpose} with an in-place hint would be granted
 * what {@code Transpose} is refused. A near miss is one warning line on stderr per kind (the plan
 * goes on, as it always did); with {@code --strict} it is bad input (exit 2). Kinds no registry
 * kind is near (a custom {@code MyFusedThing}) pass silently, with or without {@code --strict}.
 */
final class NearMissKinds {
    private NearMissKinds() { }

    /**
     * Warns about, or with {@code strict} refuses, {@code input}'s near-miss kinds (none for a CSV problem).
     *
     * @throws InputException with {@code strict}, for the first op of a near-miss kind
     */
    static void check(PlanInput input, boolean strict, PrintWriter stderr) {
        if (!input.isGraph()) return;
        for (OpKindSpelling.NearMiss m : OpKindSpelling.in(input.graph())) {
            if (strict)
                throw new InputException(input.label() + ": " + m.line() + " (--strict refuses a kind this close to one of the registry;"
                        + " a custom kind of that name: write it with a domain, e.g. 'custom." + m.op().kind() + "')");
            stderr.println("arenaplan: warning: " + input.label() + ": " + m.line()
                    + " (planned as an opaque kind, its declarations taken on trust; --strict refuses it)");
        }
        stderr.flush();
    }
}
