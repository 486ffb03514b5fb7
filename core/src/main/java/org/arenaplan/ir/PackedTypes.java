package org.arenaplan.ir;


import java.util.Set;

/**
 * Which ops take the packed sub-byte element types (UINT4, INT4, FLOAT4E2M1, UINT2, INT2;
 * {@link DType#isPacked}): several elements share a byte, so an op that addresses elements by
 * byte offset (every copy, index, layout and arithmetic kernel) would read or write the wrong
 * bits. Only the kernels that address packed elements bit by bit take them: {@code cast} (ONNX
 * Cast, CastLike) and {@code quantize} (QuantizeLinear, DequantizeLinear). Every other op on a
 * packed tensor is refused with one line naming the op, the tensor and its type.
 */
public final class PackedTypes {
    private PackedTypes() { }

    /** Graph op kinds whose kernels address packed elements. */
    public static final Set<String> KINDS = Set.of("Cast", "QuantizeLinear", "DequantizeLinear");

    /** ONNX op types taken on packed tensors: the kinds above, CastLike (imported as Cast), Constant and the shape-only Shape and Size. */
    public static final Set<String> ONNX_TYPES = Set.of("Cast", "CastLike", "QuantizeLinear", "DequantizeLinear", "Constant", "Shape", "Size");

    /** The opset from which ONNX Cast, CastLike, QuantizeLinear and DequantizeLinear list packed type {@code t}: 21 (uint4, int4), 23 (float4e2m1), 25 (uint2, int2). */
    public static int sinceOpset(DType t) {
        return t == DType.F4E2M1 ? 23 : t.bits() == 2 ? 25 : 21;
    }

    /** The refusal for op kind {@code kind} on tensor {@code tensor} of packed type {@code t}. */
    public static String refusal(String kind, String tensor, DType t) {
        return "'" + tensor + "' is " + t.jsonName() + ", a packed sub-byte type (" + (8 / t.bits()) + " elements per byte), which " + kind
                + " does not take (only Cast, CastLike, QuantizeLinear and DequantizeLinear do)";
    }
}
