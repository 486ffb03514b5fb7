package org.arenaplan.cli;

import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;

/** The {@code --streams} and {@code --sync} flags that {@code plan} and {@code run} share, checked in one place. */
final class StreamFlags {
    @Option(names = "--streams", paramLabel = "N",
            description = "Put the graph's ops on N compute streams (independent branches apart, chains together); default: the streams the graph names.")
    Integer streams;

    @Option(names = "--sync", paramLabel = "MODE",
            description = "With several streams: add (default) = the planner may add events that order branches so that their bytes can be reused (each reported with the bytes it saves);"
                    + " none = maximum concurrency: reuse bytes only where the data events already order the accesses.")
    String sync;

    /** True when either flag was given. */
    boolean given() {
        return streams != null || sync != null;
    }

    /** The stream count for {@code StreamPlanner}: 0 keeps the graph's streams. */
    int count() {
        if (streams != null && streams < 1) throw new UsageException("--streams must be at least 1, got " + streams);
        return streams == null ? 0 : streams;
    }

    /**
     * One line when {@code --streams N} asked for more streams than the ops fill, so that N is
     * not silently cut: {@code StreamAssigner} keeps a chain of dependent ops on one stream and
     * gives each independent branch a stream of its own, so a graph whose ops form K &lt; N chains
     * runs on K streams (unet, one chain with skip connections, on 1).
     */
    void print(Graph planned, PrintStream out) {
        String line = unfilled(planned);
        if (line != null) out.println(line);
    }

    void print(Graph planned, PrintWriter out) {
        String line = unfilled(planned);
        if (line != null) out.println(line);
    }

    private String unfilled(Graph planned) {
        int used = planned.streams().size();
        if (streams == null || used >= streams) return null;
        return "--streams " + streams + ": the ops run on " + used + " of the " + streams + " streams: each independent branch gets a stream,"
                + " and this graph's ops form " + used + " chain(s) of dependent ops";
    }

    /** {@code add} unless {@code --sync none} asks for maximum concurrency. */
    SyncMode mode() {
        if (sync == null) return SyncMode.ADD;
        try {
            return SyncMode.parse(sync);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--sync " + sync + ": expected none or add");
        }
    }
}
