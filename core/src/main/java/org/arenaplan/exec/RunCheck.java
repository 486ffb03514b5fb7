package org.arenaplan.exec;

import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpRegistry;

import java.util.ArrayList;
import java.util.List;

/**
 * The ops of a graph that {@code run} would refuse, found without a device: each op of a registry
 * kind is lowered exactly as the executors lower it ({@link OpLowering#lower}), with every tensor
 * at a placeholder address, so the refusal is the executors' own, word for word (an element type
 * the op's rule contradicts, {@code Sigmoid} writing i64; a view of a weight; an attribute its
 * kernels do not take). Addresses play no part in those checks. Ops of a kind outside the
 * registry are skipped: {@code plan} plans them as opaque kinds, and only {@code run} needs them
 * to be known.
 *
 * <p>Cost: one lowering per op, O(ops + tensors); nothing is allocated on a device.
 */
public final class RunCheck {
    private RunCheck() { }

    /**
     * The executors' refusal of each op of {@code graph} they would refuse, in schedule order
     * (each reads {@code op 'NAME' (KIND): why}); empty when {@code run} can lower every op.
     */
    public static List<String> refusals(Graph graph) {
        OpLowering lowering = new OpLowering(graph, t -> new Placeholder(t, graph.tensor(t).bytes()).base(), t -> "'" + t + "'");
        List<String> out = new ArrayList<>();
        for (Op op : graph.ops()) {
            if (!OpRegistry.knows(op.kind())) continue;
            try {
                lowering.lower(op);
            } catch (ExecutionException e) {
                out.add(e.getMessage());
            }
        }
        return out;
    }

    /** A buffer that is never on a device: it only gives lowering an address of the tensor's size. */
    private record Placeholder(String owner, long bytes) implements DeviceBuffer {
        @Override public boolean isLive() { return true; }
        @Override public void close() { }
    }
}
