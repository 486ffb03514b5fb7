package org.arenaplan.sim;

import java.util.function.BooleanSupplier;

/** Waiting on a monitor the caller already holds, as device synchronisation must: not interruptible. */
final class Monitors {
    private Monitors() { }

    /** Waits until {@code done} holds; an interrupt is remembered and re-asserted on return. */
    static void awaitUninterruptibly(Object monitor, BooleanSupplier done) {
        boolean interrupted = false;
        while (!done.getAsBoolean()) {
            try {
                monitor.wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
