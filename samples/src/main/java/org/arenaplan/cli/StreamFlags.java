package org.arenaplan.cli;

import org.arenaplan.hb.SyncMode;
import picocli.CommandLine.Option;

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
