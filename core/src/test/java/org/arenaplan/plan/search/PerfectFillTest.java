package org.arenaplan.plan.search;

import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjIntConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link PerfectFill}: the exact search {@link CapacitySearch} uses when a problem has no slack. */
class PerfectFillTest {
    /** A safety net only: a regression fails the test instead of hanging it. No speed is asserted. */
    static long safetyDeadline() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    }

    /**
     * A small problem with no slack that may have no packing: time steps 0..6 at capacity 6; at
     * each step some live buffers end and the bytes they free start as new buffers of random
     * sizes, so every instant holds exactly the capacity. Null past 8 buffers (the oracle tries
     * every order).
     */
    private static Problem noSlack(long seed) {
        return noSlack(seed, 6, 6, 8);
    }

    /** As {@link #noSlack(long)} with time steps 0..steps, the given capacity, and null past maxBuffers. */
    static Problem noSlack(long seed, long steps, long capacity, int maxBuffers) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<long[]> rows = new ArrayList<>();   // lower, upper (-1: live), size
        startBuffers(rows, 0, capacity, rnd);
        for (long t = 1; t < steps; t++) {
            long freed = 0;
            for (long[] r : rows) {
                if (r[1] < 0 && rnd.nextInt(5) < 2) {
                    r[1] = t;
                    freed += r[2];
                }
            }
            startBuffers(rows, t, freed, rnd);
        }
        if (rows.size() > maxBuffers) return null;
        int n = rows.size();
        String[] ids = new String[n];
        long[] lower = new long[n], upper = new long[n], sizes = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = "b" + i;
            lower[i] = rows.get(i)[0];
            upper[i] = rows.get(i)[1] < 0 ? steps : rows.get(i)[1];
            sizes[i] = rows.get(i)[2];
        }
        return new Problem(ids, lower, upper, sizes, 1);
    }

    private static void startBuffers(List<long[]> rows, long t, long bytes, SplittableRandom rnd) {
        while (bytes > 0) {
            long size = 1 + rnd.nextLong(bytes);
            rows.add(new long[]{t, -1, size});
            bytes -= size;
        }
    }

    @Test
    void decidesSmallProblemsWithoutSlackLikeTheOracle() {
        int checked = 0;
        for (long seed = 1; seed <= 600; seed++) {
            Problem p = noSlack(seed);
            if (p == null) continue;
            checked++;
            assertDecidedLikeTheOracle(p, 6, "seed " + seed);
        }
        assertThat(checked).isGreaterThan(200);
    }

    /**
     * Backjumping cuts no branch with a completion: on no-slack problems of up to 30 buffers
     * (too many for the brute-force oracle), with and without it, {@link PerfectFill} reaches the
     * same decision, found or proven infeasible, and it does backjump on them.
     */
    @Test
    void backjumpingDecidesLikeTheSearchWithoutIt() {
        long[] jumps = {0};
        int infeasible = decideMidSizedProblemsAlike(2, (fill, variant) -> fill.backjumping = variant == 1,
                (fill, variant) -> jumps[0] += fill.backjumps());
        assertThat(infeasible).isPositive();
        assertThat(jumps[0]).isPositive();
    }

    /**
     * Learned nogoods cut no branch with a completion: on the no-slack problems of up to 30
     * buffers, with them (and backjumping) and with neither, {@link PerfectFill} reaches the same
     * decision, found or proven infeasible, and the nogoods do cut nodes there.
     */
    @Test
    void learnedNogoodsDecideLikeTheSearchWithoutThem() {
        long[] cuts = {0};
        int infeasible = decideMidSizedProblemsAlike(2, (fill, variant) -> {
                    fill.learning = variant == 1;
                    fill.backjumping = variant == 1;
                },
                (fill, variant) -> cuts[0] += fill.nogoodStats()[1]);
        assertThat(infeasible).isPositive();
        assertThat(cuts[0]).isPositive();
    }

    /**
     * Narrow conflicts (a failed node's conflict without its fillers' spans, class comment of
     * {@link PerfectFill}, step 5) cut no branch with a completion: on the no-slack problems of
     * up to 30 buffers, with them and with the fillers' whole spans, {@link PerfectFill} reaches
     * the same decision, found or proven infeasible; and the narrow ones backjump more often.
     */
    @Test
    void narrowConflictsDecideLikeTheWideOnes() {
        long[] jumps = new long[2], nodes = new long[2];
        int infeasible = decideMidSizedProblemsAlike(2, (fill, variant) -> fill.narrowConflicts = variant == 1,
                (fill, variant) -> {
                    jumps[variant] += fill.backjumps();
                    nodes[variant] += fill.nodes();
                });
        System.out.printf("narrow conflicts: backjumps %d -> %d, nodes %d -> %d%n", jumps[0], jumps[1], nodes[0], nodes[1]);
        assertThat(infeasible).isPositive();
        assertThat(jumps[1]).as("backjumps with narrow conflicts").isGreaterThan(jumps[0]);
    }

    /**
     * 315-11034, a packing of {@code bench search --set perfect --seed 11000} that member 0 did not
     * find in 1,000,000 nodes with its fillers' whole spans in a failed node's conflict, is found
     * by member 0 within 400,000 with the narrow conflicts (338,752 nodes when measured), and not
     * within them with the wide ones; the packing is valid. Both with hits on refuted states
     * naming their whole part, as when measured (with the conflicts kept, neither finds it there).
     */
    @Test
    void narrowConflictsFindAPackingTheWideOnesMiss() {
        int[] result = runBenchPacking(11034, 315, 400_000, (fill, v) -> {
            fill.keepPrefix = false;                 // restarts alone, as measured (with prefix-kept runs, the variant that missed it finds it)
            fill.refutedConflicts = false;           // hits naming their whole part, as measured (with kept conflicts, neither finds it)
            fill.sizeWeight = 0;                     // and the order weighted by lifetime alone, as measured
            fill.narrowConflicts = v == 1;
        });
        assertThat(result[0]).as("wide conflicts").isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(result[1]).as("narrow conflicts").isEqualTo(PerfectFill.FOUND);
    }

    /**
     * Conflicts kept with refuted states (class comment of {@link PerfectFill}, step 4) cut no
     * branch with a completion: on the no-slack problems of up to 30 buffers, with them and with
     * every hit naming its whole part, {@link PerfectFill} reaches the same decision, found or
     * proven infeasible; and hits do come back with a kept conflict there.
     */
    @Test
    void refutedStatesWithTheirConflictsDecideLikeTheWholeParts() {
        long[] hits = new long[2];
        int infeasible = decideMidSizedProblemsAlike(2, (fill, variant) -> fill.refutedConflicts = variant == 1,
                (fill, variant) -> hits[variant] += fill.storedConflictHits());
        assertThat(infeasible).isPositive();
        assertThat(hits[0]).isZero();
        assertThat(hits[1]).as("hits returning a kept conflict").isPositive();
    }

    /**
     * 390-6049, a packing of {@code bench search --set perfect --seed 6000} that member 0 found in
     * 422,400 nodes when a hit on a refuted state named its whole part, is found within 200,000
     * when the hit returns the conflict kept with the state (91,202 nodes when measured), and not
     * within them without; the packing is valid.
     */
    @Test
    void refutedStatesWithTheirConflictsFindAPackingTheWholePartsMiss() {
        int[] result = runBenchPacking(6049, 390, 200_000, (fill, v) -> {
            fill.keepPrefix = false;                 // restarts alone, as measured (with prefix-kept runs, the variant that missed it finds it)
            fill.sizeWeight = 0;                     // the order weighted by lifetime alone, as measured
            fill.refutedConflicts = v == 1;
        });
        assertThat(result[0]).as("whole parts").isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(result[1]).as("kept conflicts").isEqualTo(PerfectFill.FOUND);
    }

    /**
     * Right walls cut no branch with a completion: on the no-slack problems of up to 30 buffers,
     * with them and without, {@link PerfectFill} reaches the same decision, found or proven
     * infeasible, and it does branch on right walls there.
     */
    @Test
    void rightWallsDecideLikeTheSearchWithoutThem() {
        long[] right = {0};
        int infeasible = decideMidSizedProblemsAlike(2, (fill, variant) -> fill.rightWalls(variant == 1),
                (fill, variant) -> right[0] += fill.rightWallNodes());
        assertThat(infeasible).isPositive();
        assertThat(right[0]).isPositive();
    }

    /**
     * 320-1035, a packing of the bench ({@code bench search --set perfect --seed 1000}) that member 0
     * did not find in 58,764,289 nodes nor members 1-3 (before right walls) in 4,000,000 each, is
     * found by member 1, which branches on right walls too, within 2,000,000 nodes (1,960,710 when
     * measured with uniform random runs, 816,941 with runs weighted by the square of the
     * lifetime); the packing is valid.
     */
    @Test
    void memberOneWithRightWallsFindsAPackingTheOthersMiss() {
        Problem p = PerfectPackings.generate(1035, 320, 1 << 20, 1000, 1024);
        SearchInstance instance = new SearchInstance(p);
        PerfectFill fill = new PerfectFill(p, instance.time, instance.active, 1 << 20, safetyDeadline(), 2_000_000, () -> false).member(1);
        assertThat(fill.run()).isEqualTo(PerfectFill.FOUND);
        assertThat(fill.rightWallNodes()).isPositive();
        assertThat(PlacementValidator.validate(p, fill.offsets(), 1 << 20, 1L << 20)).isEmpty();
    }

    /**
     * 385-1048, a packing of the bench ({@code bench search --set perfect --seed 1000}) that the
     * search without learned nogoods does not find in 400,000 nodes, is found within them with
     * the nogoods (279,051 nodes when measured); the packing is valid. Both with uniformly
     * random runs, wide conflicts and hits on refuted states naming their whole part: with the
     * lifetime-weighted runs or the narrow conflicts, both find it; with the conflicts kept with
     * refuted states, neither.
     */
    @Test
    void learnedNogoodsFindAPackingTheSearchWithoutThemMisses() {
        int[] result = runBenchPacking(1048, 385, 400_000, (fill, v) -> {
            fill.keepPrefix = false;                 // restarts alone, as measured (with prefix-kept runs, the variant that missed it finds it)
            fill.lifetimeWeight = 0;                 // the uniform random runs this was measured with (weighted, both find it)
            fill.sizeWeight = 0;
            fill.narrowConflicts = false;            // and the wide conflicts (with the narrow ones, both find it)
            fill.refutedConflicts = false;           // and hits naming their whole part (with kept conflicts, neither finds it)
            fill.learning = v == 1;
        });
        assertThat(result[0]).as("without nogoods").isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(result[1]).as("with nogoods").isEqualTo(PerfectFill.FOUND);
    }

    /**
     * 345-5040, a packing of {@code bench search --set perfect --seed 5000} that member 0 with
     * uniformly random restarts (and member 1) did not find in 1,000,000 nodes, is found within
     * 500,000 by member 0 when its random runs weight the candidates by lifetime (469,854 nodes
     * when measured), and not within them with the uniform order; the packing is valid.
     */
    @Test
    void lifetimeWeightedRestartsFindAPackingTheUniformOnesMiss() {
        int[] result = runBenchPacking(5040, 345, 500_000, (fill, v) -> {
            fill.keepPrefix = false;                 // restarts alone, as measured (with prefix-kept runs, the variant that missed it finds it)
            fill.sizeWeight = 0;                     // by lifetime alone, as measured
            fill.lifetimeWeight = v;
        });
        assertThat(result[0]).as("uniform").isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(result[1]).as("weighted by lifetime").isEqualTo(PerfectFill.FOUND);
    }

    /**
     * 380-14047, a packing of {@code bench search --set perfect --seed 14000} that neither member
     * found in 1,000,000 nodes, is found within 300,000 by member 0 when its random runs weight
     * the candidates by area, sections spanned times size (214,094 nodes when measured), and not
     * within them when they weight by the sections alone; the packing is valid.
     */
    @Test
    void areaWeightedRestartsFindAPackingTheLifetimeWeightedOnesMiss() {
        int[] result = runBenchPacking(14047, 380, 300_000, (fill, v) -> {
            fill.keepPrefix = false;                 // restarts alone, as measured
            fill.sizeWeight = v;
        });
        assertThat(result[0]).as("weighted by lifetime").isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(result[1]).as("weighted by area").isEqualTo(PerfectFill.FOUND);
    }

    /**
     * 360-5043, a packing of {@code bench search --set perfect --seed 5000} that neither member
     * found in 1,000,000 nodes with restarts alone, is found within 200,000 by member 0 when
     * every second run keeps a prefix of the deepest path so far (class comment of
     * {@link PerfectFill}, step 7; 87,320 nodes when measured), and not within them without;
     * the packing is valid.
     */
    @Test
    void prefixKeptRunsFindAPackingTheRestartsAloneMiss() {
        int[] result = runBenchPacking(5043, 360, 200_000, (fill, v) -> fill.keepPrefix = v == 1);
        assertThat(result[0]).as("restarts alone").isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(result[1]).as("with prefix-kept runs").isEqualTo(PerfectFill.FOUND);
    }

    /**
     * 370-45, the packing of {@code bench search --set perfect} (seed 0) that no member found in
     * 5,000,000 nodes before, is found by member 0 within 1,700,000 (1,647,552 when measured)
     * now that its prefix-kept runs keep the path that placed the most area, cut that path back
     * where its kept filler is refuted, and make up every run past
     * {@value PerfectFill#PREFIX_ONLY_AFTER} nodes (class comment, step 7); the packing is valid.
     * Member 0 as it was (the deepest path, every second run) did not find it within 5,000,000 nodes.
     */
    @Test
    void prefixKeptRunsByAreaFindTheBenchsHardestPacking() {
        Problem p = PerfectPackings.generate(45, 370, 1 << 20, 1000, 1024);
        SearchInstance instance = new SearchInstance(p);
        PerfectFill fill = new PerfectFill(p, instance.time, instance.active, 1 << 20, safetyDeadline(), 1_700_000, () -> false);
        assertThat(fill.run()).isEqualTo(PerfectFill.FOUND);
        assertThat(PlacementValidator.validate(p, fill.offsets(), 1 << 20, 1L << 20)).isEmpty();
    }

    /**
     * Prefix-kept runs (step 7) record no refutation that rests on their restriction: on the
     * no-slack problems of up to 30 buffers, with them and without, {@link PerfectFill} reaches
     * the same decision, found or proven infeasible, and such runs do take place there.
     */
    @Test
    void prefixKeptRunsDecideLikeTheSearchWithoutThem() {
        long[] kept = {0};
        int infeasible = decideMidSizedProblemsAlike(2, (fill, variant) -> fill.keepPrefix = variant == 1,
                (fill, variant) -> kept[0] += fill.prefixKeptRuns());
        assertThat(infeasible).isPositive();
        assertThat(kept[0]).isPositive();
    }

    /**
     * Runs two configurations of member 0 ({@code configure} sets variant v = 0 or 1 up) on the
     * packing of {@code bench search --set perfect} with {@code buffers} buffers and generator
     * seed {@code seed} (capacity 1 MiB, alignment 1 KiB), each with at most {@code nodeLimit}
     * nodes, and asserts that a packing found is valid.
     *
     * @return each variant's {@link PerfectFill#run} result
     */
    private static int[] runBenchPacking(long seed, int buffers, long nodeLimit, ObjIntConsumer<PerfectFill> configure) {
        Problem p = PerfectPackings.generate(seed, buffers, 1 << 20, 1000, 1024);
        int[] result = new int[2];
        for (int v = 0; v < 2; v++) {
            SearchInstance instance = new SearchInstance(p);
            PerfectFill fill = new PerfectFill(p, instance.time, instance.active, 1 << 20, safetyDeadline(), nodeLimit, () -> false);
            configure.accept(fill, v);
            result[v] = fill.run();
            if (result[v] == PerfectFill.FOUND) assertThat(PlacementValidator.validate(p, fill.offsets(), 1 << 20, 1L << 20)).isEmpty();
        }
        return result;
    }

    /**
     * Runs {@code variants} configurations of {@link PerfectFill} ({@code configure} sets variant v
     * up before its run, {@code after} sees it after) on the no-slack problems of up to 30 buffers
     * (seeds 1-300, 10 steps, capacity 12; more than 100 of them), asserts that every variant
     * decides each as variant 0 does and that the packings found are valid.
     *
     * @return how many variant 0 proved infeasible
     */
    static int decideMidSizedProblemsAlike(int variants, ObjIntConsumer<PerfectFill> configure, ObjIntConsumer<PerfectFill> after) {
        int infeasible = 0, checked = 0;
        for (long seed = 1; seed <= 300; seed++) {
            Problem p = noSlack(seed, 10, 12, 30);
            if (p == null) continue;
            checked++;
            int[] r = new int[variants];
            for (int v = 0; v < variants; v++) {
                SearchInstance instance = new SearchInstance(p);
                PerfectFill fill = new PerfectFill(p, instance.time, instance.active, 12, safetyDeadline(), Long.MAX_VALUE, () -> false);
                configure.accept(fill, v);
                r[v] = fill.run();
                after.accept(fill, v);
                if (r[v] == PerfectFill.FOUND) assertThat(PlacementValidator.validate(p, fill.offsets(), 12, 12L)).as("seed %d", seed).isEmpty();
                assertThat(r[v]).as("seed %d, variant %d", seed, v).isEqualTo(r[0]);
            }
            if (r[0] == PerfectFill.NOT_FOUND) infeasible++;
        }
        assertThat(checked).isGreaterThan(100);
        return infeasible;
    }

    /** No-slack problems without a packing, found by running the generator above at other capacities (7, 7, 8). */
    @Test
    void provesProblemsWithoutSlackInfeasibleWhenTheyAre() {
        long[][][] instances = {
                {{0, 3, 5}, {0, 1, 2}, {1, 2, 2}, {2, 5, 1}, {2, 6, 1}, {3, 5, 4}, {3, 6, 1}, {5, 8, 5}, {6, 8, 2}},
                {{0, 2, 2}, {0, 1, 5}, {1, 6, 1}, {1, 5, 4}, {2, 3, 2}, {3, 5, 1}, {3, 6, 1}, {5, 8, 5}, {6, 8, 2}},
                {{0, 1, 3}, {0, 3, 5}, {1, 4, 2}, {1, 5, 1}, {3, 5, 2}, {3, 4, 1}, {3, 6, 2}, {4, 6, 3}, {5, 6, 3}}};
        long[] capacities = {7, 7, 8};
        for (int k = 0; k < instances.length; k++) {
            long[][] rows = instances[k];
            int n = rows.length;
            String[] ids = new String[n];
            long[] lower = new long[n], upper = new long[n], sizes = new long[n];
            for (int i = 0; i < n; i++) {
                ids[i] = "b" + i;
                lower[i] = rows[i][0];
                upper[i] = rows[i][1];
                sizes[i] = rows[i][2];
            }
            Problem p = new Problem(ids, lower, upper, sizes, 1);
            assertThat(p.lowerBound()).isEqualTo(capacities[k]);
            assertThat(assertDecidedLikeTheOracle(p, capacities[k], Arrays.deepToString(rows))).isEqualTo(CapacitySearch.Result.INFEASIBLE);
        }
    }

    /** The search goes through {@link PerfectFill} and agrees with the brute-force oracle; a packing it finds is valid. */
    private static CapacitySearch.Result assertDecidedLikeTheOracle(Problem p, long capacity, String what) {
        SearchInstance instance = new SearchInstance(p);
        assertThat(PerfectFill.applies(instance.time, capacity)).as("%s has no slack", what).isTrue();
        CapacitySearch search = new CapacitySearch(instance, capacity, safetyDeadline());
        CapacitySearch.Result r = search.run();
        boolean fits = BruteForce.optimum(p) <= capacity;
        assertThat(r).as(what).isEqualTo(fits ? CapacitySearch.Result.FOUND : CapacitySearch.Result.INFEASIBLE);
        if (fits) assertThat(PlacementValidator.validate(p, search.solution(), capacity, capacity)).as(what).isEmpty();
        return r;
    }

    @Test
    void findsBenchSizedPerfectPackingsTheSameWayTwice() {
        for (int k : new int[]{2, 5, 10, 13, 16, 20}) {
            int n = 150 + 5 * k;
            Problem p = PerfectPackings.generate(k + 1, n, 1 << 20, 1000, 1024);
            CapacitySearch first = new CapacitySearch(p, 1 << 20, safetyDeadline());
            first.perfectMembers(1);                  // one search: a portfolio's winner may change from run to run
            assertThat(first.run()).as("%d buffers, seed %d", n, k + 1).isEqualTo(CapacitySearch.Result.FOUND);
            assertThat(PlacementValidator.validate(p, first.solution(), 1 << 20, 1L << 20)).isEmpty();
            CapacitySearch second = new CapacitySearch(p, 1 << 20, safetyDeadline());
            second.perfectMembers(1);
            assertThat(second.run()).isEqualTo(CapacitySearch.Result.FOUND);
            assertThat(second.solution()).isEqualTo(first.solution());
            assertThat(second.nodes()).isEqualTo(first.nodes());
        }
    }

    /**
     * Known packings replayed bottom up, in random orders, pass every lookahead after every
     * placement: a lookahead that refuted one of these states would cut a branch that has a
     * completion. Bench-sized packings, among them the five the bench missed before (many twins:
     * equal start, end and size), and smaller ones.
     */
    @Test
    void knownPackingsReplayedBottomUpPassEveryLookahead() {
        List<long[]> cases = new ArrayList<>(List.of(new long[]{370, 45}, new long[]{320, 1035}, new long[]{340, 1039},
                new long[]{385, 1048}, new long[]{310, 2033}));
        for (long seed = 1; seed <= 30; seed++) cases.add(new long[]{20 + 12 * seed, 100 + seed});
        SplittableRandom rnd = new SplittableRandom(7);
        for (long[] c : cases) {
            PerfectPackings.Packed packed = PerfectPackings.generatePacked(c[1], (int) c[0], 1 << 20, 1000, 1024);
            for (int round = 0; round < 3; round++) {
                int[] order = bottomUpOrder(packed, rnd);
                SearchInstance instance = new SearchInstance(packed.problem());
                PerfectFill fill = new PerfectFill(packed.problem(), instance.time, instance.active, 1 << 20, safetyDeadline(), Long.MAX_VALUE, () -> false);
                assertThat(fill.replay(order)).as("%d buffers, seed %d, order %d", c[0], c[1], round).isEqualTo(order.length);
            }
        }
    }

    /** The packing's buffers in a random order in which each comes after every buffer below it in a section they share. */
    private static int[] bottomUpOrder(PerfectPackings.Packed packed, SplittableRandom rnd) {
        Problem p = packed.problem();
        Timeline time = new SearchInstance(p).time;
        long[] floor = new long[time.sections];
        boolean[] done = new boolean[p.size()];
        int[] order = new int[p.size()];
        for (int i = 0; i < order.length; i++) {
            List<Integer> ready = new ArrayList<>();
            for (int b = 0; b < p.size(); b++) {
                boolean flat = !done[b];
                for (int k = time.first[b]; k < time.end[b] && flat; k++) flat = floor[k] == packed.offsets()[b];
                if (flat) ready.add(b);
            }
            assertThat(ready).as("some buffer sits on the floor").isNotEmpty();
            int b = ready.get(rnd.nextInt(ready.size()));
            done[b] = true;
            order[i] = b;
            for (int k = time.first[b]; k < time.end[b]; k++) floor[k] += p.alignedSize(b);
        }
        return order;
    }

    @Test
    void restartBudgetsFollowTheLubySequence() {
        long[] expected = {1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1};
        for (int i = 0; i < expected.length; i++) assertThat(PerfectFill.luby(i + 1)).as("term %d", i + 1).isEqualTo(expected[i]);
        assertThat(PerfectFill.luby((1L << 40) - 1)).isEqualTo(1L << 39);
    }
}
