package org.arenaplan.plan;

import org.arenaplan.io.Printable;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.liveness.Storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Why the peak is what it is: the instant of the lower bound, every storage live there with its
 * bytes and what keeps it alive, and the arena split into what the tensors need there, what
 * streams add, what alignment adds and what the placement wastes.
 *
 * <p>Steps: take the heaviest clique of {@link CliqueBound} (one stream: the storages live at
 * the first instant of the live-bytes maximum); for each storage, its keeper:
 * {@link Keeper#OUTPUT} or {@link Keeper#INPUT} when the caller owns its bytes
 * ({@link Storage#pinned()}); {@link Keeper#UNORDERED_STREAM} when it is not live at the instant
 * by schedule position but no event orders it against the others (or its interval was widened
 * for that reason); {@link Keeper#WRITTEN} when it is written at the instant and never read
 * later; otherwise {@link Keeper#LAST_READER}: the op at its last runtime read, and the chain of
 * tensors (views, member slices, in-place results) through which that op reaches it. Cost
 * O(clique × (members + chain)) after {@link CliqueBound}.
 *
 * <p>The split: {@code arena = needed + streams + alignment + fragmentation}, where
 * {@code needed} is the requested bytes of the storages live at the instant, {@code streams}
 * those of the storages only unordered streams put there, {@code alignment} the rounding of all
 * of them up to the alignment, and {@code fragmentation = arena - lower bound}.
 *
 * @param instant  the schedule position (or a CSV problem's time) of the peak
 * @param op       the op at that position; null for a CSV problem
 * @param live     the storages at the peak, heaviest first
 * @param top      the storage whose end is the arena top (highest offset + size)
 */
public record PeakExplanation(long instant, String op, int opStream, List<Live> live, long lowerBound, long arena,
                              long neededBytes, long streamBytes, long alignmentBytes, long fragmentationBytes, Live top) {

    /** What keeps a storage's bytes from being reused at the peak. */
    public enum Keeper {
        /** A later op reads it (the last such op, through the listed tensors). */
        LAST_READER,
        /** A caller-owned graph input that is not donated: live for the whole run. */
        INPUT,
        /** A graph output: the caller reads it after the run. */
        OUTPUT,
        /** Written at the peak's op and not read later. */
        WRITTEN,
        /** On another stream with no event ordering it against the storages live at the peak. */
        UNORDERED_STREAM,
        /** A buffer of a CSV problem: live over the interval the problem gives. */
        INTERVAL;

        /** The name in plan JSON. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One storage at the peak.
     *
     * @param reader         the op whose read keeps it (LAST_READER), null otherwise
     * @param readerPosition its schedule position, -1 when none
     * @param through        the tensors from the one the reader reads (OUTPUT: the graph output
     *                       in the storage) to the storage's own (empty when it is the storage's
     *                       own tensor)
     * @param stream         the stream of the storage's first writer, -1 for graph inputs and CSV buffers
     */
    public record Live(int storage, String name, long bytes, long alignedBytes, long offset, long start, long end,
                       Keeper keeper, String reader, int readerPosition, List<String> through, int stream) {

        /** "last read by 'mm2' (#5) through flat -> r", "graph output", ... */
        public String reason() {
            return reason(java.util.function.UnaryOperator.identity());
        }

        /** {@link #reason()} with each name as {@code shown} writes it ({@link Printable#name} for a text line). */
        public String reason(java.util.function.UnaryOperator<String> shown) {
            return switch (keeper) {
                case LAST_READER -> "last read by '" + shown.apply(reader) + "' (#" + readerPosition + ")"
                        + (through.isEmpty() ? "" : " through " + String.join(" -> ", through.stream().map(shown).toList()));
                case INPUT -> "caller-owned graph input (not donated): live for the whole run";
                case OUTPUT -> "graph output" + (through.isEmpty() ? "" : " " + shown.apply(through.get(0))) + ": kept to the end for the caller";
                case WRITTEN -> "written here, not read later";
                case UNORDERED_STREAM -> "stream " + stream + ": no event orders it against the storages live here";
                case INTERVAL -> "live over [" + start + ", " + end + ") as the problem gives";
            };
        }
    }

    /** Rows {@link #text} lists before "... and N more". */
    public static final int TEXT_ROWS = 10;

    public static PeakExplanation of(Plan plan) {
        Problem p = plan.problem();
        Graph g = plan.graph();
        CliqueBound.Clique c = CliqueBound.best(p);
        Map<String, String[]> parents = parents(g);
        List<Live> live = new ArrayList<>();
        for (int i : c.members()) live.add(live(plan, i, c.instant(), parents));
        int position = (int) Math.min(Math.max(c.instant(), 0), Math.max(0, g.opCount() - 1));
        Op op = g.opCount() == 0 ? null : g.ops().get(position);
        int topId = topStorage(p, plan.placement());
        Live top = topId < 0 ? null : live(plan, topId, c.instant(), parents);
        return split(c.instant(), op == null ? null : op.name(), op == null ? -1 : op.stream(), live, c.bytes(), plan.arenaBytes(), top);
    }

    /** A CSV problem: no graph, so every buffer is kept by its interval. */
    public static PeakExplanation of(Problem p, Placement placement) {
        CliqueBound.Clique c = CliqueBound.best(p);
        List<Live> live = new ArrayList<>();
        for (int i : c.members()) live.add(buffer(p, placement, i));
        int topId = topStorage(p, placement);
        return split(c.instant(), null, -1, live, c.bytes(), placement.arenaBytes(), topId < 0 ? null : buffer(p, placement, topId));
    }

    private static Live buffer(Problem p, Placement placement, int i) {
        return new Live(i, p.id(i), p.bytes(i), p.alignedSize(i), placement.offset(i), p.lower(i), p.upper(i), Keeper.INTERVAL, null, -1, List.of(), -1);
    }

    private static PeakExplanation split(long instant, String op, int opStream, List<Live> live, long lowerBound, long arena, Live top) {
        long needed = 0, streams = 0, alignment = 0;
        for (Live l : live) {
            if (l.keeper() == Keeper.UNORDERED_STREAM) streams += l.bytes();
            else needed += l.bytes();
            alignment += l.alignedBytes() - l.bytes();
        }
        List<Live> sorted = new ArrayList<>(live);
        sorted.sort(Comparator.comparingLong(Live::alignedBytes).thenComparingLong(Live::bytes).reversed().thenComparing(Live::name));
        return new PeakExplanation(instant, op, opStream, List.copyOf(sorted), lowerBound, arena, needed, streams, alignment, arena - lowerBound, top);
    }

    private static int topStorage(Problem p, Placement placement) {
        int top = -1;
        long end = -1;
        for (int i = 0; i < p.size(); i++) {
            long e = placement.offset(i) + p.alignedSize(i);
            if (e > end) {
                end = e;
                top = i;
            }
        }
        return top;
    }

    private static Live live(Plan plan, int i, long instant, Map<String, String[]> parents) {
        Storage s = plan.storages().get(i);
        Problem p = plan.problem();
        Graph g = plan.graph();
        int stream = s.writers().length == 0 ? -1 : g.ops().get(s.writers()[0]).stream();
        boolean byPosition = s.start() <= instant && instant < s.end();
        Keeper k;
        String reader = null;
        int readerAt = -1;
        List<String> through = List.of();
        if (s.graphOutput()) {
            k = Keeper.OUTPUT;
            through = g.isOutput(s.name()) ? List.of() : s.members().keySet().stream().filter(g::isOutput).findFirst()
                    .map(t -> path(t, s, parents)).orElse(List.of());
        } else if (s.graphInput() && !s.donated()) {
            k = Keeper.INPUT;
        } else if (!byPosition) {
            k = Keeper.UNORDERED_STREAM;
        } else if (s.readers().length == 0 || s.readers()[s.readers().length - 1] < instant) {
            k = Keeper.WRITTEN;
        } else {
            k = Keeper.LAST_READER;
            readerAt = s.readers()[s.readers().length - 1];
            Op op = g.ops().get(readerAt);
            reader = op.name();
            through = chain(op, s, parents);
        }
        return new Live(i, s.name(), s.bytes(), p.alignedSize(i), plan.storageOffset(i), s.start(), s.end(), k, reader, readerAt, through, stream);
    }

    /** The tensors from the one {@code op} reads at runtime in storage {@code s} up to the storage's own; empty when it reads that one. */
    private static List<String> chain(Op op, Storage s, Map<String, String[]> parents) {
        String read = null;
        for (int j = 0; j < op.inputs().size(); j++) {
            String t = op.inputs().get(j);
            if (op.readsAtRuntime(j) && s.members().containsKey(t)) {
                read = t;
                if (t.equals(s.name())) return List.of();
            }
        }
        return read == null ? List.of() : path(read, s, parents);
    }

    /** The tensors from {@code t}, a member of storage {@code s}, up to the storage's own (empty when {@code t} is it). */
    private static List<String> path(String t, Storage s, Map<String, String[]> parents) {
        List<String> out = new ArrayList<>();
        while (t != null && !t.equals(s.name()) && out.size() <= s.members().size()) {
            String[] up = parents.get(t);
            out.add(up == null ? t + " (in place over " + s.name() + ")" : t + " (" + up[1] + " of " + up[0] + ")");
            t = up == null ? null : up[0];
        }
        return out;
    }

    /** tensor -> {parent, "view" | "slice"}: a view's source, a concat member's output. */
    private static Map<String, String[]> parents(Graph g) {
        Map<String, String[]> parents = new HashMap<>();
        for (Op op : g.ops()) {
            for (Op.View v : op.views()) parents.put(op.outputs().get(v.output()), new String[]{op.inputs().get(v.input()), "view"});
            for (Op.Member m : op.members()) parents.put(op.inputs().get(m.input()), new String[]{op.outputs().get(m.output()), "slice"});
        }
        return parents;
    }

    /**
     * The explanation as the command line prints it: the peak, up to {@link #TEXT_ROWS} storages,
     * the split. Names come from the user's files, so each line goes through {@link Printable}: a
     * newline or ESC in a tensor or op name is written as {@code \\uXXXX}, not passed to the
     * terminal, and the name column is as wide as the longest name so written.
     */
    public String text() {
        StringBuilder b = new StringBuilder();
        String unit = op == null ? "buffer(s)" : "storage(s)";
        line(b, String.format(Locale.ROOT, "peak: %s %d%s: %,d B in %d %s = the lower bound",
                op == null ? "time" : "position", instant, op == null ? "" : " (op '" + Printable.name(op) + "', stream " + opStream + ")", lowerBound, live.size(), unit));
        int width = 8;
        for (int i = 0; i < Math.min(TEXT_ROWS, live.size()); i++) width = Math.max(width, Printable.name(live.get(i).name()).length());
        long rest = 0;
        for (int i = 0; i < live.size(); i++) {
            Live l = live.get(i);
            if (i >= TEXT_ROWS) {
                rest += l.alignedBytes();
                continue;
            }
            line(b, String.format(Locale.ROOT, "  %-" + width + "s %,16d B  %s", Printable.name(l.name()), l.bytes(), l.reason(Printable::name)));
        }
        if (live.size() > TEXT_ROWS)
            line(b, String.format(Locale.ROOT, "  ... and %,d more %s, %,d B", live.size() - TEXT_ROWS, unit, rest));
        line(b, String.format(Locale.ROOT, "arena %,d B = needed at the peak %,d B + streams %,d B + alignment %,d B + fragmentation %,d B",
                arena, neededBytes, streamBytes, alignmentBytes, fragmentationBytes));
        b.append(Printable.of("  " + gapCause()));
        return b.toString();
    }

    /** {@code s} made printable ({@link Printable}), then the line separator. */
    private static void line(StringBuilder b, String s) {
        b.append(Printable.of(s)).append(System.lineSeparator());
    }

    /** One sentence on the gap between the arena and the lower bound, and on what the bound holds beyond the tensors' own bytes. */
    public String gapCause() {
        List<String> parts = new ArrayList<>();
        if (fragmentationBytes == 0) parts.add("the arena equals the lower bound: no placement can do better");
        else parts.add(String.format(Locale.ROOT, "fragmentation: the placement leaves %,d B of holes below the arena top, which '%s' sets (offset %,d, live [%d, %d))",
                fragmentationBytes, top.name(), top.offset(), top.start(), top.end()));
        if (streamBytes > 0) parts.add(String.format(Locale.ROOT, "streams: %,d B are storages no event orders against the peak (--sync add may order them)", streamBytes));
        if (alignmentBytes > 0) parts.add(String.format(Locale.ROOT, "alignment: %,d B are sizes rounded up to the alignment", alignmentBytes));
        return String.join("; ", parts);
    }
}
