package org.arenaplan.gpu;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.DeviceBench;
import org.arenaplan.cuda.Doctor;
import org.arenaplan.ir.Graph;

/**
 * Entry point of the packed GPU runner jar ({@code tests-gpu/gpu-runner}): {@code doctor},
 * {@code sim-smoke} (a two-stream kernel run on the simulator, checked against hand-computed
 * values), {@code bench [--json FILE] [--iterations N] [--warmup N]} (the CUDA benchmark over
 * {@link GpuGraphs#all()}), {@code summarize OUTDIR TESTS_RC BENCH_RC} (writes OUTDIR/results.json).
 */
public final class GpuRunner {
    private GpuRunner() { }

    public static void main(String[] args) throws IOException {
        String command = args.length == 0 ? "help" : args[0];
        switch (command) {
            case "doctor" -> Doctor.report(System.out);
            case "sim-smoke" -> System.exit(SimSmoke.run(System.out) ? 0 : 1);
            case "bench" -> System.exit(bench(Arrays.copyOfRange(args, 1, args.length)));
            case "summarize" -> {
                if (args.length != 4) usage(System.err, 2);
                Path out = Path.of(args[1]);
                String json = RunSummary.of(out, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
                Files.writeString(out.resolve("results.json"), json, StandardCharsets.UTF_8);
                System.out.println(json);
            }
            default -> usage(command.equals("help") ? System.out : System.err, command.equals("help") ? 0 : 2);
        }
    }

    /** Exit 0 after printing the table (and writing the JSON), 3 where CUDA is unavailable. */
    private static int bench(String[] args) throws IOException {
        Path json = null;
        int iterations = 20, warmup = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json" -> json = Path.of(value(args, ++i));
                case "--iterations" -> iterations = Integer.parseInt(value(args, ++i));
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i));
                default -> usage(System.err, 2);
            }
        }
        if (!Cuda.isAvailable()) {
            System.out.println("bench: CUDA unavailable: " + Cuda.unavailabilityCause().getMessage());
            return 3;
        }
        Map<String, Graph> models = new LinkedHashMap<>();
        for (Graph g : GpuGraphs.all()) models.put(g.name(), g);
        List<DeviceBench.Row> rows = DeviceBench.onCuda(models, warmup, iterations, System.out);
        DeviceBench.printTable(rows, System.out);
        if (json != null) DeviceBench.writeJson(rows, json);
        return 0;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) usage(System.err, 2);
        return args[i];
    }

    private static void usage(PrintStream out, int exit) {
        out.println("usage: java -jar arenaplan-gpu.jar (doctor | sim-smoke | bench [--json FILE] [--iterations N] [--warmup N] | summarize OUTDIR TESTS_RC BENCH_RC)");
        System.exit(exit);
    }
}
