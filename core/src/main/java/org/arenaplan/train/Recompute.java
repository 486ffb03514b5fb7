package org.arenaplan.train;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.Tensor;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Problem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Recomputation of forward activations in the backward pass (rematerialisation), trading FLOPs for
 * bytes: a recomputed activation is freed after its last forward reader and computed again by a
 * clone of its forward op just before its first backward reader.
 *
 * <p>Units: the forward ops whose results share one storage of the training graph (an op and the
 * ops folded in place over its result, e.g. MatMul, bias Add, Relu) are recomputed together, since
 * keeping any of them keeps the storage. A unit qualifies when a backward op reads its storage and
 * it is not a graph output or a caller-owned input; views of a recomputed result are recomputed
 * with it (they cost nothing).
 *
 * <p>The rewrite ({@link #rewrite}): the forward ops unchanged; then each backward op in order,
 * first emitting, for each input whose producer is recomputed, a clone {@code OP.re} writing
 * {@code T.re} (its own recomputed inputs cloned first, recursively: a run of recomputed ops is
 * recomputed as a segment from the nearest kept tensors), and reading the clones. Clones run the
 * same kernels on the same values, so their results are bit-identical.
 *
 * <p>Choices, all measured by the lower bound of the rewritten graph ({@link Lifetimes}):
 * <ul>
 *   <li>{@link #sqrtN}: Chen et al. 2016 ("Training Deep Nets with Sublinear Memory Cost"): the
 *       units that are the only activation live across some forward position (cuts) are the
 *       checkpoint candidates; every ceil(sqrt(cuts))-th is kept, every other unit recomputed.</li>
 *   <li>{@link #forBudget}: the fewest extra FLOPs among (1) the shortest prefix, found by binary
 *       search, of the moves (a saved unit with the unsaved units its clone needs) in order of
 *       bytes freed per FLOP, (2) segments: every k-th cut kept and the rest recomputed, for every
 *       k, and, only when neither fits, (3) one move at a time, kept when it lowers the bound;
 *       then, most FLOPs first, every unit whose removal still fits is dropped, until the time
 *       limit. Recomputing everything is not the least memory (a clone recomputes its recomputed
 *       inputs too, so they would all live again at once). Cost: O(log moves + cuts + units)
 *       rewrites and liveness passes, O(ops + tensors) each.</li>
 *   <li>{@link #exact}: every subset of the units (small graphs only), the least extra FLOPs that fits.</li>
 * </ul>
 */
public final class Recompute {
    /**
     * @param graph        the training graph with the clones
     * @param method       {@code none}, {@code sqrt} or {@code auto} (or {@code exact})
     * @param recomputed   the forward tensors computed again in the backward pass
     * @param extraFlops   FLOPs of the clones ({@link Flops})
     * @param stepFlops    FLOPs of the training step without recomputation
     * @param peakWithout  lower bound of the training graph without recomputation, bytes
     * @param peak         lower bound with it, bytes
     */
    public record Result(Graph graph, String method, List<String> recomputed, long extraFlops, long stepFlops,
                         long peakWithout, long peak) {
        /** Extra FLOPs over the training step's. */
        public double extraFraction() {
            return stepFlops == 0 ? 0 : (double) extraFlops / stepFlops;
        }
    }

    /** No choice of recomputation fits the budget; {@code smallestBytes} is the least lower bound this method reached. */
    public static final class BudgetException extends RuntimeException {
        private final long smallestBytes;

        BudgetException(long budget, long smallestBytes, int units, boolean timedOut) {
            super("no recomputation fits a memory budget of " + String.format(java.util.Locale.ROOT, "%,d", budget)
                    + " B; the smallest budget that fits is " + String.format(java.util.Locale.ROOT, "%,d", smallestBytes)
                    + " B (the least lower bound found over " + units + " candidate activations" + (timedOut ? ", stopped at the time limit)" : ")"));
            this.smallestBytes = smallestBytes;
        }

        public long smallestBytes() { return smallestBytes; }
    }

    /** The forward ops recomputed together and what they cost and free. */
    /** @param saved whether a backward op reads the storage (else it is only an input of other forward ops) */
    record Unit(int[] ops, long bytes, long flops, int storage, boolean saved) { }

    private final Graph g;
    private final int forwardOps;
    private final long alignment;
    private final List<Unit> units = new ArrayList<>();
    private final long stepFlops;
    private final long peakWithout;

    private Recompute(Gradients.Training t, long alignment) {
        this.g = t.graph();
        this.forwardOps = t.forwardOps();
        this.alignment = alignment;
        Lifetimes l = Lifetimes.of(g);
        Problem p = ArenaPlanner.problemOf(l, alignment);
        this.peakWithout = p.lowerBound();
        this.stepFlops = Flops.of(g);
        Map<Integer, List<Integer>> bySorage = new LinkedHashMap<>();
        BitSet bad = new BitSet();
        for (int q = 0; q < forwardOps; q++) {
            Op op = g.ops().get(q);
            for (String out : op.outputs()) {
                Integer s = l.storageOf(out);
                if (s == null) continue;
                if (!op.members().isEmpty() || op.outputs().size() != 1 || g.isOutput(out)) bad.set(s);
                if (!op.isStorageOnly()) bySorage.computeIfAbsent(s, k -> new ArrayList<>()).add(q);
            }
        }
        for (Map.Entry<Integer, List<Integer>> e : bySorage.entrySet()) {
            Storage s = l.storages().get(e.getKey());
            if (bad.get(e.getKey()) || s.pinned() || s.graphInput()) continue;
            boolean readLater = false;
            for (int r : s.readers()) readLater |= r >= forwardOps;
            int[] ops = e.getValue().stream().mapToInt(Integer::intValue).toArray();
            long flops = 0;
            for (int q : ops) flops += Flops.of(g, g.ops().get(q));
            units.add(new Unit(ops, p.alignedSize(e.getKey()), flops, e.getKey(), readLater));
        }
    }

    /** The training graph as it is. */
    public static Result none(Gradients.Training t, long alignment) {
        Recompute r = new Recompute(t, alignment);
        return r.result("none", new BitSet());
    }

    /** √n checkpointing (Chen et al. 2016). */
    public static Result sqrtN(Gradients.Training t, long alignment) {
        Recompute r = new Recompute(t, alignment);
        List<Integer> cuts = r.cuts();
        return r.result("sqrt", r.segments(cuts, (int) Math.ceil(Math.sqrt(Math.max(1, cuts.size())))));
    }

    /** Every unit recomputed but every k-th cut. */
    private BitSet segments(List<Integer> cuts, int k) {
        BitSet keep = new BitSet();
        for (int i = k - 1; i < cuts.size(); i += k) keep.set(cuts.get(i));
        BitSet chosen = new BitSet();
        for (int u = 0; u < units.size(); u++) if (!keep.get(u)) chosen.set(u);
        return chosen;
    }

    /**
     * The least extra FLOPs this greedy finds whose lower bound fits {@code budget} bytes.
     *
     * @throws BudgetException when recomputing every candidate does not fit either
     */
    public static Result forBudget(Gradients.Training t, long budget, long alignment, Duration timeLimit) {
        Recompute r = new Recompute(t, alignment);
        long deadline = System.nanoTime() + timeLimit.toNanos();
        if (r.peakWithout <= budget) return r.result("auto", new BitSet());
        Search s = r.new Search(budget, deadline);
        // 1. Prefixes of the moves by bytes per FLOP: sampled at 16 lengths, then the shortest
        //    fitting one below the first fitting sample (binary search; the bound is not
        //    monotone in the prefix, so this is a heuristic).
        List<BitSet> moves = r.movesByRatio();
        int n = moves.size(), prev = 0;
        for (int i = 1; i <= 16 && n > 0; i++) {
            int k = (int) Math.ceil((double) n * i / 16);
            if (k <= prev) continue;
            if (s.fits(union(moves, k))) {
                int lo = prev, hi = k;
                while (hi - lo > 1 && System.nanoTime() < deadline) {
                    int mid = (lo + hi) >>> 1;
                    if (s.fits(union(moves, mid))) hi = mid;
                    else lo = mid;
                }
                break;
            }
            prev = k;
        }
        // 2. Segments: every k-th cut kept, the rest recomputed, for every k.
        List<Integer> cuts = r.cuts();
        for (int k = 2; k <= cuts.size() && System.nanoTime() < deadline; k++) s.fits(r.segments(cuts, k));
        // 3. One move at a time, each kept when it lowers the bound, until it fits (for half the
        //    time left; fewer FLOPs than 1 and 2 where the peak falls gradually).
        long half = System.nanoTime() + (deadline - System.nanoTime()) / 2;
        BitSet greedy = new BitSet();
        long peak = r.peakWithout;
        for (BitSet m : moves) {
            if (peak <= budget || System.nanoTime() > half) break;
            BitSet next = (BitSet) greedy.clone();
            next.or(m);
            if (next.equals(greedy)) continue;
            long p = s.peak(next);
            if (p < peak) {
                peak = p;
                greedy = next;
            }
        }
        if (s.best == null) throw new BudgetException(budget, s.smallest, r.units.size(), System.nanoTime() > deadline);
        // 4. Drop, most FLOPs first, every unit whose removal still fits.
        BitSet chosen = (BitSet) s.best.clone();
        Integer[] byFlops = chosen.stream().boxed().toArray(Integer[]::new);
        Arrays.sort(byFlops, Comparator.comparingLong((Integer u) -> -r.units.get(u).flops()));
        for (int u : byFlops) {
            if (System.nanoTime() > deadline) break;
            if (r.units.get(u).flops() == 0) continue;
            chosen.clear(u);
            if (!s.fits(chosen)) chosen.set(u);
        }
        return r.result("auto", s.best);
    }

    /** The choices tried for one budget: the fewest extra FLOPs that fit, and the least peak seen. */
    private final class Search {
        private final long budget;
        private final long deadline;
        BitSet best;
        long bestFlops = Long.MAX_VALUE;
        long smallest;

        Search(long budget, long deadline) {
            this.budget = budget;
            this.deadline = deadline;
            this.smallest = peakWithout;
        }

        long peak(BitSet chosen) {
            Rewrite rw = rewrite(chosen);
            long p = lowerBound(rw.graph());
            smallest = Math.min(smallest, p);
            if (p <= budget && rw.flops() < bestFlops) {
                best = (BitSet) chosen.clone();
                bestFlops = rw.flops();
            }
            return p;
        }

        boolean fits(BitSet chosen) {
            return peak(chosen) <= budget;
        }
    }

    /** For each saved unit, it and the units it needs ({@link #move}), by bytes freed per FLOP spent, most first. */
    private List<BitSet> movesByRatio() {
        List<BitSet> moves = new ArrayList<>();
        List<Double> ratio = new ArrayList<>();
        for (int u = 0; u < units.size(); u++) {
            if (!units.get(u).saved()) continue;
            BitSet m = move(u);
            long f = 0;
            for (int v = m.nextSetBit(0); v >= 0; v = m.nextSetBit(v + 1)) f += units.get(v).flops();
            moves.add(m);
            ratio.add((double) units.get(u).bytes() / (f + 1));
        }
        Integer[] order = new Integer[moves.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -ratio.get(i)));
        List<BitSet> sorted = new ArrayList<>(order.length);
        for (int i : order) sorted.add(moves.get(i));
        return sorted;
    }

    private static BitSet union(List<BitSet> moves, int k) {
        BitSet b = new BitSet();
        for (int i = 0; i < k; i++) b.or(moves.get(i));
        return b;
    }

    /**
     * Every subset of the candidate units: the least extra FLOPs whose lower bound fits (ties: the
     * lower peak). For graphs with at most {@code maxUnits} candidates.
     *
     * @throws IllegalArgumentException with more candidates
     * @throws BudgetException          when no subset fits
     */
    public static Result exact(Gradients.Training t, long budget, long alignment, int maxUnits) {
        Recompute r = new Recompute(t, alignment);
        int n = r.units.size();
        if (n > maxUnits) throw new IllegalArgumentException(n + " candidate units, more than " + maxUnits + " to enumerate");
        BitSet best = null;
        long bestFlops = Long.MAX_VALUE, bestPeak = Long.MAX_VALUE, smallest = Long.MAX_VALUE;
        for (long mask = 0; mask < (1L << n); mask++) {
            BitSet s = BitSet.valueOf(new long[]{mask});
            long f = 0;
            for (int u = s.nextSetBit(0); u >= 0; u = s.nextSetBit(u + 1)) f += r.units.get(u).flops();
            if (f > bestFlops) continue;
            long pk = r.peak(s);
            smallest = Math.min(smallest, pk);
            if (pk <= budget && (f < bestFlops || pk < bestPeak)) {
                best = s;
                bestFlops = f;
                bestPeak = pk;
            }
        }
        if (best == null) throw new BudgetException(budget, smallest, n, false);
        return r.result("exact", best);
    }

    /**
     * Unit {@code u} with the units it would need recomputed too: the producers of its inputs
     * whose storages no backward op reads (kept only for this recomputation, they would cost the
     * bytes recomputing {@code u} frees), recursively.
     */
    private BitSet move(int u) {
        Map<Integer, Integer> unitOfStorage = new HashMap<>();
        for (int v = 0; v < units.size(); v++) unitOfStorage.put(units.get(v).storage(), v);
        Lifetimes l = lifetimes();
        BitSet m = new BitSet();
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(List.of(u));
        while (!todo.isEmpty()) {
            int v = todo.pop();
            if (m.get(v)) continue;
            m.set(v);
            for (int q : units.get(v).ops()) {
                for (String in : g.ops().get(q).inputs()) {
                    Integer s = l.storageOf(in);
                    Integer w = s == null ? null : unitOfStorage.get(s);
                    if (w != null && !units.get(w).saved() && !m.get(w)) todo.push(w);
                }
            }
        }
        return m;
    }

    private Lifetimes lifetimes;

    private Lifetimes lifetimes() {
        if (lifetimes == null) lifetimes = Lifetimes.of(g);
        return lifetimes;
    }

    private long peak(BitSet chosen) {
        return lowerBound(rewrite(chosen).graph);
    }

    private long lowerBound(Graph x) {
        return ArenaPlanner.problemOf(Lifetimes.of(x), alignment).lowerBound();
    }

    private Result result(String method, BitSet chosen) {
        Rewrite rw = rewrite(chosen);
        long peak = chosen.isEmpty() ? peakWithout : lowerBound(rw.graph);
        return new Result(rw.graph, method, rw.recomputed, rw.flops, stepFlops, peakWithout, peak);
    }

    /** Units (indices) that are the only activation storage live across some forward position, in forward order. */
    private List<Integer> cuts() {
        Lifetimes l = Lifetimes.of(g);
        Map<Integer, Integer> unitOfStorage = new HashMap<>();
        for (int u = 0; u < units.size(); u++) unitOfStorage.put(units.get(u).storage(), u);
        List<Integer> cuts = new ArrayList<>();
        for (int p = 0; p < forwardOps - 1; p++) {
            int crossing = -1, count = 0;
            for (Storage s : l.storages()) {
                if (s.graphInput() || s.start() > p) continue;
                boolean readAfter = false;
                for (int r : s.readers()) readAfter |= r > p && r < forwardOps;
                if (!readAfter) continue;
                count++;
                crossing = s.id();
            }
            Integer u = unitOfStorage.get(crossing);
            if (count == 1 && u != null && (cuts.isEmpty() || !cuts.get(cuts.size() - 1).equals(u))) cuts.add(u);
        }
        return cuts;
    }

    private record Rewrite(Graph graph, List<String> recomputed, long flops) { }

    /** The training graph with the ops of the chosen units recomputed before their backward readers. */
    Rewrite rewrite(BitSet chosen) {
        boolean[] inR = new boolean[forwardOps];
        for (int u = chosen.nextSetBit(0); u >= 0; u = chosen.nextSetBit(u + 1)) for (int q : units.get(u).ops()) inR[q] = true;
        for (int q = 0; q < forwardOps; q++) {
            Op op = g.ops().get(q);
            if (op.isStorageOnly() && op.members().isEmpty() && !op.views().isEmpty()) {
                int base = g.producerPosition(op.inputs().get(op.views().get(0).input()));
                if (base >= 0 && inR[base]) inR[q] = true;
            }
        }
        GraphBuilder b = GraphBuilder.declarationsOf(g);
        for (int q = 0; q < forwardOps; q++) b.add(g.ops().get(q));
        Map<String, String> clone = new HashMap<>();
        List<String> recomputed = new ArrayList<>();
        long[] flops = {0};
        for (int q = forwardOps; q < g.opCount(); q++) {
            Op op = g.ops().get(q);
            List<String> ins = new ArrayList<>(op.inputs().size());
            for (String t : op.inputs()) ins.add(recomputed(t, inR, clone, b, recomputed, flops));
            b.add(new Op(op.name(), op.kind(), ins, op.outputs(), op.stream(), op.attrs(), op.views(), op.members(), op.inPlace()));
        }
        g.outputs().forEach(b::output);
        return new Rewrite(chosen.isEmpty() ? g : b.build(), recomputed, flops[0]);
    }

    /** {@code t}, or its clone when its producer is recomputed (emitting the clone and its recomputed inputs' first). */
    private String recomputed(String t, boolean[] inR, Map<String, String> clone, GraphBuilder b, List<String> recomputed, long[] flops) {
        int p = g.producerPosition(t);
        if (p < 0 || p >= forwardOps || !inR[p]) return t;
        String c = clone.get(t);
        if (c != null) return c;
        Op op = g.ops().get(p);
        List<String> ins = new ArrayList<>(op.inputs().size());
        for (String u : op.inputs()) ins.add(recomputed(u, inR, clone, b, recomputed, flops));
        List<String> outs = new ArrayList<>(op.outputs().size());
        for (String o : op.outputs()) {
            Tensor x = g.tensor(o);
            String name = o + ".re";
            b.tensor(new Tensor(name, x.bytes(), x.dtype(), x.shape()));
            outs.add(name);
            clone.put(o, name);
            if (!op.isStorageOnly()) recomputed.add(o);
        }
        Op re = new Op(op.name() + ".re", op.kind(), ins, outs, op.stream(), op.attrs(), op.views(), op.members(), op.inPlace());
        b.add(re);
        flops[0] += Flops.of(g, op);
        return clone.get(t);
    }
}
