package org.arenaplan.io;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.Problem;
import org.arenaplan.schedule.Schedule;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The plan file format {@code "arenaplan-plan/1"}: the alignment, one entry per storage (offset,
 * size, live interval, member tensors with their offsets), one entry per arena tensor (storage,
 * offset inside it, address), refused in-place/donation requests, the sync events of a
 * multi-stream plan, and the stats. Reading gives back the same offsets; it checks that every
 * tensor's address is its storage's offset plus its offset inside it, so a hand-edited file
 * that contradicts itself is refused. A graph's plan also records its {@code schedule}: the op
 * order its positions refer to and, when {@code --schedule} chose it, the mode, method and the
 * lower bounds at the file order and at this order (absent from files written before it; the
 * format name is unchanged, as only a field was added).
 */
public final class PlanJson {
    public static final String FORMAT = "arenaplan-plan/1";

    private PlanJson() { }

    /** One storage as the file records it. */
    public record StorageEntry(int id, String name, long offset, long bytes, long start, long end, String kind, Map<String, Long> members) { }

    /** Where one arena tensor lives: {@code address == storage offset + offsetInStorage}. */
    public record TensorEntry(String name, int storage, long offsetInStorage, long address) { }

    /**
     * A plan file read back. {@code graph} is null for a plan of a CSV problem. The storages and
     * tensors are held as primitive columns ({@link PlanColumns}); {@link #storages()} and {@link #tensors()} are read-only views over them.
     */
    public static final class PlanDocument {
        private final String graph;
        private final long alignment;
        private final long arenaBytes;
        private final PlanColumns columns;
        private final List<Refusal> refusals;
        private final List<SyncEvent> events;
        private final PlanStats stats;
        private final boolean provenOptimal;
        private final List<String> order;
        private final List<Integer> streams;

        PlanDocument(String graph, long alignment, long arenaBytes, PlanColumns columns, List<Refusal> refusals, List<SyncEvent> events,
                     PlanStats stats, boolean provenOptimal, List<String> order, List<Integer> streams) {
            this.graph = graph;
            this.alignment = alignment;
            this.arenaBytes = arenaBytes;
            this.columns = columns;
            this.refusals = refusals;
            this.events = events;
            this.stats = stats;
            this.provenOptimal = provenOptimal;
            this.order = order;
            this.streams = streams;
        }

        public String graph() { return graph; }

        /** Bytes; every offset is a multiple of it. */
        public long alignment() { return alignment; }

        /** The arena's size in bytes ({@code arena_bytes}). */
        public long arenaBytes() { return arenaBytes; }

        /** The storages in id order; each entry is built when asked for. */
        public List<StorageEntry> storages() { return columns.storages(); }

        /** The arena tensors by name, in file order; each entry is built when asked for. */
        public Map<String, TensorEntry> tensors() { return columns.tensors(); }

        public List<Refusal> refusals() { return refusals; }

        public List<SyncEvent> events() { return events; }

        public PlanStats stats() { return stats; }

        public boolean provenOptimal() { return provenOptimal; }

        /** The op order the positions refer to (empty for a CSV problem's plan or a file written before it). */
        public List<String> order() { return order; }

        /**
         * The stream each op of {@link #order()} is issued on, which the events' positions refer to
         * (the streams {@code --streams N} assigned, not necessarily the graph file's); empty where
         * the order is, or in a file written before the field existed.
         */
        public List<Integer> streams() { return streams; }

        /**
         * Checks that this is the plan of the CSV problem {@code problem} names: one storage and
         * one tensor per buffer, each storage listing its own buffer alone, at offset 0 (what
         * {@code plan PROBLEM.csv --out PLAN.json} writes). A graph's plan (with {@code graph}),
         * whose storages hold the graph's views and in-place results, is not checked here.
         *
         * @param source   the plan file's name, for the message
         * @param problem  the problem file's name, for the message
         * @param isBuffer whether the problem has a buffer of that id
         * @throws InputException naming {@code source}, the storage's members' JSON path, the storage and the member
         */
        public void requireOneBufferPerStorage(String source, String problem, java.util.function.Predicate<String> isBuffer) {
            if (graph != null) return;
            int[] bad = columns.storageNotItsBufferAlone();
            if (bad == null) return;
            String rule = "the plan of a CSV problem (no \"graph\") has one storage and one tensor per buffer: its buffer, at offset 0";
            String storage = Printable.name(columns.name(bad[0]));
            String path = source + ": $.storages[" + bad[0] + "].members";
            if (bad[1] < 0) throw new InputException(path + ": storage '" + storage + "' lists no member; " + rule);
            String raw = columns.memberName(bad[1]), member = Printable.name(raw);
            path += "." + member;
            if (raw.equals(columns.name(bad[0])))
                throw new InputException(path + ": buffer '" + member + "' lies at offset " + columns.memberOffset(bad[1]) + " inside its storage; " + rule);
            throw new InputException(path + ": storage '" + storage + "' lists member '" + member + "', "
                    + (isBuffer.test(raw) ? "another buffer of " + problem : "which " + problem + " has no buffer of") + "; " + rule);
        }

        /** Storage offsets by storage id. */
        public long[] offsets() {
            return columns.offsets();
        }

        /** The placement problem the storages make, to re-check the offsets independently. */
        public Problem problem() {
            return columns.problem(alignment);
        }
    }

    // ---- writing (streamed by PlanJsonWriter) ----

    /**
     * Writes the plan JSON (format in docs/cli.md) to {@code w}, streamed, the writer left open.
     *
     * @throws IOException when the writer fails
     */
    public static void write(Plan plan, Writer w) throws IOException {
        write(plan, null, w);
    }

    /**
     * As {@link #write(Plan, Writer)}, recording how {@code schedule} chose the plan's op order (null: not said).
     *
     * @throws IOException when the writer fails
     */
    public static void write(Plan plan, Schedule schedule, Writer w) throws IOException {
        PlanJsonWriter.write(plan, schedule, w);
    }

    /**
     * The plan of a bare placement problem (a CSV file): every buffer is its own storage and tensor.
     *
     * @throws IOException when the writer fails
     */
    public static void write(Problem problem, Placement placement, PlanStats stats, Writer w) throws IOException {
        PlanJsonWriter.write(problem, placement, stats, w);
    }

    /** The plan JSON of {@code plan} as a string (never throws: a string writer does not fail). */
    public static String toString(Plan plan) {
        StringWriter w = new StringWriter();
        try {
            write(plan, w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    // ---- reading ----

    /**
     * Reads a plan file (UTF-8, decoded as it is read).
     *
     * @throws InputException naming the file and the JSON path of the field at fault, for text
     *         that is not UTF-8 (the line, the byte and its offset), not JSON, or not a valid plan
     * @throws IOException when the file cannot be read
     */
    public static PlanDocument read(Path file) throws IOException {
        try (Reader in = TextFiles.reader(file)) {
            return read(in, file.toString());
        } catch (InputException | java.nio.charset.CharacterCodingException e) {
            // As when the whole file was decoded first: a byte that is not UTF-8 is reported before any fault in the text.
            TextFiles.requireUtf8(file);
            throw e;
        }
    }

    /**
     * As {@link #read(Reader, String)}, from a string.
     *
     * @throws InputException naming {@code source} and the JSON path of the field at fault
     */
    public static PlanDocument parse(String json, String source) {
        try {
            return read(new StringReader(json), source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a plan file; see {@link PlanJsonReader} for how (streamed) and in which order the fields are checked.
     *
     * @param source the name errors give for the text (a file name)
     * @throws InputException naming {@code source} and the JSON path of the field at fault
     * @throws IOException when the reader fails
     */
    public static PlanDocument read(Reader in, String source) throws IOException {
        return PlanJsonReader.read(in, source);
    }
}
