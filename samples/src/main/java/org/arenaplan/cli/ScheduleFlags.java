package org.arenaplan.cli;

import org.arenaplan.ir.Graph;
import org.arenaplan.schedule.MemoryScheduler;
import org.arenaplan.schedule.Schedule;
import org.arenaplan.schedule.ScheduleMode;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;

/** The {@code --schedule} flags that {@code plan} and {@code run} share: which op order to plan, checked and applied in one place. */
final class ScheduleFlags {
    @Option(names = "--schedule", paramLabel = "MODE", defaultValue = "file",
            description = "Op order: file = the graph's own; memory = reorder within the data (and stream) dependences to lower the peak of live bytes (default: ${DEFAULT-VALUE}).")
    String schedule;

    /** {@code --schedule-time-limit} when it is not given, in seconds. */
    private static final double DEFAULT_TIME_LIMIT_S = 5;

    @Option(names = "--schedule-time-limit", paramLabel = "SECONDS",
            description = "Time limit of --schedule memory's search; an exact answer found sooner ends it (default: 5).")
    Double timeLimit;   // null: not given (refused without --schedule memory, which alone reads it)

    ScheduleMode mode() {
        try {
            return ScheduleMode.parse(schedule);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--schedule " + schedule + ": expected file or memory");
        }
    }

    /** True when an order other than the file's was asked for. */
    boolean given() {
        return mode() != ScheduleMode.FILE;
    }

    /**
     * Checks {@code --schedule} and {@code --schedule-time-limit} before any work, whatever the input
     * (a CSV problem too): a time limit without {@code --schedule memory}, which alone searches, is
     * refused rather than ignored.
     */
    void check() {
        mode();
        if (timeLimit == null) return;
        Seconds.of("--schedule-time-limit", timeLimit);
        if (!given())
            throw new UsageException("--schedule-time-limit is --schedule memory's time limit; with --schedule file (the default) no order is searched");
    }

    /** The graph in the order asked for (the graph itself for {@code file}). */
    Schedule apply(Graph g, long alignment) {
        Duration limit = Seconds.of("--schedule-time-limit", timeLimit == null ? DEFAULT_TIME_LIMIT_S : timeLimit);
        return MemoryScheduler.schedule(g, MemoryScheduler.Options.DEFAULT.withMode(mode()).withAlignment(alignment)
                .withTimeLimit(limit.isZero() ? Duration.ofMillis(1) : limit));
    }

    /** The contract line {@code schedule: ...} when an order was searched for; nothing for the file order. */
    static void print(Schedule s, java.io.PrintStream out) {
        if (s.mode() != ScheduleMode.FILE) out.println(line(s));
    }

    static void print(Schedule s, PrintWriter out) {
        if (s.mode() != ScheduleMode.FILE) out.println(line(s));
    }

    private static String line(Schedule s) {
        return "schedule: " + s.summary();
    }
}
