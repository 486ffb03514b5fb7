package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

import java.util.Arrays;
import java.util.List;

/**
 * Checks the value given for a sequence or optional graph input against the type the model
 * declares for it, as a tensor input's value is checked against its element type and shape: each
 * tensor it holds must have the declared element type (TypeProto {@code tensor_type.elem_type}) and,
 * where the declaration has a shape, its rank and every fixed dimension ({@code dim_value}; a
 * symbolic {@code dim_param} takes any extent); an optional declared to hold a tensor must not
 * hold a sequence, nor one declared to hold a sequence a tensor. ONNX IR (onnx.proto, TypeProto):
 * a value must conform to its declared type; ONNX Runtime refuses an input of another type.
 * Where the model does not declare the element type, anything is taken.
 */
final class GivenValueCheck {
    private GivenValueCheck() { }

    /**
     * @param file     the model, for messages
     * @param declared the graph input as the file declares it (a sequence or an optional)
     * @param given    the value given for it, already of the declared kind
     * @throws OnnxException naming the model, the input and the element that does not conform
     */
    static void check(String file, OnnxModel.ValueInfo declared, OnnxValue given) {
        OnnxModel.ValueInfo e = declared.element();
        if (e == null) return;
        String what = file + ": graph input '" + declared.name() + "'";
        if (given instanceof OnnxValue.Optional o) {
            if (o.element() instanceof OnnxValue.Sequence s) {
                if (!"a sequence".equals(e.notTensor())) throw new OnnxException(what + " is declared an optional holding " + kind(e) + " but the value given holds " + s.describe());
                elements(what, e.element(), s.tensors());
            } else if (o.element() instanceof OnnxValue.Tensor t) {
                if (e.notTensor() != null) throw new OnnxException(what + " is declared an optional holding " + kind(e) + " but the value given holds a tensor");
                tensor(what + " (its tensor)", e, t.value(), false);
            }
            return;
        }
        if (e.notTensor() != null) throw new OnnxException(what + " is declared a sequence whose elements are each " + kind(e) + " but the value given holds tensors");
        elements(what, e, ((OnnxValue.Sequence) given).tensors());
    }

    private static void elements(String what, OnnxModel.ValueInfo e, List<TensorValue> tensors) {
        if (e == null) return;
        if (e.notTensor() != null) throw new OnnxException(what + " is declared to hold a sequence whose elements are each " + kind(e) + " but the value given holds tensors");
        for (int i = 0; i < tensors.size(); i++) tensor(what + " element " + i, e, tensors.get(i), true);
    }

    private static void tensor(String what, OnnxModel.ValueInfo e, TensorValue t, boolean inSequence) {
        DType want = e.elemType() == 0 ? null : DType.ofOnnx(e.elemType());
        String container = inSequence ? "a sequence of tensors" : "an optional holding a tensor";
        if (e.elemType() != 0 && want != t.dtype())
            throw new OnnxException(what + " holds " + t.dtype().jsonName() + " values, but the model declares " + container + " of element type "
                    + (want == null ? "ONNX data_type " + e.elemType() : want.jsonName()));
        if (!e.hasShape() || t.shape() == null) return;
        long[] s = t.shape();
        boolean ok = s.length == e.dims().size();
        for (int d = 0; ok && d < s.length; d++) ok = e.dims().get(d).value() == null || e.dims().get(d).value() == s[d];
        if (!ok) throw new OnnxException(what + " is " + Arrays.toString(s) + ", but the model declares " + container + " of shape " + shape(e));
    }

    private static String kind(OnnxModel.ValueInfo e) {
        return e.notTensor() == null ? "a tensor" : e.notTensor();
    }

    private static String shape(OnnxModel.ValueInfo e) {
        StringBuilder b = new StringBuilder("[");
        for (OnnxModel.Dim d : e.dims()) b.append(b.length() > 1 ? ", " : "").append(d.value() != null ? d.value().toString() : d.param().isEmpty() ? "?" : d.param());
        return b.append(']').toString();
    }
}
