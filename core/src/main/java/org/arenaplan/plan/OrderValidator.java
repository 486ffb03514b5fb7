package org.arenaplan.plan;

import org.arenaplan.hb.HappensBefore;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks that a multi-stream plan's events order every pair of device accesses that touch the
 * same arena bytes, without trusting the planner: happens-before is recomputed from the
 * graph's streams and the plan's final event list, and the bytes from the plan's addresses.
 *
 * <p>A replay in schedule order over byte segments. Each segment remembers its last device
 * writer and, per stream, the latest op that read it since. Then:
 * <ul>
 *   <li>a write must happen after the segment's last writer and after every read since
 *       (write-after-write, write-after-read), except the writing op's own reads (in place);</li>
 *   <li>a read must happen after the segment's last writer (read-after-write).</li>
 * </ul>
 * Within one stream all of this holds by program order. If it holds across streams, every
 * execution the events allow touches each byte in schedule order, so the schedule replay of
 * {@link PlanValidator} speaks for every execution. Reads are counted per stream as the latest
 * position, so each write checks O(streams) readers per segment; segments split and merge as in
 * the schedule replay, O((ops + tensors) (log n + streams)) for a valid plan.
 *
 * <p>Graph inputs are taken as uploaded before any op that touches them ({@code CopyPlan}).
 */
final class OrderValidator {
    private OrderValidator() { }

    static List<Violation> validate(Plan plan) {
        Graph g = plan.graph();
        if (g.streams().size() <= 1) return List.of();
        return new Replay(plan, HappensBefore.of(g, plan.sync().events())).run();
    }

    /** A byte range's access history since its last write. */
    private static final class Seg {
        long end;
        int writer = -1;            // op position, -1: not written by any op (input or never)
        String written;             // tensor the writer wrote there
        final int[] reader;         // per lane: latest op that read it since the write, -1 none
        final String[] read;        // per lane: the tensor that reader read

        Seg(long end, int lanes) {
            this.end = end;
            reader = new int[lanes];
            Arrays.fill(reader, -1);
            read = new String[lanes];
        }

        Seg copy(long newEnd) {
            Seg s = new Seg(newEnd, reader.length);
            s.writer = writer;
            s.written = written;
            System.arraycopy(reader, 0, s.reader, 0, reader.length);
            System.arraycopy(read, 0, s.read, 0, read.length);
            return s;
        }
    }

    private static final class Replay {
        private final Plan plan;
        private final Graph g;
        private final HappensBefore hb;
        private final TreeMap<Long, Seg> segs = new TreeMap<>();
        private final List<Violation> out = new ArrayList<>();
        private final Set<Long> reported = new HashSet<>();
        private final Map<Seg, Long> starts = new IdentityHashMap<>();   // start of each segment that cover() returned

        Replay(Plan plan, HappensBefore hb) {
            this.plan = plan;
            this.g = plan.graph();
            this.hb = hb;
        }

        List<Violation> run() {
            for (int p = 0; p < g.opCount(); p++) {
                Op op = g.ops().get(p);
                if (op.isStorageOnly()) continue;
                for (int j = 0; j < op.inputs().size(); j++) {
                    String t = op.inputs().get(j);
                    if (op.readsAtRuntime(j) && plan.inArena(t)) read(p, t);
                }
                for (int k = 0; k < op.outputs().size(); k++) {
                    String o = op.outputs().get(k);
                    if (op.writesAtRuntime(k) && plan.inArena(o)) writeOutput(p, op, k, o);
                }
            }
            return out;
        }

        private long addr(String t) { return plan.addressOf(t); }

        private long end(String t) { return addr(t) + g.tensor(t).bytes(); }

        private void read(int p, String t) {
            int lane = hb.lane(p);
            for (Seg s : cover(addr(t), end(t))) {
                if (s.writer >= 0 && s.writer != p && !hb.completesBefore(s.writer, p) && reported.add(key(s.writer, p))) {
                    out.add(new Violation(Violation.Kind.UNORDERED_READ, List.of(t, s.written), p, addr(t), end(t),
                            "op '" + name(p) + "' on stream " + stream(p) + " reads '" + t + "', whose bytes were written by '" + name(s.writer)
                                    + "' on stream " + stream(s.writer) + " (as '" + s.written + "'); no event orders " + name(s.writer) + " before " + name(p)));
                }
                s.reader[lane] = p;
                s.read[lane] = t;
            }
        }

        /** A computed output writes its bytes except the member slices its inputs already hold. */
        private void writeOutput(int p, Op op, int k, String o) {
            List<long[]> holes = new ArrayList<>();
            for (Op.Member m : op.members()) {
                if (m.output() == k) holes.add(new long[]{addr(op.inputs().get(m.input())), end(op.inputs().get(m.input()))});
            }
            holes.sort((a, b) -> Long.compare(a[0], b[0]));
            long cursor = addr(o);
            for (long[] h : holes) {
                if (h[0] > cursor) write(p, o, cursor, h[0]);
                cursor = Math.max(cursor, h[1]);
            }
            if (end(o) > cursor) write(p, o, cursor, end(o));
        }

        private void write(int p, String o, long from, long to) {
            for (Seg s : cover(from, to)) {
                long a = Math.max(from, segStart(s)), b = Math.min(to, s.end);
                if (s.writer >= 0 && s.writer != p && !hb.completesBefore(s.writer, p)) {
                    unordered(s.writer, s.written, "written by", p, o, a, b);
                }
                for (int l = 0; l < s.reader.length; l++) {
                    int r = s.reader[l];
                    if (r >= 0 && r != p && !hb.completesBefore(r, p)) unordered(r, s.read[l], "read by", p, o, a, b);
                }
            }
            segs.subMap(from, to).clear();
            Seg w = new Seg(to, hb.lanes());
            w.writer = p;
            w.written = o;
            segs.put(from, w);
        }

        private long segStart(Seg s) {
            return starts.get(s);
        }

        /**
         * The segments exactly covering [from, to), split at both ends, with gaps filled by
         * never-written segments.
         */
        private List<Seg> cover(long from, long to) {
            List<Seg> list = new ArrayList<>();
            starts.clear();
            if (to <= from) return list;
            split(from);
            split(to);
            long cursor = from;
            for (Map.Entry<Long, Seg> e : new ArrayList<>(segs.subMap(from, to).entrySet())) {
                if (e.getKey() > cursor) list.add(gap(cursor, e.getKey()));
                list.add(e.getValue());
                starts.put(e.getValue(), e.getKey());
                cursor = e.getValue().end;
            }
            if (cursor < to) list.add(gap(cursor, to));
            return list;
        }

        private Seg gap(long from, long to) {
            Seg s = new Seg(to, hb.lanes());
            segs.put(from, s);
            starts.put(s, from);
            return s;
        }

        /** Makes {@code at} a segment boundary. */
        private void split(long at) {
            Map.Entry<Long, Seg> e = segs.lowerEntry(at);
            if (e == null || e.getValue().end <= at) return;
            segs.put(at, e.getValue().copy(e.getValue().end));
            e.getValue().end = at;
        }

        private void unordered(int earlier, String tensor, String how, int p, String o, long from, long to) {
            if (!reported.add(key(earlier, p))) return;
            Integer si = plan.lifetimes().storageOf(tensor);
            String storage = si == null ? tensor : plan.storages().get(si).name();
            out.add(new Violation(Violation.Kind.UNORDERED_REUSE, List.of(storage, o), p, from, to,
                    "storage " + storage + " (" + how + " " + name(earlier) + " on stream " + stream(earlier) + through(storage, tensor)
                            + ") overwritten by " + name(p) + " on stream " + stream(p) + " (writing '" + o + "' at bytes [" + from + ", " + to
                            + ")); no event orders " + name(earlier) + " before " + name(p)));
        }

        /** " through views C, D" for a tensor reached from its storage by views; " as 'x'" for another member. */
        private String through(String storage, String tensor) {
            if (tensor.equals(storage)) return "";
            List<String> chain = new ArrayList<>();
            String cur = tensor;
            while (g.isView(cur)) {
                chain.add(cur);
                cur = viewBase(cur);
            }
            if (chain.isEmpty()) return " as '" + tensor + "'";
            Collections.reverse(chain);
            return " through view" + (chain.size() > 1 ? "s " : " ") + String.join(", ", chain);
        }

        private String viewBase(String view) {
            Op op = g.producer(view);
            int k = op.outputs().indexOf(view);
            for (Op.View v : op.views()) if (v.output() == k) return op.inputs().get(v.input());
            throw new IllegalStateException("'" + view + "' is not a view");
        }

        private String name(int p) { return g.ops().get(p).name(); }

        private int stream(int p) { return g.ops().get(p).stream(); }

        private static long key(int a, int b) { return ((long) a << 32) | (b & 0xffffffffL); }
    }
}
