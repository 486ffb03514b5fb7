package org.arenaplan.liveness;

/**
 * Whether the device work of the op at schedule position {@code a} completes before the op at
 * position {@code b} starts. With one stream that is plain schedule order; with several streams
 * it is happens-before (stream order plus events).
 */
@FunctionalInterface
public interface OpOrder {
    boolean completesBefore(int a, int b);

    /** One in-order queue: every earlier op completes before a later one starts. */
    OpOrder SCHEDULE = (a, b) -> a < b;
}
