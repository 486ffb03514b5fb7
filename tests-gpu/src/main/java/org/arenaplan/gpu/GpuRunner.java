package org.arenaplan.gpu;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.arenaplan.cuda.Doctor;

/**
 * Entry point of the packed GPU runner jar ({@code tests-gpu/gpu-runner}): {@code doctor},
 * {@code sim-smoke} (a two-stream kernel run on the simulator, checked against hand-computed
 * values), {@code summarize OUTDIR TESTS_RC BENCH_RC} (writes OUTDIR/results.json).
 */
public final class GpuRunner {
    private GpuRunner() { }

    public static void main(String[] args) throws IOException {
        String command = args.length == 0 ? "help" : args[0];
        switch (command) {
            case "doctor" -> Doctor.report(System.out);
            case "sim-smoke" -> System.exit(SimSmoke.run(System.out) ? 0 : 1);
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

    private static void usage(PrintStream out, int exit) {
        out.println("usage: java -jar arenaplan-gpu.jar (doctor | sim-smoke | summarize OUTDIR TESTS_RC BENCH_RC)");
        System.exit(exit);
    }
}
