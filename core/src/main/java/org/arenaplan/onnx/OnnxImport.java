package org.arenaplan.onnx;

import java.util.Set;

/**
 * How one ONNX op type (default domain) is imported: declared with the registry entry of the kind
 * it becomes, in {@code org.arenaplan.ops}.
 *
 * @param opType     the ONNX op type
 * @param kind       the registry kind it imports as ({@code org.arenaplan.ir.OpRegistry}); its
 *                   attribute defaults are the ones {@link NodeContext#integer(String)} reads
 * @param sinceOpset the first opset of the default domain that has the op type (ONNX
 *                   Operators.md, "since version"); older models are refused with that reason
 * @param attributes every ONNX attribute the op type may carry: its kind's registry attributes
 *                   plus those consumed at import (e.g. auto_pad); any other is refused
 * @param internal   those of {@code attributes} the importer sets itself (arenaplan's own, never
 *                   in a file's node): not named among what the op type takes in a refusal
 * @param importer   attribute and version handling and shape inference
 */
public record OnnxImport(String opType, String kind, long sinceOpset, Set<String> attributes, Set<String> internal, Importer importer) {
    public OnnxImport {
        attributes = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(attributes));   // file order for messages
        internal = Set.copyOf(internal);
    }

    /** Lowers one node to an ir op with inferred output shapes; errors via {@link NodeContext#error}. */
    @FunctionalInterface
    public interface Importer {
        Lowered lower(NodeContext n);
    }
}
