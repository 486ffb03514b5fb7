package org.arenaplan.plan.search;

import org.arenaplan.plan.Fixtures;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Preorder} ranks a part as a full re-rank would: the reference below reads every section
 * of every lifetime for T and sorts the part by the preorder's comparator chain (as
 * {@code CapacitySearch} did before the incremental ranking), and the two must order every pair
 * of the part alike, under each preorder, after any nest of placements, rankings, restores and
 * unplacements made in the search's last-in-first-out order.
 */
class PreorderTest {
    /** One level of the walk: a placed buffer, and the part ranked below it (null when none). */
    private record Frame(int placed, int mark, int[] part, int[][] reference) { }

    @Test
    void ranksEveryPartAsAFullReRankDoes() {
        Random r = new Random(11);
        long pairs = 0;
        int reranked = 0;
        for (int round = 0; round < 120; round++) {
            Problem p = Fixtures.randomProblem(r, 50, 20, 12, x -> x.nextInt(3) == 0 ? 8L * (1 + x.nextInt(3)) : x.nextInt(200));
            SearchInstance in = new SearchInstance(p);
            if (in.active.length < 2) continue;
            Preorder ranks = new Preorder(p, in.time, in.active, in.conflicts, in.time.liveBytes);
            long[] unplaced = in.time.liveBytes.clone();
            boolean[] placed = new boolean[p.size()];
            Deque<Frame> stack = new ArrayDeque<>();
            int[] all = in.active.clone();
            stack.push(new Frame(-1, ranks.rank(all, all.length), all, reference(p, in.time, unplaced, all)));
            pairs += check(ranks, stack.peek(), round);
            for (int step = 0; step < 150; step++) {
                List<Integer> free = new ArrayList<>();
                for (int b : in.active) if (!placed[b]) free.add(b);
                if (stack.size() > 1 && (free.isEmpty() || r.nextInt(5) < 2)) {
                    Frame f = stack.pop();
                    if (f.part() != null) ranks.restore(f.mark());
                    move(p, in.time, unplaced, f.placed(), 1);
                    ranks.unplaced(f.placed());
                    placed[f.placed()] = false;
                    for (Frame e : stack) {
                        if (e.part() == null) continue;
                        pairs += check(ranks, e, round);   // the enclosing part has its ranks back
                        break;
                    }
                    continue;
                }
                if (free.isEmpty()) break;
                int b = free.remove(r.nextInt(free.size()));
                placed[b] = true;
                move(p, in.time, unplaced, b, -1);
                ranks.placed(b);
                Frame f;
                if (!free.isEmpty() && r.nextBoolean()) {
                    java.util.Collections.shuffle(free, r);
                    int[] part = free.subList(0, 1 + r.nextInt(free.size())).stream().mapToInt(Integer::intValue).toArray();
                    f = new Frame(b, ranks.rank(part, part.length), part, reference(p, in.time, unplaced, part));
                    pairs += check(ranks, f, round);
                    reranked++;
                } else {
                    f = new Frame(b, -1, null, null);
                }
                stack.push(f);
            }
        }
        assertThat(reranked).as("parts ranked below a placement").isGreaterThan(3_000);
        assertThat(pairs).as("pairs compared").isGreaterThan(1_000_000);
    }

    private static void move(Problem p, Timeline time, long[] unplaced, int b, int sign) {
        for (int s = time.first[b]; s < time.end[b]; s++) unplaced[s] += sign * p.alignedSize(b);
    }

    /** Checks every pair of the frame's part under each preorder; returns how many pairs. */
    private static long check(Preorder ranks, Frame f, int round) {
        long pairs = 0;
        for (int n = 0; n < Preorder.NAMES.size(); n++) {
            ranks.use(Preorder.NAMES.get(n));
            int[] rank = f.reference()[n];
            for (int a : f.part()) {
                for (int b : f.part()) {
                    if (a == b) continue;
                    assertThat(ranks.precedes(a, b)).as("round %d, %s: %d before %d", round, Preorder.NAMES.get(n), a, b).isEqualTo(rank[a] < rank[b]);
                    pairs++;
                }
            }
        }
        return pairs;
    }

    /**
     * The reference: per preorder, each buffer's position in the part sorted by the keys, largest
     * first (W: width, A: aligned bytes x width, T: the most bytes unplaced in a section of its
     * lifetime, read by scanning every section), then by index.
     */
    private static int[][] reference(Problem p, Timeline time, long[] unplaced, int[] part) {
        long[] most = new long[p.size()];
        for (int b : part) for (int s = time.first[b]; s < time.end[b]; s++) most[b] = Math.max(most[b], unplaced[s]);
        int[][] out = new int[Preorder.NAMES.size()][p.size()];
        for (int n = 0; n < out.length; n++) {
            Comparator<Integer> cmp = (a, b) -> 0;
            for (char key : Preorder.NAMES.get(n).toCharArray()) {
                cmp = cmp.thenComparing(switch (key) {
                    case 'W' -> Comparator.comparingLong((Integer b) -> -(p.upper(b) - p.lower(b)));
                    case 'A' -> Comparator.comparingDouble((Integer b) -> -(double) p.alignedSize(b) * (p.upper(b) - p.lower(b)));
                    default -> Comparator.comparingLong((Integer b) -> -most[b]);
                });
            }
            Integer[] sorted = Arrays.stream(part).boxed().sorted(cmp.thenComparingInt(b -> b)).toArray(Integer[]::new);
            for (int k = 0; k < sorted.length; k++) out[n][sorted[k]] = k;
        }
        return out;
    }
}
