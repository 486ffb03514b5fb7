package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpChecks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a graph's plan without trusting the planner or the liveness pass that fed it.
 *
 * <ol>
 *   <li>The placement of the plan's storages: the O(n log n) sweep of {@link PlacementValidator}
 *       (disjoint bytes for conflicting storages, inside the arena, aligned).</li>
 *   <li>Declared aliases: every view and member slice sits at its base's address plus its
 *       declared offset, and is one the op's kernels honour (the op registry's facts, read
 *       through {@link OpChecks#aliasProblems}: no view on an op that computes its output, member
 *       slices exactly where Concat writes each input), whether or not the graph was checked
 *       when it was built.</li>
 *   <li>A replay of the schedule over the arena's bytes: every device write records its writer
 *       on the byte range it covers; every runtime read must find only bytes written by the
 *       tensor it reads or by a tensor that is declared to share its data (a view, a base, a
 *       member slice), or by an in-place output of the same op over exactly that input, where
 *       the op's kernels run in place over it ({@link OpChecks#inPlaceRefusal}); the outputs one
 *       op computes share no byte. At the
 *       end, graph outputs, the runtime extents of bounded ones ({@code ir.OpSpec.BoundedRule}, read
 *       too by each op that carries a bounded tensor, {@code ir.OpSpec.BoundedFlow}, where it must hold its count)
 *       and caller-owned inputs must still hold their own bytes. Each
 *       write and read touches O(log n) segments of a sorted map, so the replay is
 *       O((ops + tensors) log n) for a valid plan.</li>
 * </ol>
 * The replay follows the schedule order; ordering across streams is checked on top of it by
 * {@link OrderValidator} (happens-before recomputed from the plan's events).
 */
public final class PlanValidator {
    private PlanValidator() { }

    public static List<Violation> validate(Plan plan) {
        List<Violation> out = new ArrayList<>(PlacementValidator.validate(plan.problem(), plan.placement()));
        out.addAll(new Replay(plan).run());
        out.addAll(OrderValidator.validate(plan));
        return out;
    }

    private static final class Replay {
        private final Plan plan;
        private final Graph g;
        private final Map<String, Integer> id = new HashMap<>();
        private final String[] names;
        private final int[] family;                                   // union-find over declared aliases
        private final TreeMap<Long, long[]> written = new TreeMap<>();   // start -> {end, writer id}
        private final List<Violation> out = new ArrayList<>();
        private final Set<Long> reported = new HashSet<>();

        Replay(Plan plan) {
            this.plan = plan;
            this.g = plan.graph();
            names = g.tensors().keySet().toArray(new String[0]);
            for (int i = 0; i < names.length; i++) id.put(names[i], i);
            family = new int[names.length];
            for (int i = 0; i < family.length; i++) family[i] = i;
            for (Op op : g.ops()) {
                for (Op.View v : op.views()) union(op.outputs().get(v.output()), op.inputs().get(v.input()));
                for (Op.Member m : op.members()) union(op.inputs().get(m.input()), op.outputs().get(m.output()));
            }
        }

        private int find(int x) {
            while (family[x] != x) {
                family[x] = family[family[x]];
                x = family[x];
            }
            return x;
        }

        private void union(String a, String b) {
            family[find(id.get(a))] = find(id.get(b));
        }

        List<Violation> run() {
            checkDeclaredAliases();
            for (String in : g.inputs()) if (plan.inArena(in)) write(addr(in), end(in), id.get(in));
            for (int p = 0; p < g.opCount(); p++) {
                Op op = g.ops().get(p);
                if (op.isStorageOnly()) continue;
                // Reads are checked twice: before the op's writes (did an earlier op clobber the
                // input?) and after them (does the op write over what it reads without a legal
                // in-place declaration?). Checking only after would let an in-place write hide an
                // earlier clobber.
                for (int j = 0; j < op.inputs().size(); j++) {
                    String t = op.inputs().get(j);
                    if (op.readsAtRuntime(j) && plan.inArena(t)) checkRead(p, op, j, t);
                }
                checkExtentReads(p, op);
                checkOutputsApart(p, op);
                for (int k = 0; k < op.outputs().size(); k++) {
                    String o = op.outputs().get(k);
                    if (!op.writesAtRuntime(k) || !plan.inArena(o)) continue;
                    writeOutput(op, k, o);
                }
                for (int j = 0; j < op.inputs().size(); j++) {
                    String t = op.inputs().get(j);
                    if (op.readsAtRuntime(j) && plan.inArena(t)) checkRead(p, op, j, t);
                }
            }
            for (String t : g.inputs()) {
                if (plan.inArena(t) && !g.isDonated(t)) checkHeld(t, Violation.Kind.ILLEGAL_DONATION, "caller-owned input");
            }
            Set<String> extents = new HashSet<>();
            for (String t : g.outputs()) {
                if (plan.inArena(t)) checkHeld(t, Violation.Kind.OUTPUT_CLOBBERED, "graph output");
                Graph.Bounded b = g.bounded(t);   // its count, read after the run as the output is (ir.OpSpec.BoundedRule)
                if (b != null && plan.inArena(b.extent()) && extents.add(b.extent()))
                    checkHeld(b.extent(), Violation.Kind.OUTPUT_CLOBBERED, "runtime extent", " (of graph output '" + t + "')");
            }
            return out;
        }

        private long addr(String t) {
            return plan.addressOf(t);
        }

        private long end(String t) {
            return plan.addressOf(t) + g.tensor(t).bytes();
        }

        private void checkDeclaredAliases() {
            for (int p = 0; p < g.opCount(); p++) {
                Op op = g.ops().get(p);
                for (OpChecks.AliasProblem a : OpChecks.aliasProblems(op, g::tensor)) {
                    out.add(new Violation(a.member() ? Violation.Kind.ILLEGAL_MEMBER : Violation.Kind.ILLEGAL_VIEW, a.tensors(),
                            p, a.fromByte(), a.toByte(), "op '" + op.name() + "' (" + op.kind() + "): " + a.message()));
                }
                for (Op.View v : op.views()) checkAlias(op, op.outputs().get(v.output()), op.inputs().get(v.input()), v.byteOffset(), "view");
                for (Op.Member m : op.members()) checkAlias(op, op.inputs().get(m.input()), op.outputs().get(m.output()), m.byteOffset(), "member slice");
            }
        }

        private void checkAlias(Op op, String child, String base, long offset, String what) {
            if (!plan.inArena(child) && !plan.inArena(base)) return;   // both weights
            if (plan.inArena(child) != plan.inArena(base) || addr(child) != addr(base) + offset) {
                String where = plan.inArena(child) && plan.inArena(base) ? "at arena offset " + addr(child) + ", expected " + (addr(base) + offset) : "in another region than its base";
                out.add(new Violation(Violation.Kind.VIEW_OUTSIDE_BASE, List.of(child, base), g.producerPosition(child),
                        plan.inArena(child) ? addr(child) : -1, plan.inArena(child) ? end(child) : -1,
                        what + " '" + child + "' of '" + base + "' (op '" + op.name() + "', declared offset " + offset + ") is " + where));
            }
        }

        /**
         * The outputs an op computes are written at once, so no two may share a byte (the replay
         * writes them one after the other and would let the later one hide the earlier).
         * O(outputs^2) per op.
         */
        private void checkOutputsApart(int p, Op op) {
            for (int k = 0; k < op.outputs().size(); k++) {
                String a = op.outputs().get(k);
                if (!op.writesAtRuntime(k) || !plan.inArena(a)) continue;
                for (int m = k + 1; m < op.outputs().size(); m++) {
                    String b = op.outputs().get(m);
                    if (!op.writesAtRuntime(m) || !plan.inArena(b) || a.equals(b)) continue;
                    long from = Math.max(addr(a), addr(b)), to = Math.min(end(a), end(b));
                    if (from < to) out.add(new Violation(Violation.Kind.OUTPUTS_SHARE_BYTES, List.of(a, b), p, from, to,
                            "op '" + op.name() + "' at position " + p + " writes outputs '" + a + "' and '" + b + "' over the same bytes [" + from + ", " + to + ")"));
                }
            }
        }

        /** A computed output overwrites its bytes, except the slices its member inputs already wrote. */
        private void writeOutput(Op op, int k, String o) {
            List<long[]> holes = new ArrayList<>();
            for (Op.Member m : op.members()) {
                if (m.output() == k) {
                    String mi = op.inputs().get(m.input());
                    holes.add(new long[]{addr(mi), end(mi)});
                }
            }
            holes.sort((a, b) -> Long.compare(a[0], b[0]));
            long cursor = addr(o);
            for (long[] h : holes) {
                if (h[0] > cursor) write(cursor, h[0], id.get(o));
                cursor = Math.max(cursor, h[1]);
            }
            if (end(o) > cursor) write(cursor, end(o), id.get(o));
        }

        private void write(long from, long to, long writer) {
            if (to <= from) return;
            Map.Entry<Long, long[]> before = written.lowerEntry(from);
            if (before != null && before.getValue()[0] > from) {
                long[] seg = before.getValue();
                if (seg[0] > to) written.put(to, new long[]{seg[0], seg[1]});
                seg[0] = from;
            }
            Map.Entry<Long, long[]> e;
            while ((e = written.ceilingEntry(from)) != null && e.getKey() < to) {
                written.remove(e.getKey());
                if (e.getValue()[0] > to) written.put(to, new long[]{e.getValue()[0], e.getValue()[1]});
            }
            written.put(from, new long[]{to, writer});
        }

        /** Ids of writers found on [from, to) that are not t's data; -1 stands for bytes never written. */
        private List<Long> foreignWriters(String t) {
            long from = addr(t);
            long to = end(t);
            int fam = find(id.get(t));
            List<Long> foreign = new ArrayList<>();
            long cursor = from;
            Map.Entry<Long, long[]> e = written.floorEntry(from);
            Long key = e != null && e.getValue()[0] > from ? e.getKey() : written.ceilingKey(from);
            while (key != null && key < to) {
                long[] seg = written.get(key);
                if (key > cursor) foreign.add(-1L);
                int w = (int) seg[1];
                if (find(w) != fam && !foreign.contains(seg[1])) foreign.add(seg[1]);
                cursor = seg[0];
                key = written.higherKey(key);
            }
            if (cursor < to && from < to) foreign.add(-1L);
            return foreign;
        }

        private void checkRead(int p, Op op, int j, String t) {
            for (long w : foreignWriters(t)) {
                if (w >= 0 && isLegalInPlace(op, j, names[(int) w])) continue;
                if (!reported.add(((long) id.get(t) << 32) | (w & 0xffffffffL))) continue;
                if (w < 0) {
                    out.add(new Violation(Violation.Kind.CLOBBERED_READ, List.of(t), p, addr(t), end(t),
                            "op '" + op.name() + "' at position " + p + " reads '" + t + "' from bytes [" + addr(t) + ", " + end(t) + ") that its producer never wrote"));
                    continue;
                }
                String by = names[(int) w];
                int q = g.producerPosition(by);
                long[] r = overlapRange(t, by);
                if (q == p) {
                    String kernel = kernelRefusal(op, t, by);
                    out.add(new Violation(Violation.Kind.ILLEGAL_IN_PLACE, List.of(t, by), p, r[0], r[1],
                            "op '" + op.name() + "' at position " + p + " writes '" + by + "' over bytes [" + r[0] + ", " + r[1] + ") of '" + t
                                    + "', which it also reads, " + (kernel != null ? "but " + kernel : "without an in-place declaration for that input")));
                } else if (q >= 0 && declaresInPlaceOver(g.ops().get(q), by, t)) {
                    out.add(new Violation(Violation.Kind.ILLEGAL_IN_PLACE, List.of(t, by), p, r[0], r[1],
                            "'" + by + "' was written in place over '" + t + "' by op '" + g.ops().get(q).name() + "' at position " + q
                                    + ", but op '" + op.name() + "' reads '" + t + "' later, at position " + p));
                } else {
                    out.add(new Violation(Violation.Kind.CLOBBERED_READ, List.of(t, by), p, r[0], r[1],
                            "op '" + op.name() + "' at position " + p + " reads '" + t + "' but bytes [" + r[0] + ", " + r[1] + ") were overwritten by "
                                    + writer(by) + ": the two conflict and share bytes"));
                }
            }
        }

        private boolean isLegalInPlace(Op op, int j, String writer) {
            String read = op.inputs().get(j);      // the same tensor may be read through several inputs
            for (Op.InPlace h : op.inPlace()) {
                if (op.inputs().get(h.input()).equals(read) && op.outputs().get(h.output()).equals(writer) && addr(writer) == addr(read))
                    return OpChecks.inPlaceRefusal(op, h, g::tensor) == null;
            }
            return false;
        }

        /** The registry's reason against a declared in-place write of {@code writer} over {@code read}, or null. */
        private String kernelRefusal(Op op, String read, String writer) {
            for (Op.InPlace h : op.inPlace()) {
                if (op.inputs().get(h.input()).equals(read) && op.outputs().get(h.output()).equals(writer)) {
                    String why = OpChecks.inPlaceRefusal(op, h, g::tensor);
                    if (why != null) return why;
                }
            }
            return null;
        }

        private boolean declaresInPlaceOver(Op op, String out, String in) {
            int inFam = find(id.get(in));
            for (Op.InPlace h : op.inPlace()) {
                if (op.outputs().get(h.output()).equals(out) && find(id.get(op.inputs().get(h.input()))) == inFam) return true;
            }
            return false;
        }

        private long[] overlapRange(String a, String b) {
            return new long[]{Math.max(addr(a), addr(b)), Math.min(end(a), end(b))};
        }

        /**
         * The runtime extent of each bounded output op {@code p} computes ({@link Graph#bounded}; an
         * op whose kind carries a bounded tensor, {@code ir.OpSpec.BoundedFlow}, reads it to zero the
         * output's tail) must still hold the count its producer wrote.
         */
        private void checkExtentReads(int p, Op op) {
            for (int k = 0; k < op.outputs().size(); k++) {
                String o = op.outputs().get(k);
                Graph.Bounded b = g.bounded(o);
                if (b == null || g.producer(b.extent()) == op || !op.writesAtRuntime(k) || !plan.inArena(b.extent())) continue;
                String e = b.extent();
                for (long w : foreignWriters(e)) {
                    if (w < 0 || !reported.add(((long) id.get(e) << 32) | (w & 0xffffffffL))) continue;
                    String by = names[(int) w];
                    long[] r = overlapRange(e, by);
                    out.add(new Violation(Violation.Kind.CLOBBERED_READ, List.of(e, by), p, r[0], r[1],
                            "op '" + op.name() + "' at position " + p + " reads runtime extent '" + e + "' (to zero the tail of '" + o + "') from bytes [" + r[0] + ", " + r[1]
                                    + ") that " + writer(by) + " overwrote"));
                }
            }
        }

        private void checkHeld(String t, Violation.Kind kind, String role) {
            checkHeld(t, kind, role, "");
        }

        /** Reports each tensor that overwrote {@code t}'s bytes after {@code t} was written: "ROLE 't'NOTE was overwritten at bytes ...". */
        private void checkHeld(String t, Violation.Kind kind, String role, String note) {
            for (long w : foreignWriters(t)) {
                if (w < 0) continue;
                String by = names[(int) w];
                long[] r = overlapRange(t, by);
                out.add(new Violation(kind, List.of(t, by), Math.max(0, g.producerPosition(by)), r[0], r[1],
                        role + " '" + t + "'" + note + " was overwritten at bytes [" + r[0] + ", " + r[1] + ") by " + writer(by)));
            }
        }

        /**
         * "'T' (op 'O' at position Q)", or for a graph input, which no op writes, "'T' (graph input,
         * uploaded before the first op)": two inputs on shared bytes make one the other's writer.
         */
        private String writer(String by) {
            int q = g.producerPosition(by);
            return "'" + by + "' (" + (q < 0 ? "graph input, uploaded before the first op" : "op '" + g.ops().get(q).name() + "' at position " + q) + ")";
        }
    }
}
