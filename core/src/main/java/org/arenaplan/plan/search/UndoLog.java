package org.arenaplan.plan.search;

import java.util.Arrays;

/** Old values of array slots overwritten during search, restored in reverse to a mark on backtrack. */
final class UndoLog {
    private int[] slots = new int[64];
    private long[] olds = new long[64];
    private int size;

    /** Records {@code target[slot]} and then sets it to {@code value}. */
    void set(long[] target, int slot, long value) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, size * 2);
            olds = Arrays.copyOf(olds, size * 2);
        }
        slots[size] = slot;
        olds[size++] = target[slot];
        target[slot] = value;
    }

    int mark() {
        return size;
    }

    /** Undoes every {@link #set} on {@code target} made since {@code mark}, newest first. */
    void restore(long[] target, int mark) {
        while (size > mark) {
            size--;
            target[slots[size]] = olds[size];
        }
    }
}
