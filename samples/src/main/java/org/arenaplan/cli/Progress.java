package org.arenaplan.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Progress of long work: a progress bar on stderr when a terminal is attached
 * ({@code System.console() != null}), plain lines otherwise (logs and pipes get no control
 * characters). Counted work uses {@link #open}; work that cannot count its steps (one planner
 * call) uses {@link #during}, which stays silent unless the work outlasts a second.
 */
public interface Progress extends AutoCloseable {

    /** Marks {@code done} of the total steps as finished. */
    void stepTo(long done);

    /** Says what the current step is (a bar shows it beside the count; lines print it). */
    void note(String what);

    /** Finishes the display. */
    @Override
    void close();

    /** Counted progress over {@code total} steps, shown on a bar or as lines on {@code lines}. */
    static Progress open(String task, long total, PrintWriter lines) {
        return interactive() ? new Bar(task, total) : new Lines(task, total, lines);
    }

    /** Counted progress that always prints plain lines (for tests and logs). */
    static Progress lines(String task, long total, PrintWriter lines) {
        return new Lines(task, total, lines);
    }

    /** True when a person is watching: the JVM has a console. */
    static boolean interactive() {
        return System.console() != null;
    }

    /**
     * Runs {@code work}; if it is still running after {@code quiet}, shows that it is (an
     * indefinite bar on a terminal, else one line every {@code every}) until it ends.
     */
    static <T> T during(String task, Duration quiet, Duration every, PrintWriter lines, Callable<T> work) throws Exception {
        return during(task, quiet, every, lines, () -> "", work);
    }

    /**
     * {@link #during(String, Duration, Duration, PrintWriter, Callable)}, each line (or the bar)
     * also saying {@code detail}'s current text where it is not empty (e.g. a planner's
     * {@link org.arenaplan.plan.Planner#progressNote()}).
     */
    static <T> T during(String task, Duration quiet, Duration every, PrintWriter lines, java.util.function.Supplier<String> detail,
                        Callable<T> work) throws Exception {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "arenaplan-progress");
            t.setDaemon(true);
            return t;
        });
        long t0 = System.nanoTime();
        ProgressBar[] bar = new ProgressBar[1];
        try {
            Runnable tick = () -> {
                long secs = (System.nanoTime() - t0) / 1_000_000_000L;
                String now = detail.get();
                if (interactive()) {
                    if (bar[0] == null) bar[0] = builder(task, -1).build();
                    bar[0].stepTo(secs);
                    if (!now.isEmpty()) bar[0].setExtraMessage(" " + now);
                } else {
                    lines.println(task + ": still running after " + secs + " s" + (now.isEmpty() ? "" : " (" + now + ")"));
                    lines.flush();
                }
            };
            long period = interactive() ? 200 : every.toMillis();
            ticker.scheduleAtFixedRate(tick, quiet.toMillis(), period, TimeUnit.MILLISECONDS);
            return work.call();
        } finally {
            ticker.shutdownNow();
            ticker.awaitTermination(1, TimeUnit.SECONDS);
            if (bar[0] != null) bar[0].close();
        }
    }

    private static ProgressBarBuilder builder(String task, long total) {
        return new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit(" s", 1)
                .setConsumer(new ConsoleProgressBarConsumer(System.err));
    }

    /** The terminal form. */
    final class Bar implements Progress {
        private final ProgressBar bar;

        private Bar(String task, long total) {
            bar = builder(task, total).build();
        }

        @Override
        public void stepTo(long done) {
            bar.stepTo(done);
        }

        @Override
        public void note(String what) {
            bar.setExtraMessage(" " + what);
        }

        @Override
        public void close() {
            bar.close();
        }
    }

    /** The plain form: one line at each tenth of the total, and one at the end. */
    final class Lines implements Progress {
        private final String task;
        private final long total;
        private final PrintWriter out;
        private final long t0 = System.nanoTime();
        private long done;
        private int tenthsShown;

        private Lines(String task, long total, PrintWriter out) {
            this.task = task;
            this.total = total;
            this.out = out;
        }

        @Override
        public void stepTo(long d) {
            done = d;
            int tenths = total <= 0 ? 0 : (int) Math.min(10, d * 10 / total);
            if (tenths > tenthsShown && tenths < 10) {
                tenthsShown = tenths;
                out.println(task + ": " + d + "/" + total + " (" + tenths * 10 + " %)");
                out.flush();
            }
        }

        @Override
        public void note(String what) {
            out.println(task + ": " + what);
            out.flush();
        }

        @Override
        public void close() {
            out.println(task + ": " + done + "/" + total + " done in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            out.flush();
        }
    }
}
