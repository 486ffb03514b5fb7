package org.arenaplan.plan;

/**
 * Every buffer its own bytes, one after another in index order: the arena is the sum of the
 * aligned sizes ({@link Problem#sumBytes}): the baseline with no sharing.
 *
 * <p>Steps: one pass over the buffers in index order, each at the running sum of the aligned
 * sizes before it. Cost: O(n) time for n buffers; O(n) memory (the offsets, 8 bytes each). No
 * deadline: the work is too small to cut. Never overflows: a {@link Problem} whose aligned sizes
 * sum past 2^63-1 B is refused when it is built.
 */
public final class NaivePlanner implements Planner {
    @Override
    public String name() {
        return "naive";
    }

    @Override
    public Placement place(Problem problem) {
        long[] offsets = new long[problem.size()];
        long cursor = 0;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = cursor;
            cursor = Math.addExact(cursor, problem.alignedSize(i));
        }
        return Placement.of(problem, offsets, name());
    }
}
