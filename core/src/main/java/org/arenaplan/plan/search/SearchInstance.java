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

    SearchInstance(Problem p) {
        this.problem = p;
        this.active = IntStream.range(0, p.size()).filter(i -> p.alignedSize(i) > 0).toArray();
        this.time = new Timeline(p, active);
        this.conflicts = new int[p.size()][];
        int[] buf = new int[16];
        for (int i : active) {
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
