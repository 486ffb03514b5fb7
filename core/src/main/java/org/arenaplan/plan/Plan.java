package org.arenaplan.plan;

import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.liveness.Storage;

import java.util.List;

/**
 * A graph's memory plan: its storages (from {@link Lifetimes}), the placement problem they make,
 * one offset per storage, and the stats. A tensor's address in the arena is its storage's offset
 * plus its offset inside the storage.
 */
public final class Plan {
    private final Graph graph;
    private final Lifetimes lifetimes;
    private final Problem problem;
    private final Placement placement;
    private final PlanStats stats;
    private final SyncPlan sync;

    public Plan(Graph graph, Lifetimes lifetimes, Problem problem, Placement placement, PlanStats stats) {
        this(graph, lifetimes, problem, placement, stats, SyncPlan.NONE);
    }

    public Plan(Graph graph, Lifetimes lifetimes, Problem problem, Placement placement, PlanStats stats, SyncPlan sync) {
        this.graph = graph;
        this.lifetimes = lifetimes;
        this.problem = problem;
        this.placement = placement;
        this.stats = stats;
        this.sync = sync;
    }

    /** The events a multi-stream run records and waits on; {@link SyncPlan#NONE} for one stream. */
    public SyncPlan sync() { return sync; }

    public Graph graph() { return graph; }

    public Lifetimes lifetimes() { return lifetimes; }

    public Problem problem() { return problem; }

    public Placement placement() { return placement; }

    public PlanStats stats() { return stats; }

    public List<Storage> storages() { return lifetimes.storages(); }

    public List<Refusal> refusals() { return lifetimes.refusals(); }

    /** The arena's size in bytes: the largest offset plus aligned size over the storages. */
    public long arenaBytes() { return placement.arenaBytes(); }

    /** The alignment of every storage offset, in bytes. */
    public long alignment() { return problem.alignment(); }

    /** The offset of storage number {@code storage} (an index of {@link #storages()}) from the arena's base, in bytes. */
    public long storageOffset(int storage) { return placement.offset(storage); }

    /** Whether the tensor's bytes are in the arena (false for weights and their views). */
    public boolean inArena(String tensor) { return lifetimes.inArena(tensor); }

    /**
     * Byte offset of the tensor from the arena's base: its storage's offset plus its offset inside the storage.
     *
     * @throws IllegalArgumentException when the tensor is not in the arena (a weight, or not in the graph)
     */
    public long addressOf(String tensor) {
        Integer s = lifetimes.storageOf(tensor);
        if (s == null) throw new IllegalArgumentException("tensor '" + tensor + "' is not in the arena (a weight?)");
        return placement.offset(s) + lifetimes.offsetInStorage(tensor);
    }
}
