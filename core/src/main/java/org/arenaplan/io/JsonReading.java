package org.arenaplan.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed access to a parsed JSON tree that names the file and the JSON path of every fault
 * ({@code plan.json: $.ops[3].inputs[1]: expected a string}). Shared by the graph and plan codecs.
 */
final class JsonReading {
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private final String source;

    JsonReading(String source) {
        this.source = source;
    }

    /** Parses the whole text, skipping a leading byte-order mark; a syntax error names the line and column. */
    JsonNode parse(Reader in) throws IOException {
        PushbackReader text = new PushbackReader(in, 1);
        int first = text.read();
        if (first >= 0 && first != '\uFEFF') text.unread(first);
        try {
            JsonNode root = MAPPER.readTree(text);
            if (root == null || root.isMissingNode()) throw fail("$", "empty document");
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new InputException(source + where + ": malformed JSON: " + withoutSourceNote(e.getOriginalMessage()), e);
        }
    }

    /** Jackson appends where the enclosing array or object began; the line:column prefix says enough. */
    private static String withoutSourceNote(String message) {
        int at = message.indexOf("[Source:");
        if (at < 0) return message;
        return message.substring(0, at).replaceAll("\\s*\\(for \\w+ starting at\\s*$", "").trim();
    }

    InputException fail(String path, String what) {
        return new InputException(source + ": " + path + ": " + what);
    }

    /** Rejects fields this format does not define, so a misspelt key is not silently ignored. */
    void onlyFields(JsonNode object, String path, Set<String> allowed) {
        requireObject(object, path);
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!allowed.contains(f)) throw fail(path + "." + f, "unknown field (expected one of " + String.join(", ", new TreeSet<>(allowed)) + ")");
        }
    }

    void requireObject(JsonNode node, String path) {
        if (node == null || !node.isObject()) throw fail(path, "expected an object");
    }

    JsonNode required(JsonNode object, String path, String field) {
        JsonNode v = object.get(field);
        if (v == null || v.isNull()) throw fail(path + "." + field, "missing required field");
        return v;
    }

    String text(JsonNode object, String path, String field) {
        JsonNode v = required(object, path, field);
        if (!v.isTextual()) throw fail(path + "." + field, "expected a string, found " + v.getNodeType().name().toLowerCase(Locale.ROOT));
        return v.asText();
    }

    String optionalText(JsonNode object, String path, String field) {
        JsonNode v = object.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw fail(path + "." + field, "expected a string, found " + v.getNodeType().name().toLowerCase(Locale.ROOT));
        return v.asText();
    }

    long whole(JsonNode object, String path, String field) {
        return wholeValue(required(object, path, field), path + "." + field);
    }

    long optionalWhole(JsonNode object, String path, String field, long dflt) {
        JsonNode v = object.get(field);
        return v == null || v.isNull() ? dflt : wholeValue(v, path + "." + field);
    }

    long wholeValue(JsonNode v, String path) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) throw fail(path, "expected a whole number that fits in 64 bits, found " + v);
        return v.longValue();
    }

    /** A whole number in {@code [0, 2^63-1]}: a count or a size. */
    long count(JsonNode object, String path, String field) {
        long v = whole(object, path, field);
        if (v < 0) throw fail(path + "." + field, "expected a number of at least 0, found " + v);
        return v;
    }

    /** A whole number in {@code [0, 2^31-1]}: an index or a count of things held in memory. */
    int index(JsonNode object, String path, String field) {
        long v = whole(object, path, field);
        if (v < 0 || v > Integer.MAX_VALUE) throw fail(path + "." + field, "expected a whole number in [0, " + Integer.MAX_VALUE + "], found " + v);
        return (int) v;
    }

    /** A finite number (a literal too large for a double, which Jackson reads as infinity, is refused). */
    double number(JsonNode object, String path, String field) {
        JsonNode v = required(object, path, field);
        if (!v.isNumber()) throw fail(path + "." + field, "expected a number, found " + v);
        double d = v.doubleValue();
        if (!Double.isFinite(d)) throw fail(path + "." + field, "expected a finite number, found " + v);
        return d;
    }

    boolean flag(JsonNode object, String path, String field, boolean dflt) {
        JsonNode v = object.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isBoolean()) throw fail(path + "." + field, "expected true or false, found " + v);
        return v.booleanValue();
    }

    JsonNode array(JsonNode object, String path, String field, boolean required) {
        JsonNode v = object.get(field);
        if (v == null || v.isNull()) {
            if (required) throw fail(path + "." + field, "missing required field");
            return MAPPER.createArrayNode();
        }
        if (!v.isArray()) throw fail(path + "." + field, "expected an array");
        return v;
    }

    String textAt(JsonNode array, int i, String path) {
        JsonNode v = array.get(i);
        if (!v.isTextual()) throw fail(path + "[" + i + "]", "expected a string, found " + v);
        return v.asText();
    }

    void requireFormat(JsonNode root, String expected) {
        requireObject(root, "$");
        JsonNode f = root.get("format");
        if (f == null) throw fail("$.format", "missing; expected \"" + expected + "\"");
        if (!expected.equals(f.asText()))
            throw fail("$.format", "unsupported format " + f + "; this build reads \"" + expected + "\"");
    }
}
