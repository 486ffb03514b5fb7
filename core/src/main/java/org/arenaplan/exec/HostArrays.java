package org.arenaplan.exec;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;

import java.util.Arrays;

/**
 * The host side of a graph's inputs and outputs: each value is one Java byte array
 * ({@code ir.TensorValue}), so it holds at most {@link #MAX_BYTES}. An input or output past that
 * cannot be given or read back; the executors refuse it before anything runs, naming it.
 */
final class HostArrays {
    private HostArrays() { }

    /** The most bytes one host value holds: the JVM's array limit (Integer.MAX_VALUE - 8, as {@code TensorValue.allocate} takes). */
    static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    /**
     * Refuses, before anything is allocated or run, a graph input or output too large for one host
     * array (a data-dependent output is checked at its actual shape when it is copied back,
     * {@link OutputCopy}: its upper bound may be past the limit while the actual shape is not).
     *
     * @throws ExecutionException naming the input or output, its shape and its bytes
     */
    static void check(Graph graph) {
        for (String in : graph.inputs()) {
            Tensor t = graph.tensor(in);
            if (t.bytes() > MAX_BYTES) throw new ExecutionException(tooLarge("graph input", in, t.shape(), t.bytes()));
        }
        for (String out : graph.outputs()) {
            Tensor t = graph.tensor(out);
            if (t.bytes() > MAX_BYTES && graph.bounded(out) == null) throw new ExecutionException(tooLarge("graph output", out, t.shape(), t.bytes()));
        }
    }

    /**
     * The one-line refusal of graph input or output {@code name}.
     *
     * @param what  "graph input" or "graph output"
     * @param shape its shape (a data-dependent output's actual one)
     * @param bytes its bytes, above {@link #MAX_BYTES}
     */
    static String tooLarge(String what, String name, long[] shape, long bytes) {
        return String.format("%s '%s' %s holds %,d B, more than the %,d B one host array holds (the JVM's array limit), so it cannot be %s the host",
                what, name, Arrays.toString(shape), bytes, MAX_BYTES, what.endsWith("input") ? "given from" : "copied back to");
    }
}
