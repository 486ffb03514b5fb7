package org.arenaplan.train;

import org.arenaplan.ir.Op;

/**
 * How the backward pass differentiates one op kind: given the gradient {@code dy} of the op's
 * (single) output, append through {@code b} the ops that compute its contribution to each input
 * that needs a gradient, and hand each contribution to {@link Backward#accumulate}. Declared with
 * the kind's definition in {@code org.arenaplan.ops} ({@code OpDefinition.Builder.gradient}); a rule
 * throws {@link org.arenaplan.ir.GraphException} naming the op for attributes or shapes it does
 * not differentiate.
 */
@FunctionalInterface
public interface GradientRule {
    void apply(Op op, String dy, Backward b);
}
