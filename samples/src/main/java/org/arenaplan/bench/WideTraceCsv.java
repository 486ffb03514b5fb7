package org.arenaplan.bench;

import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.WideTraces;

import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a {@link WideTraces} trace as a minimalloc CSV, so the command line can plan it (and its
 * heap be measured):
 * <pre>java -cp samples/target/arenaplan.jar org.arenaplan.bench.WideTraceCsv 1000000 10000 42 wide-1m.csv</pre>
 * Arguments: buffers, width (about how many live at once), seed, output file.
 */
public final class WideTraceCsv {
    private WideTraceCsv() { }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: WideTraceCsv BUFFERS WIDTH SEED OUT.csv");
            System.exit(2);
        }
        GeneratorMain.runOrExit("WideTraceCsv", () -> {
            int buffers = GeneratorMain.intArg(args, 0, "BUFFERS", 2, Integer.MAX_VALUE);
            int width = GeneratorMain.intArg(args, 1, "WIDTH", 1, buffers / 2);
            Problem p = WideTraces.generate(GeneratorMain.longArg(args, 2, "SEED"), buffers, width);
            try (Writer w = Files.newBufferedWriter(Path.of(args[3]), StandardCharsets.UTF_8)) {
                ProblemCsv.writeProblem(p, w);
            }
            System.out.println("wrote " + args[3] + ": " + p.size() + " buffers, at most " + WideTraces.maxLive(p) + " live at once, lower bound " + p.lowerBound() + " B");
        });
    }
}
