package org.arenaplan.cli;

import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Planner;
import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * A planner that shows its progress on stderr when a placement runs past a second
 * ({@link Progress#during}: a bar on a terminal, a line every 5 s otherwise), for {@code plan}
 * and {@code run}. A planner that gives up (a {@link PlanningException} from {@code place})
 * found no placement: exit 3.
 */
final class WatchedPlanner implements Planner {
    private static final Duration QUIET = Duration.ofSeconds(1);
    private static final Duration LINE_EVERY = Duration.ofSeconds(5);

    private final String task;
    private final Planner inner;
    private final PrintWriter progress;

    /** @param task what the progress line starts with ({@code "planning"}) */
    WatchedPlanner(String task, Planner inner, PrintWriter progress) {
        this.task = task;
        this.inner = inner;
        this.progress = progress;
    }

    /** The planner that prices concurrency ({@code StreamPlanner.price}): on one stream, then with the data events alone. */
    static WatchedPlanner pricing(Planner inner, PrintWriter progress) {
        return new WatchedPlanner("pricing concurrency (1 stream, then --sync none): planning", inner, progress);
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public String progressNote() {
        return inner.progressNote();
    }

    @Override
    public Placement place(Problem problem) {
        return place(problem, Long.MAX_VALUE);
    }

    @Override
    public Placement place(Problem problem, long deadline) {
        try {
            return Progress.during(task + " " + problem.size() + " buffers with " + inner.name(), QUIET, LINE_EVERY, progress,
                    inner::progressNote, () -> inner.place(problem, deadline));
        } catch (PlanningException e) {
            throw new NoPlacementException(inner.name() + " found no placement: " + e.getMessage());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
