package org.arenaplan.ir;

import java.nio.ByteBuffer;

/**
 * The values of one weight as they are in the model: {@link #read()} returns the tensor's
 * elements in its {@link DType}, little-endian, row-major, exactly {@code Tensor.bytes()} long.
 * Reading is deferred to whoever fills the weight region, so a graph holds no weight bytes of
 * its own (an importer's source may be a memory-mapped file). Each call may return a fresh
 * buffer; callers read it once and drop it, so the host holds one weight at a time.
 */
@FunctionalInterface
public interface WeightValues {
    /**
     * @return a little-endian buffer positioned at 0 whose remaining bytes are the weight
     * @throws GraphException when the values cannot be read (e.g. an external data file vanished)
     */
    ByteBuffer read();
}
