package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;

/**
 * The time axis of a problem cut into sections at every distinct interval end, restricted to
 * the buffers that occupy bytes. Buffer {@code i} lives in sections {@code [first(i), end(i))};
 * boundary {@code k} separates sections {@code k - 1} and {@code k}, and a buffer crosses it when
 * {@code first(i) < k < end(i)}.
 */
final class Timeline {
    final int sections;
    final int[] first;
    final int[] end;
    /** The buffers live in section s are {@code members[memberStart[s] .. memberStart[s + 1])}. */
    final int[] members;
    final int[] memberStart;
    /** Aligned bytes live in each section. */
    final long[] liveBytes;
    /** How many buffers cross each boundary (index 0 and {@code sections} are never crossed). */
    final int[] crossings;

    /**
     * @param maxPairs the most (buffer, section) pairs to hold; more throws {@link SearchInstance.TooLarge}
     * @param deadline a {@link System#nanoTime()} value; building past it throws {@link SearchInstance.OutOfTime}
     */
    Timeline(Problem p, int[] active, long maxPairs, long deadline) {
        long[] points = new long[2 * active.length];
        int k = 0;
        for (int i : active) {
            points[k++] = p.lower(i);
            points[k++] = p.upper(i);
        }
        Arrays.sort(points);
        int distinct = 0;
        for (int i = 0; i < points.length; i++) if (i == 0 || points[i] != points[i - 1]) points[distinct++] = points[i];
        sections = Math.max(distinct - 1, 0);
        first = new int[p.size()];
        end = new int[p.size()];
        int[] count = new int[sections];
        liveBytes = new long[sections];
        crossings = new int[sections + 1];
        long pairs = 0;
        for (int i : active) {
            first[i] = Arrays.binarySearch(points, 0, distinct, p.lower(i));
            end[i] = Arrays.binarySearch(points, 0, distinct, p.upper(i));
            pairs += end[i] - first[i];
        }
        if (pairs > maxPairs) throw new SearchInstance.TooLarge(pairs + " (buffer, section) pairs");
        long work = 0;
        for (int i : active) {
            work = SearchInstance.checkClock(work, 1 + end[i] - first[i], deadline);
            for (int s = first[i]; s < end[i]; s++) {
                count[s]++;
                liveBytes[s] += p.alignedSize(i);
            }
            for (int b = first[i] + 1; b < end[i]; b++) crossings[b]++;
        }
        memberStart = new int[sections + 1];
        for (int s = 0; s < sections; s++) memberStart[s + 1] = Math.addExact(memberStart[s], count[s]);
        if (System.nanoTime() - deadline > 0) throw new SearchInstance.OutOfTime();
        members = new int[memberStart[sections]];
        Arrays.fill(count, 0);
        for (int i : active) {
            work = SearchInstance.checkClock(work, 1 + end[i] - first[i], deadline);
            for (int s = first[i]; s < end[i]; s++) members[memberStart[s] + count[s]++] = i;
        }
    }
}
