package org.arenaplan.onnx;

import org.arenaplan.io.InputException;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Problem;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Plans one model at several values of its dynamic dims ({@code --dim NAME=V1,V2,...}).
 *
 * <p>Steps:
 * <ol>
 *   <li>{@link #combinations}: the cartesian product of the given values, first dim slowest.</li>
 *   <li>{@link #plan}: import and plan one combination; plans are cached under the full,
 *       sorted dim assignment, so asking twice plans once.</li>
 *   <li>{@link #worstCase}: plan the combination of every dim's largest value once, then for
 *       each combination report its own arena and the bytes the worst-case arena wastes on it,
 *       and check (with {@link PlacementValidator}) that the worst-case offsets really hold it.
 *       One plan needs one set of storages at every shape: when concat in place decides
 *       differently across shapes (it needs batch 1), the shared plan is made with Concats as
 *       copies, and {@link WorstCase#concatsAsCopies()} says so.</li>
 * </ol>
 * Does not guarantee that tensor sizes grow with every dim (a model could shrink a tensor as a
 * dim grows); the fit check reports any combination the worst-case plan does not hold.
 */
public final class ShapeSweep {
    private final Path model;
    private final OnnxImporter.Options importOptions;
    private final ArenaPlanner.Options planOptions;
    private final Map<OnnxImporter.Options, Map<SortedMap<String, Long>, Plan>> cache = new HashMap<>();

    /** One combination's own plan, and (in a worst-case sweep) what the shared plan costs it. */
    public record Row(SortedMap<String, Long> dims, Plan plan, long wastedBytes, boolean fitsWorstCase) {
        public long arenaBytes() { return plan.arenaBytes(); }
    }

    /**
     * The plan sized for the largest value of every dim, and each combination against it (its
     * own arena is that of its own best plan, {@link #plan}).
     */
    public record WorstCase(SortedMap<String, Long> largest, Plan plan, List<Row> rows, boolean concatsAsCopies) { }

    public ShapeSweep(Path model, OnnxImporter.Options importOptions, ArenaPlanner.Options planOptions) {
        this.model = model;
        this.importOptions = importOptions;
        this.planOptions = planOptions;
    }

    /**
     * Parses {@code NAME=V1,V2,...} (the {@code --dim} syntax); values are integers of at least 0.
     * A dim of 0 (an empty tensor) is allowed as ONNX allows it: onnx 1.23.1's {@code check_model}
     * (full_check) accepts a graph input of shape [2, 0, 3], and a zero-size {@code --input} file gives one.
     *
     * @throws InputException naming the spec and the value for a missing {@code =}, a value that is not an integer, one below 0,
     *         or one above {@link Long#MAX_VALUE} ("too large (at most 9223372036854775807)")
     */
    public static Map.Entry<String, List<Long>> parseDim(String spec) {
        int eq = spec.lastIndexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) throw new InputException("--dim '" + spec + "': expected NAME=V1,V2,... (e.g. batch=1,2,4)");
        List<Long> values = new ArrayList<>();
        for (String v : spec.substring(eq + 1).split(",", -1)) {
            try {
                long x = Long.parseLong(v.trim());
                if (x < 0) throw new NumberFormatException();
                values.add(x);
            } catch (NumberFormatException e) {
                if (v.trim().matches("\\+?[0-9]+"))   // a whole number, only past what a long holds
                    throw new InputException("--dim '" + spec + "': '" + v + "' is too large (at most " + Long.MAX_VALUE + ")");
                throw new InputException("--dim '" + spec + "': '" + v + "' is not an integer of at least 0");
            }
        }
        return Map.entry(spec.substring(0, eq), List.copyOf(values));
    }

    /** Every assignment of one value per dim, the first dim varying slowest. */
    public static List<SortedMap<String, Long>> combinations(Map<String, List<Long>> values) {
        List<SortedMap<String, Long>> out = new ArrayList<>();
        out.add(new TreeMap<>());
        for (Map.Entry<String, List<Long>> e : values.entrySet()) {
            if (e.getValue().isEmpty()) throw new InputException("--dim " + e.getKey() + " has no values");
            List<SortedMap<String, Long>> next = new ArrayList<>();
            for (SortedMap<String, Long> partial : out) {
                for (long v : e.getValue()) {
                    SortedMap<String, Long> m = new TreeMap<>(partial);
                    m.put(e.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        List<SortedMap<String, Long>> frozen = new ArrayList<>();
        for (SortedMap<String, Long> m : out) frozen.add(Collections.unmodifiableSortedMap(m));
        return frozen;
    }

    /** The plan for one assignment of every dim, planned at most once. */
    public Plan plan(Map<String, Long> dims) {
        return plan(importOptions, dims);
    }

    private Plan plan(OnnxImporter.Options options, Map<String, Long> dims) {
        SortedMap<String, Long> key = Collections.unmodifiableSortedMap(new TreeMap<>(dims));
        return cache.computeIfAbsent(options, o -> new HashMap<>())
                .computeIfAbsent(key, k -> ArenaPlanner.plan(OnnxImporter.load(model, options.withDims(k)), planOptions));
    }

    /** Plans made so far, over all import options. */
    public int cachedPlans() {
        int n = 0;
        for (Map<SortedMap<String, Long>, Plan> m : cache.values()) n += m.size();
        return n;
    }

    /** One plan per combination. */
    public List<Row> perShape(Map<String, List<Long>> values) {
        List<Row> rows = new ArrayList<>();
        for (SortedMap<String, Long> dims : combinations(values)) rows.add(new Row(dims, plan(dims), 0, true));
        return rows;
    }

    public WorstCase worstCase(Map<String, List<Long>> values) {
        SortedMap<String, Long> largest = new TreeMap<>();
        for (Map.Entry<String, List<Long>> e : values.entrySet()) largest.put(e.getKey(), Collections.max(e.getValue()));
        List<SortedMap<String, Long>> all = combinations(values);
        OnnxImporter.Options shared = importOptions;
        for (SortedMap<String, Long> dims : all) {
            if (!sameStorages(plan(largest).problem(), plan(dims).problem())) shared = importOptions.withConcatInPlace(false);
        }
        Plan worst = plan(shared, largest);
        List<Row> rows = new ArrayList<>();
        for (SortedMap<String, Long> dims : all) {
            Plan own = plan(dims);
            rows.add(new Row(dims, own, worst.arenaBytes() - own.arenaBytes(), holds(worst, plan(shared, dims).problem())));
        }
        return new WorstCase(Collections.unmodifiableSortedMap(largest), worst, rows, shared != importOptions);
    }

    private static boolean sameStorages(Problem a, Problem b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (!a.id(i).equals(b.id(i))) return false;
        return true;
    }

    /** Whether the worst-case offsets place this shape's storages without overlap inside its arena. */
    private static boolean holds(Plan worst, Problem small) {
        Problem big = worst.problem();
        if (big.size() != small.size()) return false;
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int i = 0; i < big.size(); i++) index.put(big.id(i), i);
        long[] offsets = new long[small.size()];
        for (int i = 0; i < small.size(); i++) {
            Integer j = index.get(small.id(i));
            if (j == null) return false;
            offsets[i] = worst.placement().offset(j);
        }
        return PlacementValidator.validate(small, offsets, worst.arenaBytes(), null).isEmpty();
    }

    /** {@code MODEL [--worst-case] NAME=V1,V2,...}: prints one line per shape (what {@code --dim} does). */
    public static void main(String[] args) {
        boolean worst = false;
        Map<String, List<Long>> values = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--worst-case")) worst = true;
            else {
                Map.Entry<String, List<Long>> e = parseDim(args[i]);
                values.put(e.getKey(), e.getValue());
            }
        }
        ShapeSweep sweep = new ShapeSweep(Path.of(args[0]), OnnxImporter.Options.DEFAULT, ArenaPlanner.Options.DEFAULT);
        if (!worst) {
            for (Row r : sweep.perShape(values))
                System.out.printf("%s arena %d B, lower bound %d B%n", r.dims(), r.arenaBytes(), r.plan().stats().lowerBoundBytes());
            return;
        }
        WorstCase w = sweep.worstCase(values);
        System.out.printf("one plan for %s: arena %d B%s%n", w.largest(), w.plan().arenaBytes(), w.concatsAsCopies() ? " (Concats as copies: in place only at some shapes)" : "");
        for (Row r : w.rows())
            System.out.printf("%s own arena %d B, wasted by the worst-case plan %d B (%.1f%%), worst-case offsets hold it: %s%n", r.dims(), r.arenaBytes(),
                    r.wastedBytes(), 100.0 * r.wastedBytes() / w.plan().arenaBytes(), r.fitsWorstCase() ? "yes" : "NO");
    }
}
