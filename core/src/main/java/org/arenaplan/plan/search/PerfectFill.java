package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.IntToLongFunction;
import java.util.stream.IntStream;

/**
 * Exact search for packings with no slack: every section of the timeline holds exactly
 * {@code capacity} live bytes (perfect packings, {@link PerfectPackings}), so a solution leaves
 * no byte of any instant free and the model can use that.
 *
 * <p>Every section is filled from offset 0 up without holes, so its state is one number, its
 * floor, which is the sum of the sizes placed there: the set of placed buffers determines the
 * whole state. Steps at each node (bottom-left fill, as in exact perfect rectangle packing):
 * <ol>
 *   <li><em>Wall fill.</em> At a left wall (a section whose left neighbour is filled higher, or
 *       the first section of the part) at floor f, the byte f must be covered by a buffer
 *       placed at exactly f that starts there. Branch on those fillers at the wall with the
 *       fewest of them (fail first; one filler is a forced move), among the walls whose fillers
 *       can all be placed now (every section they span at floor f: the lowest, leftmost wall
 *       always qualifies, so the branching is complete). Equal fillers (same end and size:
 *       twins) are one branch: tried once, counted once, and placed lowest id first, so the
 *       placed twins of a class are always a prefix of it. <em>Right walls</em> (portfolio
 *       member 1, {@link #member}): at a section lower than its right neighbour (or the part's
 *       last) at floor f, the byte f must be covered by a buffer placed at f that ends there
 *       (one also live in the higher neighbour would overlap what is placed there); such a wall
 *       is branched on instead when its fillers can all be placed now and are fewer than the
 *       chosen left wall's. Its failure names the whole part as its conflict.</li>
 *   <li><em>Lookahead.</em> Every left wall must keep a filler (one that starts there, fits
 *       under the capacity and spans no section already higher); a flat pit (one floor, higher
 *       on both sides) must have its bottom row tileable end to end by such buffers (a
 *       reachability sweep). Each unplaced buffer has a release, the highest floor over its
 *       lifetime (it can sit no lower): in every section, in release order, each release must
 *       be at most the floor plus the bytes released before it (the section is filled without
 *       a gap: a single machine with release dates and no idle time). Releases are kept
 *       incrementally; a placement rechecks the sections of the buffers whose release rose.</li>
 *   <li><em>Decomposition.</em> A time boundary that no unplaced buffer crosses splits the part:
 *       the pieces no longer interact, each is searched on its own, and one that fails fails
 *       the node (no thrashing between independent regions).</li>
 *   <li><em>Learning.</em> A part proven to have no completion is remembered by a 64-bit hash
 *       of its set of unplaced buffers (Zobrist hashing), which fixes every floor in it, in a
 *       lossy table, across restarts: reached again by another order, after other choices in
 *       other parts, or in a later run, it is cut at once. (Two states sharing a hash would
 *       wrongly cut one: a chance of about 2^-64 per pair.) A failure whose conflict names a
 *       section outside the part (a learned nogood's, step 5) is not recorded: it rests on
 *       more than the part's own state (none did on the 150 bench packings of seeds 0, 1000
 *       and 2000 at 200,000 nodes; the guard keeps a NOT_FOUND a proof). Member 0 keeps with each refuted
 *       state the conflict its failure came back with (step 5), when that lies in the part and
 *       within 2 aligned words of sections; a hit returns that conflict when it lies in the
 *       part hit, else the whole part (as the other members do). Why that is sound: the state
 *       refuted in part [a, b) and the state hit in part [c, d) have the same set S of unplaced
 *       starters, and no unplaced buffer crosses the ends of either part, so a section s of
 *       both holds, then and now, exactly the buffers of S live at s. Every section of the
 *       stored conflict C lies in both, so each has now the unplaced members it had when C was
 *       found, and C, which holds for every state that agrees with that one on C's sections,
 *       holds now. C is what the refutation depended on: it is kept by the refutation that the
 *       failure with that conflict makes, never by another. (A hit that names its whole part
 *       makes every conflict above it wide, a union over the children's.)</li>
 *   <li><em>Backjumping.</em> Every failure comes back with its conflict: the sections whose
 *       sets of unplaced buffers alone leave no completion (conflict-directed backjumping,
 *       Prosser 1993, with sections for variables). A failed lookahead names the sections it
 *       read: a section whose stacking fails and, per buffer it could not stack, one section
 *       of its lifetime above the bytes stacked; a wall with no filler, the wall, its left
 *       neighbour and why each starter cannot sit there; a pit that cannot be tiled, the pit
 *       and its two neighbours; a hit on a refuted state, the conflict kept with it or the
 *       whole part (step 4). A node whose fillers all failed has the union of their
 *       conflicts and the wall's facts: the wall and its left neighbour, and per starter of the
 *       wall that is no filler, one section of its lifetime above the wall's floor f; member 0
 *       leaves out the fillers' spans, the other members add them (narrower conflicts backjump
 *       more and learn shorter nogoods, which helped member 0 and cost member 1 a packing on the
 *       bench's packings, docs/search.md). Why the spans are not needed: take any state whose
 *       sets of unplaced buffers on those sections are the node's. Byte f of the wall is covered in a completion by one of
 *       the wall's unplaced buffers (it fills the wall from f up), at offset f; it starts at the
 *       wall (one also live in the left neighbour would sit at or above that floor, which is
 *       above f) and is a filler (a starter with a section above f would sit there too), say b.
 *       Every section of b's conflict C that b spans is in the node's conflict, so its floor
 *       there is the node's, f (a left wall's fillers span only sections at f, step 1), and b
 *       sits at its bottom: with b taken as placed, the sections of C hold b's child's sets of
 *       unplaced buffers and the completion fills them, which C says cannot be. (The sections of
 *       b's span outside C play no part in that, hence need not be in the conflict. A twin of b
 *       tried in its place is the same argument with the two swapped.) When a child's conflict
 *       misses the sections of the buffer just placed, the failure holds without it: the node fails at
 *       once with that conflict (and is refuted) instead of trying its other fillers, and so on
 *       up while the conflict misses each placement. A node that fails after trying its fillers
 *       also records its conflict, when it has at most {@value #NOGOOD_MAX_SECTIONS} sections and
 *       is not the whole part, with each of those sections' states (a hash of its unplaced
 *       members, {@link #memberKey}): a later placement that gives them all those states again
 *       fails at once ({@link Nogoods}, learned nogoods, kept across restarts).</li>
 *   <li><em>Restarts.</em> Node budgets of {@value #LUBY_UNIT} x buffers times the Luby sequence
 *       1, 1, 2, 1, 1, 2, 4, ... (Luby, Sinclair and Zuckerman 1993: within a log factor of the
 *       best fixed budget for an unknown run-time distribution); the first run tries fillers
 *       whose top meets a neighbour's floor first, then the longest-lived, then the largest;
 *       later runs in a seeded random order within two groups, those whose top meets a
 *       neighbour's floor first (Gomes, Selman and Kautz 1998: randomised restarts cut the
 *       heavy tail). Members 0 and 1 weight that order: each candidate's key is -ln(u) / w,
 *       u uniform in (0, 1], smallest first, with w its area, the sections it spans times its
 *       size in units of the alignment (member 0), or the square of the sections it spans
 *       (member 1), so a candidate comes first with probability proportional to w (weighted
 *       random sampling by an exponential race, Efraimidis and Spirakis 2006; heuristic-biased stochastic sampling, Bresina 1996); members m > 1 use a uniform order.
 *       Only a run that ends within its budget proves infeasibility (no order affects a proof).
 *       A portfolio member m > 1 ({@link #member}, {@link PerfectPortfolio}) randomises its
 *       first run too, with seeds of its own; member 1 runs member 0's first order and seeds
 *       with right walls.</li>
 *   <li><em>Prefix-kept runs</em> (member 0, {@link #keepPrefix}): every second run, and every
 *       run once the search has explored {@value #PREFIX_ONLY_AFTER} nodes, keeps the first k
 *       placements of the kept path and searches below them in a seeded random order weighted as
 *       in step 6, with node budgets of their own Luby sequence. The kept path is the path
 *       that placed the most area so far (each placement counts its size in alignment units
 *       times the sections it spans; d placements on the search's current path: where the
 *       problem decomposes, each part is solved in turn and its placements taken back before the
 *       next, so the path holds the placements before the cut and one part's, and the parts not
 *       on it are searched freely). k = d - 1 - a back-off drawn uniformly below a bound of
 *       {@value #BACKOFF_FIRST} placements, doubled after every {@value #BACKOFF_DOUBLES} such
 *       runs that end with the kept path's area no larger than any kept path's at the end of a
 *       run before, and reset when one ends larger (at most d: then a whole restart). When a
 *       node of the kept prefix sees its filler fail (refuted: the state below it has no
 *       completion), the kept path is cut back to the placements above that node, so no
 *       later run keeps the refuted part, and any path that places more area replaces it. A
 *       partial restart, as in large neighbourhood search (Shaw 1998): runs otherwise stall
 *       20-70 placements past a good state and restart from the empty one. Such a run is
 *       incomplete and proves nothing by itself: a node of the kept prefix (found by its state
 *       hash) tries its one filler only and, when that fails, ends the run without recording
 *       a refutation or a nogood; it fails with the child's conflict only when that misses
 *       the placement (a backjump, true whatever the other fillers). Everything recorded
 *       below the prefix is recorded by complete search, as in step 6, so a NOT_FOUND stays a
 *       proof; which path is kept, its cut-back and the mix of runs only choose where the
 *       incomplete runs look, and change no recorded fact. Member 0 proves infeasibility with
 *       the runs of step 6 (their own budgets and seeds, between the others until
 *       {@value #PREFIX_ONLY_AFTER} nodes), with a prefix-kept run whose k is 0 (a whole
 *       restart, complete), or by a backjump past every kept node.</li>
 * </ol>
 * Cost per node: O(sections + the unplaced buffers starting at walls + the unplaced members of
 * the sections of the buffers live where the placed one is, a pass per distinct release there at
 * worst; at a failed node, also the spans of the wall's starters and sections / 64 words for the
 * conflicts; per placement, the nogoods listed under the states its sections take, each read up to
 * its length). The unplaced buffers are kept per section, as members (swapped past a count) and as
 * starters (a linked list in a fixed order, so that the candidates and the choices do not depend
 * on what was placed and taken back before). Used by {@link CapacitySearch} instead of
 * its general scheme when the problem has no slack and no extra conflicts.
 */
final class PerfectFill {
    static final int FOUND = 0, NOT_FOUND = 1, OUT_OF_NODES = 2, OUT_OF_TIME = 3;
    private static final int CLOCK_EVERY = 256;
    /** log2 of the slots in the table of refuted states (8 bytes: 16 MiB; member 0 adds 4 + 8 bytes, or 4 + 16 past 64 sections, for the conflict kept with it: 24 or 40 MiB more). */
    private static final int REFUTED_BITS = 21;
    /** A restart's budget unit, in nodes per buffer. */
    static final int LUBY_UNIT = 2;

    private final Problem p;
    private final Timeline time;
    private final long capacity;
    private final long deadline;
    private final long nodeLimit;
    private final BooleanSupplier cancelled;
    private final long[] floor;
    private final boolean[] placed;
    private final long[] offset;
    /** Per section, the active buffers that start there. */
    private final int[][] starters;
    /**
     * The unplaced starters of each section in the order of {@link #starters}: a circular doubly
     * linked list through {@code next}/{@code prev}, whose head for section s is the sentinel
     * {@code headBase + s} (ids below {@code headBase} are buffers). A placement unlinks the buffer
     * and its undo links it back (dancing links: undone in reverse, the lists come back exactly).
     */
    private final int[] next, prev;
    /** The id of section 0's list head in {@link #next}/{@link #prev}: {@code p.size()}. */
    private final int headBase;
    /** Aligned sizes, by buffer. */
    private final long[] size;
    /** Per boundary, the unplaced buffers crossing it; 0 splits the problem there. */
    private final int[] crossings;
    /** Per buffer, the highest floor over its lifetime, kept for the unplaced ones. */
    private final long[] release;
    private final UndoLog releaseLog = new UndoLog();
    /** A random key per buffer; a part's state is hashed as the XOR of its unplaced buffers' keys (Zobrist hashing). */
    private final long[] key;
    /** Per section, the XOR of the keys of the unplaced buffers that start there. */
    private final long[] unplacedKey;
    /** Mixed into every state's hash, so that none is 0: an empty slot of {@link #refuted} holds 0. */
    private static final long HASH_BASE = 0x2545F4914F6CDD1DL;
    /** States proven to have no completion, by hash; a lossy cache (a slot keeps the newest). */
    private final long[] refuted = new long[1 << REFUTED_BITS];
    /**
     * Per slot i of {@link #refuted}, the conflict its refutation came back with: words
     * {@code refutedWord[i] ..} of it, in {@code refutedWhy[i * refutedWords ..]}, the rest
     * empty; refutedWord -1 when none is kept (then a hit names the whole part). Allocated by
     * {@link #run} when {@link #refutedConflicts} is on.
     */
    private long[] refutedWhy;
    private int[] refutedWord;
    /** Words of sections kept per refuted state: as many as the conflicts have, at most 2. */
    private final int refutedWords;
    /**
     * A refuted state keeps its conflict, returned on a hit (class comment, step 4): member 0;
     * false (the other members, and tests comparing the two) makes a hit name its whole part.
     */
    boolean refutedConflicts = true;
    private long storedConflictHits;
    /** Per buffer, the next buffer of its class (same start, end and size; ascending ids), or -1; and the class's first. */
    private final int[] nextTwin;
    private final int[] firstTwin;
    /** Per buffer, the previous buffer of its class, or -1. */
    private final int[] prevTwin;
    /**
     * Per section s, its unplaced members are {@code live[memberStart[s] .. memberStart[s] + liveCount[s])}
     * (a placement swaps the buffer past the end, so undoing placements in reverse only counts back up).
     */
    private final int[] live;
    private final int[] liveCount;
    /** Where b sits in {@link #live} for section s: {@code liveSlot[spanBase[b] + s - first[b]]}. */
    private final int[] liveSlot;
    private final int[] spanBase;
    private final int count;
    private long nodes;
    private long backjumps;
    /** For tests: false turns backjumping off (every failed child then leads to the next filler). */
    boolean backjumping = true;
    /** For tests: false turns the learned nogoods ({@link Nogoods}) off. */
    boolean learning = true;
    /**
     * A failed node's conflict leaves out its fillers' spans (class comment, step 5): member 0;
     * false (the other members, and tests comparing the two) puts every filler's whole span in.
     */
    boolean narrowConflicts = true;
    /** The longest conflict, in sections, kept as a nogood. */
    static final int NOGOOD_MAX_SECTIONS = 48;
    /**
     * Set by every NOT_FOUND of {@link #search}, {@link #holds} and the lookaheads: the conflict, a
     * bitset of sections whose sets of unplaced buffers alone (they fix the floors there) leave
     * no completion, whatever the other sections hold.
     */
    private final long[] conflict;
    private long nodesLeft;
    /** Per section, the XOR of the keys of its unplaced members (the buffers live there): its state. */
    private final long[] memberKey;
    /** Learned nogoods over the conflicts of failed nodes ({@link Nogoods}); null when off. */
    private Nogoods nogoods;
    /** The sections of the last buffer placed by {@link #search}: where a nogood learned below it is watched. */
    private int lastLo, lastHi;
    private SplittableRandom random;
    /** Which member of a portfolio this is (0: the first run in the fixed order, then seeds 1, 2, ...; m > 0: every run random, its own seeds). */
    private int member;
    private boolean[] reach = new boolean[0];
    /**
     * The random runs try each group of candidates in a random order weighted by lifetime to this
     * power (class comment, step 6): 1 for member 0, 2 for member 1; 0 is a uniform order (the
     * other members, and tests comparing the two).
     */
    double lifetimeWeight = 1;
    /**
     * And by the size, in units of the alignment, to this power: 1 for member 0 (the weight is
     * then the area, sections x size), 0 for the others (class comment, step 6).
     */
    double sizeWeight = 1;
    /** Per buffer, its key in the weighted random order of {@link #inTryOrder}'s random runs. */
    private double[] race = new double[0];
    private int[] pending = new int[0];
    /**
     * Prefix-kept runs besides the runs of step 6 (class comment, step 7): member 0; false
     * (the other members, and tests comparing the two) runs step 6 alone.
     */
    boolean keepPrefix = true;
    /**
     * Prefix-kept runs: the first bound on the back-off, in placements; it doubles after every
     * {@value #BACKOFF_DOUBLES} such runs that leave the kept path with no more area than any kept before.
     */
    static final int BACKOFF_FIRST = 32, BACKOFF_DOUBLES = 2;
    /** Past this many nodes every run of member 0 is prefix-kept (class comment, step 7); before, every second. */
    static final long PREFIX_ONLY_AFTER = 200_000;
    /**
     * The state hash, the buffer placed and the area placed so far (that buffer's included; in
     * alignment units times sections) at each level of the current path of {@link #search}
     * frames, {@link #depth} of them; the same for the kept path, the one that placed the most
     * area, {@link #kept} levels (kept when {@link #keepPrefix}).
     */
    private long[] pathHash = new long[0], keptHash = new long[0];
    private int[] pathBuffer = new int[0], keptBuffer = new int[0];
    private long[] pathArea = new long[0], keptArea = new long[0];
    private int depth, kept;
    /** The most area a kept path had at the end of a run (the back-off's measure of progress). */
    private long mostArea;
    /** The shallowest node of the kept prefix whose one filler failed in this run (its level, state and filler), level -1 when none. */
    private int deadLevel;
    private long deadHash;
    private int deadBuffer;
    /** During a prefix-kept run, the one filler tried at each state of the kept prefix, by state hash; null otherwise. */
    private HashMap<Long, Integer> forced;
    /** Prefix-kept runs started by {@link #run()}, each one's number its seed round and Luby index. */
    private int prefixKeptRuns;

    /** True when every section holds exactly {@code capacity} bytes (and there is at least one). */
    static boolean applies(Timeline time, long capacity) {
        if (time.sections == 0) return false;
        for (long b : time.liveBytes) if (b != capacity) return false;
        return true;
    }

    /**
     * @param deadline  a {@link System#nanoTime()} value past which {@link #run} gives up
     * @param nodeLimit the most nodes {@link #run} explores before giving up (read with the clock,
     *                  so it may run up to {@value #CLOCK_EVERY} more)
     * @param cancelled read with the clock; true makes {@link #run} give up
     */
    PerfectFill(Problem p, Timeline time, int[] active, long capacity, long deadline, long nodeLimit, BooleanSupplier cancelled) {
        this.p = p;
        this.time = time;
        this.capacity = capacity;
        this.deadline = deadline;
        this.nodeLimit = nodeLimit;
        this.cancelled = cancelled;
        this.floor = new long[time.sections];
        this.placed = new boolean[p.size()];
        this.offset = new long[p.size()];
        this.crossings = time.crossings.clone();
        this.release = new long[p.size()];
        this.count = active.length;
        int[] n = new int[time.sections];
        for (int b : active) n[time.first[b]]++;
        starters = new int[time.sections][];
        for (int s = 0; s < time.sections; s++) starters[s] = new int[n[s]];
        Arrays.fill(n, 0);
        for (int b : active) starters[time.first[b]][n[time.first[b]]++] = b;
        headBase = p.size();
        size = new long[p.size()];
        for (int b = 0; b < p.size(); b++) size[b] = p.alignedSize(b);
        next = new int[p.size() + time.sections];
        prev = new int[p.size() + time.sections];
        for (int s = 0; s < time.sections; s++) {
            int last = headBase + s;
            next[last] = last;
            prev[last] = last;
            for (int b : starters[s]) {
                next[last] = b;
                prev[b] = last;
                next[b] = headBase + s;
                prev[headBase + s] = b;
                last = b;
            }
        }
        nextTwin = new int[p.size()];
        Arrays.fill(nextTwin, -1);
        firstTwin = new int[p.size()];
        Arrays.fill(firstTwin, -1);
        prevTwin = new int[p.size()];
        Arrays.fill(prevTwin, -1);
        for (int s = 0; s < time.sections; s++) {
            int[] st = starters[s].clone();
            Arrays.sort(st);
            for (int i = 0; i < st.length; i++) {
                if (firstTwin[st[i]] < 0) firstTwin[st[i]] = st[i];
                for (int j = i + 1; j < st.length; j++) {
                    if (time.end[st[j]] == time.end[st[i]] && size[st[j]] == size[st[i]]) {
                        nextTwin[st[i]] = st[j];
                        prevTwin[st[j]] = st[i];
                        firstTwin[st[j]] = firstTwin[st[i]];
                        break;
                    }
                }
            }
        }
        key = new long[p.size()];
        SplittableRandom keys = new SplittableRandom(0x9E3779B97F4A7C15L);
        for (int b : active) key[b] = keys.nextLong();
        unplacedKey = new long[time.sections];
        for (int b : active) unplacedKey[time.first[b]] ^= key[b];
        conflict = new long[(time.sections + 63) / 64];
        refutedWords = Math.min(conflict.length, 2);
        memberKey = new long[time.sections];
        for (int b : active) for (int k = time.first[b]; k < time.end[b]; k++) memberKey[k] ^= key[b];
        live = time.members.clone();
        liveCount = new int[time.sections];
        for (int s = 0; s < time.sections; s++) liveCount[s] = time.memberStart[s + 1] - time.memberStart[s];
        spanBase = new int[p.size()];
        int pairs = 0;
        for (int b : active) {
            spanBase[b] = pairs;
            pairs += time.end[b] - time.first[b];
        }
        liveSlot = new int[pairs];
        for (int s = 0; s < time.sections; s++)
            for (int k = time.memberStart[s]; k < time.memberStart[s + 1]; k++) liveSlot[spanBase[live[k]] + s - time.first[live[k]]] = k;
    }

    long nodes() {
        return nodes;
    }

    /**
     * Makes this search member {@code m} of a portfolio: member 0 (the default) runs as described
     * in the class comment, prefix-kept runs (step 7) included; member 1 (without them) runs
     * member 0's first order and seeds, its random runs weighted by the square of the lifetime
     * (step 6), and also branches on right walls (step 1),
     * which changes its path, and keeps wide conflicts (steps 4 and 5); a member m > 1 (wide
     * conflicts too) randomises every run,
     * its first included, with seeds of its own, so that members explore different orders. Call
     * before {@link #run}.
     */
    PerfectFill member(int m) {
        if (m < 0) throw new IllegalArgumentException("member must not be negative, got " + m);
        member = m;
        rightWalls = m == 1;
        keepPrefix = m == 0;
        lifetimeWeight = m == 0 ? 1 : m == 1 ? 2 : 0;
        sizeWeight = m == 0 ? 1 : 0;
        narrowConflicts = m == 0;
        refutedConflicts = m == 0;
        return this;
    }

    /** The seed of member m's run {@code round}: distinct from member 0's (1, 2, ...) and from other members'. */
    static long memberSeed(int m, int round) {
        return ((long) m << 32) ^ (0x9E3779B97F4A7C15L * (round + 1));
    }

    /** Nodes that failed by a child's conflict that missed the child's placement, without trying their other fillers. */
    long backjumps() {
        return backjumps;
    }

    /** Hits on refuted states that came back with the conflict stored with the refutation (not the whole part). */
    long storedConflictHits() {
        return storedConflictHits;
    }

    /** Nogoods learned, nodes cut by them, and times the store was cleared (0 when learning is off). */
    long[] nogoodStats() {
        return nogoods == null ? new long[3] : new long[] {nogoods.learned(), nogoods.cuts(), nogoods.clears()};
    }

    /** Offsets of the buffers; meaningful after {@link #run()} returned {@link #FOUND}. */
    long[] offsets() {
        return offset;
    }

    /** {@link #FOUND}, {@link #NOT_FOUND} (proven) or {@link #OUT_OF_TIME} (the deadline, the node limit or a cancel). */
    int run() {
        int[] cuts = IntStream.range(1, time.sections).filter(k -> crossings[k] == 0).toArray();
        long unit = Math.max(1, (long) LUBY_UNIT * count);
        if (learning && nogoods == null) nogoods = new Nogoods(memberKey, NOGOOD_MAX_SECTIONS);
        if (refutedConflicts && refutedWhy == null) {
            refutedWhy = new long[refutedWords << REFUTED_BITS];
            refutedWord = new int[1 << REFUTED_BITS];
        }
        int round = 0, stalled = 0;
        SplittableRandom backoff = new SplittableRandom(memberSeed(member, -1));
        for (int all = 0; ; all++) {
            long luby;
            if (keepPrefix && kept > 0 && (all % 2 == 1 || nodes >= PREFIX_ONLY_AFTER)) {   // a prefix-kept run (step 7)
                prefixKeptRuns++;
                long bound = Math.min(kept, (long) BACKOFF_FIRST << Math.min(30, stalled / BACKOFF_DOUBLES));
                int keep = kept - 1 - (int) backoff.nextLong(bound);
                forced = new HashMap<>();
                for (int i = 0; i < keep; i++) forced.put(keptHash[i], keptBuffer[i]);
                random = new SplittableRandom(memberSeed(member + 64, prefixKeptRuns));
                luby = luby(prefixKeptRuns);
            } else {                                                      // a run of step 6
                forced = null;
                random = member <= 1 ? (round == 0 ? null : new SplittableRandom(round)) : new SplittableRandom(memberSeed(member, round));
                luby = luby(++round);
            }
            nodesLeft = luby > Long.MAX_VALUE / unit ? Long.MAX_VALUE : unit * luby;
            depth = 0;
            deadLevel = -1;
            int r = solveParts(0, time.sections, cuts, cuts.length, partState(0, time.sections));
            if (deadLevel >= 0 && deadLevel < kept && keptHash[deadLevel] == deadHash && keptBuffer[deadLevel] == deadBuffer) {
                kept = deadLevel;                                         // the rest of the kept path has no completion
            }
            long area = kept == 0 ? 0 : keptArea[kept - 1];
            if (forced != null) stalled = area > mostArea ? 0 : stalled + 1;
            mostArea = Math.max(mostArea, area);
            if (r != OUT_OF_NODES) return r;
        }
    }

    /** Prefix-kept runs started so far (class comment, step 7). */
    long prefixKeptRuns() {
        return prefixKeptRuns;
    }

    /** The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... */
    static long luby(long i) {
        while (true) {
            int k = 64 - Long.numberOfLeadingZeros(i);        // 2^(k-1) <= i < 2^k
            if (i == (1L << k) - 1) return 1L << (k - 1);
            i -= (1L << (k - 1)) - 1;
        }
    }

    /**
     * Solves the parts of sections {@code [from, to)} between the ascending boundaries
     * {@code cuts[0 .. c)}, which no unplaced buffer crosses: each is searched on its own, and
     * one that fails fails them all. Each part comes back unplaced; its offsets stay in
     * {@link #offset} (the last write on the path that succeeds is the answer). {@code whole}:
     * the state of [from, to), refuted when a part fails.
     */
    private int solveParts(int from, int to, int[] cuts, int c, long whole) {
        int lo = from;
        for (int i = 0; i <= c; i++) {
            int hi = i < c ? cuts[i] : to;
            int left = 0;
            for (int s = lo; s < hi; s++) for (int b = next[headBase + s]; b < headBase; b = next[b]) left++;
            int r = search(lo, hi, left, partState(lo, hi));
            if (r != FOUND) {
                if (r == NOT_FOUND) refute(whole, from, to);
                return r;
            }
            lo = hi;
        }
        return FOUND;
    }

    /**
     * Fills sections {@code [from, to)}, which no unplaced buffer crosses at either end; {@code left}
     * unplaced buffers start there, and {@code hash} is their state ({@link #partState}).
     */
    private int search(int from, int to, int left, long hash) {
        if (left == 0) return FOUND;
        int enteredLo = lastLo, enteredHi = lastHi;
        if (isRefuted(hash)) {
            refutedConflict(hash, from, to);
            return NOT_FOUND;
        }
        if (--nodesLeft < 0) return OUT_OF_NODES;
        if (++nodes % CLOCK_EVERY == 1 && (nodes > nodeLimit || cancelled.getAsBoolean() || System.nanoTime() - deadline > 0)) return OUT_OF_TIME;
        int s = chooseWall(from, to);
        if (s < 0) {
            conflictOnly(from, to);
            return NOT_FOUND;                      // nothing open yet buffers left: cannot be (sizes sum to capacity)
        }
        long[] why = new long[conflict.length];             // the union of the children's conflicts
        long f = floor[s];
        boolean right = rightWall;
        if (right) rightWallNodes++;
        int[] cand = right ? enders(s, f, from, to) : candidates(s, f, from, to);
        Integer only = forced == null ? null : forced.get(hash);   // a node of the kept prefix: its one filler
        int[] cuts = new int[0];
        for (int c = 0; c < cand.length; c++) {
            if (right ? sameStartAsEarlier(cand, c) : sameAsEarlier(cand, c)) continue;
            int b = firstUnplacedTwin(cand[c]);
            if (only != null && b != only) continue;
            if (keepPrefix) recordPath(hash, b);
            depth++;
            long top = f + size[b];
            int releaseMark = releaseLog.mark();
            place(b, f);
            lastLo = time.first[b];
            lastHi = time.end[b];
            int newCuts = 0;
            for (int k = time.first[b] + 1; k < time.end[b]; k++) {
                if (crossings[k] == 0) {
                    if (newCuts == cuts.length) cuts = Arrays.copyOf(cuts, Math.max(4, 2 * newCuts));
                    cuts[newCuts++] = k;
                }
            }
            int r;
            if (nogoods != null && nogoods.matches(time.first[b], time.end[b], conflict)) r = NOT_FOUND;
            else if (!holds(b, top, from, to)) r = NOT_FOUND;
            else if (newCuts > 0) r = solveParts(from, to, cuts.clone(), newCuts, hash ^ key[b]);
            else r = search(from, to, left - 1, hash ^ key[b]);
            unplace(b, f, releaseMark);
            depth--;
            if (only != null && r == NOT_FOUND && (deadLevel < 0 || depth < deadLevel)) {   // the kept path's filler here is refuted (a backjump then reaches the levels above)
                deadLevel = depth;
                deadHash = hash;
                deadBuffer = b;
            }
            if (r != NOT_FOUND) return r;
            if (backjumping && !touches(time.first[b], time.end[b])) {
                backjumps++;
                refute(hash, from, to);                   // the failure holds without b: so here (backjump)
                return NOT_FOUND;
            }
            if (only != null) return OUT_OF_NODES;       // the other fillers were not tried: no proof, the run ends
            for (int w = 0; w < why.length; w++) why[w] |= conflict[w];
        }
        if (only != null) return OUT_OF_NODES;
        System.arraycopy(why, 0, conflict, 0, why.length);
        if (right) conflictOnly(from, to);
        else {
            wallFacts(s, from);
            nonFillerFacts(s, f);
            if (!narrowConflicts) fillerSpans(s, f);
        }
        refute(hash, from, to);
        if (nogoods != null) nogoods.learn(conflict, from, to, enteredLo, enteredHi);
        return NOT_FOUND;
    }

    /**
     * Notes that state {@code hash} at level {@link #depth} of the path tries b; a path that has
     * placed more area than the kept one becomes the kept path.
     */
    private void recordPath(long hash, int b) {
        if (depth == pathHash.length) {
            pathHash = Arrays.copyOf(pathHash, Math.max(16, 2 * depth));
            pathBuffer = Arrays.copyOf(pathBuffer, pathHash.length);
            pathArea = Arrays.copyOf(pathArea, pathHash.length);
        }
        pathHash[depth] = hash;
        pathBuffer[depth] = b;
        pathArea[depth] = (depth > 0 ? pathArea[depth - 1] : 0) + size[b] / p.alignment() * (time.end[b] - time.first[b]);
        if (pathArea[depth] > (kept == 0 ? 0 : keptArea[kept - 1])) {
            kept = depth + 1;
            keptHash = Arrays.copyOf(pathHash, kept);
            keptBuffer = Arrays.copyOf(pathBuffer, kept);
            keptArea = Arrays.copyOf(pathArea, kept);
        }
    }

    /** Puts b at floor f of its sections: floors, crossings, the placed set, its hash and the unplaced lists (not the releases). */
    private void place(int b, long f) {
        long top = f + size[b];
        for (int k = time.first[b]; k < time.end[b]; k++) floor[k] = top;
        for (int k = time.first[b] + 1; k < time.end[b]; k++) crossings[k]--;
        placed[b] = true;
        offset[b] = f;
        unplacedKey[time.first[b]] ^= key[b];
        for (int k = time.first[b]; k < time.end[b]; k++) memberKey[k] ^= key[b];
        next[prev[b]] = next[b];
        prev[next[b]] = prev[b];
        int first = time.first[b];
        for (int k = first; k < time.end[b]; k++) {
            int i = liveSlot[spanBase[b] + k - first];
            int last = time.memberStart[k] + --liveCount[k];
            int c = live[last];
            live[i] = c;
            liveSlot[spanBase[c] + k - time.first[c]] = i;
            live[last] = b;
            liveSlot[spanBase[b] + k - first] = last;
        }
    }

    /** Undoes {@link #place}, and the releases raised since {@code releaseMark}. */
    private void unplace(int b, long f, int releaseMark) {
        unplacedKey[time.first[b]] ^= key[b];
        for (int k = time.first[b]; k < time.end[b]; k++) memberKey[k] ^= key[b];
        next[prev[b]] = b;
        prev[next[b]] = b;
        for (int k = time.first[b]; k < time.end[b]; k++) liveCount[k]++;
        placed[b] = false;
        releaseLog.restore(release, releaseMark);
        for (int k = time.first[b] + 1; k < time.end[b]; k++) crossings[k]++;
        for (int k = time.first[b]; k < time.end[b]; k++) floor[k] = f;
    }

    /** Every lookahead of the class comment after b was placed with its top at {@code top}, in the part [from, to). */
    private boolean holds(int b, long top, int from, int to) {
        return releasesHold(b, top) && wallsFillable(from, to);
    }

    /**
     * For tests: places the buffers of {@code order} one by one on their floor (the highest floor
     * over their lifetime, which must be the floor of every section they span), running every
     * lookahead after each on the part it lies in. A prefix of a packing taken bottom up (no
     * buffer before one lower in a section they share) must pass them all: no lookahead may
     * refute a state that has a completion. Leaves the buffers placed (use once).
     *
     * @return how many placements passed every lookahead: {@code order.length} when all did
     * @throws IllegalArgumentException when a buffer does not sit flat on the floors of its sections
     */
    int replay(int[] order) {
        for (int i = 0; i < order.length; i++) {
            int b = order[i];
            long f = release[b];
            for (int k = time.first[b]; k < time.end[b]; k++)
                if (floor[k] != f || placed[b]) throw new IllegalArgumentException("buffer " + b + " does not sit flat on the floors of its sections");
            place(b, f);
            int from = time.first[b], to = time.end[b];
            while (from > 0 && crossings[from] > 0) from--;
            while (to < time.sections && crossings[to] > 0) to++;
            if (!holds(b, f + size[b], from, to)) return i;
        }
        return order.length;
    }

    /**
     * The lowest-numbered unplaced buffer of b's class (same start, end and size). Placing only
     * those keeps the placed twins of every class a prefix of it, so one set of placements up to
     * twins has one hash.
     */
    private int firstUnplacedTwin(int b) {
        b = firstTwin[b];
        while (placed[b]) b = nextTwin[b];
        return b;
    }

    /**
     * The hash of the state of a part [lo, hi) that no unplaced buffer crosses: its set of unplaced
     * buffers, which fixes every floor in it (a section's floor is the capacity less the bytes
     * still to place there), whatever was placed elsewhere or in which order.
     */
    private long partState(int lo, int hi) {
        long h = HASH_BASE;
        for (int s = lo; s < hi; s++) h ^= unplacedKey[s];
        return h;
    }

    private boolean isRefuted(long h) {
        return refuted[(int) h & (refuted.length - 1)] == h;
    }

    /**
     * Records state h of the part [from, to) as refuted when the conflict its failure came back
     * with lies in the part, with that conflict when it spans at most {@link #refutedWords}
     * aligned words of sections (class comment, step 4).
     */
    private void refute(long h, int from, int to) {
        if (!inPart(conflict, 0, conflict.length, 0, from, to)) return;   // rests on sections outside the part (a learned nogood's): no fact about its state alone
        int i = (int) h & (refuted.length - 1);
        refuted[i] = h;
        if (refutedWhy == null) return;
        refutedWord[i] = -1;
        int lo = -1, hi = -1;
        for (int w = 0; w < conflict.length; w++) {
            if (conflict[w] == 0) continue;
            if (lo < 0) lo = w;
            hi = w;
        }
        if (lo < 0 || hi - lo >= refutedWords) return;   // in the part: checked above
        int w0 = Math.min(lo, conflict.length - refutedWords);
        System.arraycopy(conflict, w0, refutedWhy, i * refutedWords, refutedWords);
        refutedWord[i] = w0;
    }

    /**
     * Sets the conflict of a hit on refuted state h in the part [from, to): the conflict stored
     * with the refutation when there is one and it lies in [from, to), else the whole part
     * (class comment, step 4).
     */
    private void refutedConflict(long h, int from, int to) {
        int i = (int) h & (refuted.length - 1);
        int w0 = refutedWhy == null ? -1 : refutedWord[i];
        if (w0 < 0 || !inPart(refutedWhy, i * refutedWords, refutedWords, w0, from, to)) {
            conflictOnly(from, to);
            return;
        }
        storedConflictHits++;
        Arrays.fill(conflict, 0);
        System.arraycopy(refutedWhy, i * refutedWords, conflict, w0, refutedWords);
    }

    /**
     * The sections named by the words {@code bits[at .. at + n)} all lie in [from, to): bit j of
     * word {@code at + k} names section {@code 64 (w0 + k) + j}.
     */
    private static boolean inPart(long[] bits, int at, int n, int w0, int from, int to) {
        for (int k = 0; k < n; k++) {
            long b = bits[at + k];
            if (b == 0) continue;
            int base = (w0 + k) << 6;
            if (base + Long.numberOfTrailingZeros(b) < from || base + 63 - Long.numberOfLeadingZeros(b) >= to) return false;
        }
        return true;
    }

    /** A left wall: section s of the part starting at {@code from}, below capacity, lower than its left neighbour or the part's first. */
    private boolean isWall(int s, int from) {
        long f = floor[s];
        return f < capacity && (s == from || floor[s - 1] > f);
    }

    /**
     * Unplaced b could still sit at floor f: every section of its lifetime filled no higher (its
     * release, the highest floor there, is at most f), and room for it under the capacity.
     */
    private boolean eventuallyAt(int b, long f) {
        return release[b] <= f && f + size[b] <= capacity;
    }

    /**
     * The wall to branch on: among the left walls whose every possible filler can be placed now
     * (each section it spans already at the wall's floor; always true of the lowest, leftmost
     * wall), the one with the fewest fillers, ties to the lower floor, then the left. Branching on
     * who covers that wall's lowest byte is then complete, and a wall with one filler is a forced
     * move. -1 when no section is open.
     */
    private int chooseWall(int from, int to) {
        int best = -1;
        int bestCount = Integer.MAX_VALUE;
        for (int s = from; s < to; s++) {
            if (!isWall(s, from)) continue;
            long f = floor[s];
            int e = s + 1;                                 // [s, e): the run of sections at floor f
            while (e < to && floor[e] == f) e++;
            int fillers = 0;
            boolean allNow = true;
            for (int b = next[headBase + s]; b < headBase; b = next[b]) {
                if (!eventuallyAt(b, f)) continue;
                if (prevTwin[b] >= 0 && !placed[prevTwin[b]]) continue;   // twins are one branch, counted once (placed twins are a prefix of their class)
                fillers++;
                if (time.end[b] > e) {                     // spans a section below f: not placeable now
                    allNow = false;
                    break;
                }
            }
            int wall = s;
            s = e - 1;                                     // no wall inside the run
            if (!allNow) continue;
            if (fillers < bestCount || (fillers == bestCount && f < floor[best])) {
                best = wall;
                bestCount = fillers;
                if (fillers <= 1) break;
            }
        }
        rightWall = false;
        if (rightWalls && bestCount > 1) {
            int run = from;                                // first section of the current run of equal floors
            for (int s = from; s < to; s++) {
                if (s > from && floor[s] != floor[s - 1]) run = s;
                long f = floor[s];
                if (f >= capacity || (s + 1 < to && floor[s + 1] <= f)) continue;
                int fillers = 0;
                boolean allNow = true;
                for (int i = time.memberStart[s], e = i + liveCount[s]; i < e; i++) {
                    int b = live[i];
                    if (time.end[b] != s + 1 || !eventuallyAt(b, f)) continue;
                    if (prevTwin[b] >= 0 && !placed[prevTwin[b]]) continue;
                    if (++fillers >= bestCount || time.first[b] < run) {   // no better than the best, or not placeable now
                        allNow = false;
                        break;
                    }
                }
                if (!allNow) continue;
                if (fillers < bestCount) {
                    best = s;
                    bestCount = fillers;
                    rightWall = true;
                    if (fillers <= 1) break;
                }
            }
        }
        return best;
    }

    /** Also branch on right walls (class comment, step 1); set by {@link #member} for member 1. */
    private boolean rightWalls;
    /** Set by {@link #chooseWall}: the wall it returned is a right one. */
    private boolean rightWall;
    private long rightWallNodes;

    /** Nodes that branched on a right wall. */
    long rightWallNodes() {
        return rightWallNodes;
    }

    PerfectFill rightWalls(boolean on) {
        rightWalls = on;
        return this;
    }

    /** Unplaced buffers ending at s that fit at f now (a right wall's fillers), ordered as {@link #candidates}. */
    private int[] enders(int s, long f, int from, int to) {
        int[] out = new int[liveCount[s]];
        int k = 0;
        for (int i = time.memberStart[s], e = i + liveCount[s]; i < e; i++) {
            int b = live[i];
            if (time.end[b] == s + 1 && eventuallyAt(b, f)) out[k++] = b;
        }
        out = Arrays.copyOf(out, k);
        java.util.function.IntUnaryOperator flushR = b -> {
            long top = f + size[b];
            int score = time.first[b] == from || floor[time.first[b] - 1] == top ? 2 : 0;
            if (s + 1 == to || floor[s + 1] == top) score++;
            return score;
        };
        sortBy(out, b -> b);
        return inTryOrder(out, flushR);
    }

    /**
     * {@code out} in the order to try: in the first run by {@code flush} (higher first), then
     * the longest-lived, then the largest; in later runs those with a flush score above 0 first,
     * each group in random order, weighted by a power of the lifetime ({@link #lifetimeWeight})
     * times a power of the size ({@link #sizeWeight}; class comment, step 6). May return a new array.
     */
    private int[] inTryOrder(int[] out, java.util.function.IntUnaryOperator flush) {
        if (random == null) {
            sortBy(out, b -> -((long) flush.applyAsInt(b) << 40) - ((long) (time.end[b] - time.first[b]) << 20)
                    - Math.min(size[b] / p.alignment(), (1 << 20) - 1));
            return out;
        }
        if (lifetimeWeight == 0 && sizeWeight == 0) {        // uniform: shuffle, then flush first
            for (int i = out.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
            int[] flushFirst = new int[out.length];
            int front = 0, back = out.length;
            for (int b : out) {
                if (flush.applyAsInt(b) > 0) flushFirst[front++] = b;
                else flushFirst[--back] = b;
            }
            return flushFirst;
        }
        if (race.length < p.size()) race = new double[p.size()];   // weighted: an exponential race
        for (int b : out) race[b] = -Math.log(1 - random.nextDouble())
                / (Math.pow(time.end[b] - time.first[b], lifetimeWeight) * Math.pow((double) size[b] / p.alignment(), sizeWeight));
        sortBy(out, b -> Double.doubleToLongBits(race[b]));   // non-negative doubles order as their bits
        int[] flushFirst = new int[out.length];
        int front = 0;
        for (int b : out) if (flush.applyAsInt(b) > 0) flushFirst[front++] = b;
        for (int b : out) if (flush.applyAsInt(b) <= 0) flushFirst[front++] = b;
        return flushFirst;
    }

    /**
     * Unplaced buffers starting at s that fit at f now, in the order to try: in the first run
     * flush ones first (see {@link #flush}), then the longest-lived, then the largest; in later
     * runs the flush ones (meeting either neighbour's floor) first, each group in random order.
     */
    private int[] candidates(int s, long f, int from, int to) {
        int[] out = new int[starters[s].length];
        int k = 0;
        for (int b = next[headBase + s]; b < headBase; b = next[b]) if (eventuallyAt(b, f)) out[k++] = b;
        return inTryOrder(Arrays.copyOf(out, k), b -> flush(b, s, f, from, to));
    }

    /**
     * How flush b's top would be with its neighbours: 2 when it meets the left neighbour's floor
     * (no new wall on the left), plus 1 when it meets the right one's or ends the part.
     */
    private int flush(int b, int s, long f, int from, int to) {
        long top = f + size[b];
        int score = s > from && floor[s - 1] == top ? 2 : 0;
        int e = time.end[b];
        if (e == to || floor[e] == top) score++;
        return score;
    }

    private boolean sameStartAsEarlier(int[] cand, int c) {
        int b = cand[c];
        for (int e = 0; e < c; e++) {
            int a = cand[e];
            if (time.first[a] == time.first[b] && size[a] == size[b]) return true;
        }
        return false;
    }

    /** A candidate equal to one tried before it at this node (same start, end and size) is skipped. */
    private boolean sameAsEarlier(int[] cand, int c) {
        int b = cand[c];
        for (int e = 0; e < c; e++) {
            int a = cand[e];
            if (time.end[a] == time.end[b] && size[a] == size[b]) return true;
        }
        return false;
    }

    /**
     * After b was placed with its top at {@code top}: raises the release of the unplaced buffers
     * live where b is, and checks every section such a raise touches (or b covers): each such
     * buffer must still fit under the capacity from its release, and each section's unplaced
     * buffers must stack from its floor without a gap ({@link #stacks}).
     */
    private boolean releasesHold(int b, long top) {
        int lo = time.first[b], hi = time.end[b];
        for (int s = time.first[b]; s < time.end[b]; s++) {
            for (int k = time.memberStart[s], e = k + liveCount[s]; k < e; k++) {
                int c = live[k];
                if (release[c] >= top) continue;
                releaseLog.set(release, c, top);
                if (top + size[c] > capacity) {
                    conflictOnly(s, s + 1);
                    return false;
                }
                lo = Math.min(lo, time.first[c]);
                hi = Math.max(hi, time.end[c]);
            }
        }
        for (int s = lo; s < hi; s++) if (!stacks(s)) return false;
        return true;
    }

    /**
     * Section s's unplaced buffers fill it from its floor without a gap, each no lower than its
     * release: in release order, each release is at most the floor plus the bytes released
     * before it. Checked without sorting, as the same greedy: every buffer whose release the
     * bytes stacked so far reach is stacked, in passes over the section's unplaced buffers, until
     * all are (true) or a pass stacks none (a gap: false). Usually one or two passes; a pass per
     * distinct release at worst.
     */
    private boolean stacks(int s) {
        long f = floor[s];
        int lo = time.memberStart[s], hi = lo + liveCount[s];
        if (pending.length < hi - lo) pending = new int[hi - lo];
        int m = 0;
        long cum = 0;
        long highest = 0;
        for (int k = lo; k < hi; k++) {
            int c = live[k];
            long r = release[c] - f;
            if (r <= cum) cum += size[c];
            else {
                pending[m++] = c;
                highest = Math.max(highest, r);
            }
        }
        while (highest > cum) {            // some release not reached yet by the bytes stacked so far
            int kept = 0;
            highest = 0;
            long before = cum;
            for (int i = 0; i < m; i++) {
                int c = pending[i];
                long r = release[c] - f;
                if (r <= cum) cum += size[c];
                else {
                    pending[kept++] = c;
                    highest = Math.max(highest, r);
                }
            }
            if (cum == before) {               // none of the rest can start: a gap
                conflictOnly(s, s + 1);              // the floor and members of s, and the releases of the rest
                for (int i = 0; i < m; i++) witnessAbove(pending[i], f + cum);
                return false;
            }
            m = kept;
        }
        return true;
    }

    /**
     * Lookahead over every left wall of [from, to): its lowest byte will be covered by a buffer
     * that starts there, spans no section already higher and fits under the capacity, so one
     * must be left. Where the wall opens a flat pit (sections at one floor, higher on both sides
     * or ending the part), the pit's bottom row must be tiled exactly, end to end, by such
     * buffers: a reachability sweep over the pit's sections.
     */
    private boolean wallsFillable(int from, int to) {
        for (int s = from; s < to; s++) {
            if (!isWall(s, from)) continue;
            long f = floor[s];
            int e = s + 1;
            while (e < to && floor[e] == f) e++;
            boolean pit = e == to || floor[e] > f;
            if (pit ? !tileable(s, e, f) : !anyFiller(s, f)) {
                if (pit) conflictOnly(s > from ? s - 1 : s, e < to ? e + 1 : e);
                else {
                    conflictOnly(s, s);
                    wallFacts(s, from);
                    nonFillerFacts(s, f);                  // no filler here: only why each starter is none
                }
                return false;
            }
        }
        return true;
    }

    /** Sets the conflict to sections [lo, hi). */
    private void conflictOnly(int lo, int hi) {
        Arrays.fill(conflict, 0);
        for (int k = lo; k < hi; k++) conflict[k >>> 6] |= 1L << k;
    }

    /** The conflict holds a section of [lo, hi). */
    private boolean touches(int lo, int hi) {
        for (int k = lo; k < hi; k++) if ((conflict[k >>> 6] & (1L << k)) != 0) return true;
        return false;
    }

    /** Adds why s is a left wall: its floor and its left neighbour's (none at the part's first section, where no unplaced buffer crosses in). */
    private void wallFacts(int s, int from) {
        for (int k = s > from ? s - 1 : s; k <= s; k++) conflict[k >>> 6] |= 1L << k;
    }

    /** Adds the whole span of every filler of s at f (the wide conflicts of members m > 0). */
    private void fillerSpans(int s, long f) {
        for (int b = next[headBase + s]; b < headBase; b = next[b])
            if (eventuallyAt(b, f)) for (int k = time.first[b]; k < time.end[b]; k++) conflict[k >>> 6] |= 1L << k;
    }

    /**
     * Adds why the unplaced starters of s other than the fillers at f are not fillers: for one
     * whose release is above f, one section above f (one too large for the capacity needs none).
     * The fillers themselves need no section: a node's failure holds by its children's
     * conflicts alone (class comment, step 5).
     */
    private void nonFillerFacts(int s, long f) {
        for (int b = next[headBase + s]; b < headBase; b = next[b])
            if (!eventuallyAt(b, f) && f + size[b] <= capacity) witnessAbove(b, f);
    }

    /** Adds a section of c's span whose floor is above v (one exists: c's release is). */
    private void witnessAbove(int c, long v) {
        for (int k = time.first[c]; k < time.end[c]; k++) {
            if (floor[k] > v) {
                conflict[k >>> 6] |= 1L << k;
                return;
            }
        }
        throw new IllegalStateException("buffer " + c + ": no floor above " + v);
    }

    private boolean anyFiller(int s, long f) {
        for (int b = next[headBase + s]; b < headBase; b = next[b]) if (eventuallyAt(b, f)) return true;
        return false;
    }

    /** Unplaced buffers that fit at f can tile sections [s, e) end to end. */
    private boolean tileable(int s, int e, long f) {
        if (reach.length < time.sections + 1) reach = new boolean[time.sections + 1];
        Arrays.fill(reach, s, e + 1, false);
        reach[s] = true;
        for (int k = s; k < e; k++) {
            if (!reach[k]) continue;
            for (int b = next[headBase + k]; b < headBase; b = next[b]) {
                if (time.end[b] <= e && f + size[b] <= capacity) reach[time.end[b]] = true;
            }
            if (reach[e]) return true;
        }
        return reach[e];
    }

    private static void sortBy(int[] a, IntToLongFunction key) {
        Integer[] boxed = new Integer[a.length];
        for (int i = 0; i < a.length; i++) boxed[i] = a[i];
        Arrays.sort(boxed, Comparator.<Integer>comparingLong(key::applyAsLong).thenComparingInt(x -> x));
        for (int i = 0; i < a.length; i++) a[i] = boxed[i];
    }
}
