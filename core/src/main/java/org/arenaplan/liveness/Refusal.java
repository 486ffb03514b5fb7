package org.arenaplan.liveness;

/** An in-place or donation request the planner did not honour, and why. */
public record Refusal(Kind kind, String op, String tensor, String over, String reason) {
    public enum Kind { IN_PLACE, DONATION }

    @Override
    public String toString() {
        return switch (kind) {
            case IN_PLACE -> "in-place refused: op '" + op + "' writing '" + tensor + "' over '" + over + "': " + reason;
            case DONATION -> "donation refused: input '" + tensor + "': " + reason;
        };
    }
}
