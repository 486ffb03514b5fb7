package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.HashMap;
import java.util.Map;

/**
 * Puts a graph's ops on {@code n} compute streams: chains stay on one stream, independent
 * branches go to separate streams.
 *
 * <p>Steps, in schedule order:
 * <ol>
 *   <li>A storage-only op (view, concat in place) issues no work: it takes the stream of the op
 *       that wrote its first input's bytes, and continues nobody's chain.</li>
 *   <li>An op that does work continues the chain of the latest-scheduled op that wrote bytes
 *       it reads (through views), if no other op has continued that chain yet: a chain keeps
 *       its stream, and at a fork the first branch stays.</li>
 *   <li>Otherwise it starts a new chain, on the stream with the fewest ops so far (ties: the
 *       lowest id): the other branches of a fork spread over the other streams.</li>
 * </ol>
 * Does not balance by cost (ops count alike) and does not look ahead; the schedule order is
 * kept as given. The copy stream is not among the {@code n}: see {@link CopyPlan}. Cost: O(ops x
 * min(n, ops)) time, O(ops + min(n, ops)) memory.
 */
public final class StreamAssigner {
    private StreamAssigner() { }

    /**
     * The same graph with every op on one of the streams {@code 0..n-1}. Any {@code n} up to
     * {@link Integer#MAX_VALUE} is accepted: a new chain takes the least loaded stream with the
     * lowest id, so the ops never reach a stream id past ops-1 and the assignment is the same
     * as with {@code min(n, ops)} streams.
     *
     * @throws IllegalArgumentException when {@code n < 1}
     */
    public static Graph assign(Graph g, int n) {
        if (n < 1) throw new IllegalArgumentException("the number of streams must be at least 1, got " + n);
        int ops = g.opCount();
        n = Math.min(n, Math.max(1, ops));
        int[] stream = new int[ops];
        boolean[] continued = new boolean[ops];
        int[] load = new int[n];
        Map<String, Integer> deviceWriter = new HashMap<>();   // tensor -> latest op that wrote its bytes
        for (int p = 0; p < ops; p++) {
            Op op = g.ops().get(p);
            if (op.isStorageOnly()) {
                Integer w = op.inputs().isEmpty() ? null : deviceWriter.get(op.inputs().get(0));
                stream[p] = w == null ? 0 : stream[w];
                for (Op.View v : op.views()) {
                    Integer vw = deviceWriter.get(op.inputs().get(v.input()));
                    if (vw != null) deviceWriter.put(op.outputs().get(v.output()), vw);
                }
                for (Op.Member m : op.members()) {
                    Integer mw = deviceWriter.get(op.inputs().get(m.input()));
                    String out = op.outputs().get(m.output());
                    if (mw != null && mw > deviceWriter.getOrDefault(out, -1)) deviceWriter.put(out, mw);
                }
                continue;
            }
            int chain = -1;
            for (int j = 0; j < op.inputs().size(); j++) {
                Integer w = deviceWriter.get(op.inputs().get(j));
                if (w != null && !continued[w] && w > chain) chain = w;
            }
            if (chain >= 0) {
                continued[chain] = true;
                stream[p] = stream[chain];
            } else {
                int least = 0;
                for (int s = 1; s < n; s++) if (load[s] < load[least]) least = s;
                stream[p] = least;
            }
            load[stream[p]]++;
            for (int k = 0; k < op.outputs().size(); k++) {
                if (op.writesAtRuntime(k)) deviceWriter.put(op.outputs().get(k), p);
                else for (Op.View v : op.views()) {
                    if (v.output() != k) continue;
                    Integer vw = deviceWriter.get(op.inputs().get(v.input()));
                    if (vw != null) deviceWriter.put(op.outputs().get(k), vw);
                }
            }
        }
        return g.withStreams(p -> stream[p]);
    }
}
