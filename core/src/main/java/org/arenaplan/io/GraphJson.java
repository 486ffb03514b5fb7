package org.arenaplan.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKindSpelling;
import org.arenaplan.ir.Tensor;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The graph file format {@code "arenaplan-graph/1"}: tensors (bytes and/or dtype and shape),
 * ops in schedule order (kind, inputs, outputs, stream, attrs, views, members, in-place hints),
 * graph inputs with a donated flag, outputs, and weights with an optional constant fill.
 * Reading validates the graph with {@link GraphBuilder}; every fault is an
 * {@link InputException} naming the file and the JSON path (or the op/tensor) at fault.
 */
public final class GraphJson {
    public static final String FORMAT = "arenaplan-graph/1";

    private static final Set<String> TOP = Set.of("format", "name", "tensors", "inputs", "outputs", "weights", "ops");
    private static final Set<String> TENSOR = Set.of("name", "bytes", "dtype", "shape");
    private static final Set<String> INPUT = Set.of("name", "donated");
    private static final Set<String> WEIGHT = Set.of("name", "fill");

    /**
     * A weight's {@code fill} is converted to its element type as Cast converts, so a value the
     * type cannot hold would silently become another one (300 in i8 wraps to 44, 1.5 in an integer
     * type rounds, 1e6 in f16 overflows to infinity): bad input naming the path. Integer and bool
     * types take integers in their range; float types any value up to their largest finite one
     * (rounding below it is the type's precision). Infinity and NaN stay allowed where the type has them.
     */
    private static void requireFillsFit(JsonReading r, JsonNode weights, Graph g) {
        for (int i = 0; i < weights.size(); i++) {
            JsonNode w = weights.get(i);
            if (!w.has("fill")) continue;
            String name = w.get("name").asText();
            double fill = w.get("fill").asDouble();
            DType t = g.tensor(name).dtype() == null ? DType.F32 : g.tensor(name).dtype();
            double[] range = t.range();
            boolean integer = t.isIntegral() || t.isPackedInteger();
            boolean fits = integer ? fill == Math.rint(fill) && fill >= range[0] && fill <= range[1]
                    : Double.isNaN(fill) || Double.isInfinite(fill) || (fill >= range[0] && fill <= range[1]);
            if (fits && integer && !exactIntegerFill(w.get("fill"), fill, t))
                throw r.fail("$.weights[" + i + "].fill", w.get("fill").asText() + " does not fit weight '" + Printable.name(name) + "' of type " + t.jsonName()
                        + " exactly: a fill is read as a double, which holds every integer up to 2^53 (9007199254740992) but not this one (it reads "
                        + new BigDecimal(fill).toPlainString() + ")");
            if (!fits)
                throw r.fail("$.weights[" + i + "].fill", w.get("fill").asText() + " does not fit weight '" + Printable.name(name) + "' of type " + t.jsonName() + " ("
                        + (integer ? "integers " + (long) range[0] + " to " + (t == DType.U64 ? "18446744073709551615" : String.valueOf((long) range[1]))
                        : "at most " + range[1] + " in magnitude") + "); it would be converted as Cast converts, to another value");
        }
    }

    /**
     * Whether an integer fill the range check passed is the double it was read as, exactly, and
     * inside the type's range counted exactly: int64 and uint64 ranges end past 2^53, where a
     * double rounds (2^63 reads as a double inside int64's range as doubles compare it; 2^53 + 1
     * reads as 2^53).
     */
    private static boolean exactIntegerFill(JsonNode node, double fill, DType t) {
        BigDecimal written;
        try {
            written = new BigDecimal(node.asText());
        } catch (NumberFormatException e) {
            return false;
        }
        if (written.compareTo(new BigDecimal(fill)) != 0) return false;
        if (t == DType.I64) return written.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0 && written.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
        if (t == DType.U64) return written.signum() >= 0 && written.compareTo(new BigDecimal("18446744073709551615")) <= 0;
        return true;
    }

    private static final Set<String> OP = Set.of("name", "kind", "inputs", "outputs", "stream", "attrs", "views", "members", "inplace");
    private static final Set<String> VIEW = Set.of("output", "input", "byte_offset");
    private static final Set<String> INPLACE = Set.of("output", "input");

    private GraphJson() { }

    /**
     * Reads a graph JSON file (UTF-8; a leading byte-order mark dropped; format in docs/cli.md).
     *
     * @throws InputException naming the file and the JSON path of the field at fault, for text
     *         that is not UTF-8, not JSON, not this format, or not a valid graph
     * @throws IOException when the file cannot be read
     */
    public static Graph read(Path file) throws IOException {
        try (Reader in = TextFiles.open(file)) {
            return read(in, file.toString());
        }
    }

    /**
     * As {@link #read(Path)}, from a reader.
     *
     * @param source the name errors give for the text (a file name)
     * @throws InputException naming {@code source} and the JSON path of the field at fault
     * @throws IOException when the reader fails
     */
    public static Graph read(Reader in, String source) throws IOException {
        JsonReading r = new JsonReading(source);
        JsonNode root = r.parse(in);
        r.requireFormat(root, FORMAT);
        r.onlyFields(root, "$", TOP);
        String name = r.optionalText(root, "$", "name");
        GraphBuilder b = new GraphBuilder(name == null ? "graph" : name);
        try {
            readTensors(r, root, b);
            JsonNode inputs = r.array(root, "$", "inputs", false);
            for (int i = 0; i < inputs.size(); i++) {
                String path = "$.inputs[" + i + "]";
                r.onlyFields(inputs.get(i), path, INPUT);
                b.input(r.text(inputs.get(i), path, "name"), r.flag(inputs.get(i), path, "donated", false));
            }
            JsonNode weights = r.array(root, "$", "weights", false);
            for (int i = 0; i < weights.size(); i++) {
                String path = "$.weights[" + i + "]";
                JsonNode w = weights.get(i);
                r.onlyFields(w, path, WEIGHT);
                String t = r.text(w, path, "name");
                if (w.has("fill")) b.weight(t, r.number(w, path, "fill"));
                else b.weight(t);
            }
            JsonNode outputs = r.array(root, "$", "outputs", false);
            for (int i = 0; i < outputs.size(); i++) b.output(r.textAt(outputs, i, "$.outputs"));
            JsonNode ops = r.array(root, "$", "ops", true);
            for (int i = 0; i < ops.size(); i++) b.add(readOp(r, ops.get(i), "$.ops[" + i + "]", i));
            Graph g = b.build();
            requireUsed(g, source);
            requireFillsFit(r, weights, g);
            return g;
        } catch (GraphException e) {
            throw new InputException(source + ": " + e.getMessage(), e);
        }
    }

    /**
     * A declared tensor that no op writes or reads and that is no graph input, weight or output
     * would still get bytes in the arena (a storage of its own); it is a fault of the file (a
     * misspelt name, an op left out), not something to plan.
     */
    private static void requireUsed(Graph g, String source) {
        Set<String> used = new HashSet<>(g.weights());
        for (Op op : g.ops()) {
            used.addAll(op.inputs());
            used.addAll(op.outputs());
        }
        int i = 0;
        for (String t : g.tensors().keySet()) {
            if (!used.contains(t) && !g.isInput(t) && !g.isOutput(t))
                throw new InputException(source + ": $.tensors[" + i + "]: tensor '" + Printable.name(t) + "' is declared but no op writes or reads it,"
                        + " and it is no graph input, weight or output");
            i++;
        }
    }

    /**
     * As {@link #read(Reader, String)}, from a string.
     *
     * @throws InputException naming {@code source} and the JSON path of the field at fault
     */
    public static Graph parse(String json, String source) {
        try {
            return read(new StringReader(json), source);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void readTensors(JsonReading r, JsonNode root, GraphBuilder b) {
        JsonNode tensors = r.array(root, "$", "tensors", true);
        for (int i = 0; i < tensors.size(); i++) {
            String path = "$.tensors[" + i + "]";
            JsonNode t = tensors.get(i);
            r.onlyFields(t, path, TENSOR);
            String name = r.text(t, path, "name");
            if (name.isBlank())   // ops, inputs, outputs and weights refer to a tensor by its name; '' or '  ' names none a reader can see
                throw r.fail(path + ".name", blank(name) + ": every tensor needs a name, by which ops, inputs and outputs refer to it");
            String dtypeName = r.optionalText(t, path, "dtype");
            DType dtype = null;
            if (dtypeName != null) {
                dtype = DType.parse(dtypeName);
                if (dtype == null) throw r.fail(path + ".dtype", "unknown dtype '" + dtypeName + "' for tensor '" + Printable.name(name) + "'");
            }
            JsonNode shapeNode = r.given(t, path, "shape");
            long[] shape = shapeNode != null ? longs(r, shapeNode, path + ".shape") : null;
            Long bytes = t.has("bytes") ? r.whole(t, path, "bytes") : null;
            if (bytes != null && bytes < 0) throw r.fail(path + ".bytes", "negative size " + bytes + " for tensor '" + Printable.name(name) + "'");
            Tensor tensor;
            if (dtype != null && shape != null) {
                try {
                    tensor = Tensor.of(name, dtype, shape);
                } catch (GraphException e) {
                    throw r.fail(path + ".shape", e.getMessage());
                }
                if (bytes != null && bytes != tensor.bytes())
                    throw r.fail(path + ".bytes", bytes + " does not match dtype " + dtype.jsonName() + " and shape "
                            + java.util.Arrays.toString(shape) + " (" + tensor.bytes() + " B) for tensor '" + Printable.name(name) + "'");
            } else {
                if (dtype != null && dtype.isPacked())
                    throw r.fail(path + ".shape", "missing: tensor '" + Printable.name(name) + "' of packed type " + dtype.jsonName() + " needs a shape (its bytes do not tell its element count)");
                if (bytes == null) throw r.fail(path + ".bytes", "missing: tensor '" + Printable.name(name) + "' needs bytes, or dtype and shape");
                tensor = new Tensor(name, bytes, dtype, shape);
            }
            try {
                b.tensor(tensor);
            } catch (GraphException e) {
                throw r.fail(path + ".name", e.getMessage());
            }
        }
    }

    /** "empty" for '', else "blank (only whitespace: 'NAME')" for a name of whitespace only ({@link String#isBlank}), escaped for one line. */
    private static String blank(String name) {
        return name.isEmpty() ? "empty" : "blank (only whitespace: '" + Printable.name(name) + "')";
    }

    private static Op readOp(JsonReading r, JsonNode o, String path, int position) {
        r.onlyFields(o, path, OP);
        String name = r.text(o, path, "name");
        String kind = r.text(o, path, "kind");
        if (name.isBlank())   // errors, plans, events and the peak name an op by it; '' or '  ' names none a reader can see
            throw r.fail(path + ".name", blank(name) + ": every op needs a name, by which errors, plans and events refer to it (the "
                    + Printable.name(kind) + " at position " + position + ")");
        String malformed = OpKindSpelling.malformed(kind);
        if (malformed != null) throw r.fail(path + ".kind", malformed + " (op '" + Printable.name(name) + "')");
        List<String> in = texts(r, r.array(o, path, "inputs", false), path + ".inputs");
        List<String> out = texts(r, r.array(o, path, "outputs", false), path + ".outputs");
        long stream = r.optionalWhole(o, path, "stream", 0);
        if (stream < 0 || stream > Op.MAX_STREAM) throw r.fail(path + ".stream", "stream must be in [0, " + Op.MAX_STREAM + "], found " + stream
                + (stream == Integer.MAX_VALUE ? " (the copy stream takes the number after the last)" : ""));
        Map<String, Object> attrs = new LinkedHashMap<>();
        JsonNode a = r.given(o, path, "attrs");
        if (a != null) {
            r.requireObject(a, path + ".attrs");
            Iterator<Map.Entry<String, JsonNode>> it = a.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                attrs.put(e.getKey(), attrValue(r, e.getValue(), path + ".attrs." + Printable.name(e.getKey())));
            }
        }
        List<Op.View> views = entries(r, o, path, "views", VIEW,
                (n, p) -> new Op.View(r.index(n, p, "output"), r.index(n, p, "input"), r.optionalWhole(n, p, "byte_offset", 0)));
        List<Op.Member> members = entries(r, o, path, "members", VIEW,
                (n, p) -> new Op.Member(r.index(n, p, "input"), r.index(n, p, "output"), r.optionalWhole(n, p, "byte_offset", 0)));
        List<Op.InPlace> inPlace = entries(r, o, path, "inplace", INPLACE,
                (n, p) -> new Op.InPlace(r.index(n, p, "output"), r.index(n, p, "input")));
        return new Op(name, kind, in, out, (int) stream, attrs, views, members, inPlace);
    }

    /** Decodes the optional array {@code field} of {@code o}, each element allowed only {@code fields} and none given twice. */
    private static <T> List<T> entries(JsonReading r, JsonNode o, String path, String field, java.util.Set<String> fields,
                                       java.util.function.BiFunction<JsonNode, String, T> decode) {
        List<T> out = new ArrayList<>();
        JsonNode a = r.array(o, path, field, false);
        for (int i = 0; i < a.size(); i++) {
            String p = path + "." + field + "[" + i + "]";
            r.onlyFields(a.get(i), p, fields);
            T entry = decode.apply(a.get(i), p);
            int first = out.indexOf(entry);
            if (first >= 0) throw r.fail(p, "repeats " + path + "." + field + "[" + first + "]");
            out.add(entry);
        }
        return out;
    }

    private static List<String> texts(JsonReading r, JsonNode array, String path) {
        List<String> l = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) l.add(r.textAt(array, i, path));
        return l;
    }

    private static long[] longs(JsonReading r, JsonNode array, String path) {
        if (!array.isArray()) throw r.fail(path, "expected an array of whole numbers");
        long[] v = new long[array.size()];
        for (int i = 0; i < v.length; i++) v[i] = r.wholeValue(array.get(i), path + "[" + i + "]");
        return v;
    }

    /** Attribute values as {@link org.arenaplan.ir.OpAttrs} reads them: Long, Double, String, long[], double[], String[]. */
    private static Object attrValue(JsonReading r, JsonNode v, String path) {
        if (v.isTextual()) return v.asText();
        if (v.isIntegralNumber()) return r.wholeValue(v, path);
        if (v.isFloatingPointNumber()) return finite(r, v, path);
        if (v.isArray() && v.size() > 0 && v.get(0).isTextual()) {
            String[] out = new String[v.size()];
            for (int i = 0; i < out.length; i++) {
                if (!v.get(i).isTextual()) throw r.fail(path + "[" + i + "]", "an array of strings must hold strings only, found " + v.get(i));
                out[i] = v.get(i).asText();
            }
            return out;
        }
        if (v.isArray()) {
            boolean floating = false;
            for (JsonNode e : v) {
                if (!e.isNumber()) throw r.fail(path, "attribute arrays must hold numbers only (or strings only), found " + e);
                floating |= e.isFloatingPointNumber();
            }
            if (!floating) return longs(r, v, path);
            double[] d = new double[v.size()];
            for (int i = 0; i < d.length; i++) d[i] = finite(r, v.get(i), path + "[" + i + "]");
            return d;
        }
        throw r.fail(path, "unsupported attribute value " + v + " (expected a number, string, array of numbers or array of strings)");
    }

    private static double finite(JsonReading r, JsonNode v, String path) {
        double d = v.doubleValue();
        if (!Double.isFinite(d)) throw r.fail(path, "expected a finite number, found " + v);
        return d;
    }

    /**
     * Writes the graph as graph JSON (UTF-8, pretty-printed, a final newline), replacing the file.
     *
     * @throws IOException when the file cannot be written
     */
    public static void write(Graph g, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(g, w);
        }
    }

    /**
     * As {@link #write(Graph, Path)}, to a writer (left open).
     *
     * @throws IOException when the writer fails
     */
    public static void write(Graph g, Writer w) throws IOException {
        JsonReading.MAPPER.writerWithDefaultPrettyPrinter().writeValue(w, toJson(g));
        w.write('\n');
    }

    /** The graph JSON of {@code g} as a string (never throws: a string writer does not fail). */
    public static String toString(Graph g) {
        java.io.StringWriter w = new java.io.StringWriter();
        try {
            write(g, w);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return w.toString();
    }

    static ObjectNode toJson(Graph g) {
        ObjectNode root = JsonReading.MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("name", g.name());
        ArrayNode tensors = root.putArray("tensors");
        for (Tensor t : g.tensors().values()) {
            ObjectNode o = tensors.addObject();
            o.put("name", t.name());
            o.put("bytes", t.bytes());
            if (t.dtype() != null) o.put("dtype", t.dtype().jsonName());
            if (t.hasShape()) {
                ArrayNode s = o.putArray("shape");
                for (long d : t.shape()) s.add(d);
            }
        }
        ArrayNode inputs = root.putArray("inputs");
        for (String t : g.inputs()) {
            ObjectNode o = inputs.addObject();
            o.put("name", t);
            if (g.isDonated(t)) o.put("donated", true);
        }
        ArrayNode weights = root.putArray("weights");
        for (String t : g.weights()) {
            ObjectNode o = weights.addObject();
            o.put("name", t);
            if (g.weightFill(t) != null) o.put("fill", g.weightFill(t));
        }
        ArrayNode outputs = root.putArray("outputs");
        g.outputs().forEach(outputs::add);
        ArrayNode ops = root.putArray("ops");
        for (Op op : g.ops()) ops.add(opJson(op));
        return root;
    }

    private static ObjectNode opJson(Op op) {
        ObjectNode o = JsonReading.MAPPER.createObjectNode();
        o.put("name", op.name());
        o.put("kind", op.kind());
        ArrayNode in = o.putArray("inputs");
        op.inputs().forEach(in::add);
        ArrayNode out = o.putArray("outputs");
        op.outputs().forEach(out::add);
        if (op.stream() != 0) o.put("stream", op.stream());
        if (!op.attrs().isEmpty()) {
            ObjectNode a = o.putObject("attrs");
            for (Map.Entry<String, Object> e : op.attrs().entrySet()) putAttr(a, op, e.getKey(), e.getValue());
        }
        if (!op.views().isEmpty()) {
            ArrayNode vs = o.putArray("views");
            for (Op.View v : op.views()) vs.addObject().put("output", v.output()).put("input", v.input()).put("byte_offset", v.byteOffset());
        }
        if (!op.members().isEmpty()) {
            ArrayNode ms = o.putArray("members");
            for (Op.Member m : op.members()) ms.addObject().put("input", m.input()).put("output", m.output()).put("byte_offset", m.byteOffset());
        }
        if (!op.inPlace().isEmpty()) {
            ArrayNode ip = o.putArray("inplace");
            for (Op.InPlace h : op.inPlace()) ip.addObject().put("output", h.output()).put("input", h.input());
        }
        return o;
    }

    private static void putAttr(ObjectNode a, Op op, String key, Object v) {
        if (v instanceof String s) a.put(key, s);
        else if (v instanceof Double || v instanceof Float) a.put(key, ((Number) v).doubleValue());
        else if (v instanceof Number n) a.put(key, n.longValue());
        else if (v instanceof long[] l) {
            ArrayNode arr = a.putArray(key);
            for (long x : l) arr.add(x);
        } else if (v instanceof double[] d) {
            ArrayNode arr = a.putArray(key);
            for (double x : d) arr.add(x);
        } else if (v instanceof String[] ss) {
            ArrayNode arr = a.putArray(key);
            for (String x : ss) arr.add(x);
        } else {
            throw new GraphException("op '" + op.name() + "': attribute '" + key + "' has a type the graph format cannot hold: "
                    + (v == null ? "null" : v.getClass().getSimpleName()));
        }
    }
}
