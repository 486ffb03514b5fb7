package org.arenaplan.gpu;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.DeviceBench;
import org.arenaplan.cuda.Doctor;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.io.TextFiles;
import org.arenaplan.ir.Graph;
import org.arenaplan.sim.SimDevice;

/**
 * Entry point of the packed GPU runner jar ({@code tests-gpu/gpu-runner}). Commands:
 * <ul>
 *   <li>{@code doctor}: what the CUDA probe found;</li>
 *   <li>{@code probe FILE}: the doctor's report, and the probe's findings written to FILE as JSON
 *       ({@link ProbeFile}); exit 0 when CUDA is usable, 3 when not (run.sh's doctor step);</li>
 *   <li>{@code sim-smoke}: a two-stream kernel run on the simulator, checked against hand-computed values;</li>
 *   <li>{@code bench [--device cuda|sim] [--models A,B] [--json FILE] [--iterations N] [--warmup N]}: the
 *       benchmark of every mode over {@link GpuGraphs#all()} ({@link DeviceBench});</li>
 *   <li>{@code bench-real DIR [--device cuda|sim] [--json FILE] [--iterations N] [--warmup N]}: the real-weight ONNX
 *       models of DIR against their reference outputs ({@link RealModels});</li>
 *   <li>{@code summarize OUTDIR}: OUTDIR/results.json from what run.sh left there ({@link RunSummary}).</li>
 * </ul>
 * Exit codes: 0 ok, 1 a check failed, 2 usage (one line on stderr naming the argument), 3 CUDA unavailable (for {@code --device cuda}).
 */
public final class GpuRunner {
    private GpuRunner() { }

    public static void main(String[] args) throws IOException {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        try {
            switch (command) {
                case "doctor" -> Doctor.report(System.out);
                case "probe" -> System.exit(probe(rest));
                case "sim-smoke" -> System.exit(SimSmoke.run(System.out) ? 0 : 1);
                case "bench" -> System.exit(bench(new Flags(command, rest, false)));
                case "bench-real" -> System.exit(RealModels.bench(new Flags(command, rest, true), System.out));
                case "summarize" -> {
                    if (rest.length != 1) throw new BadUsage("summarize takes one OUTDIR, got " + rest.length + " argument(s)");
                    String notAFolder = TextFiles.notAFolder("summarize", Path.of(rest[0]));
                    if (notAFolder != null) throw new BadUsage(notAFolder);
                    System.exit(RunSummary.write(Path.of(rest[0]), System.out));
                }
                case "help", "--help", "-h" -> usage(System.out, 0);
                default -> throw new BadUsage("unknown command '" + command + "'");
            }
        } catch (BadUsage e) {
            System.err.println("arenaplan-gpu: " + e.getMessage() + " (usage: java -jar arenaplan-gpu.jar help)");
            System.exit(2);
        }
    }

    /** {@code probe FILE}: exit 0 when CUDA is usable, 3 when not; the findings go to FILE either way. */
    private static int probe(String[] rest) throws IOException {
        if (rest.length != 1) throw new BadUsage("probe takes one FILE, got " + rest.length + " argument(s)");
        Path file = Path.of(rest[0]);
        String why = notWritable("probe", file);
        if (why != null) throw new BadUsage(why);
        boolean available = Doctor.report(System.out);
        ProbeFile.write(Cuda.info(), file);
        return available ? 0 : 3;
    }

    /** Why {@code file} (named by {@code what}) cannot be written: a folder, or in a folder that does not exist; null when it can. */
    static String notWritable(String what, Path file) {
        String folder = TextFiles.folderNotFile(what, file);
        if (folder != null) return folder;
        Path parent = file.toAbsolutePath().getParent();
        return parent != null && !Files.isDirectory(parent) ? what + " " + file + ": cannot write: folder " + parent + " does not exist" : null;
    }

    /** A wrong command line: one line on stderr naming the argument, exit 2. */
    static final class BadUsage extends RuntimeException {
        BadUsage(String message) {
            super(message);
        }
    }

    /** The flags of {@code bench} and {@code bench-real}. */
    static final class Flags {
        String device = "cuda";
        List<String> models;
        Path json;
        Path dir;
        int iterations = 20, warmup = 3;

        /** @throws BadUsage for an unknown flag, a flag without its value or given twice, a number out of range, a --json that cannot be written */
        Flags(String command, String[] args, boolean wantsDir) {
            int i = 0;
            if (wantsDir) {
                if (args.length == 0 || args[0].startsWith("--")) throw new BadUsage(command + ": give the folder first: " + command + " DIR [--device cuda|sim] ...");
                dir = Path.of(args[i++]);
            }
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (; i < args.length; i++) {
                String flag = args[i];
                if (!seen.add(flag)) throw new BadUsage(command + ": " + flag + " given twice");
                switch (flag) {
                    case "--device" -> device = value(command, args, ++i);
                    case "--models" -> models = List.of(value(command, args, ++i).split(","));
                    case "--json" -> json = Path.of(value(command, args, ++i));
                    case "--iterations" -> iterations = count(command, flag, value(command, args, ++i), 1);
                    case "--warmup" -> warmup = count(command, flag, value(command, args, ++i), 0);
                    default -> throw new BadUsage(command + ": unknown option '" + flag + "'");
                }
            }
            if (!List.of("cuda", "sim").contains(device)) throw new BadUsage(command + ": --device " + device + ": expected cuda or sim");
            if (json != null) {
                String why = notWritable("--json", json);
                if (why != null) throw new BadUsage(command + ": " + why);
            }
        }

        private static int count(String command, String flag, String text, int least) {
            try {
                int n = Integer.parseInt(text);
                if (n >= least) return n;
            } catch (NumberFormatException e) {
                // said below
            }
            throw new BadUsage(command + ": " + flag + " " + text + ": expected a whole number of at least " + least);
        }

        /** The device to run on, or null (after saying why) where CUDA was asked for and is unavailable. */
        Device open(PrintStream out) {
            if (device.equals("sim")) return SimDevice.open(DeviceOptions.DEFAULT);
            if (!Cuda.isAvailable()) {
                out.println("CUDA unavailable: " + Cuda.unavailabilityCause().getMessage());
                return null;
            }
            return DeviceBench.openTimedCuda();
        }
    }

    /** Exit 0 after printing the table (and writing the JSON, rewritten after each model), 1 when a mode's outputs differ from planned's, 3 without CUDA. */
    private static int bench(Flags f) throws IOException {
        Map<String, Graph> models = new LinkedHashMap<>();
        for (Graph g : GpuGraphs.all()) if (f.models == null || f.models.contains(g.name())) models.put(g.name(), g);
        if (models.isEmpty()) {
            System.err.println("bench: no model named " + f.models + "; known: " + GpuGraphs.all().stream().map(Graph::name).toList());
            return 2;
        }
        List<DeviceBench.Row> rows = new java.util.ArrayList<>();
        try (Device d = f.open(System.out)) {
            if (d == null) return 3;
            System.out.println("bench on " + d.description());
            for (Map.Entry<String, Graph> m : models.entrySet()) {   // the JSON rewritten after each model: a step killed at its limit keeps the models done
                rows.addAll(DeviceBench.run(d, DeviceBench.timerOf(d), Map.of(m.getKey(), m.getValue()), f.warmup, f.iterations, System.out));
                if (f.json != null) DeviceBench.writeJson(rows, f.json);
            }
        }
        DeviceBench.printTable(rows, System.out);
        return rows.stream().allMatch(DeviceBench.Row::outputsEqualPlanned) ? 0 : 1;
    }

    private static String value(String command, String[] args, int i) {
        if (i >= args.length) throw new BadUsage(command + ": " + args[i - 1] + " needs a value");
        return args[i];
    }

    static void usage(PrintStream out, int exit) {
        out.println("usage: java -jar arenaplan-gpu.jar (doctor | probe FILE | sim-smoke"
                + " | bench [--device cuda|sim] [--models A,B] [--json FILE] [--iterations N] [--warmup N]"
                + " | bench-real DIR [--device cuda|sim] [--json FILE] [--iterations N] [--warmup N] | summarize OUTDIR)");
        System.exit(exit);
    }
}
