package org.arenaplan.io;

import org.arenaplan.io.PlanJson.StorageEntry;
import org.arenaplan.io.PlanJson.TensorEntry;
import org.arenaplan.plan.Problem;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import java.util.Set;

/**
 * The storages, their members and the arena tensors of a plan file held as primitive columns:
 * a storage with one member and one tensor takes 72 bytes of columns plus its name's string,
 * where a {@link StorageEntry} with its members' map and a {@link TensorEntry} in a map took
 * several hundred. {@link #storages()} and {@link #tensors()} are read-only views that build an
 * entry when one is asked for.
 *
 * <p>A member or tensor name equal to the name before it in the same place (the storage's name;
 * the member at the same position) shares that string. A tensor's address is not stored: the
 * reader has checked it is its storage's offset plus its offset inside it.
 */
final class PlanColumns {
    private int storageCount;
    private String[] name = new String[16];
    private long[] offset = new long[16];
    private long[] bytes = new long[16];
    private long[] start = new long[16];
    private long[] end = new long[16];
    private String[] kind = new String[16];
    /** Members of storage i are {@code [firstMember[i], firstMember[i + 1])}. */
    private int[] firstMember = new int[17];
    private int memberCount;
    private String[] memberName = new String[16];
    private long[] memberOffset = new long[16];
    private final Map<String, String> kinds = new HashMap<>();

    private int tensorCount;
    private String[] tensorName = new String[16];
    private int[] tensorStorage = new int[16];
    private long[] tensorInside = new long[16];
    /** Open addressing over {@link #tensorName}: slot holds tensor index + 1, 0 is empty; built on first lookup. */
    private int[] tensorSlots;

    int storageCount() {
        return storageCount;
    }

    int tensorCount() {
        return tensorCount;
    }

    String name(int storage) {
        return name[storage];
    }

    long bytes(int storage) {
        return bytes[storage];
    }

    long offset(int storage) {
        return offset[storage];
    }

    /** Appends storage {@link #storageCount()}; its members follow with {@link #addMember}. */
    void addStorage(String storageName, long storageOffset, long storageBytes, long from, long to, String storageKind) {
        int i = storageCount;
        if (i == name.length) resizeStorages(grow(i));
        name[i] = storageName;
        offset[i] = storageOffset;
        bytes[i] = storageBytes;
        start[i] = from;
        end[i] = to;
        kind[i] = kinds.computeIfAbsent(storageKind, k -> k);
        storageCount = i + 1;
        firstMember[storageCount] = memberCount;
    }

    /** A member of the storage added last. */
    void addMember(String member, long offsetInStorage) {
        if (memberCount == memberName.length) resizeMembers(grow(memberCount));
        String last = name[storageCount - 1];
        memberName[memberCount] = member.equals(last) ? last : member;
        memberOffset[memberCount++] = offsetInStorage;
        firstMember[storageCount] = memberCount;
    }

    int memberCount() {
        return memberCount;
    }

    /**
     * The offset inside storage {@code storage} at which it lists member {@code tensor}, or -1 when
     * it lists no member of that name. Member {@code hint} is tried first: {@link PlanJsonWriter}
     * writes the t-th tensor from the t-th member, so a written plan costs O(1) per tensor (another
     * order, a scan of the storage's members).
     */
    long memberOffset(int storage, String tensor, int hint) {
        int from = firstMember[storage], to = firstMember[storage + 1];
        if (hint >= from && hint < to && memberName[hint].equals(tensor)) return memberOffset[hint];
        for (int m = from; m < to; m++) if (memberName[m].equals(tensor)) return memberOffset[m];
        return -1;
    }

    /**
     * The first member that no tensor of its storage names, as {@code {storage, member, the storage
     * its tensor is in or -1 when no tensor names it}}, or null when every member has its tensor
     * in its storage.
     */
    int[] memberWithoutTensor() {
        for (int s = 0; s < storageCount; s++)
            for (int m = firstMember[s]; m < firstMember[s + 1]; m++) {
                int t = tensorIndex(memberName[m]);
                if (t < 0 || tensorStorage[t] != s) return new int[]{s, m, t < 0 ? -1 : tensorStorage[t]};
            }
        return null;
    }

    /**
     * The first storage whose members are not exactly its own name at offset 0 (the shape of a CSV
     * problem's plan: one storage and one tensor per buffer), as {@code {storage, member}} (member
     * -1: it lists none), or null when every storage is its own buffer alone.
     */
    int[] storageNotItsBufferAlone() {
        for (int s = 0; s < storageCount; s++) {
            int from = firstMember[s], to = firstMember[s + 1];
            if (from == to) return new int[]{s, -1};
            for (int m = from; m < to; m++)
                if (!memberName[m].equals(name[s]) || memberOffset[m] != 0) return new int[]{s, m};
        }
        return null;
    }

    long memberOffset(int member) {
        return memberOffset[member];
    }

    String memberName(int member) {
        return memberName[member];
    }

    void addTensor(String tensor, int storage, long offsetInStorage) {
        int t = tensorCount;
        if (t == tensorName.length) resizeTensors(grow(t));
        tensorName[t] = t < memberCount && tensor.equals(memberName[t]) ? memberName[t] : tensor;
        tensorStorage[t] = storage;
        tensorInside[t] = offsetInStorage;
        tensorCount = t + 1;
        tensorSlots = null;
    }

    /** Drops the unused tail of every column once reading is done. */
    PlanColumns trimmed() {
        resizeStorages(storageCount);
        resizeMembers(memberCount);
        resizeTensors(tensorCount);
        kinds.clear();
        return this;
    }

    private void resizeStorages(int capacity) {
        name = Arrays.copyOf(name, capacity);
        offset = Arrays.copyOf(offset, capacity);
        bytes = Arrays.copyOf(bytes, capacity);
        start = Arrays.copyOf(start, capacity);
        end = Arrays.copyOf(end, capacity);
        kind = Arrays.copyOf(kind, capacity);
        firstMember = Arrays.copyOf(firstMember, capacity + 1);
    }

    private void resizeMembers(int capacity) {
        memberName = Arrays.copyOf(memberName, capacity);
        memberOffset = Arrays.copyOf(memberOffset, capacity);
    }

    private void resizeTensors(int capacity) {
        tensorName = Arrays.copyOf(tensorName, capacity);
        tensorStorage = Arrays.copyOf(tensorStorage, capacity);
        tensorInside = Arrays.copyOf(tensorInside, capacity);
    }

    private static int grow(int n) {
        if (n >= Integer.MAX_VALUE - 8) throw new OutOfMemoryError("more than " + n + " entries");
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, n + (n >> 1)));
    }

    /** Storage offsets by storage id (a fresh array). */
    long[] offsets() {
        return Arrays.copyOf(offset, storageCount);
    }

    /**
     * The placement problem the storages make (ids = names, live {@code [start, end)}, sizes).
     *
     * @throws org.arenaplan.plan.PlanningException as {@link Problem}'s constructor does
     */
    Problem problem(long alignment) {
        int n = storageCount;
        return new Problem(Arrays.copyOf(name, n), Arrays.copyOf(start, n), Arrays.copyOf(end, n), Arrays.copyOf(bytes, n), alignment);
    }

    StorageEntry storage(int i) {
        Map<String, Long> members = new LinkedHashMap<>();
        for (int m = firstMember[i]; m < firstMember[i + 1]; m++) members.put(memberName[m], memberOffset[m]);
        return new StorageEntry(i, name[i], offset[i], bytes[i], start[i], end[i], kind[i], Collections.unmodifiableMap(members));
    }

    TensorEntry tensor(int t) {
        int s = tensorStorage[t];
        return new TensorEntry(tensorName[t], s, tensorInside[t], offset[s] + tensorInside[t]);
    }

    List<StorageEntry> storages() {
        return new Storages();
    }

    Map<String, TensorEntry> tensors() {
        return new Tensors();
    }

    /**
     * Two storages of one name, as {@code {earlier, later}} indices, or null when every storage
     * has a name of its own (a storage is named by its base tensor, a CSV problem's by its buffer
     * id, so a plan never names two alike).
     */
    int[] storagesNamedAlike() {
        int[] repeat = {-1, -1};
        slots(name, storageCount, repeat);
        return repeat[0] < 0 ? null : repeat;
    }

    /** The index of tensor {@code key}, or -1. */
    private int tensorIndex(Object key) {
        if (!(key instanceof String s)) return -1;
        int[] slots = tensorSlots;
        if (slots == null) slots = tensorSlots = slots(tensorName, tensorCount, null);
        int mask = slots.length - 1;
        for (int h = mix(s.hashCode()) & mask; slots[h] != 0; h = (h + 1) & mask) {
            if (tensorName[slots[h] - 1].equals(s)) return slots[h] - 1;
        }
        return -1;
    }

    /**
     * Open addressing over {@code names[0, count)}: a slot holds an index + 1, 0 is empty. A name
     * met again keeps its first index; the first such pair goes to {@code repeat} when given.
     */
    private static int[] slots(String[] names, int count, int[] repeat) {
        int[] slots = new int[Integer.highestOneBit(Math.max(2, count) * 2 - 1) * 2];
        int mask = slots.length - 1;
        for (int t = 0; t < count; t++) {
            int h = mix(names[t].hashCode()) & mask;
            while (slots[h] != 0 && !names[slots[h] - 1].equals(names[t])) h = (h + 1) & mask;
            if (slots[h] == 0) slots[h] = t + 1;
            else if (repeat != null && repeat[0] < 0) { repeat[0] = slots[h] - 1; repeat[1] = t; }
        }
        return slots;
    }

    private static int mix(int h) {
        return h ^ (h >>> 16);
    }

    private final class Storages extends AbstractList<StorageEntry> implements RandomAccess {
        @Override
        public StorageEntry get(int i) {
            if (i < 0 || i >= storageCount) throw new IndexOutOfBoundsException(i);
            return storage(i);
        }

        @Override
        public int size() {
            return storageCount;
        }
    }

    /** The tensors by name, in file order (the file's object cannot name one twice). */
    private final class Tensors extends AbstractMap<String, TensorEntry> {
        @Override
        public TensorEntry get(Object key) {
            int t = tensorIndex(key);
            return t < 0 ? null : tensor(t);
        }

        @Override
        public boolean containsKey(Object key) {
            return tensorIndex(key) >= 0;
        }

        @Override
        public int size() {
            return tensorCount;
        }

        @Override
        public Set<Entry<String, TensorEntry>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, TensorEntry>> iterator() {
                    return new Iterator<>() {
                        private int t;

                        @Override
                        public boolean hasNext() {
                            return t < tensorCount;
                        }

                        @Override
                        public Entry<String, TensorEntry> next() {
                            if (t >= tensorCount) throw new NoSuchElementException();
                            TensorEntry e = tensor(t++);
                            return new SimpleImmutableEntry<>(e.name(), e);
                        }
                    };
                }

                @Override
                public int size() {
                    return tensorCount;
                }
            };
        }
    }
}
