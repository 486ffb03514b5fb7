package org.arenaplan.gpu;

import java.io.IOException;
import java.io.PrintStream;
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
import org.arenaplan.ir.Graph;
import org.arenaplan.sim.SimDevice;

/**
 * Entry point of the packed GPU runner jar ({@code tests-gpu/gpu-runner}). Commands:
 * <ul>
 *   <li>{@code doctor}: what the CUDA probe found;</li>
 *   <li>{@code sim-smoke}: a two-stream kernel run on the simulator, checked against hand-computed values;</li>
 *   <li>{@code bench [--device cuda|sim] [--models A,B] [--json FILE] [--iterations N] [--warmup N]}: the
 *       benchmark of every mode over {@link GpuGraphs#all()} ({@link DeviceBench});</li>
 *   <li>{@code bench-real DIR [--device cuda|sim] [--json FILE] [--iterations N]}: the real-weight ONNX
 *       models of DIR against their reference outputs ({@link RealModels});</li>
 *   <li>{@code summarize OUTDIR}: OUTDIR/results.json from what run.sh left there ({@link RunSummary}).</li>
 * </ul>
 * Exit codes: 0 ok, 1 a check failed, 2 usage, 3 CUDA unavailable (for {@code --device cuda}).
 */
public final class GpuRunner {
    private GpuRunner() { }

    public static void main(String[] args) throws IOException {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (command) {
            case "doctor" -> Doctor.report(System.out);
            case "sim-smoke" -> System.exit(SimSmoke.run(System.out) ? 0 : 1);
            case "bench" -> System.exit(bench(new Flags(rest, false)));
            case "bench-real" -> System.exit(RealModels.bench(new Flags(rest, true), System.out));
            case "summarize" -> {
                if (rest.length < 1) usage(System.err, 2);
                System.exit(RunSummary.write(Path.of(rest[0]), System.out));
            }
            default -> usage(command.equals("help") ? System.out : System.err, command.equals("help") ? 0 : 2);
        }
    }

    /** The flags of {@code bench} and {@code bench-real}. */
    static final class Flags {
        String device = "cuda";
        List<String> models;
        Path json;
        Path dir;
        int iterations = 20, warmup = 3;

        Flags(String[] args, boolean wantsDir) {
            int i = 0;
            if (wantsDir) {
                if (args.length == 0) usage(System.err, 2);
                dir = Path.of(args[i++]);
            }
            for (; i < args.length; i++) {
                switch (args[i]) {
                    case "--device" -> device = value(args, ++i);
                    case "--models" -> models = List.of(value(args, ++i).split(","));
                    case "--json" -> json = Path.of(value(args, ++i));
                    case "--iterations" -> iterations = Integer.parseInt(value(args, ++i));
                    case "--warmup" -> warmup = Integer.parseInt(value(args, ++i));
                    default -> usage(System.err, 2);
                }
            }
            if (!List.of("cuda", "sim").contains(device)) usage(System.err, 2);
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

    /** Exit 0 after printing the table (and writing the JSON), 1 when a mode's outputs differ from planned's, 3 without CUDA. */
    private static int bench(Flags f) throws IOException {
        Map<String, Graph> models = new LinkedHashMap<>();
        for (Graph g : GpuGraphs.all()) if (f.models == null || f.models.contains(g.name())) models.put(g.name(), g);
        if (models.isEmpty()) {
            System.err.println("bench: no model named " + f.models + "; known: " + GpuGraphs.all().stream().map(Graph::name).toList());
            return 2;
        }
        List<DeviceBench.Row> rows;
        try (Device d = f.open(System.out)) {
            if (d == null) return 3;
            System.out.println("bench on " + d.description());
            rows = DeviceBench.run(d, DeviceBench.timerOf(d), models, f.warmup, f.iterations, System.out);
        }
        DeviceBench.printTable(rows, System.out);
        if (f.json != null) DeviceBench.writeJson(rows, f.json);
        return rows.stream().allMatch(DeviceBench.Row::outputsEqualPlanned) ? 0 : 1;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) usage(System.err, 2);
        return args[i];
    }

    static void usage(PrintStream out, int exit) {
        out.println("usage: java -jar arenaplan-gpu.jar (doctor | sim-smoke"
                + " | bench [--device cuda|sim] [--models A,B] [--json FILE] [--iterations N] [--warmup N]"
                + " | bench-real DIR [--device cuda|sim] [--json FILE] [--iterations N] | summarize OUTDIR)");
        System.exit(exit);
    }
}
