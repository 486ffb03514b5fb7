package org.arenaplan.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.io.PlanJson.PlanDocument;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.PeakExplanation;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.PlanningException;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Reads the plan file ({@link PlanJson#FORMAT}) with Jackson's streaming {@link JsonParser}, so a
 * million-storage plan (a 348 MB file) reads within a 1 GB heap.
 *
 * <p>Steps: (1) stream the top-level object. {@code storages} and {@code tensors}, the two fields
 * that grow with the plan, are read one entry at a time, each entry checked as it passes and kept
 * in {@link PlanColumns}; every other field is small and kept as a tree. (2) At the end of the
 * file, check the fields in a fixed order: format, known fields, alignment, arena, storages,
 * tensors, refusals, events, stats, peak, schedule, graph; then that the storages make a
 * placement problem. Cost: one pass over the text, O(storages + tensors) time; memory is the
 * columns plus one entry's tree at a time.
 *
 * <p>Errors are exactly those of parsing the whole file as one tree and then checking it in that
 * order (the reader before this one did that): a syntax error anywhere wins over every other
 * fault, and a fault found in an entry while streaming is kept and thrown in its turn, so the
 * message does not depend on where in the file the faults lie. An entry can be checked while it
 * streams past only when what it depends on came before it: a valid {@code alignment} and
 * {@code arena_bytes} for a storage, every storage (all valid) for a tensor. That is the order
 * {@link PlanJsonWriter} writes; in a file with another order the field is kept as a tree and
 * checked at the end, with memory growing with it as it did before.
 */
final class PlanJsonReader {
    /** {@code peak} is derived from the rest ({@link PeakExplanation}); reading checks it and does not keep it. */
    private static final Set<String> TOP = Set.of("format", "graph", "alignment", "arena_bytes", "storages", "tensors", "refusals", "events", "stats", "schedule", "peak");
    private static final Set<String> PEAK = Set.of("position", "op", "stream", "lower_bound_bytes", "needed_bytes", "stream_bytes", "alignment_bytes",
            "fragmentation_bytes", "arena_top_storage", "live");
    private static final Set<String> PEAK_LIVE = Set.of("storage", "name", "bytes", "aligned_bytes", "kept_by", "last_reader", "last_reader_position",
            "through", "stream", "reason");
    private static final Set<String> STORAGE = Set.of("id", "name", "offset", "bytes", "aligned_bytes", "start", "end", "kind", "members");
    /** The storage kinds a plan is written with: a graph's, then a CSV problem's. */
    private static final List<String> KINDS = Stream.concat(Storage.KINDS.stream(), Stream.of(PlanJsonWriter.BUFFER_KIND)).toList();
    private static final Set<String> TENSOR = Set.of("storage", "offset_in_storage", "address");
    private static final Set<String> REFUSAL = Set.of("kind", "op", "tensor", "over", "reason");
    private static final Set<String> EVENT = Set.of("id", "record_after", "wait_before", "reason", "bytes_saved");
    private static final Set<String> SCHEDULE = Set.of("mode", "method", "file_lower_bound_bytes", "lower_bound_bytes", "proven_optimal", "planning_ms", "order", "streams");
    private static final Set<String> STATS = Set.of("planner", "arena_bytes", "lower_bound_bytes", "sum_bytes", "storages", "tensors",
            "alloc_calls_naive", "alloc_calls_planned", "ratio", "planning_ms", "proven_optimal");

    /** One value as a tree, leaving the parser on its last token (the whole file's end is checked once, by {@link JsonReading#stream}). */
    private static final ObjectReader TREE = JsonReading.MAPPER.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final JsonReading r;
    private final PlanColumns columns = new PlanColumns();
    /** Set when the field streamed into {@link #columns}; its first fault, if any, waits for its turn. */
    private boolean storagesStreamed;
    private boolean tensorsStreamed;
    private InputException storagesFault;
    private InputException tensorsFault;

    private PlanJsonReader(JsonReading r) {
        this.r = r;
    }

    static PlanDocument read(Reader in, String source) throws IOException {
        JsonReading r = new JsonReading(source);
        PlanJsonReader reader = new PlanJsonReader(r);
        return reader.check(r.stream(in, reader::root));
    }

    /**
     * The top level as a tree of its small fields, in file order; a streamed field is there as an
     * empty placeholder. A document that is not an object is read whole (and refused by {@link #check}).
     */
    private JsonNode root(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) return TREE.readTree(p);
        ObjectNode root = JsonReading.MAPPER.createObjectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("storages") && value == JsonToken.START_ARRAY && positive(root.get("alignment")) && atLeastZero(root.get("arena_bytes"))) {
                streamStorages(p, root.get("alignment").longValue(), root.get("arena_bytes").longValue());
                root.putArray(field);
            } else if (field.equals("tensors") && (storagesFault != null || value == JsonToken.START_OBJECT && storagesStreamed)) {
                if (storagesFault != null) p.skipChildren();   // never checked: the storages' fault comes first
                else streamTensors(p);
                root.putObject(field);
            } else {
                root.set(field, TREE.readTree(p));
            }
        }
        return root;
    }

    private static boolean positive(JsonNode v) {
        return v != null && v.isIntegralNumber() && v.canConvertToLong() && v.longValue() >= 1;
    }

    private static boolean atLeastZero(JsonNode v) {
        return v != null && v.isIntegralNumber() && v.canConvertToLong() && v.longValue() >= 0;
    }

    private void streamStorages(JsonParser p, long alignment, long arena) throws IOException {
        storagesStreamed = true;
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
            if (storagesFault != null) {
                p.skipChildren();
                continue;
            }
            JsonNode s = TREE.readTree(p);
            try {
                storage(s, i, alignment, arena);
            } catch (InputException e) {
                storagesFault = e;
            }
        }
    }

    private void streamTensors(JsonParser p) throws IOException {
        tensorsStreamed = true;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (tensorsFault != null) {
                p.skipChildren();
                continue;
            }
            JsonNode t = TREE.readTree(p);
            try {
                tensor(name, t);
            } catch (InputException e) {
                tensorsFault = e;
            }
        }
    }

    /** The checks, in their fixed order, once the whole file has been read. */
    private PlanDocument check(JsonNode root) {
        r.requireFormat(root, PlanJson.FORMAT);
        r.onlyFields(root, "$", TOP);
        long alignment = r.whole(root, "$", "alignment");
        if (alignment < 1 || Long.bitCount(alignment) != 1) throw r.fail("$.alignment", "must be a power of two of bytes (1, 2, 4, ...), found " + alignment);
        long arena = r.whole(root, "$", "arena_bytes");
        if (arena < 0) throw r.fail("$.arena_bytes", "negative size " + arena);
        if (storagesFault != null) throw storagesFault;
        if (!storagesStreamed) {
            JsonNode array = r.array(root, "$", "storages", true);
            for (int i = 0; i < array.size(); i++) storage(array.get(i), i, alignment, arena);
        }
        int[] alike = columns.storagesNamedAlike();
        if (alike != null)   // validate matches a plan's rows to a problem's by name: a second row of one name went unseen
            throw r.fail("$.storages[" + alike[1] + "].name", "'" + Printable.name(columns.name(alike[1])) + "' names $.storages[" + alike[0]
                    + "] too (a storage is named by its base tensor, or by its buffer's id in a CSV problem's plan: one storage per name)");
        if (tensorsFault != null) throw tensorsFault;
        if (!tensorsStreamed) {
            JsonNode ts = r.required(root, "$", "tensors");
            r.requireObject(ts, "$.tensors");
            Iterator<Map.Entry<String, JsonNode>> it = ts.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                tensor(e.getKey(), e.getValue());
            }
        }
        int[] orphan = columns.tensorCount() == columns.memberCount() ? null : columns.memberWithoutTensor();
        if (orphan != null) {   // each tensor matched a member of its storage; a member left over has no entry in $.tensors, or one in another storage
            String member = Printable.name(columns.memberName(orphan[1]));
            throw r.fail("$.storages[" + orphan[0] + "].members." + member, orphan[2] < 0 ? "has no entry in $.tensors (every member is an arena tensor with its address)"
                    : "$.tensors." + member + ".storage puts it in storage " + orphan[2] + " (a tensor lies in one storage)");
        }
        List<Refusal> refusals = new ArrayList<>();
        JsonNode rs = r.array(root, "$", "refusals", false);
        for (int i = 0; i < rs.size(); i++) refusals.add(refusal(rs.get(i), "$.refusals[" + i + "]"));
        List<SyncEvent> events = new ArrayList<>();
        JsonNode es = r.array(root, "$", "events", false);
        for (int i = 0; i < es.size(); i++) events.add(event(es.get(i), "$.events[" + i + "]"));
        JsonNode st = r.required(root, "$", "stats");
        r.onlyFields(st, "$.stats", STATS);
        PlanStats stats = new PlanStats(r.text(st, "$.stats", "planner"), r.whole(st, "$.stats", "arena_bytes"),
                r.count(st, "$.stats", "sum_bytes"), r.count(st, "$.stats", "lower_bound_bytes"),
                r.index(st, "$.stats", "storages"), st.has("tensors") ? r.index(st, "$.stats", "tensors") : columns.tensorCount(),
                r.optionalWhole(st, "$.stats", "alloc_calls_naive", 0), r.optionalWhole(st, "$.stats", "alloc_calls_planned", 0),
                r.number(st, "$.stats", "planning_ms"));
        if (stats.arenaBytes() != arena)
            throw r.fail("$.stats.arena_bytes", stats.arenaBytes() + " differs from $.arena_bytes " + arena);
        if (st.has("ratio")) r.number(st, "$.stats", "ratio");   // derived (arena / lower bound) and not kept, but a number like every other stat
        if (root.has("peak")) checkPeak(root.get("peak"), arena);
        List<String> order = root.has("schedule") ? schedule(root.get("schedule")) : List.of();
        List<Integer> streams = root.has("schedule") ? streams(root.get("schedule"), order.size()) : List.of();
        PlanDocument doc = new PlanDocument(r.optionalText(root, "$", "graph"), alignment, arena, columns.trimmed(),
                List.copyOf(refusals), List.copyOf(events), stats, r.flag(st, "$.stats", "proven_optimal", false), order, streams);
        try {
            doc.problem();   // the storages must make a placement problem (sizes that sum, aligned, within 2^63-1 B)
        } catch (PlanningException e) {
            throw r.fail("$.storages", e.getMessage());
        }
        return doc;
    }

    /** Checks storage {@code i} (its id, offset, sizes, interval, members) and appends it to the columns. */
    private void storage(JsonNode s, int i, long alignment, long arena) {
        String path = "$.storages[" + i + "]";
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
        if (s.has("aligned_bytes") && r.whole(s, path, "aligned_bytes") != aligned)
            throw r.fail(path + ".aligned_bytes", s.get("aligned_bytes") + " is not bytes " + bytes + " rounded up to the alignment " + alignment + " (" + aligned + ")");
        if (offset > arena - aligned)
            throw r.fail(path + ".bytes", "the storage at offset " + offset + " with " + aligned + " B (aligned) ends past $.arena_bytes " + arena);
        long start = r.whole(s, path, "start");
        if (start < 0) throw r.fail(path + ".start", "negative position " + start);
        long end = r.whole(s, path, "end");
        if (end <= start) throw r.fail(path + ".end", "end (" + end + ") must exceed start (" + start + ")");
        JsonNode m = r.required(s, path, "members");
        r.requireObject(m, path + ".members");
        for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            long inside = r.wholeValue(e.getValue(), path + ".members." + Printable.name(e.getKey()));
            if (inside < 0 || inside > bytes)   // the rule of a tensor's offset_in_storage
                throw r.fail(path + ".members." + Printable.name(e.getKey()), inside + " is outside the storage's " + bytes + " B");
        }
        String kind = s.path("kind").isNull() ? null : r.optionalText(s, path, "kind");   // null read as none, as docs/cli.md says
        if (kind != null && !KINDS.contains(kind))
            throw r.fail(path + ".kind", "expected " + String.join(", ", KINDS) + ", found '" + Printable.name(kind) + "'");
        columns.addStorage(r.text(s, path, "name"), offset, bytes, start, end, kind == null ? "" : kind);
        for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            columns.addMember(e.getKey(), e.getValue().longValue());
        }
    }

    /**
     * Checks one arena tensor against the storages (all read): its storage exists and lists it
     * among its members at the same offset, the offset lies inside the storage, its address adds up.
     */
    private void tensor(String name, JsonNode t) {
        String path = "$.tensors." + Printable.name(name);
        r.onlyFields(t, path, TENSOR);
        long storage = r.whole(t, path, "storage");
        int storages = columns.storageCount();
        if (storage < 0 || storage >= storages)
            throw r.fail(path + ".storage", "no storage " + storage + " (the plan has " + storages + ")");
        long inside = r.whole(t, path, "offset_in_storage");
        long homeBytes = columns.bytes((int) storage);
        if (inside < 0 || inside > homeBytes)
            throw r.fail(path + ".offset_in_storage", inside + " is outside storage " + storage + " of " + homeBytes + " B");
        long address = r.whole(t, path, "address");
        long expected = columns.offset((int) storage) + inside;   // <= the storage's end, checked against the arena above
        if (address != expected)
            throw r.fail(path + ".address", address + " is not the storage's offset plus offset_in_storage (" + expected + ")");
        long member = columns.memberOffset((int) storage, name, columns.tensorCount());
        if (member < 0)
            throw r.fail(path + ".storage", "storage " + storage + " ('" + Printable.name(columns.name((int) storage)) + "') does not list '" + Printable.name(name) + "' among its members");
        if (member != inside)
            throw r.fail(path + ".offset_in_storage", inside + " differs from the offset " + member + " at which storage " + storage + " lists it among its members");
        columns.addTensor(name, (int) storage, inside);
    }

    /**
     * A file that holds {@code peak} holds it well formed and true to its storages: known fields,
     * the storages it names with their own name and sizes, a known {@code kept_by}, and the
     * split adding up (lower bound = the storages' aligned bytes; needed + streams + alignment +
     * fragmentation = the arena).
     */
    private void checkPeak(JsonNode pk, long arena) {
        r.onlyFields(pk, "$.peak", PEAK);
        r.whole(pk, "$.peak", "position");
        r.optionalText(pk, "$.peak", "op");
        if (pk.has("stream")) r.index(pk, "$.peak", "stream");
        long lb = r.count(pk, "$.peak", "lower_bound_bytes");
        long split = 0;
        for (String f : new String[]{"needed_bytes", "stream_bytes", "alignment_bytes", "fragmentation_bytes"}) split += r.count(pk, "$.peak", f);
        if (split != arena) throw r.fail("$.peak", "needed + stream + alignment + fragmentation bytes make " + split + ", not the arena " + arena);
        int storages = columns.storageCount();
        if (pk.has("arena_top_storage") && r.index(pk, "$.peak", "arena_top_storage") >= storages)
            throw r.fail("$.peak.arena_top_storage", "no such storage");
        JsonNode live = r.array(pk, "$.peak", "live", true);
        long sum = 0;
        Set<String> keepers = new HashSet<>();
        for (PeakExplanation.Keeper k : PeakExplanation.Keeper.values()) keepers.add(k.jsonName());
        for (int i = 0; i < live.size(); i++) {
            String at = "$.peak.live[" + i + "]";
            JsonNode l = live.get(i);
            r.onlyFields(l, at, PEAK_LIVE);
            int id = r.index(l, at, "storage");
            if (id >= storages) throw r.fail(at + ".storage", "no such storage: " + id);
            if (!r.text(l, at, "name").equals(columns.name(id)))
                throw r.fail(at + ".name", "differs from storage " + id + "'s name '" + columns.name(id) + "'");
            if (r.count(l, at, "bytes") != columns.bytes(id)) throw r.fail(at + ".bytes", "differs from storage " + id + "'s bytes " + columns.bytes(id));
            sum += r.count(l, at, "aligned_bytes");
            if (!keepers.contains(r.text(l, at, "kept_by"))) throw r.fail(at + ".kept_by", "expected one of " + new TreeSet<>(keepers));
            r.optionalText(l, at, "last_reader");
            if (l.has("last_reader_position")) r.index(l, at, "last_reader_position");
            JsonNode th = r.array(l, at, "through", false);
            for (int j = 0; j < th.size(); j++) r.textAt(th, j, at + ".through");
            if (l.has("stream")) r.index(l, at, "stream");
            r.text(l, at, "reason");
        }
        if (sum != lb) throw r.fail("$.peak.live", "aligned bytes sum to " + sum + ", not the lower bound " + lb);
    }

    /** The op order of a graph's plan; the other fields are not kept, but a file that holds them holds them well typed. */
    private List<String> schedule(JsonNode sc) {
        r.onlyFields(sc, "$.schedule", SCHEDULE);
        r.optionalText(sc, "$.schedule", "mode");
        r.optionalText(sc, "$.schedule", "method");
        for (String bytes : new String[]{"file_lower_bound_bytes", "lower_bound_bytes"}) if (sc.has(bytes)) r.count(sc, "$.schedule", bytes);
        r.flag(sc, "$.schedule", "proven_optimal", false);
        if (sc.has("planning_ms")) r.number(sc, "$.schedule", "planning_ms");
        JsonNode os = r.array(sc, "$.schedule", "order", false);
        List<String> order = new ArrayList<>(os.size());
        for (int i = 0; i < os.size(); i++) {
            if (!os.get(i).isTextual()) throw r.fail("$.schedule.order[" + i + "]", "must be an op name");
            order.add(os.get(i).asText());
        }
        return List.copyOf(order);
    }

    /** The stream of each op in the order (absent from files written before it: empty); one whole number from 0 per op. */
    private List<Integer> streams(JsonNode sc, int ops) {
        if (!sc.has("streams")) return List.of();
        JsonNode ss = r.array(sc, "$.schedule", "streams", false);
        if (ss.size() != ops) throw r.fail("$.schedule.streams", "has " + ss.size() + " entries, but $.schedule.order has " + ops + " ops");
        List<Integer> streams = new ArrayList<>(ss.size());
        for (int i = 0; i < ss.size(); i++) {
            JsonNode s = ss.get(i);
            if (!s.canConvertToInt() || !s.isIntegralNumber() || s.asInt() < 0) throw r.fail("$.schedule.streams[" + i + "]", "must be a stream id, a whole number in [0, 2147483647], found " + s);
            streams.add(s.asInt());
        }
        return List.copyOf(streams);
    }

    private Refusal refusal(JsonNode o, String path) {
        r.onlyFields(o, path, REFUSAL);
        Refusal.Kind k = enumField(o, path, "kind", Refusal.Kind.class, "in_place or donation");
        return new Refusal(k, r.optionalText(o, path, "op"), r.text(o, path, "tensor"), r.optionalText(o, path, "over"), r.text(o, path, "reason"));
    }

    private SyncEvent event(JsonNode o, String path) {
        r.onlyFields(o, path, EVENT);
        SyncEvent.Reason why = enumField(o, path, "reason", SyncEvent.Reason.class, "data or reuse");
        return new SyncEvent(r.index(o, path, "id"), r.index(o, path, "record_after"), r.index(o, path, "wait_before"),
                why, r.optionalWhole(o, path, "bytes_saved", 0));
    }

    /** An enum written in lower case, e.g. {@code "in_place"} for {@code IN_PLACE}. */
    private <E extends Enum<E>> E enumField(JsonNode o, String path, String field, Class<E> type, String expected) {
        String text = r.text(o, path, field);
        try {
            return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw r.fail(path + "." + field, "expected " + expected + ", found '" + Printable.name(text) + "'");
        }
    }
}
