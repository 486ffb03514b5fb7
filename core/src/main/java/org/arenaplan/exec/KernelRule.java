package org.arenaplan.exec;

import org.arenaplan.device.KernelCall;
import org.arenaplan.ir.Op;

import java.util.List;

/**
 * How one op kind lowers to kernel calls, declared with the kind's registry entry in
 * {@code org.arenaplan.ops}.
 */
@FunctionalInterface
public interface KernelRule {
    /**
     * The kernel calls of {@code op}, in the order they must run on its stream; each names a
     * kernel of the kind's registry entry.
     *
     * @param l the tensors' addresses, shapes and types, and the helpers to build calls
     * @throws ExecutionException when the op's tensors do not fit its kernels (via {@link OpLowering#fail})
     */
    List<KernelCall> lower(Op op, OpLowering l);
}
