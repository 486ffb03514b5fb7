package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.AttributeProto.AttributeType;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks that an AttributeProto holds its value where its {@code type} says, as the ONNX checker
 * does ({@code onnx/checker.cc} check_attribute: "type field and data field mismatch", "should not
 * contain more than one value field"), and that it is not a reference outside a function body
 * (onnx.proto AttributeProto.ref_attr_name: "This should ONLY be used in function (sub-graph).
 * It's invalid to be used in main graph."). Local functions are inlined before this runs, so a
 * {@code ref_attr_name} still present sits in the model's graph.
 *
 * <p>No value field at all is legal (proto3 writers drop a value equal to the field's default,
 * e.g. INT 0). A missing {@code type} is inferred from the one field set only in a model of IR
 * version 1: onnx.proto says of AttributeProto.type "this field MUST be present for this version of
 * the IR" (IR version 2 on), and onnx 1.23.1's {@code check_model} refuses a model of IR 3 or later
 * without it ("Field 'type' of 'attr' is required but missing", or "type field and data field
 * mismatch" when it is written as UNDEFINED).
 */
final class AttributeFields {
    private AttributeFields() { }

    /**
     * @param ir   the model's ir_version
     * @param what the file, node and attribute, for the message
     * @return the attribute's type: its {@code type}, or (IR 1 only) the one field set when {@code type} is UNDEFINED
     * @throws OnnxException naming {@code what} for a {@code ref_attr_name}, a value in a field of another
     *                       type, more than one value field, or {@code type} UNDEFINED at IR 2 or later
     */
    static AttributeType check(OnnxMl.AttributeProto a, long ir, String what) {
        if (a.hasRefAttrName() && !a.getRefAttrName().isEmpty())
            throw new OnnxException(what + " refers to attribute '" + a.getRefAttrName() + "' of an enclosing function (ref_attr_name), outside any function body"
                    + " (onnx.proto: ref_attr_name is only used in a function; invalid in the main graph)");
        List<AttributeType> set = new ArrayList<>(1);
        if (a.hasF()) set.add(AttributeType.FLOAT);
        if (a.hasI()) set.add(AttributeType.INT);
        if (a.hasS()) set.add(AttributeType.STRING);
        if (a.hasT()) set.add(AttributeType.TENSOR);
        if (a.hasG()) set.add(AttributeType.GRAPH);
        if (a.hasSparseTensor()) set.add(AttributeType.SPARSE_TENSOR);
        if (a.hasTp()) set.add(AttributeType.TYPE_PROTO);
        if (a.getFloatsCount() > 0) set.add(AttributeType.FLOATS);
        if (a.getIntsCount() > 0) set.add(AttributeType.INTS);
        if (a.getStringsCount() > 0) set.add(AttributeType.STRINGS);
        if (a.getTensorsCount() > 0) set.add(AttributeType.TENSORS);
        if (a.getGraphsCount() > 0) set.add(AttributeType.GRAPHS);
        if (a.getSparseTensorsCount() > 0) set.add(AttributeType.SPARSE_TENSORS);
        if (a.getTypeProtosCount() > 0) set.add(AttributeType.TYPE_PROTOS);
        AttributeType type = a.getType();
        for (AttributeType field : set)
            if (type != AttributeType.UNDEFINED && field != type)
                throw new OnnxException(what + " is " + type + " but holds a " + field + " value (its " + field(field) + " field is set)"
                        + "; type and value field disagree (the ONNX checker: type field and data field mismatch)");
        if (set.size() > 1)
            throw new OnnxException(what + " holds " + set.size() + " values (" + set + "); an attribute has one value field (the ONNX checker refuses more)");
        if (type == AttributeType.UNDEFINED && ir >= 2)
            throw new OnnxException(what + " has no type (UNDEFINED)" + (set.isEmpty() ? "" : " but a value in its " + field(set.get(0)) + " field")
                    + "; from IR version 2 on AttributeProto.type must be set (onnx.proto; the ONNX checker refuses it), and this model is IR " + ir);
        return type == AttributeType.UNDEFINED && !set.isEmpty() ? set.get(0) : type;
    }

    /** The AttributeProto field that holds a value of this type (onnx.proto). */
    private static String field(AttributeType t) {
        return switch (t) {
            case FLOAT -> "f";
            case INT -> "i";
            case STRING -> "s";
            case TENSOR -> "t";
            case GRAPH -> "g";
            case SPARSE_TENSOR -> "sparse_tensor";
            case TYPE_PROTO -> "tp";
            case FLOATS -> "floats";
            case INTS -> "ints";
            case STRINGS -> "strings";
            case TENSORS -> "tensors";
            case GRAPHS -> "graphs";
            case SPARSE_TENSORS -> "sparse_tensors";
            case TYPE_PROTOS -> "type_protos";
            default -> t.toString();
        };
    }
}
