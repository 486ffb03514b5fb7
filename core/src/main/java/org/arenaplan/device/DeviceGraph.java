package org.arenaplan.device;

/**
 * Work captured from streams and instantiated once ({@code CUgraphExec}), then replayed as a whole
 * with {@link Device#launchGraph}. Every address in it is fixed at capture: the buffers it uses
 * must stay live as long as it is launched. Closing releases it ({@code cuGraphExecDestroy},
 * {@code cuGraphDestroy}); a graph may not be closed while a launch of it is running.
 */
public interface DeviceGraph extends AutoCloseable {
    /** Kernel launches and device-to-device copies captured (the graph's work nodes). */
    int workNodes();

    /** Streams the capture spanned (the origin and every stream that joined it). */
    int streams();

    @Override
    void close();
}
