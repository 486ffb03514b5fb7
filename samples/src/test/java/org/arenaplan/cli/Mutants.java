package org.arenaplan.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seeded mutations of valid input files for {@link ReaderFuzzTest}: bytes (bit flips,
 * truncations, a byte-order mark), JSON trees (huge, negative, fractional and out-of-double-range
 * numbers, wrong types, deleted and duplicated fields and elements, dangling, self-referencing and
 * cyclic tensor names), CSV rows (the same kinds of numbers, other scripts' digits, a column named
 * twice, sizes summing past 2^63) and protobuf messages (varints set to edge values, names
 * replaced, fields dropped or repeated), each schema-free. A mutant says whether every correct
 * reader must refuse it.
 */
final class Mutants {
    /** A mutated file: its bytes, what was done, and whether any correct reader must refuse it. */
    record Mutant(byte[] bytes, String what, boolean mustReject) {
        static Mutant of(String text, String what, boolean mustReject) {
            return new Mutant(text.getBytes(StandardCharsets.UTF_8), what, mustReject);
        }
    }

    static final String DANGLING = "no_such_tensor";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] ARABIC_INDIC = {"\u0660", "\u0661", "\u0662", "\u0663", "\u0664", "\u0665", "\u0666", "\u0667", "\u0668", "\u0669"};
    /** Numbers that break readers: 64-bit edges, past them, fractions, past a double's range, -0. */
    private static final String[] EDGE_NUMBERS = {"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-1", "0",
            "4294967297", "2147483648", "1.5", "1e400", "-0.0", "99999999999999999999999"};

    private final Random random;

    Mutants(long seed) {
        random = new Random(seed);
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }

    // ---- bytes ----

    Mutant bitFlips(byte[] seed) {
        byte[] b = seed.clone();
        int flips = 1 + random.nextInt(3);
        StringBuilder where = new StringBuilder();
        for (int k = 0; k < flips && b.length > 0; k++) {
            int at = random.nextInt(b.length);
            int bit = random.nextInt(8);
            b[at] ^= (byte) (1 << bit);
            where.append(k == 0 ? "" : ",").append(at).append('.').append(bit);
        }
        return new Mutant(b, "bit flips at " + where, false);
    }

    /** Cut short; a JSON document that loses more than trailing white space must be refused. */
    Mutant truncation(byte[] seed, boolean json) {
        int at = random.nextInt(Math.max(1, seed.length));
        byte[] b = Arrays.copyOf(seed, at);
        boolean lostContent = json && new String(b, StandardCharsets.UTF_8).strip().length() < new String(seed, StandardCharsets.UTF_8).strip().length();
        return new Mutant(b, "truncated to " + at + " of " + seed.length + " bytes", lostContent);
    }

    static Mutant byteOrderMark(byte[] seed) {
        byte[] b = new byte[seed.length + 3];
        b[0] = (byte) 0xEF;
        b[1] = (byte) 0xBB;
        b[2] = (byte) 0xBF;
        System.arraycopy(seed, 0, b, 3, seed.length);
        return new Mutant(b, "UTF-8 byte-order mark prepended", false);
    }

    static String arabicIndic(String digits) {
        StringBuilder s = new StringBuilder();
        for (char c : digits.toCharArray()) s.append(c >= '0' && c <= '9' ? ARABIC_INDIC[c - '0'] : String.valueOf(c));
        return s.toString();
    }

    // ---- JSON ----

    /** One JSON value in a tree: where it hangs and its JSON path. */
    private record Slot(JsonNode parent, String key, int index, JsonNode node, String path) {
        void set(JsonNode v) {
            if (parent instanceof ObjectNode o) o.set(key, v);
            else ((ArrayNode) parent).set(index, v);
        }

        void remove() {
            if (parent instanceof ObjectNode o) o.remove(key);
            else ((ArrayNode) parent).remove(index);
        }
    }

    private static List<Slot> slots(JsonNode root) {
        List<Slot> out = new ArrayList<>();
        collect(root, "$", out);
        return out;
    }

    private static void collect(JsonNode node, String path, List<Slot> out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path + "." + e.getKey();
                out.add(new Slot(node, e.getKey(), -1, e.getValue(), p));
                collect(e.getValue(), p, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = path + "[" + i + "]";
                out.add(new Slot(node, null, i, node.get(i), p));
                collect(node.get(i), p, out);
            }
        }
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String print(JsonNode root) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T pick(List<T> l) {
        return l.get(random.nextInt(l.size()));
    }

    /**
     * A structural mutation of a graph or plan JSON file. {@code freeForm} tells which paths hold
     * values the reader accepts in any type (op attributes, which the operator registry checks);
     * {@code checkedKind} which op kinds have their attribute names checked.
     */
    Mutant json(String seed, Function<String, Boolean> freeForm, java.util.function.Predicate<String> checkedKind) {
        JsonNode root = parse(seed);
        List<Slot> all = slots(root);
        Slot s = pick(all);
        boolean free = freeForm.apply(s.path());
        switch (random.nextInt(7)) {
            case 6 -> {
                return misspeltAttribute(root, checkedKind);
            }
            case 0 -> {   // a number at the edges; a double's range overflowing is never a number
                List<Slot> numbers = all.stream().filter(x -> x.node().isNumber()).toList();
                if (!numbers.isEmpty()) s = pick(numbers);
                String v = EDGE_NUMBERS[random.nextInt(EDGE_NUMBERS.length)];
                // 1e400 must reach the file as written (a parsed double would be printed as Infinity).
                JsonNode n = v.equals("1e400") ? JsonNodeFactory.instance.numberNode(new java.math.BigDecimal(v)) : parse(v);
                s.set(n);
                return Mutant.of(print(root), s.path() + " := " + v, v.equals("1e400"));
            }
            case 1 -> {   // a value of another type
                JsonNode[] others = {JsonNodeFactory.instance.textNode("7"), JsonNodeFactory.instance.booleanNode(true),
                        JsonNodeFactory.instance.objectNode(), parse("[1, 2]"), JsonNodeFactory.instance.textNode(arabicIndic("42"))};
                JsonNode v = others[random.nextInt(others.length)];
                boolean otherType = v.getNodeType() != s.node().getNodeType();
                s.set(v);
                return Mutant.of(print(root), s.path() + " := " + v, otherType && !free);
            }
            case 2 -> {
                s.remove();
                return Mutant.of(print(root), "removed " + s.path(), false);
            }
            case 3 -> {   // an array element twice: a second op, tensor or storage of the same name
                List<Slot> elements = all.stream().filter(x -> x.parent().isArray() && x.node().isObject() && x.node().has("name")).toList();
                if (elements.isEmpty()) return Mutant.of(print(root), "unchanged", false);
                Slot e = pick(elements);
                ((ArrayNode) e.parent()).insert(e.index(), e.node().deepCopy());
                boolean namesMustDiffer = e.path().matches("\\$\\.(tensors|ops)\\[\\d+]");
                return Mutant.of(print(root), "duplicated " + e.path(), namesMustDiffer);
            }
            case 4 -> {   // an unknown (misspelt) field
                List<Slot> objects = all.stream().filter(x -> x.node().isObject() && !freeForm.apply(x.path() + ".x")).toList();
                if (objects.isEmpty()) return Mutant.of(print(root), "unchanged", false);
                Slot o = pick(objects);
                ((ObjectNode) o.node()).put("nmae", "x");
                return Mutant.of(print(root), "unknown field " + o.path() + ".nmae", true);
            }
            default -> {
                return names(root, all);
            }
        }
    }

    /** An op attribute's name misspelt ("alpha" to "alpah"): a kind whose attributes are checked must refuse it. */
    private Mutant misspeltAttribute(JsonNode root, java.util.function.Predicate<String> checkedKind) {
        List<ObjectNode> withAttrs = new ArrayList<>();
        JsonNode ops = root.get("ops");
        if (ops != null) for (JsonNode op : ops) if (op.get("attrs") instanceof ObjectNode a && !a.isEmpty()) withAttrs.add((ObjectNode) op);
        if (withAttrs.isEmpty()) return Mutant.of(print(root), "unchanged", false);
        ObjectNode op = pick(withAttrs);
        ObjectNode attrs = (ObjectNode) op.get("attrs");
        List<String> names = new ArrayList<>();
        attrs.fieldNames().forEachRemaining(names::add);
        String name = pick(names);
        String wrong = name.length() < 2 ? name + "x" : name.substring(0, name.length() - 2) + name.charAt(name.length() - 1) + name.charAt(name.length() - 2);
        if (wrong.equals(name) || attrs.has(wrong)) wrong = name + "_";
        JsonNode v = attrs.remove(name);
        attrs.set(wrong, v);
        String kind = op.path("kind").asText();
        return Mutant.of(print(root), "attribute '" + name + "' of op '" + op.path("name").asText() + "' (" + kind + ") spelt '" + wrong + "'",
                checkedKind.test(kind));
    }

    /** Op inputs pointing nowhere, at the op's own output, or at a later op's output. */
    private Mutant names(JsonNode root, List<Slot> all) {
        JsonNode ops = root.get("ops");
        if (ops == null || !ops.isArray() || ops.isEmpty()) return Mutant.of(print(root), "unchanged", false);
        int i = random.nextInt(ops.size());
        JsonNode op = ops.get(i);
        ArrayNode in = (ArrayNode) op.get("inputs");
        if (in == null || in.isEmpty()) return Mutant.of(print(root), "unchanged", false);
        int j = random.nextInt(in.size());
        String path = "$.ops[" + i + "].inputs[" + j + "]";
        switch (random.nextInt(3)) {
            case 0 -> {
                in.set(j, JsonNodeFactory.instance.textNode(DANGLING));
                return Mutant.of(print(root), path + " := dangling '" + DANGLING + "'", true);
            }
            case 1 -> {
                String own = op.get("outputs").get(0).asText();
                in.set(j, JsonNodeFactory.instance.textNode(own));
                return Mutant.of(print(root), path + " := its own output '" + own + "'", true);
            }
            default -> {
                if (i + 1 >= ops.size()) return Mutant.of(print(root), "unchanged", false);
                int k = i + 1 + random.nextInt(ops.size() - i - 1);
                String later = ops.get(k).get("outputs").get(0).asText();
                in.set(j, JsonNodeFactory.instance.textNode(later));
                return Mutant.of(print(root), path + " := '" + later + "', written later by op " + k + " (a cycle)", true);
            }
        }
    }

    /** Text-level JSON mutations: a key twice in one object, other scripts' digits in a number. */
    Mutant jsonText(String seed) {
        if (random.nextBoolean()) {
            List<int[]> keys = matches(Pattern.compile("\"name\" : \"[^\"]*\""), seed);
            if (keys.isEmpty()) return Mutant.of(seed, "unchanged", false);
            int[] k = pick(keys);
            String pair = seed.substring(k[0], k[1]);
            return Mutant.of(seed.substring(0, k[1]) + ", " + pair.replace("\" : \"", "\" : \"other_") + seed.substring(k[1]),
                    "key 'name' twice at char " + k[0], true);
        }
        List<int[]> numbers = matches(Pattern.compile("(?<=: )[0-9]+(?=[,\\n ])"), seed);
        if (numbers.isEmpty()) return Mutant.of(seed, "unchanged", false);
        int[] n = pick(numbers);
        return Mutant.of(seed.substring(0, n[0]) + arabicIndic(seed.substring(n[0], n[1])) + seed.substring(n[1]),
                "Arabic-Indic digits for the number at char " + n[0], true);
    }

    private static List<int[]> matches(Pattern p, String s) {
        List<int[]> out = new ArrayList<>();
        Matcher m = p.matcher(s);
        while (m.find()) out.add(new int[]{m.start(), m.end()});
        return out;
    }

    // ---- CSV ----

    /**
     * A row-and-field mutation of a minimalloc CSV. {@code offsetColumn}: the file is a solution,
     * whose offsets the reader passes on for the validator to judge.
     */
    Mutant csv(String seed, boolean offsetColumn) {
        List<String> lines = new ArrayList<>(Arrays.asList(seed.split("\n", -1)));
        if (lines.get(lines.size() - 1).isEmpty()) lines.remove(lines.size() - 1);
        String[] header = lines.get(0).split(",", -1);
        int rows = lines.size() - 1;
        switch (random.nextInt(7)) {
            case 0, 1 -> {   // one field set to an edge value
                int r = 1 + random.nextInt(rows);
                int c = random.nextInt(header.length);
                String[] values = {"9223372036854775807", "9223372036854775808", "-1", "-9223372036854775808", "1.5", "", "NaN",
                        arabicIndic("4"), arabicIndic("12"), " 7 ", "+3", "0x10", "1e3", "\uFF14"};
                String v = values[random.nextInt(values.length)];
                String[] f = lines.get(r).split(",", -1);
                String col = header[c].trim();
                f[c] = v;
                lines.set(r, String.join(",", f));
                boolean notAWholeNumber = !v.strip().matches("[+-]?[0-9]+") || new BigInteger(v.strip()).bitLength() > 63;
                boolean numeric = !col.equals("id");
                boolean negative = v.startsWith("-");
                boolean must = numeric && (notAWholeNumber || (negative && !col.equals("offset")));
                if (col.equals("id") && v.isEmpty()) must = true;
                return Mutant.of(join(lines), "line " + (r + 1) + " field '" + col + "' := '" + v + "'", must);
            }
            case 2 -> {   // a column named twice
                int c = 1 + random.nextInt(header.length - 1);
                lines.set(0, lines.get(0) + "," + header[c]);
                for (int r = 1; r <= rows; r++) lines.set(r, lines.get(r) + ",5");
                return Mutant.of(join(lines), "column '" + header[c] + "' twice", true);
            }
            case 3 -> {   // sizes summing past 2^63
                int size = indexOf(header, "size");
                if (rows < 2) return Mutant.of(join(lines), "unchanged", false);
                for (int r : new int[]{1, 2}) {
                    String[] f = lines.get(r).split(",", -1);
                    f[size] = String.valueOf(Long.MAX_VALUE - random.nextInt(3));
                    lines.set(r, String.join(",", f));
                }
                return Mutant.of(join(lines), "two sizes near 2^63-1", true);
            }
            case 4 -> {   // a row twice: its id twice
                int r = 1 + random.nextInt(rows);
                lines.add(r, lines.get(r));
                return Mutant.of(join(lines), "line " + (r + 1) + " twice", true);
            }
            case 5 -> {
                if (offsetColumn) return offsets(lines, header);
                int r = 1 + random.nextInt(rows);
                lines.remove(r);
                return Mutant.of(join(lines), "line " + (r + 1) + " removed", false);
            }
            default -> {
                if (random.nextBoolean()) return Mutant.of(join(lines).replace("\n", "\r\n"), "CRLF line ends", false);
                lines.remove(0);
                return Mutant.of(join(lines), "header removed", true);
            }
        }
    }

    /** A solution's offset moved: near 2^63 (an end that wraps), negative, or anywhere nearby. */
    private Mutant offsets(List<String> lines, String[] header) {
        int c = indexOf(header, "offset");
        int r = 1 + random.nextInt(lines.size() - 1);
        String[] f = lines.get(r).split(",", -1);
        long size = Long.parseLong(f[indexOf(header, "size")].trim());
        long[] choices = {Long.MAX_VALUE - random.nextInt(8), Long.MAX_VALUE - size + 1, Long.MAX_VALUE - size, -random.nextInt(16) - 1,
                random.nextInt(64), Long.MIN_VALUE};
        long v = choices[random.nextInt(choices.length)];
        f[c] = String.valueOf(v);
        lines.set(r, String.join(",", f));
        return Mutant.of(join(lines), "line " + (r + 1) + " offset := " + v, false);
    }

    private static int indexOf(String[] header, String name) {
        for (int i = 0; i < header.length; i++) if (header[i].trim().equals(name)) return i;
        throw new IllegalArgumentException("no column " + name);
    }

    private static String join(List<String> lines) {
        return String.join("\n", lines) + "\n";
    }

    // ---- protobuf (ONNX) ----

    /** A protobuf message read without its schema: fields in file order. */
    private static final class Message {
        final List<Field> fields = new ArrayList<>();
    }

    /** value: Long (varint, fixed32, fixed64), byte[] (bytes or string), or Message. */
    private static final class Field {
        final int number;
        final int wireType;
        Object value;

        Field(int number, int wireType, Object value) {
            this.number = number;
            this.wireType = wireType;
            this.value = value;
        }
    }

    /** Parses bytes as a message when they read as one cleanly (so strings mostly stay strings). */
    private static Message tryMessage(byte[] bytes, int depth) {
        if (depth > 12 || bytes.length == 0) return null;
        try {
            CodedInputStream in = CodedInputStream.newInstance(bytes);
            Message m = new Message();
            while (!in.isAtEnd()) {
                int tag = in.readTag();
                int number = tag >>> 3;
                int wire = tag & 7;
                if (number == 0) return null;
                switch (wire) {
                    case 0 -> m.fields.add(new Field(number, wire, in.readRawVarint64()));
                    case 1 -> m.fields.add(new Field(number, wire, in.readRawLittleEndian64()));
                    case 5 -> m.fields.add(new Field(number, wire, (long) in.readRawLittleEndian32()));
                    case 2 -> {
                        byte[] b = in.readByteArray();
                        Message inner = looksLikeText(b) ? null : tryMessage(b, depth + 1);
                        m.fields.add(new Field(number, wire, inner != null ? inner : b));
                    }
                    default -> {
                        return null;
                    }
                }
            }
            return m;
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean looksLikeText(byte[] b) {
        if (b.length == 0 || b.length > 64) return false;
        for (byte x : b) if (x < 0x20 || x > 0x7e) return false;
        return true;
    }

    private static byte[] write(Message m) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            for (Field f : m.fields) {
                out.writeTag(f.number, f.wireType);
                switch (f.wireType) {
                    case 0 -> out.writeUInt64NoTag((Long) f.value);
                    case 1 -> out.writeFixed64NoTag((Long) f.value);
                    case 5 -> out.writeFixed32NoTag((int) (long) (Long) f.value);
                    default -> out.writeByteArrayNoTag(f.value instanceof Message inner ? write(inner) : (byte[]) f.value);
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A field with the field numbers leading to it from the root ("7.1.1": graph, node, input). */
    private record Located(Message owner, Field field, String path) { }

    private static void locate(Message m, String path, List<Located> out) {
        for (Field f : m.fields) {
            String p = path.isEmpty() ? String.valueOf(f.number) : path + "." + f.number;
            out.add(new Located(m, f, p));
            if (f.value instanceof Message inner) locate(inner, p, out);
        }
    }

    /** ONNX field paths (onnx.proto): ModelProto.graph = 7, GraphProto.node = 1, NodeProto.input = 1, output = 2. */
    private static final String NODE_INPUT = "7.1.1";
    /** NodeProto.attribute = 5, AttributeProto.name = 1. */
    private static final String ATTRIBUTE_NAME = "7.1.5.1";
    /**
     * GraphProto.initializer = 5; TensorProto dims = 1, float_data = 4, int32_data = 5, int64_data = 7,
     * raw_data = 9: one value or dim more or less makes the values disagree with the dims (the
     * seeds' initializers have no dim of 1).
     */
    private static final java.util.Set<String> INITIALIZER_COUNTS = java.util.Set.of("7.5.1", "7.5.4", "7.5.5", "7.5.7", "7.5.9");
    private static final long[] EDGE_VARINTS = {0, -1, 1L << 31, (1L << 32) + 1, 1L << 40, Long.MAX_VALUE, 3, 7, 1_000_000, -5};

    Mutant protobuf(byte[] seed) {
        Message root = tryMessage(seed, 0);
        if (root == null) return bitFlips(seed);
        List<Located> all = new ArrayList<>();
        locate(root, "", all);
        switch (random.nextInt(5)) {
            case 4 -> {   // an attribute's name misspelt: an importer must not run the op with defaults
                List<Located> names = all.stream().filter(l -> l.path().equals(ATTRIBUTE_NAME) && l.field().value instanceof byte[] b && b.length > 1).toList();
                if (names.isEmpty()) return bitFlips(seed);
                Located l = pick(names);
                String name = new String((byte[]) l.field().value, StandardCharsets.UTF_8);
                String wrong = name.substring(0, name.length() - 2) + name.charAt(name.length() - 1) + name.charAt(name.length() - 2);
                if (wrong.equals(name)) wrong = name + "_";
                l.field().value = wrong.getBytes(StandardCharsets.UTF_8);
                return new Mutant(write(root), "attribute '" + name + "' spelt '" + wrong + "'", true);
            }
            case 0 -> {   // a varint (dims, attribute ints, types, opset) at an edge
                List<Located> varints = all.stream().filter(l -> l.field().wireType == 0).toList();
                if (varints.isEmpty()) return bitFlips(seed);
                Located l = pick(varints);
                long v = EDGE_VARINTS[random.nextInt(EDGE_VARINTS.length)];
                l.field().value = v;
                return new Mutant(write(root), "varint at " + l.path() + " := " + v, false);
            }
            case 1 -> {   // a node input renamed: dangling, or the node's own output (a self-loop)
                List<Located> inputs = all.stream().filter(l -> l.path().equals(NODE_INPUT) && l.field().value instanceof byte[] b && b.length > 0).toList();
                if (inputs.isEmpty()) return bitFlips(seed);
                Located l = pick(inputs);
                byte[] own = null;
                for (Field f : l.owner().fields) if (f.number == 2 && f.value instanceof byte[] b) own = b;
                boolean self = own != null && random.nextBoolean();
                l.field().value = self ? own : DANGLING.getBytes(StandardCharsets.UTF_8);
                return new Mutant(write(root), "node input at " + l.path() + " := " + (self ? "its own output" : "dangling"), true);
            }
            case 2 -> {   // a field dropped, or repeated
                Located l = pick(all);
                int at = l.owner().fields.indexOf(l.field());
                boolean countWrong = INITIALIZER_COUNTS.contains(l.path());
                if (random.nextBoolean()) {
                    l.owner().fields.remove(at);
                    return new Mutant(write(root), "dropped field " + l.path(), countWrong && !l.path().equals("7.5.9"));
                }
                l.owner().fields.add(at, new Field(l.field().number, l.field().wireType, l.field().value));
                return new Mutant(write(root), "repeated field " + l.path(), countWrong);
            }
            default -> {   // bytes (raw tensor data, names) cut short
                List<Located> blobs = all.stream().filter(l -> l.field().value instanceof byte[] b && b.length > 1).toList();
                if (blobs.isEmpty()) return bitFlips(seed);
                Located l = pick(blobs);
                byte[] b = (byte[]) l.field().value;
                l.field().value = Arrays.copyOf(b, random.nextInt(b.length));
                return new Mutant(write(root), "bytes at " + l.path() + " cut short", l.path().equals("7.5.9"));
            }
        }
    }
}
