package org.arenaplan.cli;

import org.arenaplan.hb.SyncMode;
import picocli.CommandLine.Option;

/** The {@code --streams} and {@code --sync} flags that {@code plan} and {@code run} share, checked in one place. */
final class StreamFlags {
    @Option(names = "--streams", paramLabel = "N",
            description = "Put the graph's ops on N compute streams (independent branches apart, chains together); default: the streams the graph names.")
    Integer streams;

    @Option(names = "--sync", paramLabel = "MODE", defaultValue = "none",
            description = "With several streams: none = reuse bytes only where the data events already order the accesses; add = also add events that let bytes be reused (default: ${DEFAULT-VALUE}).")
    String sync;

    /** True when either flag was given a non-default value. */
    boolean given() {
        return streams != null || !"none".equals(sync);
    }

    /** The stream count for {@code StreamPlanner}: 0 keeps the graph's streams. */
    int count() {
        if (streams != null && streams < 1) throw new UsageException("--streams must be at least 1, got " + streams);
        return streams == null ? 0 : streams;
    }

    SyncMode mode() {
        try {
            return SyncMode.parse(sync);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--sync " + sync + ": expected none or add");
        }
    }
}
