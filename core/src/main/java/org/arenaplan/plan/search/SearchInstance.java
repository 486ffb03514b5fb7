package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * What every capacity probe on one problem shares, built once: the buffers that occupy bytes,
 * the time axis cut into sections, and each buffer's conflicts (interval overlaps plus the
 * problem's extra conflicts), zero-byte buffers left out since they can share any byte.
 */
final class SearchInstance {
    final Problem problem;
    final int[] active;
    final Timeline time;
    final int[][] conflicts;

    /** Thrown while building when the deadline passes: large problems take seconds to prepare. */
    static final class OutOfTime extends RuntimeException {
        OutOfTime() {
            super("the time limit passed while preparing the search", null, false, false);
        }
    }

    SearchInstance(Problem p) {
        this(p, Long.MAX_VALUE, false);
    }

    /** @param deadline a {@link System#nanoTime()} value; building past it throws {@link OutOfTime} */
    SearchInstance(Problem p, long deadline) {
        this(p, deadline, true);
    }

    private SearchInstance(Problem p, long deadline, boolean timed) {
        this.problem = p;
        this.active = IntStream.range(0, p.size()).filter(i -> p.alignedSize(i) > 0).toArray();
        this.time = new Timeline(p, active);
        this.conflicts = new int[p.size()][];
        int[] buf = new int[16];
        int built = 0;
        for (int i : active) {
            if (timed && ++built % 1024 == 0 && System.nanoTime() - deadline > 0) throw new OutOfTime();
            int[][] box = {buf};
            int[] k = {0};
            p.forEachConflict(i, j -> {
                if (p.alignedSize(j) == 0) return;
                if (k[0] == box[0].length) box[0] = Arrays.copyOf(box[0], k[0] * 2);
                box[0][k[0]++] = j;
            });
            buf = box[0];
            conflicts[i] = Arrays.copyOf(buf, k[0]);
        }
    }
}
