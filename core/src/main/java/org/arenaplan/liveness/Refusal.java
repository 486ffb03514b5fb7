package org.arenaplan.liveness;

import org.arenaplan.io.Printable;

/** An in-place or donation request the planner did not honour, and why. */
public record Refusal(Kind kind, String op, String tensor, String over, String reason) {
    public enum Kind { IN_PLACE, DONATION }

    /** What was asked: {@code op 'OP' writing 'T' over 'OVER'}, or {@code input 'T'} for a donation. */
    public String request() {
        return switch (kind) {
            case IN_PLACE -> "op '" + Printable.name(op) + "' writing '" + Printable.name(tensor) + "' over '" + Printable.name(over) + "'";
            case DONATION -> "input '" + Printable.name(tensor) + "'";
        };
    }

    @Override
    public String toString() {
        return (kind == Kind.IN_PLACE ? "in-place" : "donation") + " refused: " + request() + ": " + reason;
    }
}
