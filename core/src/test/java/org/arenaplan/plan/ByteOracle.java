package org.arenaplan.plan;

import org.arenaplan.hb.BruteOrder;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The slow, obvious check of a multi-stream plan, as an oracle for {@link OrderValidator}: one
 * cell per elementary byte range (cut at every tensor's start and end) holding its last writer
 * and every reader since; reachability from {@link BruteOrder}. A write must be reached by the
 * cell's last writer and readers, a read by its last writer. Reports each pair of ops once.
 */
final class ByteOracle {
    private ByteOracle() { }

    static List<String> unordered(Plan plan) {
        Graph g = plan.graph();
        BruteOrder order = new BruteOrder(g, plan.sync().events());
        TreeSet<Long> cuts = new TreeSet<>();
        for (String t : g.tensors().keySet()) {
            if (!plan.inArena(t)) continue;
            cuts.add(plan.addressOf(t));
            cuts.add(plan.addressOf(t) + g.tensor(t).bytes());
        }
        long[] cut = cuts.stream().mapToLong(Long::longValue).toArray();
        int cells = Math.max(0, cut.length - 1);
        int[] writer = new int[cells];
        Arrays.fill(writer, -1);
        List<List<Integer>> readers = new ArrayList<>();
        for (int i = 0; i < cells; i++) readers.add(new ArrayList<>());
        Set<String> out = new LinkedHashSet<>();
        for (int p = 0; p < g.opCount(); p++) {
            Op op = g.ops().get(p);
            if (op.isStorageOnly()) continue;
            for (int j = 0; j < op.inputs().size(); j++) {
                String t = op.inputs().get(j);
                if (!op.readsAtRuntime(j) || !plan.inArena(t)) continue;
                for (int c = cell(cut, plan.addressOf(t)); c < cells && cut[c] < plan.addressOf(t) + g.tensor(t).bytes(); c++) {
                    int w = writer[c];
                    if (w >= 0 && w != p && !order.completesBefore(w, p)) out.add(op.name() + " reads what " + g.ops().get(w).name() + " wrote, unordered");
                    readers.get(c).add(p);
                }
            }
            for (int k = 0; k < op.outputs().size(); k++) {
                String o = op.outputs().get(k);
                if (!op.writesAtRuntime(k) || !plan.inArena(o)) continue;
                for (int c = cell(cut, plan.addressOf(o)); c < cells && cut[c] < plan.addressOf(o) + g.tensor(o).bytes(); c++) {
                    if (insideMember(plan, op, k, cut[c])) continue;
                    int w = writer[c];
                    if (w >= 0 && w != p && !order.completesBefore(w, p)) out.add(op.name() + " overwrites what " + g.ops().get(w).name() + " wrote, unordered");
                    for (int r : readers.get(c)) {
                        if (r != p && !order.completesBefore(r, p)) out.add(op.name() + " overwrites what " + g.ops().get(r).name() + " read, unordered");
                    }
                    readers.get(c).clear();
                    writer[c] = p;
                }
            }
        }
        return new ArrayList<>(out);
    }

    private static int cell(long[] cut, long address) {
        return Arrays.binarySearch(cut, address);
    }

    private static boolean insideMember(Plan plan, Op op, int k, long b) {
        for (Op.Member m : op.members()) {
            if (m.output() != k) continue;
            String mi = op.inputs().get(m.input());
            long a = plan.addressOf(mi);
            if (b >= a && b < a + plan.graph().tensor(mi).bytes()) return true;
        }
        return false;
    }
}
