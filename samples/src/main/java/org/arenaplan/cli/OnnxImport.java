package org.arenaplan.cli;

import org.arenaplan.ir.Graph;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * Reads an ONNX model into a graph. The command line finds an implementation with
 * {@link ServiceLoader} (a {@code META-INF/services/org.arenaplan.cli.OnnxImport} entry), so the
 * importer can live in any module on the class path; without one, {@code .onnx} input is refused
 * with a clear message.
 */
public interface OnnxImport {
    Graph read(Path file) throws IOException;

    /** The importer on the class path, or one that refuses every file. */
    static OnnxImport find() {
        return ServiceLoader.load(OnnxImport.class).findFirst().orElse(file -> {
            throw new org.arenaplan.io.InputException(file + ": ONNX import is not available in this build");
        });
    }
}
