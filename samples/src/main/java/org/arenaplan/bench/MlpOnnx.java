package org.arenaplan.bench;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Writes a large ONNX model to measure what importing and running real weights costs on the
 * host: an MLP of {@code layers} Gemm+Relu layers of {@code width x width} float weights with
 * random values (+-1/sqrt(width)), in raw_data or, with {@code --external}, in one
 * {@code NAME.bin} beside the model ({@code data_location = EXTERNAL}).
 * Usage: {@code java -cp samples/target/arenaplan.jar org.arenaplan.bench.MlpOnnx OUT.onnx LAYERS WIDTH [--external]}.
 * Also writes {@code OUT_input_0.pb} ([1, width], seeded values).
 */
public final class MlpOnnx {
    private MlpOnnx() { }

    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].equals("--external"))) {
            System.err.println("usage: MlpOnnx OUT.onnx LAYERS WIDTH [--external]");
            System.exit(2);
        }
        GeneratorMain.runOrExit("MlpOnnx", () -> write(args));
    }

    private static void write(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        int layers = GeneratorMain.intArg(args, 1, "LAYERS", 1, 10_000);
        int width = GeneratorMain.intArg(args, 2, "WIDTH", 1, 16_384);   // one weight matrix: 4 x WIDTH^2 B, at most 1 GiB
        boolean external = args.length > 3;
        String stem = out.getFileName().toString().replaceFirst("\\.onnx$", "");
        Path bin = out.resolveSibling(stem + ".bin");
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("mlp" + layers + "x" + width);
        g.addInput(valueInfo("x", 1, width));
        SplittableRandom r = new SplittableRandom(42);
        double scale = 1 / Math.sqrt(width);
        long offset = 0;
        try (FileChannel data = external ? FileChannel.open(bin, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING) : null) {
            String x = "x";
            for (int l = 0; l < layers; l++) {
                ByteBuffer w = ByteBuffer.allocate(4 * width * width).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < width * width; i++) w.putFloat((float) ((2 * r.nextDouble() - 1) * scale));
                w.flip();
                OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName("w" + l).setDataType(1).addDims(width).addDims(width);
                if (external) {
                    long n = w.remaining();
                    while (w.hasRemaining()) data.write(w);
                    t.setDataLocation(OnnxMl.TensorProto.DataLocation.EXTERNAL)
                            .addExternalData(entry("location", bin.getFileName().toString()))
                            .addExternalData(entry("offset", Long.toString(offset)))
                            .addExternalData(entry("length", Long.toString(n)));
                    offset += n;
                } else {
                    t.setRawData(UnsafeByteOperations.unsafeWrap(w));
                }
                g.addInitializer(t);
                String y = l == layers - 1 ? "y" : "h" + l;
                g.addNode(OnnxMl.NodeProto.newBuilder().setName("fc" + l).setOpType("Gemm").addInput(x).addInput("w" + l).addOutput("g" + l)
                        .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("transB").setI(1).setType(OnnxMl.AttributeProto.AttributeType.INT)));
                g.addNode(OnnxMl.NodeProto.newBuilder().setName("relu" + l).setOpType("Relu").addInput("g" + l).addOutput(y));
                x = y;
            }
        }
        g.addOutput(valueInfo("y", 1, width));
        OnnxMl.ModelProto m = OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(13)).build();
        try (OutputStream os = Files.newOutputStream(out)) {
            m.writeTo(os);
        }
        ByteBuffer in = ByteBuffer.allocate(4 * width).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < width; i++) in.putFloat((float) r.nextDouble());
        OnnxMl.TensorProto input = OnnxMl.TensorProto.newBuilder().setName("x").setDataType(1).addDims(1).addDims(width)
                .setRawData(UnsafeByteOperations.unsafeWrap(in.flip())).build();
        try (OutputStream os = Files.newOutputStream(out.resolveSibling(stem + "_input_0.pb"))) {
            input.writeTo(os);
        }
        System.out.printf("wrote %s (%,d B)%s%n", out, Files.size(out), external ? String.format(" and %s (%,d B)", bin, Files.size(bin)) : "");
    }

    private static OnnxMl.StringStringEntryProto entry(String k, String v) {
        return OnnxMl.StringStringEntryProto.newBuilder().setKey(k).setValue(v).build();
    }

    private static OnnxMl.ValueInfoProto valueInfo(String name, long... dims) {
        OnnxMl.TensorShapeProto.Builder s = OnnxMl.TensorShapeProto.newBuilder();
        for (long d : dims) s.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        return OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(1).setShape(s))).build();
    }
}
