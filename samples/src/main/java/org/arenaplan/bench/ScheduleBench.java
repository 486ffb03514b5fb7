package org.arenaplan.bench;

import org.arenaplan.io.Printable;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphException;
import org.arenaplan.models.BuiltinModels;
import org.arenaplan.onnx.OnnxImporter;
import org.arenaplan.plan.PlanningException;
import org.arenaplan.schedule.MemoryScheduler;
import org.arenaplan.schedule.Schedule;
import org.arenaplan.schedule.ScheduleMode;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code bench schedule}: the lower bound at the file order and at the memory-aware order, side by
 * side, with the method and the time it took, for the branchy built-in models, RandWire graphs
 * (WS and ER, several sizes and seeds) and the ONNX models in {@code ../shared/models} that import.
 */
public final class ScheduleBench {
    private ScheduleBench() { }

    /** The ONNX models ({@code *.onnx}) under {@code folder}, searched recursively, sorted; none when it is no folder. */
    public static List<Path> onnxModels(Path folder) throws java.io.IOException {
        if (!Files.isDirectory(folder)) return List.of();
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(p -> p.toString().endsWith(".onnx")).sorted().toList();
        }
    }

    /** A graph the bench left out: the ONNX file's path (or the built-in graph's name) and why. */
    public record Skipped(String name, String why) { }

    /**
     * Prints the table, with a {@code skipped NAME: why} line on {@code out} for each ONNX model that
     * does not import and each graph that cannot be scheduled.
     *
     * @param models folder of ONNX models searched recursively (skipped, saying so, when absent)
     * @return the graphs skipped, in the order met; the caller decides what they mean for the exit code
     */
    public static List<Skipped> run(PrintStream out, Path models, Duration timeLimit) throws Exception {
        List<Skipped> skipped = new java.util.ArrayList<>();
        Map<String, Graph> graphs = new LinkedHashMap<>();
        graphs.put("inception", BuiltinModels.build("inception", Map.of()));
        graphs.put("unet", BuiltinModels.build("unet", Map.of()));
        for (int nodes : new int[]{16, 32, 64})
            for (int seed = 1; seed <= 3; seed++)
                graphs.put("randwire ws n=" + nodes + " seed " + seed, BuiltinModels.build("randwire", Map.of("nodes", "" + nodes, "seed", "" + seed)));
        for (int nodes : new int[]{16, 32})
            for (int seed = 1; seed <= 2; seed++)
                graphs.put("randwire er n=" + nodes + " seed " + seed, BuiltinModels.build("randwire-er", Map.of("nodes", "" + nodes, "seed", "" + seed)));
        Map<String, Path> files = new LinkedHashMap<>();   // an ONNX model's row name -> its file, named when it is skipped
        if (Files.isDirectory(models)) {
            for (Path f : onnxModels(models)) {
                try {
                    graphs.put(f.getFileName().toString(), OnnxImporter.load(f, Map.of()));
                    files.put(f.getFileName().toString(), f);
                } catch (Exception e) {
                    String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                    int cut = why.indexOf(" (supported: ");   // the importer's list of every op type it takes: not this model's reason
                    int close = cut > 0 ? why.indexOf(')', cut) : -1;
                    why = cut > 0 ? why.substring(0, cut) + (close > 0 ? why.substring(close + 1) : "") : why;
                    out.println(Printable.of("skipped " + f.getFileName() + ": " + why));   // names from the model: no ESC or newline reaches the terminal
                    skipped.add(new Skipped(f.toString(), why));
                }
            }
        } else {
            out.println("skipped ONNX models: no folder " + models);
        }
        MemoryScheduler.Options o = MemoryScheduler.Options.DEFAULT.withMode(ScheduleMode.MEMORY).withTimeLimit(timeLimit);
        out.printf(Locale.ROOT, "%-32s %6s %14s %14s %7s %-10s %10s%n", "graph", "ops", "LB file B", "LB memory B", "ratio", "method", "time ms");
        for (Map.Entry<String, Graph> e : graphs.entrySet()) {
            Schedule s;
            try {
                s = MemoryScheduler.schedule(e.getValue(), o);
            } catch (PlanningException | GraphException bad) {   // e.g. a model with no op: skipped as one that does not import (breaker15: it ended the bench)
                out.println(Printable.of("skipped " + e.getKey() + ": " + bad.getMessage()));
                skipped.add(new Skipped(files.containsKey(e.getKey()) ? files.get(e.getKey()).toString() : e.getKey(), bad.getMessage()));
                continue;
            }
            out.printf(Locale.ROOT, "%-32s %6d %,14d %,14d %7.3f %-10s %10.1f%n", Printable.name(e.getKey()), e.getValue().opCount(), s.fileLowerBound(),
                    s.lowerBound(), s.ratio(), s.method() + (s.provenOptimal() && !s.method().equals("exact") ? "*" : ""), s.planningMs());
        }
        out.println("method: exact = proven least peak; heuristic = best found in the time limit; file = nothing lower found (* proven: the file order is optimal)");
        return skipped;
    }
}
