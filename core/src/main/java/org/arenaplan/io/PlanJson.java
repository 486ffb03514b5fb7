package org.arenaplan.io;

import com.fasterxml.jackson.databind.JsonNode;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.plan.PeakExplanation;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;
import org.arenaplan.schedule.Schedule;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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

    /** {@code peak} is derived from the rest ({@link PeakExplanation}); reading checks it and does not keep it. */
    private static final Set<String> TOP = Set.of("format", "graph", "alignment", "arena_bytes", "storages", "tensors", "refusals", "events", "stats", "schedule", "peak");
    private static final Set<String> PEAK = Set.of("position", "op", "stream", "lower_bound_bytes", "needed_bytes", "stream_bytes", "alignment_bytes",
            "fragmentation_bytes", "arena_top_storage", "live");
    private static final Set<String> PEAK_LIVE = Set.of("storage", "name", "bytes", "aligned_bytes", "kept_by", "last_reader", "last_reader_position",
            "through", "stream", "reason");
    private static final Set<String> STORAGE = Set.of("id", "name", "offset", "bytes", "aligned_bytes", "start", "end", "kind", "members");
    private static final Set<String> TENSOR = Set.of("storage", "offset_in_storage", "address");
    private static final Set<String> REFUSAL = Set.of("kind", "op", "tensor", "over", "reason");
    private static final Set<String> EVENT = Set.of("id", "record_after", "wait_before", "reason", "bytes_saved");
    private static final Set<String> SCHEDULE = Set.of("mode", "method", "file_lower_bound_bytes", "lower_bound_bytes", "proven_optimal", "planning_ms", "order");
    private static final Set<String> STATS = Set.of("planner", "arena_bytes", "lower_bound_bytes", "sum_bytes", "storages", "tensors",
            "alloc_calls_naive", "alloc_calls_planned", "ratio", "planning_ms", "proven_optimal");

    private PlanJson() { }

    /** One storage as the file records it. */
    public record StorageEntry(int id, String name, long offset, long bytes, long start, long end, String kind, Map<String, Long> members) { }

    /** Where one arena tensor lives: {@code address == storage offset + offsetInStorage}. */
    public record TensorEntry(String name, int storage, long offsetInStorage, long address) { }

    /** A plan file read back. {@code graph} is null for a plan of a CSV problem. */
    public record PlanDocument(String graph, long alignment, long arenaBytes, List<StorageEntry> storages,
                               Map<String, TensorEntry> tensors, List<Refusal> refusals, List<SyncEvent> events,
                               PlanStats stats, boolean provenOptimal, List<String> order) {
        /** Storage offsets by storage id. */
        public long[] offsets() {
            return storages.stream().mapToLong(StorageEntry::offset).toArray();
        }

        /** The placement problem the storages make, to re-check the offsets independently. */
        public Problem problem() {
            int n = storages.size();
            String[] ids = new String[n];
            long[] lo = new long[n], hi = new long[n], sz = new long[n];
            for (int i = 0; i < n; i++) {
                StorageEntry s = storages.get(i);
                ids[i] = s.name();
                lo[i] = s.start();
                hi[i] = s.end();
                sz[i] = s.bytes();
            }
            return new Problem(ids, lo, hi, sz, alignment);
        }
    }

    // ---- writing (streamed by PlanJsonWriter) ----

    public static void write(Plan plan, Writer w) throws IOException {
        write(plan, null, w);
    }

    /** As {@link #write(Plan, Writer)}, recording how {@code schedule} chose the plan's op order (null: not said). */
    public static void write(Plan plan, Schedule schedule, Writer w) throws IOException {
        PlanJsonWriter.write(plan, schedule, w);
    }

    /** The plan of a bare placement problem (a CSV file): every buffer is its own storage and tensor. */
    public static void write(Problem problem, Placement placement, PlanStats stats, Writer w) throws IOException {
        PlanJsonWriter.write(problem, placement, stats, w);
    }

    public static String toString(Plan plan) {
        StringWriter w = new StringWriter();
        try {
            write(plan, w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /**
     * A file that holds {@code peak} holds it well formed and true to its storages: known fields,
     * the storages it names with their own name and sizes, a known {@code kept_by}, and the
     * split adding up (lower bound = the storages' aligned bytes; needed + streams + alignment +
     * fragmentation = the arena).
     */
    private static void checkPeak(JsonReading r, JsonNode pk, List<StorageEntry> storages, long arena) {
        r.onlyFields(pk, "$.peak", PEAK);
        r.whole(pk, "$.peak", "position");
        r.optionalText(pk, "$.peak", "op");
        if (pk.has("stream")) r.index(pk, "$.peak", "stream");
        long lb = r.count(pk, "$.peak", "lower_bound_bytes");
        long split = 0;
        for (String f : new String[]{"needed_bytes", "stream_bytes", "alignment_bytes", "fragmentation_bytes"}) split += r.count(pk, "$.peak", f);
        if (split != arena) throw r.fail("$.peak", "needed + stream + alignment + fragmentation bytes make " + split + ", not the arena " + arena);
        if (pk.has("arena_top_storage") && r.index(pk, "$.peak", "arena_top_storage") >= storages.size())
            throw r.fail("$.peak.arena_top_storage", "no such storage");
        JsonNode live = r.array(pk, "$.peak", "live", true);
        long sum = 0;
        Set<String> keepers = new java.util.HashSet<>();
        for (PeakExplanation.Keeper k : PeakExplanation.Keeper.values()) keepers.add(k.jsonName());
        for (int i = 0; i < live.size(); i++) {
            String at = "$.peak.live[" + i + "]";
            JsonNode l = live.get(i);
            r.onlyFields(l, at, PEAK_LIVE);
            int id = r.index(l, at, "storage");
            if (id >= storages.size()) throw r.fail(at + ".storage", "no such storage: " + id);
            StorageEntry st = storages.get(id);
            if (!r.text(l, at, "name").equals(st.name())) throw r.fail(at + ".name", "differs from storage " + id + "'s name '" + st.name() + "'");
            if (r.count(l, at, "bytes") != st.bytes()) throw r.fail(at + ".bytes", "differs from storage " + id + "'s bytes " + st.bytes());
            sum += r.count(l, at, "aligned_bytes");
            if (!keepers.contains(r.text(l, at, "kept_by"))) throw r.fail(at + ".kept_by", "expected one of " + new java.util.TreeSet<>(keepers));
            r.optionalText(l, at, "last_reader");
            if (l.has("last_reader_position")) r.index(l, at, "last_reader_position");
            JsonNode th = r.array(l, at, "through", false);
            for (int j = 0; j < th.size(); j++) r.textAt(th, j, at + ".through");
            if (l.has("stream")) r.index(l, at, "stream");
            r.text(l, at, "reason");
        }
        if (sum != lb) throw r.fail("$.peak.live", "aligned bytes sum to " + sum + ", not the lower bound " + lb);
    }

    // ---- reading ----

    public static PlanDocument read(Path file) throws IOException {
        try (Reader in = TextFiles.open(file)) {
            return read(in, file.toString());
        }
    }

    public static PlanDocument parse(String json, String source) {
        try {
            return read(new StringReader(json), source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PlanDocument read(Reader in, String source) throws IOException {
        JsonReading r = new JsonReading(source);
        JsonNode root = r.parse(in);
        r.requireFormat(root, FORMAT);
        r.onlyFields(root, "$", TOP);
        long alignment = r.whole(root, "$", "alignment");
        if (alignment < 1) throw r.fail("$.alignment", "must be at least 1, found " + alignment);
        long arena = r.whole(root, "$", "arena_bytes");
        if (arena < 0) throw r.fail("$.arena_bytes", "negative size " + arena);
        List<StorageEntry> storages = readStorages(r, r.array(root, "$", "storages", true), alignment, arena);
        Map<String, TensorEntry> tensors = readTensors(r, root, storages);
        List<Refusal> refusals = new ArrayList<>();
        JsonNode rs = r.array(root, "$", "refusals", false);
        for (int i = 0; i < rs.size(); i++) refusals.add(readRefusal(r, rs.get(i), "$.refusals[" + i + "]"));
        List<SyncEvent> events = new ArrayList<>();
        JsonNode es = r.array(root, "$", "events", false);
        for (int i = 0; i < es.size(); i++) events.add(readEvent(r, es.get(i), "$.events[" + i + "]"));
        JsonNode st = r.required(root, "$", "stats");
        r.onlyFields(st, "$.stats", STATS);
        PlanStats stats = new PlanStats(r.text(st, "$.stats", "planner"), r.whole(st, "$.stats", "arena_bytes"),
                r.count(st, "$.stats", "sum_bytes"), r.count(st, "$.stats", "lower_bound_bytes"),
                r.index(st, "$.stats", "storages"), st.hasNonNull("tensors") ? r.index(st, "$.stats", "tensors") : tensors.size(),
                r.optionalWhole(st, "$.stats", "alloc_calls_naive", 0), r.optionalWhole(st, "$.stats", "alloc_calls_planned", 0),
                r.number(st, "$.stats", "planning_ms"));
        if (stats.arenaBytes() != arena)
            throw r.fail("$.stats.arena_bytes", stats.arenaBytes() + " differs from $.arena_bytes " + arena);
        if (root.has("peak")) checkPeak(r, root.get("peak"), storages, arena);
        List<String> order = new ArrayList<>();
        if (root.has("schedule")) {
            JsonNode sc = root.get("schedule");
            r.onlyFields(sc, "$.schedule", SCHEDULE);
            // Not kept in the document, but a file that holds them holds them well typed.
            r.optionalText(sc, "$.schedule", "mode");
            r.optionalText(sc, "$.schedule", "method");
            for (String bytes : new String[]{"file_lower_bound_bytes", "lower_bound_bytes"}) if (sc.hasNonNull(bytes)) r.count(sc, "$.schedule", bytes);
            r.flag(sc, "$.schedule", "proven_optimal", false);
            if (sc.hasNonNull("planning_ms")) r.number(sc, "$.schedule", "planning_ms");
            JsonNode os = r.array(sc, "$.schedule", "order", false);
            for (int i = 0; i < os.size(); i++) {
                if (!os.get(i).isTextual()) throw r.fail("$.schedule.order[" + i + "]", "must be an op name");
                order.add(os.get(i).asText());
            }
        }
        PlanDocument doc = new PlanDocument(r.optionalText(root, "$", "graph"), alignment, arena, List.copyOf(storages),
                java.util.Collections.unmodifiableMap(tensors), List.copyOf(refusals), List.copyOf(events), stats,
                r.flag(st, "$.stats", "proven_optimal", false), List.copyOf(order));
        try {
            doc.problem();   // the storages must make a placement problem (sizes that sum, aligned, within 2^63-1 B)
        } catch (PlanningException e) {
            throw r.fail("$.storages", e.getMessage());
        }
        return doc;
    }

    private static List<StorageEntry> readStorages(JsonReading r, JsonNode array, long alignment, long arena) {
        List<StorageEntry> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            String path = "$.storages[" + i + "]";
            JsonNode s = array.get(i);
            r.onlyFields(s, path, STORAGE);
            long id = r.whole(s, path, "id");
            // Storage ids are positions in this list: the tensors refer to them.
            if (id != i) throw r.fail(path + ".id", "expected " + i + " (storages are listed in id order), found " + id);
            long offset = r.whole(s, path, "offset");
            if (offset < 0) throw r.fail(path + ".offset", "negative offset " + offset);
            if (offset % alignment != 0) throw r.fail(path + ".offset", offset + " is not a multiple of the alignment " + alignment);
            long bytes = r.whole(s, path, "bytes");
            if (bytes < 0) throw r.fail(path + ".bytes", "negative size " + bytes);
            long pad = (alignment - bytes % alignment) % alignment;
            if (bytes > Long.MAX_VALUE - pad) throw r.fail(path + ".bytes", bytes + " overflows when rounded up to the alignment " + alignment);
            long aligned = bytes + pad;
            if (s.hasNonNull("aligned_bytes") && r.whole(s, path, "aligned_bytes") != aligned)
                throw r.fail(path + ".aligned_bytes", s.get("aligned_bytes") + " is not bytes " + bytes + " rounded up to the alignment " + alignment + " (" + aligned + ")");
            if (offset > arena - aligned)
                throw r.fail(path + ".bytes", "the storage at offset " + offset + " with " + aligned + " B (aligned) ends past $.arena_bytes " + arena);
            long start = r.whole(s, path, "start");
            if (start < 0) throw r.fail(path + ".start", "negative position " + start);
            long end = r.whole(s, path, "end");
            if (end <= start) throw r.fail(path + ".end", "end (" + end + ") must exceed start (" + start + ")");
            Map<String, Long> members = new LinkedHashMap<>();
            JsonNode m = r.required(s, path, "members");
            r.requireObject(m, path + ".members");
            Iterator<Map.Entry<String, JsonNode>> it = m.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                members.put(e.getKey(), r.wholeValue(e.getValue(), path + ".members." + e.getKey()));
            }
            String kind = r.optionalText(s, path, "kind");
            out.add(new StorageEntry(i, r.text(s, path, "name"), offset, bytes, start, end, kind == null ? "" : kind, members));
        }
        return out;
    }

    private static Map<String, TensorEntry> readTensors(JsonReading r, JsonNode root, List<StorageEntry> storages) {
        Map<String, TensorEntry> out = new LinkedHashMap<>();
        JsonNode ts = r.required(root, "$", "tensors");
        r.requireObject(ts, "$.tensors");
        Iterator<Map.Entry<String, JsonNode>> it = ts.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.tensors." + e.getKey();
            JsonNode t = e.getValue();
            r.onlyFields(t, path, TENSOR);
            long storage = r.whole(t, path, "storage");
            if (storage < 0 || storage >= storages.size())
                throw r.fail(path + ".storage", "no storage " + storage + " (the plan has " + storages.size() + ")");
            long inside = r.whole(t, path, "offset_in_storage");
            StorageEntry home = storages.get((int) storage);
            if (inside < 0 || inside > home.bytes())
                throw r.fail(path + ".offset_in_storage", inside + " is outside storage " + storage + " of " + home.bytes() + " B");
            long address = r.whole(t, path, "address");
            long expected = home.offset() + inside;   // <= the storage's end, checked against the arena above
            if (address != expected)
                throw r.fail(path + ".address", address + " is not the storage's offset plus offset_in_storage (" + expected + ")");
            out.put(e.getKey(), new TensorEntry(e.getKey(), (int) storage, inside, address));
        }
        return out;
    }

    private static Refusal readRefusal(JsonReading r, JsonNode o, String path) {
        r.onlyFields(o, path, REFUSAL);
        Refusal.Kind k = enumField(r, o, path, "kind", Refusal.Kind.class, "in_place or donation");
        return new Refusal(k, r.optionalText(o, path, "op"), r.text(o, path, "tensor"), r.optionalText(o, path, "over"), r.text(o, path, "reason"));
    }

    private static SyncEvent readEvent(JsonReading r, JsonNode o, String path) {
        r.onlyFields(o, path, EVENT);
        SyncEvent.Reason why = enumField(r, o, path, "reason", SyncEvent.Reason.class, "data or reuse");
        return new SyncEvent(r.index(o, path, "id"), r.index(o, path, "record_after"), r.index(o, path, "wait_before"),
                why, r.optionalWhole(o, path, "bytes_saved", 0));
    }

    /** An enum written in lower case, e.g. {@code "in_place"} for {@code IN_PLACE}. */
    private static <E extends Enum<E>> E enumField(JsonReading r, JsonNode o, String path, String field, Class<E> type, String expected) {
        String text = r.text(o, path, field);
        try {
            return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw r.fail(path + "." + field, "expected " + expected + ", found '" + text + "'");
        }
    }
}
