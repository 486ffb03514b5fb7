package org.arenaplan.io;

import com.fasterxml.jackson.core.JsonGenerator;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.PeakExplanation;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.Problem;
import org.arenaplan.schedule.Schedule;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the plan file ({@link PlanJson#FORMAT}) with Jackson's streaming {@link JsonGenerator} and
 * the default pretty printer: entries go to the writer as they are produced, so memory does not grow
 * with the number of storages (a million-buffer plan is written within the heap that planned it).
 * The fields and their order are those {@link PlanJson} documents and reads back; {@code tensors}
 * is a second pass over the storages' members.
 */
final class PlanJsonWriter {
    /** The {@code kind} of every storage of a CSV problem's plan (a graph's are {@code Storage.KINDS}). */
    static final String BUFFER_KIND = "buffer";

    private final JsonGenerator g;

    private PlanJsonWriter(Writer w) throws IOException {
        this.g = JsonReading.MAPPER.writerWithDefaultPrettyPrinter().createGenerator(w);
    }

    /** A graph's plan; {@code schedule} (null: not said) records how its op order was chosen. */
    static void write(Plan plan, Schedule schedule, Writer w) throws IOException {
        PlanJsonWriter out = new PlanJsonWriter(w);
        out.plan(plan, schedule);
        out.finish(w);
    }

    /** The plan of a bare placement problem (a CSV file): every buffer is its own storage and tensor. */
    static void write(Problem problem, Placement placement, PlanStats stats, Writer w) throws IOException {
        PlanJsonWriter out = new PlanJsonWriter(w);
        out.problem(problem, placement, stats);
        out.finish(w);
    }

    private void finish(Writer w) throws IOException {
        g.close();   // AUTO_CLOSE_TARGET is off: flushes, leaves the writer open
        w.write('\n');
    }

    private void plan(Plan plan, Schedule schedule) throws IOException {
        Problem p = plan.problem();
        header(plan.graph().name(), p, plan.placement());
        g.writeArrayFieldStart("storages");
        for (Storage s : plan.storages()) {
            storage(s.id(), s.name(), plan.storageOffset(s.id()), s.bytes(), p.alignedSize(s.id()), s.start(), s.end(), s.kind());
            g.writeObjectFieldStart("members");
            for (Map.Entry<String, Long> m : s.members().entrySet()) g.writeNumberField(m.getKey(), m.getValue());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("tensors");
        for (Storage s : plan.storages()) {
            for (Map.Entry<String, Long> m : s.members().entrySet()) tensor(m.getKey(), s.id(), m.getValue(), plan.storageOffset(s.id()) + m.getValue());
        }
        g.writeEndObject();
        g.writeArrayFieldStart("refusals");
        for (Refusal r : plan.refusals()) {
            g.writeStartObject();
            g.writeStringField("kind", r.kind().name().toLowerCase(Locale.ROOT));
            if (r.op() != null) g.writeStringField("op", r.op());
            g.writeStringField("tensor", r.tensor());
            if (r.over() != null) g.writeStringField("over", r.over());
            g.writeStringField("reason", r.reason());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("events");
        for (SyncEvent e : plan.sync().events()) {
            g.writeStartObject();
            g.writeNumberField("id", e.id());
            g.writeNumberField("record_after", e.recordAfter());
            g.writeNumberField("wait_before", e.waitBefore());
            g.writeStringField("reason", e.reason().name().toLowerCase(Locale.ROOT));
            g.writeNumberField("bytes_saved", e.bytesSaved());
            g.writeEndObject();
        }
        g.writeEndArray();
        stats(plan.stats(), plan.placement().provenOptimal());
        peak(PeakExplanation.of(plan));
        schedule(plan, schedule);
        g.writeEndObject();
    }

    private void problem(Problem p, Placement placement, PlanStats stats) throws IOException {
        header(null, p, placement);
        g.writeArrayFieldStart("storages");
        for (int i = 0; i < p.size(); i++) {
            storage(i, p.id(i), placement.offset(i), p.bytes(i), p.alignedSize(i), p.lower(i), p.upper(i), BUFFER_KIND);
            g.writeObjectFieldStart("members");
            g.writeNumberField(p.id(i), 0L);
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("tensors");
        for (int i = 0; i < p.size(); i++) tensor(p.id(i), i, 0L, placement.offset(i));
        g.writeEndObject();
        g.writeArrayFieldStart("refusals");
        g.writeEndArray();
        g.writeArrayFieldStart("events");
        g.writeEndArray();
        stats(stats, placement.provenOptimal());
        peak(PeakExplanation.of(p, placement));
        g.writeEndObject();
    }

    private void header(String graph, Problem p, Placement placement) throws IOException {
        g.writeStartObject();
        g.writeStringField("format", PlanJson.FORMAT);
        if (graph != null) g.writeStringField("graph", graph);
        g.writeNumberField("alignment", p.alignment());
        g.writeNumberField("arena_bytes", placement.arenaBytes());
    }

    /** Opens a storage entry and writes its fields up to {@code members}; the caller closes it. */
    private void storage(int id, String name, long offset, long bytes, long aligned, long start, long end, String kind) throws IOException {
        g.writeStartObject();
        g.writeNumberField("id", id);
        g.writeStringField("name", name);
        g.writeNumberField("offset", offset);
        g.writeNumberField("bytes", bytes);
        g.writeNumberField("aligned_bytes", aligned);
        g.writeNumberField("start", start);
        g.writeNumberField("end", end);
        g.writeStringField("kind", kind);
    }

    private void tensor(String name, int storage, long offsetInStorage, long address) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("storage", storage);
        g.writeNumberField("offset_in_storage", offsetInStorage);
        g.writeNumberField("address", address);
        g.writeEndObject();
    }

    private void stats(PlanStats s, boolean provenOptimal) throws IOException {
        g.writeObjectFieldStart("stats");
        g.writeStringField("planner", s.planner());
        g.writeNumberField("arena_bytes", s.arenaBytes());
        g.writeNumberField("lower_bound_bytes", s.lowerBoundBytes());
        g.writeNumberField("sum_bytes", s.sumBytes());
        g.writeNumberField("storages", s.storages());
        g.writeNumberField("tensors", s.tensors());
        g.writeNumberField("alloc_calls_naive", s.allocCallsNaive());
        g.writeNumberField("alloc_calls_planned", s.allocCallsPlanned());
        g.writeNumberField("ratio", s.ratio());
        g.writeNumberField("planning_ms", s.planningMs());
        g.writeBooleanField("proven_optimal", s.provenOptimal(provenOptimal));
        g.writeEndObject();
    }

    /** Why the peak is what it is: the instant, the storages there and what keeps each, the split of the arena. */
    private void peak(PeakExplanation x) throws IOException {
        g.writeObjectFieldStart("peak");
        g.writeNumberField("position", x.instant());
        if (x.op() != null) {
            g.writeStringField("op", x.op());
            g.writeNumberField("stream", x.opStream());
        }
        g.writeNumberField("lower_bound_bytes", x.lowerBound());
        g.writeNumberField("needed_bytes", x.neededBytes());
        g.writeNumberField("stream_bytes", x.streamBytes());
        g.writeNumberField("alignment_bytes", x.alignmentBytes());
        g.writeNumberField("fragmentation_bytes", x.fragmentationBytes());
        if (x.top() != null) g.writeNumberField("arena_top_storage", x.top().storage());
        g.writeArrayFieldStart("live");
        for (PeakExplanation.Live l : x.live()) {
            g.writeStartObject();
            g.writeNumberField("storage", l.storage());
            g.writeStringField("name", l.name());
            g.writeNumberField("bytes", l.bytes());
            g.writeNumberField("aligned_bytes", l.alignedBytes());
            g.writeStringField("kept_by", l.keeper().jsonName());
            if (l.reader() != null) {
                g.writeStringField("last_reader", l.reader());
                g.writeNumberField("last_reader_position", l.readerPosition());
            }
            if (!l.through().isEmpty()) {
                g.writeArrayFieldStart("through");
                for (String t : l.through()) g.writeString(t);
                g.writeEndArray();
            }
            if (l.stream() >= 0) g.writeNumberField("stream", l.stream());
            g.writeStringField("reason", l.reason());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void schedule(Plan plan, Schedule s) throws IOException {
        g.writeObjectFieldStart("schedule");
        if (s != null) {
            g.writeStringField("mode", s.mode().jsonName());
            g.writeStringField("method", s.method());
            g.writeNumberField("file_lower_bound_bytes", s.fileLowerBound());
            g.writeNumberField("lower_bound_bytes", s.lowerBound());
            g.writeBooleanField("proven_optimal", s.provenOptimal());
            g.writeNumberField("planning_ms", s.planningMs());
        }
        g.writeArrayFieldStart("order");
        for (var op : plan.graph().ops()) g.writeString(op.name());
        g.writeEndArray();
        g.writeArrayFieldStart("streams");   // the stream each op is issued on (assigned by --streams N, or the graph's), which the events refer to
        for (var op : plan.graph().ops()) g.writeNumber(op.stream());
        g.writeEndArray();
        g.writeEndObject();
    }
}
