package org.arenaplan.plan;

/** Every buffer its own bytes, one after another in index order: the arena is the sum of sizes. */
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
