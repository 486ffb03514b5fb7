package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Decides whether the buffers of a problem fit within a capacity, by depth-first branch and
 * bound over canonical placements (the scheme of Moffitt's MiniMalloc, written for any conflict
 * relation: intervals plus the problem's extra conflicts).
 *
 * <p>Steps at each node of the search, over the unplaced buffers of the current part:
 * <ol>
 *   <li>Branch on each, placing it at its lowest offset (the highest top of a placed buffer it
 *       conflicts with), in order of that offset, ties by the part's preorder rank. Skipped:
 *       non-canonical placements (placements happen in non-decreasing (offset, rank) order, so
 *       each solution is reached by one sequence) and dominated ones (an offset at or above the
 *       top another unplaced buffer would have at its own lowest offset leaves a gap that buffer
 *       fills; the solution with the gap filled is explored in another branch).</li>
 *   <li>After placing, raise the lowest offsets of its unplaced conflicts and the floors of the
 *       sections it covers. Prune when a raised buffer no longer fits under the capacity, or
 *       when in some section the floor plus the bytes still to place there exceeds it; that
 *       floor is the highest of the current offset, the top of what is placed there and the
 *       least lowest offset of the unplaced buffers there.</li>
 *   <li>When a placement leaves a time boundary no unplaced buffer crosses, the part splits
 *       there: the pieces no longer interact, so each is solved on its own and a failing piece
 *       fails the node at once. Each piece is ranked afresh by the preorder, with the bytes
 *       still unplaced (this is what solves MiniMalloc's E and I quickly), without sorting it
 *       ({@link Preorder}). Not done with extra conflicts, which link buffers across any
 *       boundary.</li>
 *   <li>No slack (every section holds exactly the capacity in live bytes, as in perfect
 *       packings): {@link PerfectFill}'s bottom-left fill decides instead of the steps above, as
 *       a {@link PerfectPortfolio} of such searches on several threads (one per processor, at
 *       most 4, unless {@link #perfectMembers} says otherwise), the first answer winning.</li>
 *   <li>Restarts: a node budget that doubles, rotated among three preorders. Only a run that
 *       completes within its budget proves infeasibility. (Seeded randomised runs added to each
 *       round were tried: no perfect packing more was found, and MiniMalloc's A and E took half
 *       as many nodes again, so they were left out; {@link PerfectFill} randomises its own, with
 *       short Luby-sequence budgets.)</li>
 * </ol>
 *
 * <p>Does not guarantee an answer before the deadline (the problem is NP-hard; many equal,
 * pairwise conflicting buffers are a weak spot, as no symmetry is broken); it then reports
 * {@link Result#TIMEOUT}. Zero-byte buffers are placed at offset 0 and take no part. A node
 * costs O(buffers + sections) at worst, so problems with tens of thousands of buffers get
 * through few nodes per second.
 */
final class CapacitySearch {
    enum Result { FOUND, INFEASIBLE, TIMEOUT }

    private static final int FOUND = 0;
    private static final int NOT_FOUND = 1;
    private static final int OUT_OF_NODES = 2;
    private static final int OUT_OF_TIME = 3;
    private static final long UNPLACED = -1;
    /** The clock is read every this many nodes at most; fewer on large problems, where a node costs more. */
    private static final int CLOCK_EVERY = 256;

    private final Problem p;
    private final long capacity;
    private final long deadline;
    private final int[] active;
    private final Timeline time;
    private final int[][] conflicts;
    private final boolean decompose;

    private final long[] offset;
    private final long[] solution;
    private final long[] lowest;
    private final long[] floor;
    private final long[] remaining;
    private final int[] crossings;
    /** Per section, its members with the unplaced ones first: {@code unplacedIn[s]} of them. */
    private final int[] members;
    private final int[] unplacedIn;
    /** Where buffer b sits in the members of section s: {@code slotOf[slotStart[b] + s - first[b]]}. */
    private final int[] slotOf;
    private final int[] slotStart;
    /** Per section, a hint: the unplaced member found low enough by the last check, or -1. */
    private final int[] witness;
    /** The section that failed the last check, tried first by the next; a hint only. */
    private int lastFailed = -1;
    /** The part's preorder, which breaks ties between equal lowest offsets. */
    private final Preorder ranks;
    private final UndoLog lowestLog = new UndoLog();
    private final UndoLog floorLog = new UndoLog();
    private long nodes;
    private volatile boolean cancelled;
    private long nodeLimit = Long.MAX_VALUE;
    private int perfectMembers = PerfectPortfolio.defaultMembers();
    private long nodesLeft;
    /** The node budget of each restart of the next {@link #round}. */
    private long roundBudget;
    /** {@link #CLOCK_EVERY}, or less so that about 2^18 buffer- or section-visits pass between reads. */
    private final long clockEvery;

    /** @param deadline a {@link System#nanoTime()} value after which the search gives up */
    CapacitySearch(Problem p, long capacity, long deadline) {
        this(new SearchInstance(p), capacity, deadline);
    }

    /** @throws SearchInstance.OutOfTime when the deadline passes while the tables are copied */
    CapacitySearch(SearchInstance instance, long capacity, long deadline) {
        this.p = instance.problem;
        this.capacity = capacity;
        this.deadline = deadline;
        int n = p.size();
        this.active = instance.active;
        this.time = instance.time;
        this.conflicts = instance.conflicts;
        this.decompose = !p.hasExtraConflicts();
        this.offset = new long[n];
        this.solution = new long[n];
        this.lowest = new long[n];
        this.floor = new long[time.sections];
        if (System.nanoTime() - deadline > 0) throw new SearchInstance.OutOfTime();   // before copying the tables
        this.remaining = time.liveBytes.clone();
        this.crossings = time.crossings.clone();
        this.members = time.members.clone();
        this.unplacedIn = new int[time.sections];
        for (int s = 0; s < time.sections; s++) unplacedIn[s] = time.memberStart[s + 1] - time.memberStart[s];
        this.slotStart = new int[n + 1];
        for (int i = 0; i < n; i++) slotStart[i + 1] = Math.addExact(slotStart[i], time.end[i] - time.first[i]);
        this.slotOf = new int[slotStart[n]];
        long work = 0;
        for (int s = 0; s < time.sections; s++) {
            work = SearchInstance.checkClock(work, 1 + time.memberStart[s + 1] - time.memberStart[s], deadline);
            for (int k = time.memberStart[s]; k < time.memberStart[s + 1]; k++) slotOf[slotStart[members[k]] + s - time.first[members[k]]] = k;
        }
        this.witness = new int[time.sections];
        Arrays.fill(witness, -1);
        this.ranks = new Preorder(p, time, active, conflicts, time.liveBytes);
        this.roundBudget = Math.max(1024, 2L * active.length);
        Arrays.fill(offset, UNPLACED);
        this.clockEvery = Math.max(1, Math.min(CLOCK_EVERY, Long.highestOneBit((1 << 18) / Math.max(1, active.length + time.sections))));
    }

    /**
     * Makes {@link #run} give up (with {@link Result#TIMEOUT}) after about {@code max} nodes, as
     * if its deadline had passed: the limit is read with the clock, so a few hundred more may run.
     * In a {@link PerfectPortfolio} it bounds each member's nodes.
     */
    void limitNodes(long max) {
        nodeLimit = max;
    }

    /**
     * How many {@link PerfectFill} searches run at once, one thread each, when the problem has no
     * slack ({@link PerfectPortfolio}; default {@link PerfectPortfolio#defaultMembers()}). The node
     * limit then bounds each one's nodes; {@link #nodes()} counts them all.
     *
     * @throws IllegalArgumentException when {@code members} is below 1
     */
    void perfectMembers(int members) {
        if (members < 1) throw new IllegalArgumentException("members must be at least 1, got " + members);
        perfectMembers = members;
    }

    /** Makes a running search give up soon, as if its deadline had passed. */
    void cancel() {
        cancelled = true;
    }

    /** Nodes explored so far, over all restarts (and all portfolio members). */
    long nodes() {
        return nodes;
    }

    /** The offsets found; meaningful after {@link #run()} returned {@link Result#FOUND}. */
    long[] solution() {
        return solution.clone();
    }

    /** Searches until an answer, the deadline or the node limit: {@link #round} after round. */
    Result run() {
        if (!fits(0, time.sections, 0)) return Result.INFEASIBLE;
        if (perfect()) return runPerfectFill(nodeLimit - nodes);
        Result r;
        do {
            r = round();
        } while (r == null);
        return r;
    }

    /**
     * The next round of restarts: one run per preorder ({@link Preorder#NAMES}) within the
     * round's node budget, which starts at max(1024, 2 x buffers) and doubles from round to
     * round; {@link #run} is these rounds one after another. On a problem with no slack, one
     * {@link PerfectFill} portfolio run of as many nodes (per member) as the round's restarts
     * would take, started afresh each round. Lets a caller interleave the searches of several
     * capacities ({@link CapacityProbes}) without losing the work of completed restarts.
     *
     * @return the answer, {@link Result#TIMEOUT} at the deadline, the node limit or a cancel, or
     *         null when every run of the round ran out of its budget
     */
    Result round() {
        if (!fits(0, time.sections, 0)) return Result.INFEASIBLE;
        long budget = roundBudget;
        roundBudget = budget > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : budget * 2;
        if (perfect()) {
            long share = budget > Long.MAX_VALUE / Preorder.NAMES.size() ? Long.MAX_VALUE : budget * Preorder.NAMES.size();
            Result r = runPerfectFill(Math.min(share, nodeLimit - nodes));
            return r != Result.TIMEOUT || stopped() ? r : null;
        }
        for (String heuristic : Preorder.NAMES) {
            ranks.use(heuristic);
            nodesLeft = budget;
            int r = solveParts(active.clone(), active.length, 0, time.sections, initialCuts());
            if (r == FOUND) return Result.FOUND;
            if (r == NOT_FOUND) return Result.INFEASIBLE;
            if (r == OUT_OF_TIME) return Result.TIMEOUT;
        }
        return null;
    }

    private boolean perfect() {
        return decompose && PerfectFill.applies(time, capacity);
    }

    /** Whether the search has to stop: cancelled, past its node limit or its deadline. */
    private boolean stopped() {
        return cancelled || nodes >= nodeLimit || System.nanoTime() - deadline > 0;
    }

    /** No slack anywhere: the bottom-left fill of {@link PerfectFill} decides instead, within {@code limit} nodes per member. */
    private Result runPerfectFill(long limit) {
        PerfectPortfolio.Outcome o = PerfectPortfolio.run(p, time, active, capacity, deadline, limit, () -> cancelled, perfectMembers);
        nodes += o.nodes();
        if (o.result() == PerfectFill.FOUND) {
            for (int b : active) solution[b] = o.offsets()[b];
            return Result.FOUND;
        }
        return o.result() == PerfectFill.NOT_FOUND ? Result.INFEASIBLE : Result.TIMEOUT;
    }

    private int[] initialCuts() {
        if (!decompose) return new int[0];
        return IntStream.range(1, time.sections).filter(b -> crossings[b] == 0).toArray();
    }

    /** @param last the buffer this part placed last (at {@code minOffset}), or -1 */
    private int search(int[] order, int count, int from, int to, long minOffset, int last) {
        if (count == 0) return FOUND;
        if (--nodesLeft < 0) return OUT_OF_NODES;
        if (++nodes % clockEvery == 1 % clockEvery && (cancelled || nodes > nodeLimit || System.nanoTime() - deadline > 0)) return OUT_OF_TIME;   // the first node looks too
        long leastTop = Long.MAX_VALUE;
        for (int k = 0; k < count; k++) leastTop = Math.min(leastTop, lowest[order[k]] + p.alignedSize(order[k]));
        // Candidates: below leastTop (else dominated: some buffer fits entirely below), canonical
        // (not before the last placement in (offset, rank) order) and under the capacity.
        int[] at = new int[8];
        int candidates = 0;
        for (int k = 0; k < count; k++) {
            int b = order[k];
            long o = lowest[b];
            if (o >= leastTop || o < minOffset || (o == minOffset && last >= 0 && ranks.precedes(b, last)) || o + p.alignedSize(b) > capacity) continue;
            if (candidates == at.length) at = Arrays.copyOf(at, candidates * 2);
            at[candidates++] = k;
        }
        // Tried in (lowest offset, rank) order off a heap: usually the first few succeed, so
        // sorting them all would waste O(c log c) on a node with many candidates.
        for (int c = candidates / 2 - 1; c >= 0; c--) siftDown(order, at, c, candidates);
        while (candidates > 0) {
            int k = at[0];
            at[0] = at[--candidates];
            siftDown(order, at, 0, candidates);
            int b = order[k];
            long o = lowest[b];
            int lowestMark = lowestLog.mark();
            int floorMark = floorLog.mark();
            int r = place(b, o) && fits(from, to, o) ? descend(b, without(order, count, k), from, to, o) : NOT_FOUND;
            unplace(b, lowestMark, floorMark);
            if (r != NOT_FOUND) return r;
        }
        return NOT_FOUND;
    }

    /** Continues below a node that just placed {@code b}, splitting where b was the last to cross. */
    private int descend(int b, int[] rest, int from, int to, long o) {
        if (!decompose) return search(rest, rest.length, from, to, o, b);
        int[] cuts = new int[0];
        int c = 0;
        for (int k = time.first[b] + 1; k < time.end[b]; k++) {
            if (--crossings[k] == 0) {
                if (c == cuts.length) cuts = Arrays.copyOf(cuts, Math.max(4, c * 2));
                cuts[c++] = k;
            }
        }
        int r = c == 0 ? search(rest, rest.length, from, to, o, b) : solveParts(rest, rest.length, from, to, Arrays.copyOf(cuts, c));
        for (int k = time.first[b] + 1; k < time.end[b]; k++) crossings[k]++;
        return r;
    }

    /**
     * Solves the parts of {@code [from, to)} between ascending cuts independently. Each part
     * restarts the canonical order and is ranked afresh by the preorder, with the bytes still
     * unplaced (as MiniMalloc does); the enclosing node's ranks come back afterwards.
     */
    private int solveParts(int[] order, int count, int from, int to, int[] cuts) {
        int lo = from;
        for (int c = 0; c <= cuts.length; c++) {
            int hi = c < cuts.length ? cuts[c] : to;
            int[] part = new int[count];
            int k = 0;
            for (int j = 0; j < count; j++) if (time.first[order[j]] >= lo && time.first[order[j]] < hi) part[k++] = order[j];
            if (k > 0) {
                int mark = ranks.rank(part, k);
                int r = search(part, k, lo, hi, 0, -1);
                ranks.restore(mark);
                if (r != FOUND) return r;
            }
            lo = hi;
        }
        return FOUND;
    }

    /** Places b at o; false when a conflict of b no longer fits below the capacity anywhere. */
    private boolean place(int b, long o) {
        offset[b] = o;
        solution[b] = o;   // the last write on the successful path is the answer
        long top = o + p.alignedSize(b);
        ranks.placed(b);
        boolean raisedFit = true;
        for (int j : conflicts[b]) {
            if (offset[j] == UNPLACED && lowest[j] < top) {
                lowestLog.set(lowest, j, top);
                raisedFit &= top + p.alignedSize(j) <= capacity;
            }
        }
        for (int s = time.first[b]; s < time.end[b]; s++) {
            floorLog.set(floor, s, top);
            remaining[s] -= p.alignedSize(b);
            // Swap b just past the unplaced members of s; unplace() undoes this by counting it back in.
            int at = slot(b, s);
            int last = time.memberStart[s] + --unplacedIn[s];
            int other = members[last];
            members[at] = other;
            slotOf[slotStart[other] + s - time.first[other]] = at;
            members[last] = b;
            slotOf[slotStart[b] + s - time.first[b]] = last;
        }
        return raisedFit;
    }

    private void unplace(int b, int lowestMark, int floorMark) {
        floorLog.restore(floor, floorMark);
        lowestLog.restore(lowest, lowestMark);
        ranks.unplaced(b);
        for (int s = time.first[b]; s < time.end[b]; s++) {
            remaining[s] += p.alignedSize(b);
            unplacedIn[s]++;   // b still sits right past the unplaced members: nested placements were undone first
        }
        offset[b] = UNPLACED;
    }

    private int slot(int b, int s) {
        return slotOf[slotStart[b] + s - time.first[b]];
    }

    /**
     * Section inference: in every section, the unplaced bytes must fit above the floor. The floor
     * is the highest of the current offset (placements go upward), the top of what is placed
     * there, and the least lowest offset of the unplaced buffers there; the last is scanned
     * lazily, stopping at the first buffer low enough, and that buffer is tried first next time.
     */
    private boolean fits(int from, int to, long atLeast) {
        if (lastFailed >= from && lastFailed < to && !sectionFits(lastFailed, atLeast)) return false;
        for (int s = from; s < to; s++) {
            if (!sectionFits(s, atLeast)) {
                lastFailed = s;   // siblings tend to fail at the same place: look there first
                return false;
            }
        }
        return true;
    }

    private boolean sectionFits(int s, long atLeast) {
        long left = remaining[s];
        if (left == 0) return true;
        if (left > capacity - Math.max(atLeast, floor[s])) return false;
        long highestFloor = capacity - left;
        int w = witness[s];
        if (w >= 0 && offset[w] == UNPLACED && lowest[w] <= highestFloor) return true;
        w = -1;
        for (int k = time.memberStart[s], stop = k + unplacedIn[s]; k < stop && w < 0; k++) {
            if (lowest[members[k]] <= highestFloor) w = members[k];
        }
        if (w < 0) return false;
        witness[s] = w;
        return true;
    }

    private static int[] without(int[] order, int count, int k) {
        int[] rest = new int[count - 1];
        System.arraycopy(order, 0, rest, 0, k);
        System.arraycopy(order, k + 1, rest, k, count - 1 - k);
        return rest;
    }

    /** Restores the min-heap (by (lowest offset, rank) of {@code order[at[i]]}) below {@code i}. */
    private void siftDown(int[] order, int[] at, int i, int size) {
        int x = at[i];
        while (2 * i + 1 < size) {
            int child = 2 * i + 1;
            if (child + 1 < size && before(order[at[child + 1]], order[at[child]])) child++;
            if (!before(order[at[child]], order[x])) break;
            at[i] = at[child];
            i = child;
        }
        at[i] = x;
    }

    private boolean before(int a, int b) {
        return lowest[a] < lowest[b] || (lowest[a] == lowest[b] && ranks.precedes(a, b));
    }
}
