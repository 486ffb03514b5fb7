package org.arenaplan.liveness;

import org.arenaplan.io.Printable;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpChecks;
import org.arenaplan.ir.OpKindSpelling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Storages of a graph and their live intervals.
 *
 * <p>Steps:
 * <ol>
 *   <li>Alias roots: follow view and member declarations up to the tensor that owns the bytes,
 *       summing byte offsets. Weights and their views are not in the arena.</li>
 *   <li>Per tensor: defined at its producer's position (inputs at 0); read at every position
 *       whose op does device work on it. Views and member slices are not reads.</li>
 *   <li>Per storage: {@code [min def, max(def + 1, lastRuntimeRead + 1))} over all members, so
 *       a storage lives until the last runtime reader reached through any chain of views.
 *       A member that is a graph output, or a non-donated graph input, pins it to opCount.</li>
 *   <li>In-place folding, in schedule order: a hint the op's kernels cannot honour
 *       ({@link OpChecks#inPlaceRefusal}, from the op registry) is refused; otherwise output k
 *       joins input j's storage only when no other access of that storage is still to come (see
 *       {@link #refusalReason}). Every refused request is recorded as a {@link Refusal}.</li>
 * </ol>
 */
public final class Lifetimes {
    private final Graph graph;
    private final List<Storage> storages;
    private final Map<String, Integer> storageOf;
    private final Map<String, Long> offsetOf;
    private final List<Refusal> refusals;
    private final Map<String, int[]> tensorIntervals;

    private Lifetimes(Graph graph, List<Storage> storages, Map<String, Integer> storageOf, Map<String, Long> offsetOf,
                      List<Refusal> refusals, Map<String, int[]> tensorIntervals) {
        this.graph = graph;
        this.storages = List.copyOf(storages);
        this.storageOf = Collections.unmodifiableMap(storageOf);
        this.offsetOf = Collections.unmodifiableMap(offsetOf);
        this.refusals = List.copyOf(refusals);
        this.tensorIntervals = Collections.unmodifiableMap(tensorIntervals);
    }

    /**
     * As {@link #of(Graph, OpOrder, boolean)} over the schedule order (one stream), refusals
     * recorded rather than thrown.
     *
     * @throws GraphException on an alias cycle (a chain of view or member declarations that
     *         returns to its own tensor)
     */
    public static Lifetimes of(Graph graph) {
        return of(graph, OpOrder.SCHEDULE, false);
    }

    /**
     * @param order  which earlier accesses are known to complete before a later op starts
     * @param strict when true a refused donation, and an in-place hint that the op's kernels
     *               cannot honour, are a {@link GraphException} instead of a refusal; so is an op
     *               whose kind is a near miss of a registry kind ({@link OpKindSpelling}: an
     *               opaque kind's hints are trusted, so "Tranpose" would be granted what
     *               Transpose is refused)
     * @throws GraphException on an alias cycle, and in strict mode on the refusals above
     */
    public static Lifetimes of(Graph graph, OpOrder order, boolean strict) {
        return new Builder(graph, order).build(strict);
    }

    public Graph graph() { return graph; }

    /** The storages, indexed as {@link #storageOf} numbers them (storage i is element i). */
    public List<Storage> storages() { return storages; }

    /** Storage index of an arena tensor; null for weights. */
    public Integer storageOf(String tensor) { return storageOf.get(tensor); }

    /**
     * Byte offset of a tensor inside its storage (0 for the storage's root; a view's or a
     * member slice's offset in bytes from the root's first byte).
     *
     * @throws IllegalArgumentException when the tensor is not in the arena (a weight, or not in the graph)
     */
    public long offsetInStorage(String tensor) {
        Long o = offsetOf.get(tensor);
        if (o == null) throw new IllegalArgumentException("tensor '" + Printable.name(tensor) + "' is not in the arena");
        return o;
    }

    /** Whether the tensor's bytes are placed in the arena (false for weights and their views). */
    public boolean inArena(String tensor) { return storageOf.containsKey(tensor); }

    /** Every refused in-place hint and donation, in schedule order, with its reason. */
    public List<Refusal> refusals() { return refusals; }

    /** The tensor's own interval {@code [def, end)} before aliasing widens it to its storage's. */
    public int[] tensorInterval(String tensor) {
        int[] iv = tensorIntervals.get(tensor);
        return iv == null ? null : iv.clone();
    }

    /** Liveness is computed here, once; the planner only places what this class decided. */
    private static final class Builder {
        private final Graph g;
        private final OpOrder order;
        private final int opCount;
        private final String[] names;
        private final Map<String, Integer> id;
        private final int[] parent;        // alias parent id or -1
        private final long[] parentOffset;
        private final int[] def;
        private final int[] lastRead;
        private final boolean[] weight;
        private final boolean[] isView;    // views add no write of their own
        private List<List<Integer>> readersOfTensor;
        private int[] guarded;             // by storage key: see build
        private int[] latestRead;
        private final List<Refusal> refusals = new ArrayList<>();

        Builder(Graph g, OpOrder order) {
            this.g = g;
            this.order = order;
            this.opCount = g.opCount();
            int n = g.tensors().size();
            id = new HashMap<>(2 * n);
            names = new String[n];
            int i = 0;
            for (String t : g.tensors().keySet()) {
                names[i] = t;
                id.put(t, i++);
            }
            parent = new int[n];
            Arrays.fill(parent, -1);
            parentOffset = new long[n];
            def = new int[n];
            lastRead = new int[n];
            Arrays.fill(lastRead, -1);
            weight = new boolean[n];
            isView = new boolean[n];
        }

        Lifetimes build(boolean strict) {
            if (strict) {
                List<OpKindSpelling.NearMiss> near = OpKindSpelling.in(g);
                if (!near.isEmpty()) throw new GraphException(OpKindSpelling.strictRefusal(near.get(0)));
            }
            for (String w : g.weights()) weight[id.get(w)] = true;
            for (int p = 0; p < opCount; p++) {
                Op op = g.ops().get(p);
                for (String out : op.outputs()) def[id.get(out)] = p;
                for (Op.View v : op.views()) {
                    int child = id.get(op.outputs().get(v.output()));
                    parent[child] = id.get(op.inputs().get(v.input()));
                    parentOffset[child] = v.byteOffset();
                    isView[child] = true;
                }
                for (Op.Member m : op.members()) {
                    int child = id.get(op.inputs().get(m.input()));
                    parent[child] = id.get(op.outputs().get(m.output()));
                    parentOffset[child] = m.byteOffset();
                }
                for (int j = 0; j < op.inputs().size(); j++) {
                    if (!op.readsAtRuntime(j)) continue;
                    int t = id.get(op.inputs().get(j));
                    lastRead[t] = p;
                }
            }
            readersOfTensor = readersByTensor();
            int n = names.length;
            int[] root = new int[n];
            long[] rootOffset = new long[n];
            resolveRoots(root, rootOffset);

            // Storages are keyed by root id; folding re-points a whole storage at another one.
            int[] storageRoot = root.clone();        // tensor -> storage key (a root id)
            long[] offsetIn = rootOffset.clone();
            Map<Integer, List<Integer>> membersOf = new LinkedHashMap<>(2 * n);
            for (int t = 0; t < n; t++) {
                if (weight[root[t]]) continue;
                membersOf.computeIfAbsent(root[t], k -> new ArrayList<>()).add(t);
            }
            for (String in : g.donated()) {
                int t = id.get(in);
                for (int m : membersOf.get(root[t])) {   // before folding: only x's own views count
                    if (g.isOutput(names[m])) {
                        refusals.add(new Refusal(Refusal.Kind.DONATION, null, in, null,
                                "its bytes escape as graph output '" + Printable.name(names[m]) + "', so they are never free for reuse"));
                        break;
                    }
                }
            }
            // per storage key, kept as storages fold: the first member (in member order) that is a
            // caller-owned input or a graph output, else -1; the latest position any member is read
            guarded = new int[n];
            latestRead = new int[n];
            Arrays.fill(guarded, -1);
            Arrays.fill(latestRead, -1);
            for (Map.Entry<Integer, List<Integer>> e : membersOf.entrySet()) {
                int key = e.getKey();
                for (int m : e.getValue()) {
                    if (guarded[key] < 0 && isGuarded(m)) guarded[key] = m;
                    latestRead[key] = Math.max(latestRead[key], lastRead[m]);
                }
            }
            for (int p = 0; p < opCount; p++) {
                Op op = g.ops().get(p);
                for (Op.InPlace h : op.inPlace()) {
                    int out = id.get(op.outputs().get(h.output()));
                    int in = id.get(op.inputs().get(h.input()));
                    String unsupported = OpChecks.inPlaceRefusal(op, h, g::tensor);
                    if (unsupported != null) {
                        Refusal r = new Refusal(Refusal.Kind.IN_PLACE, op.name(), names[out], names[in], unsupported);
                        if (strict) throw new GraphException(r.toString());
                        refusals.add(r);
                        continue;
                    }
                    if (weight[root[in]]) {
                        refusals.add(new Refusal(Refusal.Kind.IN_PLACE, op.name(), names[out], names[in], "'" + Printable.name(names[in]) + "' is a read-only weight"));
                        continue;
                    }
                    String reason = refusalReason(p, op, out, in, storageRoot, membersOf);
                    if (reason != null) {
                        refusals.add(new Refusal(Refusal.Kind.IN_PLACE, op.name(), names[out], names[in], reason));
                        continue;
                    }
                    int from = storageRoot[out];
                    int into = storageRoot[in];
                    long base = offsetIn[in];
                    for (int m : membersOf.remove(from)) {
                        storageRoot[m] = into;
                        offsetIn[m] = base + offsetIn[m];
                        membersOf.get(into).add(m);
                    }
                    if (guarded[into] < 0) guarded[into] = guarded[from];
                    latestRead[into] = Math.max(latestRead[into], latestRead[from]);
                }
            }
            if (strict) {
                for (Refusal r : refusals) if (r.kind() == Refusal.Kind.DONATION) throw new GraphException(r.toString());
            }
            return assemble(storageRoot, offsetIn, membersOf);
        }

        /** Follows parent links iteratively (view chains may be very deep). */
        private void resolveRoots(int[] root, long[] rootOffset) {
            int n = names.length;
            Arrays.fill(root, -1);
            int[] stack = new int[n];
            for (int t = 0; t < n; t++) {
                int sp = 0;
                int cur = t;
                while (root[cur] < 0 && parent[cur] >= 0) {
                    stack[sp++] = cur;
                    cur = parent[cur];
                    if (sp > n) throw new GraphException("alias cycle through tensor '" + Printable.name(names[t]) + "'");
                }
                if (root[cur] < 0) {
                    root[cur] = cur;
                    rootOffset[cur] = 0;
                }
                while (sp > 0) {
                    int c = stack[--sp];
                    root[c] = root[parent[c]];
                    rootOffset[c] = rootOffset[parent[c]] + parentOffset[c];
                }
            }
        }

        private int end(int t) {
            String name = names[t];
            if (g.isOutput(name)) return opCount;
            if (g.isInput(name) && !g.isDonated(name)) return opCount;
            if (isView[t]) return lastRead[t] + 1;
            return Math.max(def[t] + 1, lastRead[t] + 1);
        }

        /** A member whose bytes an in-place write may never take: a caller-owned (not donated) graph input, or a graph output. */
        private boolean isGuarded(int m) {
            String mn = names[m];
            return (g.isInput(mn) && !g.isDonated(mn)) || g.isOutput(mn);
        }

        /**
         * Why {@code op} at position {@code p} may not write {@code out} over {@code in}'s storage,
         * or null when it may. The fold is legal only when nothing after this op reads the storage
         * (through any member), the caller does not own it, the op reads it through no other member,
         * no other output of the op already took it, and every earlier reader has completed before
         * this op starts. O(members of out's storage + the op's inputs and outputs), plus a scan of in's storage only
         * to name the member when refusing for a later read; O(members of in's storage) per
         * reader check on several streams ({@code order} other than the schedule).
         */
        private String refusalReason(int p, Op op, int out, int in, int[] storageRoot, Map<Integer, List<Integer>> membersOf) {
            if (parent[out] >= 0)
                return "'" + Printable.name(names[out]) + "' is itself " + (isView[out] ? "a view" : "a member slice of concat '" + Printable.name(names[parent[out]]) + "'");
            List<Integer> outMembers = membersOf.get(storageRoot[out]);
            for (int m : outMembers) {
                if (def[m] < p)
                    return parent[m] >= 0 && !isView[m] ? "'" + Printable.name(names[out]) + "' already holds member slice '" + Printable.name(names[m]) + "' written earlier"
                            : "'" + Printable.name(names[out]) + "' already overwrites '" + Printable.name(names[m]) + "' in place (one in-place grant per output)";
            }
            long outBytes = g.tensor(names[out]).bytes();
            long inBytes = g.tensor(names[in]).bytes();
            if (outBytes > inBytes) return "'" + Printable.name(names[out]) + "' (" + outBytes + " B) is larger than '" + Printable.name(names[in]) + "' (" + inBytes + " B)";
            int s = storageRoot[in];
            if (guarded[s] >= 0) {
                String mn = names[guarded[s]];
                return g.isOutput(mn) && !(g.isInput(mn) && !g.isDonated(mn)) ? "'" + Printable.name(mn) + "' is a graph output" : "'" + Printable.name(mn) + "' is a caller-owned graph input (not donated)";
            }
            for (int j = 0; j < op.inputs().size(); j++) {
                int other = id.get(op.inputs().get(j));
                if (other != in && storageRoot[other] == s && op.readsAtRuntime(j))
                    return "the op also reads '" + Printable.name(names[other]) + "' from the same storage";
            }
            for (int k = 0; k < op.outputs().size(); k++) {   // an earlier grant of this op: its outputs would share bytes
                int sibling = id.get(op.outputs().get(k));
                if (sibling != out && op.writesAtRuntime(k) && storageRoot[sibling] == s)
                    return "output '" + Printable.name(names[sibling]) + "' of this op already overwrites that storage in place (two outputs of one op cannot share bytes)";
            }
            if (latestRead[s] > p) {   // then name the first member read later (a scan only when refusing)
                for (int m : membersOf.get(s)) {
                    if (lastRead[m] > p) {
                        return "'" + Printable.name(names[m]) + "' is read later by op '" + Printable.name(g.ops().get(lastRead[m]).name()) + "' at position " + lastRead[m];
                    }
                }
            }
            if (order != OpOrder.SCHEDULE) {
                for (int m : membersOf.get(s)) {
                    for (int q : readersOfTensor.get(m)) {
                        if (q < p && !order.completesBefore(q, p)) {
                            return "reader '" + Printable.name(g.ops().get(q).name()) + "' of '" + Printable.name(names[m]) + "' (stream " + g.ops().get(q).stream()
                                    + ") is not ordered before this op (stream " + op.stream() + ")";
                        }
                    }
                }
            }
            return null;
        }

        private Lifetimes assemble(int[] storageRoot, long[] offsetIn, Map<Integer, List<Integer>> membersOf) {
            List<Storage> storages = new ArrayList<>(membersOf.size());
            int n = names.length;
            Map<String, Integer> storageOf = new HashMap<>(2 * n);
            Map<String, Long> offsetOf = new HashMap<>(2 * n);
            Map<String, int[]> intervals = new HashMap<>(2 * n);
            int[] readsAt = new int[opCount];   // stamp buffer: last storage index that recorded a read at p
            int[] writesAt = new int[opCount];
            Arrays.fill(readsAt, -1);
            Arrays.fill(writesAt, -1);
            for (Map.Entry<Integer, List<Integer>> e : membersOf.entrySet()) {
                int index = storages.size();
                int key = e.getKey();
                int start = Integer.MAX_VALUE;
                int end = 0;
                boolean input = false, donated = false, output = false;
                Map<String, Long> members = new LinkedHashMap<>();
                List<Integer> writers = new ArrayList<>();
                List<Integer> readers = new ArrayList<>();
                for (int m : e.getValue()) {
                    String mn = names[m];
                    int d = g.isInput(mn) ? 0 : def[m];
                    int en = end(m);
                    intervals.put(mn, new int[]{d, Math.max(en, d + 1)});
                    start = Math.min(start, d);
                    end = Math.max(end, en);
                    input |= g.isInput(mn);
                    donated |= g.isDonated(mn);
                    output |= g.isOutput(mn);
                    members.put(mn, offsetIn[m]);
                    storageOf.put(mn, index);
                    offsetOf.put(mn, offsetIn[m]);
                    int w = g.producerPosition(mn);
                    if (w >= 0 && g.ops().get(w).writesAtRuntime(g.ops().get(w).outputs().indexOf(mn)) && writesAt[w] != index) {
                        writesAt[w] = index;
                        writers.add(w);
                    }
                    for (int q : readersOfTensor.get(m)) {
                        if (readsAt[q] != index) {
                            readsAt[q] = index;
                            readers.add(q);
                        }
                    }
                }
                storages.add(new Storage(index, names[key], g.tensor(names[key]).bytes(), start, end, members,
                        sorted(writers), sorted(readers), input, donated && !output, output));
            }
            return new Lifetimes(g, storages, storageOf, offsetOf, refusals, intervals);
        }

        private List<List<Integer>> readersByTensor() {
            List<List<Integer>> r = new ArrayList<>(names.length);
            for (int i = 0; i < names.length; i++) r.add(new ArrayList<>(2));
            for (int p = 0; p < opCount; p++) {
                Op op = g.ops().get(p);
                for (int j = 0; j < op.inputs().size(); j++) {
                    if (!op.readsAtRuntime(j)) continue;
                    List<Integer> l = r.get(id.get(op.inputs().get(j)));
                    if (l.isEmpty() || l.get(l.size() - 1) != p) l.add(p);
                }
            }
            return r;
        }

        private static int[] sorted(List<Integer> l) {
            int[] a = new int[l.size()];
            for (int i = 0; i < a.length; i++) a[i] = l.get(i);
            Arrays.sort(a);
            return a;
        }
    }
}
