package org.arenaplan.gpu;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import org.arenaplan.cuda.CudaInfo;

/**
 * OUTDIR/probe.json of a GPU run: what the CUDA probe found ({@link CudaInfo}), written by the
 * doctor step ({@code probe FILE}) so that {@code summarize} never loads the driver itself: a
 * driver that hangs in {@code cuInit} then costs the doctor step its limit, not the summary.
 * Fields: {@code cuda_available}, {@code unavailability_cause} (null when available),
 * {@code device}, {@code total_memory_bytes}, {@code compute_capability}, {@code driver_version}
 * (1000 * major + 10 * minor, 0 when unknown), {@code cublas}.
 */
final class ProbeFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ProbeFile() { }

    /** The probe's findings as the JSON object above. */
    static ObjectNode of(CudaInfo info) {
        ObjectNode o = JSON.createObjectNode();
        o.put("cuda_available", info.available());
        o.put("unavailability_cause", info.available() ? null : info.cause().getMessage());
        o.put("device", info.deviceName());
        o.put("total_memory_bytes", info.totalMemory());
        o.put("compute_capability", info.computeCapability());
        o.put("driver_version", info.driverVersion());
        o.put("cublas", info.cublas());
        return o;
    }

    /** Writes {@link #of(CudaInfo)} to {@code file}. @throws IOException when it cannot be written */
    static void write(CudaInfo info, Path file) throws IOException {
        JSON.writeValue(file.toFile(), of(info));
    }
}
