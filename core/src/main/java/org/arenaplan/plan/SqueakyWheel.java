package org.arenaplan.plan;

import java.util.Arrays;

/**
 * Anytime improver for large problems, where the exact search thrashes: squeaky-wheel
 * optimisation (Joslin and Clements, 1999) over the orders of the best-fit greedy placer.
 *
 * <p>Steps:
 * <ol>
 *   <li>Start from the greedy-by-breadth order.</li>
 *   <li>Place every buffer in that order with best fit ({@link GreedyPlacer}).</li>
 *   <li>The buffers whose top ends above the line halfway between the target and this round's
 *       arena are the squeaky wheels: move them to the front of the order, highest first, the
 *       others keeping their relative order. Placed early, they find low gaps; the next round
 *       shows which buffers now pay for that.</li>
 *   <li>Repeat; keep the smallest arena seen. Stop when it is at most the target, when a round
 *       would probably not end before the deadline (it is assumed to last as long as the
 *       longest round so far, or as long as the caller's guess before the first), or after {@code stallLimit} rounds without a smaller arena.
 *       A round still running at the deadline stops there and is thrown away.</li>
 * </ol>
 *
 * <p>Does not guarantee: any improvement (the orders may cycle), nor optimality. Never worse
 * than the placement it starts from, which it returns when no round beats it. Deterministic:
 * no randomness, only the number of rounds depends on the clock.
 */
public final class SqueakyWheel {
    /** The best placement seen, and how many greedy rounds were run. */
    public record Result(long[] offsets, long arena, int rounds) { }

    /** Told after each complete round: how many so far, this round's arena and the best one (bytes). */
    @FunctionalInterface
    public interface RoundListener {
        void round(int rounds, long arena, long bestArena);
    }

    private SqueakyWheel() { }

    /** {@link #improve(Problem, long[], long, long, int, long, RoundListener)} telling no one of its rounds. */
    public static Result improve(Problem p, long[] start, long target, long deadline, int stallLimit, long roundGuess) {
        return improve(p, start, target, deadline, stallLimit, roundGuess, (r, a, b) -> { });
    }

    /**
     * @param start      a valid placement: the incumbent to beat
     * @param target     stop once the arena is at most this (a lower bound, or a capacity)
     * @param deadline   {@link System#nanoTime()} by which the last round must end
     * @param stallLimit rounds in a row without a smaller arena after which it gives up
     * @param roundGuess nanoseconds one greedy round is expected to take, before one was timed
     * @param listener   told after each complete round (on the calling thread)
     */
    public static Result improve(Problem p, long[] start, long target, long deadline, int stallLimit, long roundGuess, RoundListener listener) {
        long[] bestOffsets = start.clone();
        long bestArena = Placement.arenaOf(p, start);
        if (bestArena <= target || deadline - System.nanoTime() <= roundGuess) return new Result(bestOffsets, bestArena, 0);
        int[] order;
        try {
            order = Orders.byBreadth(p, deadline);
        } catch (Orders.TimeUp e) {
            return new Result(bestOffsets, bestArena, 0);
        }
        int rounds = 0, stalled = 0;
        long longestRound = roundGuess;
        while (bestArena > target && stalled < stallLimit && deadline - System.nanoTime() > longestRound) {
            long began = System.nanoTime();
            GreedyPlacer.Result round = GreedyPlacer.place(p, order, GreedyPlacer.Fit.BEST, deadline);
            if (!round.complete()) break;                 // cut at the deadline: stacked, not a real round
            long[] offsets = round.offsets();
            long arena = Placement.arenaOf(p, offsets);
            rounds++;
            if (arena < bestArena) {
                bestArena = arena;
                bestOffsets = offsets;
                stalled = 0;
            } else {
                stalled++;
            }
            listener.round(rounds, arena, bestArena);
            order = squeakyFirst(p, order, offsets, target + (arena - target) / 2);
            longestRound = Math.max(longestRound, System.nanoTime() - began);
        }
        return new Result(bestOffsets, bestArena, rounds);
    }

    /** The buffers whose top is above {@code line}, highest first, then the others in their order. */
    private static int[] squeakyFirst(Problem p, int[] order, long[] offsets, long line) {
        int n = order.length;
        int[] next = new int[n];
        int k = 0;
        for (int i : order) if (offsets[i] + p.alignedSize(i) > line) next[k++] = i;
        int squeaky = k;
        int[] front = Arrays.copyOf(next, squeaky);
        long[] negTop = new long[squeaky];
        for (int a = 0; a < squeaky; a++) negTop[a] = -(offsets[front[a]] + p.alignedSize(front[a]));
        int[] byTop = Orders.sortedByKeys(squeaky, negTop);   // ties by position: among equal tops the former order stays
        for (int a = 0; a < squeaky; a++) next[a] = front[byTop[a]];
        for (int i : order) if (offsets[i] + p.alignedSize(i) <= line) next[k++] = i;
        return next;
    }
}
