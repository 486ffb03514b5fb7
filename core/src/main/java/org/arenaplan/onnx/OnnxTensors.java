package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl.StringStringEntryProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.WeightValues;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The values of an ONNX {@code TensorProto} as the little-endian bytes of its element type, from
 * wherever the file keeps them (ONNX IR spec, "Tensor" and "External Tensor Data"):
 * <ul>
 *   <li>{@code raw_data}: used as is (a view, no copy, when the model was memory-mapped);</li>
 *   <li>the typed fields: {@code float_data} (FLOAT), {@code int32_data} (INT32, INT16, INT8,
 *       UINT8, BOOL, and FLOAT16/BFLOAT16 and the four FLOAT8 types as bit patterns, one element
 *       per int32, as onnx.proto says; UINT4, INT4, FLOAT4E2M1, UINT2 and INT2 as their packed
 *       bytes, one byte per int32, as onnx's numpy_helper.to_array reads them), {@code int64_data} (INT64),
 *       {@code double_data} (DOUBLE), {@code uint64_data} (UINT32, UINT64), packed to bytes when read;</li>
 *   <li>external data ({@code data_location = EXTERNAL}): {@code location} relative to the model's
 *       folder and confined to it ({@link #confine}), {@code offset} and {@code length} in bytes,
 *       mapped from that file when read.</li>
 * </ul>
 * {@link #check} verifies at import that the values are all there (element count, byte length,
 * the external file's extent) without reading them; {@link #source} reads them later.
 */
final class OnnxTensors {
    private OnnxTensors() { }

    /** Bytes per element of an ONNX element type; 0 for types without a fixed width (STRING, 4-bit, unknown). */
    static int width(int dataType) {
        return switch (dataType) {
            case OnnxDTypes.FLOAT, OnnxDTypes.INT32, OnnxDTypes.UINT32 -> 4;
            case OnnxDTypes.INT64, OnnxDTypes.DOUBLE, OnnxDTypes.UINT64 -> 8;
            case OnnxDTypes.UINT8, OnnxDTypes.INT8, OnnxDTypes.BOOL, OnnxDTypes.FLOAT8E4M3FN, OnnxDTypes.FLOAT8E4M3FNUZ, OnnxDTypes.FLOAT8E5M2,
                 OnnxDTypes.FLOAT8E5M2FNUZ, OnnxDTypes.FLOAT8E8M0 -> 1;
            case OnnxDTypes.INT16, OnnxDTypes.UINT16, OnnxDTypes.FLOAT16, OnnxDTypes.BFLOAT16 -> 2;
            default -> 0;
        };
    }

    /** The packed sub-byte type of an ONNX code (UINT4, INT4, FLOAT4E2M1, UINT2, INT2), else null. */
    static DType packed(int dataType) {
        DType d = DType.ofOnnx(dataType);
        return d != null && d.isPacked() ? d : null;
    }

    /** The product of {@code t}'s dims; {@code what} names the tensor in errors. */
    private static long elementCount(TensorProto t, String what) {
        long n = 1;
        for (long d : t.getDimsList()) {
            if (d < 0) throw new OnnxException(what + ": dims " + t.getDimsList() + " have a negative extent");
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /**
     * Checks that {@code t} carries all its values and returns where to read them; null when its
     * element type has no fixed width (its values cannot be read).
     *
     * @param dir  the model's folder, against which external {@code location}s resolve
     * @param what names the tensor in errors (file, initializer or attribute)
     * @throws OnnxException naming {@code what} and the field or external file at fault
     */
    static WeightValues check(TensorProto t, Path dir, String what) {
        int width = width(t.getDataType());
        DType packed = packed(t.getDataType());
        if (width == 0 && packed == null) return null;
        long count;
        long bytes;
        try {
            count = elementCount(t, what);
            bytes = packed != null ? packed.byteSize(count) : Math.multiplyExact(count, width);
        } catch (ArithmeticException e) {
            throw new OnnxException(what + ": its size (dims " + t.getDimsList() + ", " + width + " B each) overflows a long");
        }
        if (t.hasDataLocation() && t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
            WeightValues ext = external(t, dir, what, bytes);
            return bytes > MAX_BYTES ? new TooLarge(what, bytes) : ext;
        }
        java.util.List<String> fields = valueFields(t);
        if (fields.size() > 1)   // which would hold the values? (numpy_helper.to_array reads raw_data, another reader the typed field)
            throw new OnnxException(what + ": holds values in " + String.join(" and ", fields)
                    + "; a tensor keeps its values in one field (as ONNX's checker requires: one and only one value field)");
        if (t.hasRawData()) {
            ByteBuffer raw = t.getRawData().asReadOnlyByteBuffer();
            if (raw.remaining() != bytes)
                throw new OnnxException(what + ": raw_data holds " + raw.remaining() + " B, but " + count + " elements of data_type " + t.getDataType()
                        + (packed != null ? " (" + packed.jsonName() + ", " + (8 / packed.bits()) + " per byte)" : "") + " need " + bytes + " B");
            return () -> t.getRawData().asReadOnlyByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
        }
        int typed = typedCount(t);
        if (packed != null) {          // int32_data holds the packed bytes, one per int32 (numpy_helper.to_array)
            if (typed != bytes)
                throw new OnnxException(what + ": holds " + typed + " values in int32_data, but " + count + " elements of " + packed.jsonName()
                        + " (data_type " + t.getDataType() + ") pack into " + bytes + " B, one per int32");
            return () -> packTyped(t, (int) bytes);
        }
        if (typed != count && !(count == 0 && typed == 0))
            throw new OnnxException(what + ": holds " + typed + " values in its typed field (" + typedField(t.getDataType()) + "), but dims " + t.getDimsList() + " need " + count);
        return () -> packTyped(t, (int) bytes);
    }

    /** The most bytes one weight's values may hold: one {@link ByteBuffer}, as {@link FileChannel#map} maps at most. */
    static final long MAX_BYTES = Integer.MAX_VALUE;

    /**
     * The values of an external tensor past {@link #MAX_BYTES}: it imports and plans (its bytes
     * count in the weight region), but its values cannot be read into one buffer, so reading them
     * (filling the weights to run) is refused naming it. {@link #uniform} does not read it.
     */
    record TooLarge(String what, long bytes) implements WeightValues {
        @Override
        public ByteBuffer read() {
            throw new OnnxException(String.format("%s holds %,d B of external data, more than the %,d B arenaplan reads as one buffer (a Java ByteBuffer),"
                    + " so its values cannot be read: plan the model, but it cannot run", what, bytes, MAX_BYTES));
        }
    }

    /** The keys of {@code external_data} (onnx.proto, TensorProto.external_data). */
    private static final java.util.List<String> EXTERNAL_KEYS = java.util.List.of("location", "offset", "length", "checksum");

    private static WeightValues external(TensorProto t, Path dir, String what, long bytes) {
        java.util.List<String> inline = valueFields(t);
        if (!inline.isEmpty())
            throw new OnnxException(what + ": data_location is EXTERNAL but it holds values in " + inline.get(0)
                    + " too; a tensor keeps its values in one place (as ONNX's checker requires)");
        String location = null;
        long offset = 0, length = -1;
        java.util.Set<String> given = new java.util.HashSet<>();
        for (StringStringEntryProto e : t.getExternalDataList()) {
            if (!EXTERNAL_KEYS.contains(e.getKey()))      // a misspelt 'offest' would read the weight from offset 0
                throw new OnnxException(what + ": external_data key '" + e.getKey() + "' is none of " + EXTERNAL_KEYS
                        + " (onnx.proto; ONNX Runtime refuses it too)");
            if (!given.add(e.getKey())) throw new OnnxException(what + ": external_data gives '" + e.getKey() + "' twice");
            try {
                switch (e.getKey()) {
                    case "location" -> location = e.getValue();
                    case "offset" -> offset = Long.parseLong(e.getValue());
                    case "length" -> length = Long.parseLong(e.getValue());
                    default -> { }
                }
            } catch (NumberFormatException x) {
                throw new OnnxException(what + ": external_data '" + e.getKey() + "' is not a number: '" + e.getValue() + "'");
            }
        }
        if (location == null || location.isEmpty()) throw new OnnxException(what + ": data_location is EXTERNAL but external_data has no 'location'");
        if (offset < 0) throw new OnnxException(what + ": external_data offset " + offset + " is negative");
        if (length < -1 || (length == -1 && hasKey(t, "length"))) throw new OnnxException(what + ": external_data length " + length + " is negative");
        if (length >= 0 && length != bytes)
            throw new OnnxException(what + ": external_data length " + length + " B, but its dims " + t.getDimsList() + " and data_type " + t.getDataType() + " need " + bytes + " B");
        Path file = confine(location, dir == null ? Path.of("") : dir, what);
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot read (external data of " + what + "): " + e.getMessage(), e);
        }
        if (offset > size || bytes > size - offset)
            throw new OnnxException(file + ": holds " + size + " B, but " + what + " needs bytes " + offset + ".." + (offset + bytes) + " (external data is short)");
        long off = offset;
        return () -> map(file, off, bytes, what);
    }

    private static boolean hasKey(TensorProto t, String key) {
        for (StringStringEntryProto e : t.getExternalDataList()) if (e.getKey().equals(key)) return true;
        return false;
    }

    /**
     * The file an external {@code location} names, confined to the model's folder as ONNX's checker
     * does ({@code onnx/checker.cc}, {@code resolve_external_data_location}): the location must be
     * relative, have no {@code ..} component, and name an existing regular file inside
     * {@code dir}; a symbolic link is followed only when its target lies inside {@code dir} too.
     * So a model cannot make the importer read {@code /etc/passwd} or {@code ../../secret} as weights.
     *
     * @return the file's real path (symbolic links resolved)
     * @throws OnnxException naming {@code what}, the location and the rule it breaks
     */
    static Path confine(String location, Path dir, String what) {
        String bad = location.startsWith("/") || location.startsWith("\\") || location.matches("^[A-Za-z]:.*") ? "is absolute"
                : Arrays.asList(location.split("[/\\\\]")).contains("..") ? "has a '..' component"
                : null;
        if (bad != null)
            throw new OnnxException(what + ": external_data location '" + location + "' " + bad
                    + "; it must be a relative path to a file inside the model's folder (as ONNX's checker requires)");
        Path base = dir.toAbsolutePath().normalize();
        Path file;
        try {
            file = base.resolve(location).normalize();
        } catch (InvalidPathException e) {
            throw new OnnxException(what + ": external_data location '" + location + "' is not a valid path: " + e.getReason());
        }
        if (file.equals(base))
            throw new OnnxException(what + ": external_data location '" + location + "' names the model's folder " + base + " itself; it must name a file in it");
        if (!file.startsWith(base))
            throw new OnnxException(what + ": external_data location '" + location + "' lies outside the model's folder " + base);
        if (!Files.exists(file)) throw new OnnxException(file + ": no such file (external data of " + what + ")");
        if (!Files.isRegularFile(file))
            throw new OnnxException(file + ": " + (Files.isDirectory(file) ? org.arenaplan.io.TextFiles.FOLDER_NOT_FILE : "not a regular file") + " (external data of " + what + ")");
        Path real;
        try {
            real = file.toRealPath();
            if (!real.startsWith(base.toRealPath()))
                throw new OnnxException(file + ": a symbolic link to " + real + ", outside the model's folder " + base + " (external data of " + what + ")");
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot read (external data of " + what + "): " + e.getMessage(), e);
        }
        return real;
    }

    private static ByteBuffer map(Path file, long offset, long bytes, String what) {
        if (bytes == 0) return ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (ch.size() < offset + bytes)
                throw new OnnxException(file + ": holds " + ch.size() + " B, but " + what + " needs bytes " + offset + ".." + (offset + bytes) + " (external data is short)");
            return ch.map(FileChannel.MapMode.READ_ONLY, offset, bytes).order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot read (external data of " + what + "): " + e.getMessage(), e);
        }
    }

    /** The fields of {@code t} that hold values, in onnx.proto's order: raw_data, then the typed ones that are not empty. */
    private static java.util.List<String> valueFields(TensorProto t) {
        java.util.List<String> f = new java.util.ArrayList<>();
        if (t.hasRawData()) f.add("raw_data");
        if (t.getFloatDataCount() > 0) f.add("float_data");
        if (t.getInt32DataCount() > 0) f.add("int32_data");
        if (t.getStringDataCount() > 0) f.add("string_data");
        if (t.getInt64DataCount() > 0) f.add("int64_data");
        if (t.getDoubleDataCount() > 0) f.add("double_data");
        if (t.getUint64DataCount() > 0) f.add("uint64_data");
        return f;
    }

    private static int typedCount(TensorProto t) {
        return switch (t.getDataType()) {
            case OnnxDTypes.FLOAT -> t.getFloatDataCount();
            case OnnxDTypes.INT64 -> t.getInt64DataCount();
            case OnnxDTypes.DOUBLE -> t.getDoubleDataCount();
            case OnnxDTypes.UINT32, OnnxDTypes.UINT64 -> t.getUint64DataCount();
            default -> t.getInt32DataCount();
        };
    }

    private static String typedField(int dataType) {
        return switch (dataType) {
            case OnnxDTypes.FLOAT -> "float_data";
            case OnnxDTypes.INT64 -> "int64_data";
            case OnnxDTypes.DOUBLE -> "double_data";
            case OnnxDTypes.UINT32, OnnxDTypes.UINT64 -> "uint64_data";
            default -> "int32_data";
        };
    }

    /** The typed field's values packed as the element type's little-endian bytes. */
    private static ByteBuffer packTyped(TensorProto t, int bytes) {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        switch (t.getDataType()) {
            case OnnxDTypes.FLOAT -> t.getFloatDataList().forEach(b::putFloat);
            case OnnxDTypes.INT64, OnnxDTypes.UINT64 -> (t.getDataType() == OnnxDTypes.INT64 ? t.getInt64DataList() : t.getUint64DataList()).forEach(b::putLong);
            case OnnxDTypes.UINT32 -> t.getUint64DataList().forEach(v -> b.putInt((int) (long) v));
            case OnnxDTypes.DOUBLE -> t.getDoubleDataList().forEach(b::putDouble);
            case OnnxDTypes.INT32 -> t.getInt32DataList().forEach(b::putInt);
            case OnnxDTypes.INT16, OnnxDTypes.UINT16, OnnxDTypes.FLOAT16, OnnxDTypes.BFLOAT16 -> t.getInt32DataList().forEach(v -> b.putShort((short) (int) v));
            default -> t.getInt32DataList().forEach(v -> b.put((byte) (int) v));
        }
        return b.flip();
    }

    /** All elements widened to doubles (for constants known at import: shapes, axes, scalars). */
    static double[] doubles(WeightValues source, DType type, long count) {
        ByteBuffer b = source.read();
        double[] out = new double[Math.toIntExact(count)];
        for (int i = 0; i < out.length; i++) out[i] = type.getDouble(b, i);
        return out;
    }

    /**
     * The value every element holds when all are bitwise equal (compared as raw bytes, stopping
     * at the first difference), else null; null also for an empty tensor, for a packed type and
     * for an integer a double does not hold exactly (an int64 or uint64 beyond 2^53), which stays
     * values so that it is read bit for bit.
     */
    static Double uniform(WeightValues source, DType type) {
        if (type.isPacked()) return null;          // several elements per byte, the last one padded: kept as values
        if (source instanceof TooLarge) return null;   // not read: its values stay where they are
        ByteBuffer b = source.read();
        int width = type.bytes();
        int n = b.remaining() / width;
        if (n == 0) return null;
        for (int i = 1; i < n; i++)
            for (int k = 0; k < width; k++)
                if (b.get(i * width + k) != b.get(k)) return null;
        double d = type.getDouble(b, 0);
        if (type.isIntegral() && DType.toIntegral(d, type) != type.getLong(b, 0)) return null;   // an int64 beyond 2^53: a double fill would round it
        return d;
    }
}
