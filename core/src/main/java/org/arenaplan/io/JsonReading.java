package org.arenaplan.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

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
 *
 * <p>A field given as JSON {@code null} is refused, naming it, whether the field is required or
 * optional: an optional field is left out to take its default ({@code "byte_offset": null} was
 * read as 0, {@code "donated": null} as false; the writers never write null). A reader that
 * documents null as absent asks for that field with {@link JsonNode#isNull} itself.
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
        try {
            JsonNode root = MAPPER.readTree(withoutByteOrderMark(in));
            if (root == null || root.isMissingNode()) throw fail("$", "empty document");
            return root;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        }
    }

    /** Reads the document's first token to its last. */
    interface StreamBody<T> {
        /** @param p on the document's first token; leave it on the last */
        T read(JsonParser p) throws IOException;
    }

    /**
     * As {@link #parse}, but the document goes through {@code body} token by token instead of
     * becoming one tree: the same byte-order mark, syntax errors, empty document and text after
     * the end, with the same messages.
     */
    <T> T stream(Reader in, StreamBody<T> body) throws IOException {
        try (JsonParser p = MAPPER.createParser(withoutByteOrderMark(in))) {
            if (p.nextToken() == null) throw fail("$", "empty document");
            T out = body.read(p);
            JsonToken after = p.nextToken();
            if (after != null)   // the exception ObjectMapper.readTree throws for DeserializationFeature.FAIL_ON_TRAILING_TOKENS
                throw MismatchedInputException.from(p, JsonNode.class, "Trailing token (of type " + after + ") found after value");
            return out;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        }
    }

    private static Reader withoutByteOrderMark(Reader in) throws IOException {
        PushbackReader text = new PushbackReader(in, 1);
        int first = text.read();
        if (first >= 0 && first != '\uFEFF') text.unread(first);
        return text;
    }

    private InputException malformed(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
        return new InputException(source + where + ": malformed JSON: " + inUsersTerms(e.getOriginalMessage()), e);
    }

    private static final java.util.regex.Pattern UNEXPECTED = java.util.regex.Pattern.compile(
            "Unexpected character \\('(.*?)' \\(code \\d+[^)]*\\)\\):\\s*(.*)", java.util.regex.Pattern.DOTALL);

    /**
     * Jackson's syntax messages in JSON's own words: what was found and what the syntax needs
     * there (RFC 8259 grammar), without the parser's internals (character codes, token
     * classes, source notes). Unknown messages keep their first sentence.
     */
    static String inUsersTerms(String jackson) {
        String m = jackson.strip();
        int note = m.indexOf("[Source:");
        if (note >= 0) m = m.substring(0, note).strip();
        if (m.startsWith("Unexpected end-of-input")) return "the file ends before the JSON is complete (an object or array is not closed)";
        var close = java.util.regex.Pattern.compile("Unexpected close marker '(.)': expected '(.)'").matcher(m);
        if (close.find())
            return "'" + close.group(1) + "' where '" + close.group(2) + "' should close the " + (close.group(2).equals("]") ? "array" : "object") + " opened before it";
        var dup = java.util.regex.Pattern.compile("Duplicate field '(.*)'").matcher(m);
        if (dup.find()) return "field '" + Printable.name(dup.group(1)) + "' given twice in one object";
        var token = java.util.regex.Pattern.compile("Unrecognized token '(.*?)'").matcher(m);
        if (token.find()) return "unknown word '" + token.group(1) + "' (a string needs double quotes; the words JSON knows are true, false and null)";
        if (m.startsWith("Trailing token")) return "more text after the end of the JSON document";
        // the rest would end with Jackson's advice to enable a parser feature, which a user cannot (breaker14)
        var nonNumber = java.util.regex.Pattern.compile("Non-standard token '(.*?)'").matcher(m);
        if (nonNumber.find()) return "'" + nonNumber.group(1) + "' is not a JSON number (JSON has no NaN or Infinity; write a finite number)";
        if (m.contains("maybe a (non-standard) comment")) return "a comment ('/'): JSON has no comments; remove it";
        if (m.contains("does not allow numbers to have plus signs")) return "a number with a '+' sign: JSON numbers take none (write 5, not +5)";
        var control = java.util.regex.Pattern.compile("Illegal unquoted character \\(\\(CTRL-CHAR, code (\\d+)\\)\\)").matcher(m);
        if (control.find())   // was "Illegal unquoted character ((CTRL-CHAR, code 1)): has to be escaped using backslash ..." (breaker15)
            return String.format(java.util.Locale.ROOT, "a control character (U+%04X) inside a string: JSON strings write it escaped (\\u%04x, or \\n, \\t ...)",
                    Integer.parseInt(control.group(1)), Integer.parseInt(control.group(1)));
        var depth = java.util.regex.Pattern.compile("nesting depth \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)").matcher(m);
        if (depth.find())   // was Jackson's "... from `StreamReadConstraints.getMaxNestingDepth()`" (breaker15)
            return "arrays and objects nested more than " + depth.group(2) + " deep; arenaplan reads at most " + depth.group(2) + " levels";
        var length = java.util.regex.Pattern.compile("(Name|String value|Number value) length \\(\\d+\\) exceeds the maximum allowed \\((\\d+)").matcher(m);
        if (length.find()) {   // was Jackson's "Name length (65536) exceeds the maximum allowed (50000, from `StreamReadConstraints.getMaxNameLength()`)" (frontdoor)
            String what = length.group(1).equals("Name") ? "a field name" : length.group(1).equals("Number value") ? "a number" : "a string";
            return String.format(java.util.Locale.ROOT, "%s longer than %,d characters; arenaplan reads at most %,d", what, Long.parseLong(length.group(2)), Long.parseLong(length.group(2)));
        }
        var u = UNEXPECTED.matcher(m);
        if (u.matches()) {
            String found = u.group(1), rest = u.group(2);
            String want = rest.contains("double-quote to start field name") ? "a field name in double quotes"
                    : rest.contains("comma to separate Object") ? "',' between fields or '}' to end the object"
                    : rest.contains("comma to separate Array") ? "',' between items or ']' to end the array"
                    : rest.contains("colon to separate field name") ? "':' after the field name"
                    : rest.contains("valid value") ? "a value (a string in double quotes, a number, an object, an array, true, false or null)"
                    : null;
            if (want != null) return "expected " + want + ", found '" + found + "'";
        }
        m = m.replaceAll("\\s*\\(code \\d+[^)]*\\)", "").replaceAll("\\s*\\(for \\w+ starting at\\s*$", "");
        int end = m.indexOf('\n');
        return (end >= 0 ? m.substring(0, end) : m).strip();
    }

    InputException fail(String path, String what) {
        return new InputException(source + ": " + path + ": " + what);
    }

    /**
     * {@code object}'s field {@code field}, or null where the object has none.
     *
     * @throws InputException naming the path where the field is JSON null
     */
    JsonNode given(JsonNode object, String path, String field) {
        JsonNode v = object.get(field);
        if (v != null && v.isNull())
            throw fail(path + "." + field, "null: leave the field out to take its default, or give a value (null is not read as the default)");
        return v;
    }

    /** Rejects fields this format does not define, so a misspelt key is not silently ignored. */
    void onlyFields(JsonNode object, String path, Set<String> allowed) {
        requireObject(object, path);
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!allowed.contains(f)) throw fail(path + "." + Printable.name(f), "unknown field (expected one of " + String.join(", ", new TreeSet<>(allowed)) + ")");
        }
    }

    void requireObject(JsonNode node, String path) {
        if (node == null || !node.isObject()) throw fail(path, "expected an object");
    }

    JsonNode required(JsonNode object, String path, String field) {
        JsonNode v = object.get(field);
        if (v == null) throw fail(path + "." + field, "missing required field");
        if (v.isNull()) throw fail(path + "." + field, "null where a value is required");
        return v;
    }

    String text(JsonNode object, String path, String field) {
        JsonNode v = required(object, path, field);
        if (!v.isTextual()) throw fail(path + "." + field, "expected a string, found " + v.getNodeType().name().toLowerCase(Locale.ROOT));
        return v.asText();
    }

    String optionalText(JsonNode object, String path, String field) {
        JsonNode v = given(object, path, field);
        if (v == null) return null;
        if (!v.isTextual()) throw fail(path + "." + field, "expected a string, found " + v.getNodeType().name().toLowerCase(Locale.ROOT));
        return v.asText();
    }

    long whole(JsonNode object, String path, String field) {
        return wholeValue(required(object, path, field), path + "." + field);
    }

    long optionalWhole(JsonNode object, String path, String field, long dflt) {
        JsonNode v = given(object, path, field);
        return v == null ? dflt : wholeValue(v, path + "." + field);
    }

    long wholeValue(JsonNode v, String path) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) throw fail(path, "expected a whole number that fits in 64 bits, found " + shown(v));
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
        if (!Double.isFinite(d)) throw fail(path + "." + field, "expected a finite number, found " + shown(v));
        return d;
    }

    /**
     * {@code v} as the message shows it: a number literal beyond a double's range (1e400), which
     * Jackson reads as infinity, is said to be so (was {@code found "Infinity"}, a string the file
     * never held; breaker15).
     */
    private static String shown(JsonNode v) {
        if (v.isFloatingPointNumber() && !Double.isFinite(v.doubleValue()))
            return "a number beyond the range of a double (|x| > 1.8e308), read as " + (v.doubleValue() > 0 ? "" : "-") + "infinity";
        return v.toString();
    }

    boolean flag(JsonNode object, String path, String field, boolean dflt) {
        JsonNode v = given(object, path, field);
        if (v == null) return dflt;
        if (!v.isBoolean()) throw fail(path + "." + field, "expected true or false, found " + v);
        return v.booleanValue();
    }

    JsonNode array(JsonNode object, String path, String field, boolean required) {
        JsonNode v = required ? required(object, path, field) : given(object, path, field);
        if (v == null) return MAPPER.createArrayNode();
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
