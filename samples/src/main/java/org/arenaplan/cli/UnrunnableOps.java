package org.arenaplan.cli;

import org.arenaplan.exec.RunCheck;
import org.arenaplan.io.InputException;
import org.arenaplan.io.Printable;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code plan}'s check that {@code run} could execute what it plans: the ops of a registry kind
 * that the executors would refuse ({@link RunCheck}: a declared element type the op's rule
 * contradicts, a view of a weight, an attribute its kernels do not take). The plan itself only
 * needs the declared sizes, so each such op is a warning line on stderr (the first
 * {@value #SHOWN}, then a count) and the plan goes on; with {@code --strict} the first is bad
 * input (exit 2). Ops of a kind outside the registry are planned on trust and not checked here.
 */
final class UnrunnableOps {
    /** Warning lines printed before the rest are counted. */
    static final int SHOWN = 5;

    private UnrunnableOps() { }

    /**
     * Warns about {@code input}'s ops that {@code run} would refuse (none for a CSV problem).
     *
     * @throws InputException under {@code strict}, naming the input and the first such op
     */
    static void check(PlanInput input, boolean strict, PrintWriter stderr) {
        if (!input.isGraph()) return;
        List<String> refused = RunCheck.refusals(input.graph());
        if (refused.isEmpty()) return;
        if (strict) throw new InputException(input.label() + ": " + refused.get(0) + " (run would refuse this op; --strict refuses to plan it)");
        for (String r : refused.subList(0, Math.min(SHOWN, refused.size())))
            stderr.println("arenaplan: warning: " + Printable.of(input.label() + ": run would refuse " + r) + " (planned as declared; --strict refuses it)");
        if (refused.size() > SHOWN)
            stderr.println("arenaplan: warning: " + Printable.of(input.label()) + ": and " + (refused.size() - SHOWN) + " more ops run would refuse");
        stderr.flush();
    }
}
