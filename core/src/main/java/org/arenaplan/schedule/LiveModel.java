package org.arenaplan.schedule;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpChecks;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Problem;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Bytes live while each op runs, kept incrementally as ops are scheduled one by one and undone
 * in reverse, so a search can try orders without rebuilding liveness.
 *
 * <p>It does not decide liveness: the alias groups (views, member slices) and their aligned sizes
 * come from {@link Lifetimes} of the graph with its in-place hints removed, and the rules it
 * replays are {@link Lifetimes}'s (class comment there): a storage is live from the first op that
 * writes a member (inputs from the start) until the last op that reads a member at run time or
 * writes a non-view member; caller-owned inputs and graph outputs to the end; a donated input
 * never read only while the first op runs. An in-place hint folds the output's group into the
 * input's storage under {@code Lifetimes}'s refusal rules (weight, view or member-slice output,
 * larger output, caller-owned or output storage, another member read by the same op, another
 * output of the same op folded there already, a reader still to come). The tests check, over
 * thousands of orders, that the peak it computes equals
 * {@code Lifetimes}'s lower bound of the reordered graph; planned figures always come from
 * {@code Lifetimes} itself.
 *
 * <p>State: per storage (union-find over groups) the readers and "enders" still to run, whether it
 * has started and whether it is pinned; every change is logged so {@link #undo()} costs what
 * {@link #apply(int)} cost: O(groups the op touches).
 */
final class LiveModel {
    final int ops;
    final int hintCount;
    private final long[] bytes;          // per group, aligned
    private final int[][] readGroups;    // per op: groups read at run time (distinct)
    private final int[][] enderGroups;   // per op: groups whose liveness may end at this op (distinct)
    private final int[][] defGroups;     // per op: groups a member of which this op writes (distinct)
    private final Hint[][] hints;        // per op, in declaration order
    private final int[] firstStepOnly;   // donated inputs never read: live while the first op runs

    // state
    private final int[] uf;
    private final int[] remReads;
    private final int[] remEnds;
    private final boolean[] pinned;
    private final boolean[] started;
    private final boolean[] folded;      // per hint
    private long live;
    private int depth;
    private final long initialLive;

    // undo log: kind, index, old value
    private int[] logKind = new int[256];
    private int[] logIndex = new int[256];
    private long[] logOld = new long[256];
    private int logSize;
    private final int[] marks;
    private final long[] liveAt;

    private static final int UF = 0, REM_READS = 1, REM_ENDS = 2, PINNED = 3, STARTED = 4, FOLDED = 5;

    /** One in-place request: output group over the storage of input tensor {@code inTensor}. */
    private record Hint(int id, int outGroup, int inGroup, boolean staticOk, int[] otherReadGroups, int[] siblingGroups) { }

    LiveModel(Graph g, long alignment) {
        this.ops = g.opCount();
        Graph plain = withoutHints(g);
        Lifetimes l = Lifetimes.of(plain);
        Problem p = ArenaPlanner.problemOf(l, alignment);
        List<Storage> st = l.storages();
        int groups = st.size();
        bytes = new long[groups];
        for (int i = 0; i < groups; i++) bytes[i] = p.alignedSize(i);
        Set<String> memberChildren = new HashSet<>();
        for (Op op : g.ops()) for (Op.Member m : op.members()) memberChildren.add(op.inputs().get(m.input()));

        readGroups = new int[ops][];
        enderGroups = new int[ops][];
        defGroups = new int[ops][];
        hints = new Hint[ops][];
        int[] remR = new int[groups], remE = new int[groups];
        int hintIds = 0;
        for (int v = 0; v < ops; v++) {
            Op op = g.ops().get(v);
            Set<Integer> reads = new LinkedHashSet<>(), ends = new LinkedHashSet<>(), defs = new LinkedHashSet<>();
            for (int j = 0; j < op.inputs().size(); j++) {
                Integer s = l.storageOf(op.inputs().get(j));
                if (s != null && op.readsAtRuntime(j)) reads.add(s);
            }
            ends.addAll(reads);
            for (int k = 0; k < op.outputs().size(); k++) {
                String out = op.outputs().get(k);
                Integer s = l.storageOf(out);
                if (s == null) continue;
                defs.add(s);
                if (!g.isView(out)) ends.add(s);
            }
            readGroups[v] = toArray(reads);
            enderGroups[v] = toArray(ends);
            defGroups[v] = toArray(defs);
            for (int s : readGroups[v]) remR[s]++;
            for (int s : enderGroups[v]) remE[s]++;
            List<Hint> hs = new ArrayList<>();
            for (Op.InPlace h : op.inPlace()) {
                String out = op.outputs().get(h.output());
                String in = op.inputs().get(h.input());
                Integer outGroup = l.storageOf(out), inGroup = l.storageOf(in);
                boolean ok = outGroup != null && inGroup != null
                        && !g.isView(out) && !memberChildren.contains(out)
                        && g.tensor(out).bytes() <= g.tensor(in).bytes()
                        && OpChecks.inPlaceRefusal(op, h, g::tensor) == null   // the op registry: can its kernels run in place?
                        && !holdsEarlierMember(st.get(outGroup), out, op);
                Set<Integer> others = new LinkedHashSet<>();
                for (int j = 0; j < op.inputs().size(); j++) {
                    String t = op.inputs().get(j);
                    Integer s = l.storageOf(t);
                    if (!t.equals(in) && s != null && op.readsAtRuntime(j)) others.add(s);
                }
                Set<Integer> siblings = new LinkedHashSet<>();   // the op's other computed outputs: one folded in already refuses this one
                for (int k = 0; k < op.outputs().size(); k++) {
                    Integer s = l.storageOf(op.outputs().get(k));
                    if (k != h.output() && s != null && op.writesAtRuntime(k)) siblings.add(s);
                }
                hs.add(new Hint(hintIds++, ok ? outGroup : -1, ok ? inGroup : -1, ok, toArray(others), toArray(siblings)));
            }
            hints[v] = hs.toArray(new Hint[0]);
        }
        hintCount = hintIds;
        uf = new int[groups];
        pinned = new boolean[groups];
        started = new boolean[groups];
        folded = new boolean[hintCount];
        remReads = remR;
        remEnds = remE;
        long init = 0;
        List<Integer> first = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            uf[i] = i;
            Storage s = st.get(i);
            pinned[i] = s.pinned();
            if (s.graphInput()) {
                started[i] = true;
                init += bytes[i];
                if (!pinned[i] && remE[i] == 0) first.add(i);
            }
        }
        firstStepOnly = first.stream().mapToInt(Integer::intValue).toArray();
        initialLive = init;
        live = init;
        marks = new int[ops + 1];
        liveAt = new long[ops + 1];
    }

    /** Whether the output's group already holds a member slice written before the op (it is the op's input). */
    private static boolean holdsEarlierMember(Storage outGroup, String out, Op op) {
        for (String m : outGroup.members().keySet()) if (!m.equals(out) && op.inputs().contains(m)) return true;
        return false;
    }

    private static Graph withoutHints(Graph g) {
        List<Op> plain = new ArrayList<>(g.opCount());
        for (Op o : g.ops()) plain.add(new Op(o.name(), o.kind(), o.inputs(), o.outputs(), o.stream(), o.attrs(), o.views(), o.members(), List.of()));
        return Reorder.rebuild(g, Reorder.identity(g.opCount()), plain);
    }

    private static int[] toArray(Set<Integer> s) {
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Bytes live before any op runs (the graph inputs). */
    long initialLive() { return initialLive; }

    /** Bytes live between ops, after the ops applied so far. */
    long live() { return live; }

    int depth() { return depth; }

    boolean folded(int hint) { return folded[hint]; }

    /** Schedules op {@code v} next; returns the bytes live while it runs. */
    long apply(int v) {
        marks[depth] = logSize;
        liveAt[depth] = live;
        for (int s : readGroups[v]) {
            int r = find(s);
            set(REM_READS, r, remReads[r] - 1);
        }
        for (Hint h : hints[v]) {
            if (!h.staticOk) continue;
            int ri = find(h.inGroup);
            if (pinned[ri] || remReads[ri] > 0) continue;
            boolean shared = false;
            for (int o : h.otherReadGroups) if (find(o) == ri) shared = true;
            for (int o : h.siblingGroups) if (find(o) == ri) shared = true;
            if (shared) continue;
            int ro = find(h.outGroup);
            if (ro == ri) continue;
            set(UF, ro, ri);
            set(REM_READS, ri, remReads[ri] + remReads[ro]);
            set(REM_ENDS, ri, remEnds[ri] + remEnds[ro]);
            if (pinned[ro]) set(PINNED, ri, 1);
            set(FOLDED, h.id, 1);
        }
        long during = live;
        for (int s : defGroups[v]) {
            int r = find(s);
            if (!started[r]) {
                set(STARTED, r, 1);
                during += bytes[r];
            }
        }
        long after = during;
        int[] ends = enderGroups[v];
        for (int s : ends) {
            int r = find(s);
            set(REM_ENDS, r, remEnds[r] - 1);
        }
        for (int i = 0; i < ends.length; i++) {
            int r = find(ends[i]);
            boolean dup = false;
            for (int k = 0; k < i && !dup; k++) dup = find(ends[k]) == r;
            if (!dup && remEnds[r] == 0 && !pinned[r] && started[r]) after -= bytes[r];
        }
        if (depth == 0) for (int s : firstStepOnly) after -= bytes[s];
        live = after;
        depth++;
        return during;
    }

    /** Takes back the last {@link #apply(int)}. */
    void undo() {
        depth--;
        int mark = marks[depth];
        while (logSize > mark) {
            logSize--;
            int i = logIndex[logSize];
            long old = logOld[logSize];
            switch (logKind[logSize]) {
                case UF -> uf[i] = (int) old;
                case REM_READS -> remReads[i] = (int) old;
                case REM_ENDS -> remEnds[i] = (int) old;
                case PINNED -> pinned[i] = old != 0;
                case STARTED -> started[i] = old != 0;
                default -> folded[i] = old != 0;
            }
        }
        live = liveAt[depth];
    }

    private int find(int s) {
        while (uf[s] != s) s = uf[s];
        return s;
    }

    private void set(int kind, int index, long value) {
        if (logSize == logKind.length) {
            int cap = logSize * 2;
            logKind = Arrays.copyOf(logKind, cap);
            logIndex = Arrays.copyOf(logIndex, cap);
            logOld = Arrays.copyOf(logOld, cap);
        }
        long old;
        switch (kind) {
            case UF -> { old = uf[index]; uf[index] = (int) value; }
            case REM_READS -> { old = remReads[index]; remReads[index] = (int) value; }
            case REM_ENDS -> { old = remEnds[index]; remEnds[index] = (int) value; }
            case PINNED -> { old = pinned[index] ? 1 : 0; pinned[index] = value != 0; }
            case STARTED -> { old = started[index] ? 1 : 0; started[index] = value != 0; }
            default -> { old = folded[index] ? 1 : 0; folded[index] = value != 0; }
        }
        logKind[logSize] = kind;
        logIndex[logSize] = index;
        logOld[logSize] = old;
        logSize++;
    }

    /** The peak of a whole order, leaving the model as it was. */
    long peakOf(int[] order) {
        long peak = initialLive;
        for (int v : order) peak = Math.max(peak, apply(v));
        for (int i = 0; i < order.length; i++) undo();
        return peak;
    }
}
