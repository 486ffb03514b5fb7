package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OnnxTensorFileTest {
    @TempDir
    Path dir;

    @Test
    void writesAndReadsBack() {
        Path p = dir.resolve("t.pb");
        OnnxTensorFile.write(p, "prob", TensorValue.ofFloats(new long[]{1, 3}, 0.5f, -2f, 1e-3f));
        OnnxTensorFile.NamedTensor t = OnnxTensorFile.read(p);
        assertThat(t.name()).isEqualTo("prob");
        assertThat(t.value().shape()).containsExactly(1, 3);
        assertThat(t.value().floats()).containsExactly(0.5f, -2f, 1e-3f);
    }

    @Test
    void everyElementTypeRoundTripsWithItsTrueSize() throws Exception {
        for (DType d : DType.values()) {
            TensorValue v = d.isIntegral()
                    ? TensorValue.ofLongs(d, new long[]{2, 3}, 0, 1, -1, 127, d == DType.I64 ? Long.MIN_VALUE : 255, d == DType.I64 ? (1L << 53) + 1 : -128)
                    : TensorValue.ofDoubles(d, new long[]{2, 3}, 0.5, -2, Double.NaN, Double.NEGATIVE_INFINITY, 65504, 1e-7);
            Path p = dir.resolve(d.jsonName() + ".pb");
            OnnxTensorFile.write(p, "t", v);
            OnnxMl.TensorProto raw = OnnxMl.TensorProto.parseFrom(Files.readAllBytes(p));
            assertThat(raw.getDataType()).as(d.jsonName()).isEqualTo(d.onnxCode());
            assertThat(raw.getRawData().size()).as(d.jsonName()).isEqualTo(d.byteSize(6));   // 6 x bytes, or ceil(6 x bits / 8) packed
            TensorValue back = OnnxTensorFile.read(p).value();
            assertThat(back).as(d.jsonName()).isEqualTo(v);
        }
    }

    @Test
    void readsTheTypedFieldsTheSpecAssignsEachType() throws Exception {
        Path p = dir.resolve("typed.pb");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(7).addDims(3).addInt64Data((1L << 53) + 1).addInt64Data(-5).addInt64Data(0).build().toByteArray());
        assertThat(OnnxTensorFile.read(p).value().longs()).containsExactly((1L << 53) + 1, -5, 0);
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(10).addDims(2).addInt32Data(0x3C00).addInt32Data(0xC000).build().toByteArray());
        assertThat(OnnxTensorFile.read(p).value().floats()).containsExactly(1f, -2f);
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(9).addDims(3).addInt32Data(1).addInt32Data(0).addInt32Data(1).build().toByteArray());
        TensorValue b = OnnxTensorFile.read(p).value();
        assertThat(b.dtype()).isEqualTo(DType.BOOL);
        assertThat(b.byteCount()).isEqualTo(3);
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(1).addDims(2).addFloatData(1.5f).addFloatData(-1).build().toByteArray());
        assertThat(OnnxTensorFile.read(p).value().floats()).containsExactly(1.5f, -1f);
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(3).addDims(2).addInt32Data(-3).addInt32Data(100).build().toByteArray());
        assertThat(OnnxTensorFile.read(p).value().longs()).containsExactly(-3, 100);
    }

    /** Values in raw_data and float_data both were read from raw_data (numpy_helper reads it; another reader may take float_data); the ONNX checker refuses it (frontdoor helper). */
    @Test
    void valuesInTwoFieldsAreRefusedNotReadFromOne() throws Exception {
        Path p = dir.resolve("both.pb");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(1).addDims(2).addFloatData(1).addFloatData(2)
                .setRawData(com.google.protobuf.ByteString.copyFrom(new byte[8])).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).isInstanceOf(OnnxException.class)
                .hasMessageContaining("both.pb").hasMessageContaining("holds values in raw_data and float_data; a tensor keeps its values in one field");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(7).addDims(1).addInt64Data(1).addInt32Data(1).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).hasMessageContaining("holds values in int32_data and int64_data");
    }

    @Test
    void countsAndTypesAreCheckedByName() throws Exception {
        Path p = dir.resolve("bad.pb");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(7).addDims(4).addInt64Data(1).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).isInstanceOf(OnnxException.class)
                .hasMessageContaining("bad.pb").hasMessageContaining("holds 1 values in its typed field (int64_data), but dims [4] need 4");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(7).addDims(4).setRawData(com.google.protobuf.ByteString.copyFrom(new byte[12])).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).hasMessageContaining("raw_data holds 12 B, but 4 elements of data_type 7 need 32 B");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(8).addDims(1).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).hasMessageContaining("bad.pb: data_type 8 (STRING) is not an element type arenaplan supports (a STRING tensor's elements are variable-length text, which no fixed-size device buffer holds)");
        // an ONNX model given where a tensor is expected (breaker10: it read "data_type 0 is not an element type")
        Files.write(p, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(OnnxMl.GraphProto.newBuilder().setName("g")).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).hasMessageContaining("bad.pb: data_type is 0 (UNDEFINED): not a TensorProto file");
        Files.write(p, OnnxMl.TensorProto.newBuilder().setDataType(1).addDims(1).setDataLocation(OnnxMl.TensorProto.DataLocation.EXTERNAL).build().toByteArray());
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).hasMessageContaining("data_location is EXTERNAL but external_data has no 'location'");
    }

    @Test
    void readsTheReferenceOutputOfASharedModel() {
        Path model = OnnxModelsTest.model("light_squeezenet.onnx");
        TensorValue t = OnnxTensorFile.read(model.resolveSibling("light_squeezenet_output_0.pb")).value();
        assertThat(t.elements()).isEqualTo(1000);
        for (float v : t.floats()) assertThat(v).isCloseTo(0.001f, org.assertj.core.api.Assertions.within(1e-6f));
    }

    @Test
    void aTruncatedTensorFileIsAClearError() throws Exception {
        Path p = dir.resolve("t.pb");
        OnnxTensorFile.write(p, "x", TensorValue.ofFloats(new long[]{4}, 1, 2, 3, 4));
        byte[] b = Files.readAllBytes(p);
        Files.write(p, java.util.Arrays.copyOf(b, b.length - 3));
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).isInstanceOf(OnnxException.class).hasMessageContaining("t.pb").hasMessageContaining("truncated");
    }
}
