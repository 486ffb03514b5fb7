package org.arenaplan.onnx;

import java.util.List;

/**
 * The source of {@link NodeLowering}'s dispatch and of the supported-op list refusals print,
 * found with {@link java.util.ServiceLoader}: {@code org.arenaplan.ops.Operators}.
 */
public interface OnnxOpTable {
    /** One entry per supported ONNX op type. */
    List<OnnxImport> imports();
}
