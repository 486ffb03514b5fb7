package org.arenaplan.io;

import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MiniMalloc / idealloc CSV format: header {@code id,lower,upper,size}, one buffer a row,
 * live over the half-open interval {@code [lower, upper)}. A solution is the same rows with an
 * {@code offset} column appended; other columns a problem file has ({@link Extra}) are kept, as
 * written, in the solution written for it. Every parse error is an {@link InputException} naming the file,
 * line and field: a number that is not ASCII digits with an optional sign or does not fit in 64 bits, a column named
 * twice, sizes whose sum (aligned) passes 2^63-1 bytes, a field of the format's own columns in double
 * quotes (fields are split at every comma: RFC 4180 quoting is not read, so {@code "id"} is no column
 * id and {@code "a,b"} two fields). A leading byte-order mark is skipped.
 */
public final class ProblemCsv {
    /** {@code NAME.NUMBER.csv}: NUMBER as the fields' numbers are written (ASCII digits with an optional sign). */
    private static final Pattern CAPACITY_IN_NAME = Pattern.compile(".*\\.([+-]?[0-9]+)\\.csv$");
    /**
     * ASCII digits with an optional sign, as docs/cli.md has promised since the format was
     * first read (a '-' is then judged by the field's own rule: a negative offset is a violation).
     */
    private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]+");

    private ProblemCsv() { }

    /**
     * A parsed file: the problem, for solution files the offsets, and the columns besides the format's own.
     *
     * @param offsets bytes from the arena's base per row, or null for a problem file
     */
    public record Parsed(Problem problem, long[] offsets, Extra extra) {
        /** A parse with no extra columns. */
        public Parsed(Problem problem, long[] offsets) {
            this(problem, offsets, Extra.NONE);
        }
    }

    /**
     * The columns a file has besides {@code id,lower,upper,size} and {@code offset} (a solution
     * read back as a problem gets a new offset), kept as written so that the solution written for
     * a problem carries them (a user's annotations, e.g. a tensor's name or kind, are not dropped).
     *
     * @param names the columns' names, in header order
     * @param rows  each row's fields of those columns as the file writes them, in the problem's row order
     */
    public record Extra(List<String> names, List<List<String>> rows) {
        public static final Extra NONE = new Extra(List.of(), List.of());

        public Extra {
            names = List.copyOf(names);
            rows = List.copyOf(rows);
        }
    }

    /**
     * Reads a MiniMalloc problem file ({@code id,lower,upper,size}; format in docs/cli.md).
     *
     * @param alignment the byte alignment of every offset in the problem (at least 1)
     * @throws InputException naming the file, line and field at fault
     * @throws IOException when the file cannot be read
     */
    public static Problem read(Path file, long alignment) throws IOException {
        return parse(file, alignment, false).problem();
    }

    /**
     * Reads a problem file with its extra columns ({@link Extra}), for {@link #writeSolution(Problem, Placement, Extra, Writer)}.
     *
     * @param alignment the byte alignment of every offset in the problem (at least 1)
     * @return the problem, no offsets, and the extra columns
     * @throws InputException naming the file, line and field at fault
     * @throws IOException when the file cannot be read
     */
    public static Parsed readWithColumns(Path file, long alignment) throws IOException {
        return parse(file, alignment, false);
    }

    /**
     * Reads a solution file: the problem's columns plus {@code offset} (bytes from the arena's base).
     *
     * @param alignment the byte alignment of every offset in the problem (at least 1)
     * @throws InputException naming the file, line and field at fault
     * @throws IOException when the file cannot be read
     */
    public static Parsed readSolution(Path file, long alignment) throws IOException {
        return parse(file, alignment, true);
    }

    /**
     * The capacity a {@code NAME.NUMBER.csv} file name carries, or null. NUMBER is written as
     * the fields' numbers are: ASCII digits with an optional sign ({@code n.+1536.csv} is 1536),
     * so a sign is never silently dropped or taken for part of the name.
     *
     * @throws InputException naming the file when NUMBER does not fit in 64 bits or is negative
     */
    public static Long capacityFromName(Path file) {
        Matcher m = CAPACITY_IN_NAME.matcher(file.getFileName().toString());
        if (!m.matches()) return null;
        long capacity;
        try {
            capacity = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new InputException(file + ": the capacity " + m.group(1) + " in the file name does not fit in 64 bits");
        }
        if (capacity < 0)
            throw new InputException(file + ": the capacity " + m.group(1) + " in the file name (NAME.NUMBER.csv) is negative; rename the file or give --capacity BYTES");
        return capacity;
    }

    private static Parsed parse(Path file, long alignment, boolean withOffsets) throws IOException {
        List<String> ids = new ArrayList<>();
        List<long[]> rows = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<String> extraNames = new ArrayList<>();
        List<Integer> extraAt = new ArrayList<>();
        List<List<String>> extraRows = new ArrayList<>();
        try (BufferedReader r = TextFiles.open(file)) {
            String header = r.readLine();
            if (header == null) throw new InputException(file + ": empty file; expected the header id,lower,upper,size");
            String[] cols = blanks(header).split(",", -1);
            int[] at = columns(file, cols, withOffsets);
            for (int c = 0; c < cols.length; c++) {
                String name = blanks(cols[c]);
                if (!List.of("id", "lower", "upper", "size", "offset").contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    extraNames.add(name);
                    extraAt.add(c);
                }
            }
            String line;
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) continue;
                String[] f = line.split(",", -1);
                if (f.length != cols.length)
                    throw new InputException(file + ":" + lineNo + ": expected " + cols.length + " fields (" + Printable.name(blanks(header)) + "), found " + f.length
                            + (line.indexOf('"') >= 0 ? "; " + NO_QUOTES + ", so a comma in quotes splits its field too" : ""));
                if (line.indexOf('"') >= 0) for (int k = 0; k < at.length; k++) refuseQuoted(file, lineNo, "field '" + FIELDS[k] + "'", f[at[k]]);
                String id = blanks(f[at[0]]);
                if (id.isEmpty()) throw new InputException(file + ":" + lineNo + ": field 'id' is empty");
                if (!seen.add(id)) throw new InputException(file + ":" + lineNo + ": duplicate id '" + Printable.name(id) + "'");
                long lower = number(file, lineNo, "lower", f[at[1]]);
                long upper = number(file, lineNo, "upper", f[at[2]]);
                long size = number(file, lineNo, "size", f[at[3]]);
                if (lower < 0) throw new InputException(file + ":" + lineNo + ": field 'lower' is negative (" + lower + ") for id '" + Printable.name(id) + "'");
                if (upper <= lower)
                    throw new InputException(file + ":" + lineNo + ": field 'upper' (" + upper + ") must exceed 'lower' (" + lower + ") for id '" + Printable.name(id) + "'");
                if (size < 0) throw new InputException(file + ":" + lineNo + ": field 'size' is negative (" + size + ") for id '" + Printable.name(id) + "'");
                long offset = withOffsets ? number(file, lineNo, "offset", f[at[4]]) : 0;
                ids.add(id);
                rows.add(new long[]{lower, upper, size, offset});
                List<String> extra = new ArrayList<>(extraAt.size());
                for (int c : extraAt) extra.add(f[c]);
                extraRows.add(extra);
            }
        }
        int n = ids.size();
        long[] lo = new long[n], hi = new long[n], sz = new long[n], off = new long[n];
        for (int i = 0; i < n; i++) {
            long[] row = rows.get(i);
            lo[i] = row[0];
            hi[i] = row[1];
            sz[i] = row[2];
            off[i] = row[3];
        }
        try {
            return new Parsed(new Problem(ids.toArray(new String[0]), lo, hi, sz, alignment), withOffsets ? off : null,
                    extraNames.isEmpty() ? Extra.NONE : new Extra(extraNames, extraRows));
        } catch (PlanningException e) {   // sizes that overflow when aligned or summed
            throw new InputException(file + ": field 'size': " + e.getMessage(), e);
        }
    }

    /** For a header of one column that another separator splits ({@code id;lower;upper;size}): that columns are separated by commas. */
    private static String separatorHint(String[] cols) {
        if (cols.length != 1) return "";
        for (String sep : new String[]{";", "\t", "|"}) {
            if (cols[0].contains(sep)) return "; columns are separated by commas, and this header uses '" + (sep.equals("\t") ? "\\t" : sep) + "'";
        }
        return "";
    }

    /** The format's own columns, in the order {@link #columns} finds them. */
    private static final String[] FIELDS = {"id", "lower", "upper", "size", "offset"};
    private static final String NO_QUOTES = "arenaplan's CSV reader splits fields at every comma and reads no double quotes (RFC 4180 quoting)";

    private static int[] columns(Path file, String[] cols, boolean withOffsets) {
        int[] at = new int[withOffsets ? 5 : 4];
        for (int k = 0; k < at.length; k++) {
            at[k] = -1;
            for (int c = 0; c < cols.length; c++) {
                if (!blanks(cols[c]).equalsIgnoreCase(FIELDS[k])) continue;
                if (at[k] >= 0) throw new InputException(file + ":1: column '" + FIELDS[k] + "' appears twice in header '" + Printable.name(String.join(",", cols)) + "'");
                at[k] = c;
            }
            if (at[k] >= 0) continue;
            for (String c : cols)   // "id": the column is there, in quotes
                if (blanks(blanks(c).replace("\"", "")).equalsIgnoreCase(FIELDS[k])) refuseQuoted(file, 1, "column '" + FIELDS[k] + "'", c);
            throw new InputException(file + ":1: missing column '" + FIELDS[k] + "' in header '" + Printable.name(String.join(",", cols)) + "'" + separatorHint(cols));
        }
        return at;
    }

    /**
     * Refuses a field of the format's own columns written in double quotes ({@code "a"},
     * {@code "16"}, a header's {@code "id"}), which would otherwise be an id with quotes in it,
     * "not a whole number" or a "missing column" with no word of why.
     */
    private static void refuseQuoted(Path file, int line, String what, String field) {
        String f = blanks(field);
        if (!f.startsWith("\"")) return;
        throw new InputException(file + ":" + line + ": " + what + " is in double quotes (" + Printable.name(f) + "); " + NO_QUOTES + ": write it without quotes");
    }

    /** A whole number in ASCII digits ({@link Long#parseLong} alone also takes other scripts' digits). */
    private static long number(Path file, int line, String field, String text) {
        String t = blanks(text);
        if (!WHOLE.matcher(t).matches())
            throw new InputException(file + ":" + line + ": field '" + field + "' is not a whole number: '" + Printable.name(t) + "' (digits 0-9, an optional sign)");
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new InputException(file + ":" + line + ": field '" + field + "' does not fit in 64 bits: '" + Printable.name(t) + "'");
        }
    }

    /**
     * Why {@code id} would not read back as written from a CSV this class writes, or null where it
     * would: the reader splits at every comma and line break, drops the spaces and tabs around a
     * field, and refuses a field that starts with a double quote or is empty.
     */
    public static String unwritableId(String id) {
        if (id.isEmpty()) return "is empty, which the CSV reader refuses";
        if (id.indexOf(',') >= 0 || id.indexOf('\n') >= 0 || id.indexOf('\r') >= 0) return "has a comma or line break in it, which a CSV row cannot hold";
        if (!blanks(id).equals(id)) return "has spaces or tabs around it, which the CSV reader drops (it would read back as '" + Printable.name(blanks(id)) + "')";
        if (id.startsWith("\"")) return "starts with a double quote, which the CSV reader refuses (" + NO_QUOTES + ")";
        return null;
    }

    /**
     * {@code s} without the spaces and tabs around it. Not {@link String#trim}, which also drops NUL and
     * every other control character: {@code 4\0} would read as 4 (breaker15).
     */
    private static String blanks(String s) {
        int from = 0, to = s.length();
        while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) from++;
        while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) to--;
        return s.substring(from, to);
    }

    /**
     * Writes the problem's rows with an {@code offset} column (bytes), as MiniMalloc does.
     *
     * @throws IOException when the writer fails
     */
    public static void writeSolution(Problem p, Placement s, Writer w) throws IOException {
        writeSolution(p, s, Extra.NONE, w);
    }

    /**
     * Writes the problem's rows, then the problem file's extra columns as read, then an
     * {@code offset} column (bytes): {@code id,lower,upper,size,EXTRA...,offset}. Readers that find
     * columns by name (arenaplan, MiniMalloc) read it as a solution.
     *
     * @param extra the problem file's other columns ({@link #readWithColumns}), one row per problem row, or {@link Extra#NONE}
     * @throws IOException when the writer fails
     */
    public static void writeSolution(Problem p, Placement s, Extra extra, Writer w) throws IOException {
        String more = extra.names().isEmpty() ? "" : "," + String.join(",", extra.names());
        w.write("id,lower,upper,size" + more + ",offset\n");
        for (int i = 0; i < p.size(); i++) {
            String values = extra.names().isEmpty() ? "" : "," + String.join(",", extra.rows().get(i));
            w.write(p.id(i) + "," + p.lower(i) + "," + p.upper(i) + "," + p.bytes(i) + values + "," + s.offset(i) + "\n");
        }
    }

    /**
     * Writes the problem alone (no offsets): sizes in bytes, intervals in the problem's positions.
     *
     * @throws IOException when the writer fails
     */
    public static void writeProblem(Problem p, Writer w) throws IOException {
        w.write("id,lower,upper,size\n");
        for (int i = 0; i < p.size(); i++) w.write(p.id(i) + "," + p.lower(i) + "," + p.upper(i) + "," + p.bytes(i) + "\n");
    }
}
