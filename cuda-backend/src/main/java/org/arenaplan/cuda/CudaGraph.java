package org.arenaplan.cuda;

import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import org.arenaplan.device.DeviceGraph;

/** A captured and instantiated CUDA graph ({@code CUgraph} + {@code CUgraphExec}) of one {@link CudaDevice}. */
final class CudaGraph implements DeviceGraph {
    final CudaDevice device;
    final CUgraph graph;
    final CUgraphExec exec;
    private final int workNodes;
    private final int streams;
    private boolean closed;

    CudaGraph(CudaDevice device, CUgraph graph, CUgraphExec exec, int workNodes, int streams) {
        this.device = device;
        this.graph = graph;
        this.exec = exec;
        this.workNodes = workNodes;
        this.streams = streams;
    }

    @Override
    public int workNodes() {
        return workNodes;
    }

    @Override
    public int streams() {
        return streams;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        device.destroy(this);
    }
}
