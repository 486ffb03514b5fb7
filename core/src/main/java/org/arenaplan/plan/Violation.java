package org.arenaplan.plan;

import java.util.List;

/**
 * One way a plan is wrong, with what a person needs to find it: the kind, the buffers or
 * tensors involved, the schedule position (or -1) and the byte range concerned.
 */
public record Violation(Kind kind, List<String> subjects, long position, long fromByte, long toByte, String message) {

    public enum Kind {
        /** Two conflicting buffers share bytes. */
        OVERLAP,
        /** A buffer reaches past the arena's end. */
        OUT_OF_ARENA,
        /** A buffer's offset is negative. */
        NEGATIVE_OFFSET,
        /** A buffer's offset is not a multiple of the alignment. */
        MISALIGNED,
        /** The arena exceeds the capacity asked for. */
        OVER_CAPACITY,
        /** The solution lacks a buffer, or names one the problem does not have. */
        MISSING_BUFFER,
        /** A solution row's interval or size differs from the problem's buffer of that id (the placement is then not checked). */
        ROW_MISMATCH,
        /** A runtime read finds bytes that another tensor overwrote since they were written. */
        CLOBBERED_READ,
        /** A view or member slice is not where its declaration puts it, or lies outside its base. */
        VIEW_OUTSIDE_BASE,
        /** An output was written over an input without a legal in-place declaration, or one the op's kernels cannot honour. */
        ILLEGAL_IN_PLACE,
        /** Two outputs that one op computes share bytes: the op writes both at once, so neither holds its own value. */
        OUTPUTS_SHARE_BYTES,
        /** A view declared on an op that computes its output, or not where the op's view rule puts it (op registry). */
        ILLEGAL_VIEW,
        /** Member slices that are not exactly where the op writes its inputs (op registry): a non-leading axis, overlaps, gaps. */
        ILLEGAL_MEMBER,
        /** A caller-owned (non-donated) graph input was overwritten. */
        ILLEGAL_DONATION,
        /** A graph output was overwritten before the run ended. */
        OUTPUT_CLOBBERED,
        /** Two storages share bytes but no happens-before order separates their accesses. */
        UNORDERED_REUSE,
        /** An op on one stream reads bytes written on another with no event ordering the write first. */
        UNORDERED_READ
    }

    public Violation {
        subjects = List.copyOf(subjects);
    }

    @Override
    public String toString() {
        return kind + ": " + message;
    }
}
