package org.arenaplan.plan.search;

import java.util.Arrays;

/**
 * Learned nogoods for {@link PerfectFill}: each is the conflict of a failed node, a set of
 * sections with the state each had then (the hash of its unplaced members, which fixes its
 * floor and what is left to place there). A later state that gives every one of those sections
 * the same state has no completion, whatever the other sections hold, so it is cut at once,
 * in any run (conflict-directed learning, with sections for variables).
 *
 * <p>Lookup by one watched section per nogood (as watched literals in SAT solvers): a nogood is
 * listed under its watched section's recorded state, and only checked when that section takes
 * that state again through a placement; a nogood found to differ somewhere moves its watch to a
 * section whose state differs. A nogood whose watch is taken back to its recorded state by an
 * undo, and then completed elsewhere, is missed: that only loses a cut. When the store is full
 * it is cleared (at most 2^19 sections recorded, 6 MiB, and a 2^20-slot index, 12 MiB; both grow
 * from small as needed). Cost: O(sections placed on x nogoods listed there x their length) per node.
 */
final class Nogoods {
    private static final int LITERALS = 1 << 19;
    private static final int SLOTS = 1 << 20;

    /** The sections' current states, owned and kept by {@link PerfectFill}. */
    private final long[] state;
    private final int maxLength;
    /** Literals of every nogood: section and recorded state, nogood i in [start[i], start[i] + length[i]). */
    private int[] litSection = new int[1024];
    private long[] litState = new long[1024];
    private int literals;
    private int[] start = new int[1024], length = new int[1024], watch = new int[1024], nextWatcher = new int[1024];
    private int count;
    /** Open addressing: literal key (section, state) to the first nogood watching it (-1 none); key 0 is empty. */
    private long[] slotKey = new long[1024];
    private int[] slotHead = new int[1024];
    private long learned, cuts, clears;

    Nogoods(long[] state, int maxLength) {
        this.state = state;
        this.maxLength = maxLength;
    }

    long learned() { return learned; }
    long cuts() { return cuts; }
    long clears() { return clears; }

    private static long key(int s, long v) {
        long h = v ^ (s * 0x9E3779B97F4A7C15L);
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return h | 1;
    }

    /** Slot of key k: the one holding it, or the empty one where it would go. */
    private int slot(long k) {
        int mask = slotKey.length - 1;
        int i = (int) (k ^ (k >>> 32)) & mask;
        while (slotKey[i] != 0 && slotKey[i] != k) i = (i + 1) & mask;
        return i;
    }

    /**
     * Records the conflict (a bitset of sections, all in [from, to)) with the sections' current
     * states, watched at a section of [watchLo, watchHi) when it has one there. Skipped when
     * longer than the maximum length or when it names the whole part [from, to) (the table of
     * refuted parts has those).
     */
    void learn(long[] conflict, int from, int to, int watchLo, int watchHi) {
        int n = 0;
        for (long w : conflict) n += Long.bitCount(w);
        if (n == 0 || n > maxLength || n == to - from) return;
        if (literals + n > LITERALS || count + 1 >= SLOTS / 2) clear();
        if (literals + n > litSection.length) {
            int c = Math.min(LITERALS, Math.max(2 * litSection.length, literals + n));
            litSection = Arrays.copyOf(litSection, c);
            litState = Arrays.copyOf(litState, c);
        }
        if (2 * (count + 1) >= slotKey.length) rebuild(2 * slotKey.length);
        if (count == start.length) {
            int c = 2 * count;
            start = Arrays.copyOf(start, c);
            length = Arrays.copyOf(length, c);
            watch = Arrays.copyOf(watch, c);
            nextWatcher = Arrays.copyOf(nextWatcher, c);
        }
        int id = count++;
        start[id] = literals;
        length[id] = n;
        int w = -1;
        for (int i = 0; i < conflict.length; i++) {
            for (long bits = conflict[i]; bits != 0; bits &= bits - 1) {
                int s = (i << 6) + Long.numberOfTrailingZeros(bits);
                litSection[literals] = s;
                litState[literals] = state[s];
                if (w < 0 && s >= watchLo && s < watchHi) w = literals;
                literals++;
            }
        }
        if (w < 0) w = start[id];
        watch[id] = w;
        attach(id, w);
        learned++;
    }

    private void attach(int id, int lit) {
        long k = key(litSection[lit], litState[lit]);
        int i = slot(k);
        if (slotKey[i] == 0) {
            slotKey[i] = k;
            slotHead[i] = -1;
        }
        nextWatcher[id] = slotHead[i];
        slotHead[i] = id;
    }

    /** A larger index: every nogood listed again under its watch (the lists are rebuilt). */
    private void rebuild(int slots) {
        slotKey = new long[slots];
        slotHead = new int[slots];
        for (int id = 0; id < count; id++) attach(id, watch[id]);
    }

    private void clear() {
        Arrays.fill(slotKey, 0);
        literals = 0;
        count = 0;
        clears++;
    }

    /**
     * After a placement over sections [lo, hi): true when some nogood now holds in full, with
     * its sections written into {@code conflict}; nogoods checked on the way that do not hold
     * move their watch to a section whose state differs.
     */
    boolean matches(int lo, int hi, long[] conflict) {
        if (count == 0) return false;
        for (int s = lo; s < hi; s++) {
            long k = key(s, state[s]);
            int i = slot(k);
            if (slotKey[i] == 0) continue;
            int prevId = -1;
            for (int id = slotHead[i]; id >= 0; ) {
                int nextId = nextWatcher[id];
                int differs = -1;
                for (int l = start[id], e = l + length[id]; l < e; l++) {
                    if (state[litSection[l]] != litState[l]) {
                        differs = l;
                        break;
                    }
                }
                if (differs < 0) {
                    Arrays.fill(conflict, 0);
                    for (int l = start[id], e = l + length[id]; l < e; l++) conflict[litSection[l] >>> 6] |= 1L << litSection[l];
                    cuts++;
                    return true;
                }
                if (prevId < 0) slotHead[i] = nextId; else nextWatcher[prevId] = nextId;   // unlink, watch where it differs
                watch[id] = differs;
                attach(id, differs);
                id = nextId;
            }
        }
        return false;
    }
}
