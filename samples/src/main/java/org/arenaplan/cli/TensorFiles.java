package org.arenaplan.cli;

import org.arenaplan.exec.Inputs;
import org.arenaplan.io.InputException;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.onnx.OnnxTensorFile;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Graph inputs and outputs as ONNX TensorProto ({@code .pb}) files, for {@code run}. */
final class TensorFiles {
    /** Relative tolerance of {@code --expect}: the simulator and the GPU may round differently. */
    static final double TOLERANCE = 1e-4;

    private TensorFiles() { }

    /** Seeded random inputs, with the ones named in {@code specs} read from files. */
    static Map<String, float[]> inputs(Graph g, List<String> specs) {
        Map<String, float[]> inputs = new LinkedHashMap<>(Inputs.of(g, 1));
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            String name;
            Path file;
            if (eq > 0) {
                name = spec.substring(0, eq);
                file = Path.of(spec.substring(eq + 1));
            } else {
                if (g.inputs().size() != 1)
                    throw new UsageException("--input " + spec + ": the graph has " + g.inputs().size() + " inputs " + g.inputs() + "; write --input NAME=FILE.pb");
                name = g.inputs().get(0);
                file = Path.of(spec);
            }
            if (!g.isInput(name)) throw new UsageException("--input " + spec + ": '" + name + "' is not a graph input; inputs: " + g.inputs());
            OnnxTensorFile.FloatTensor t = OnnxTensorFile.read(file);
            long want = g.tensor(name).elements();
            if (t.values().length != want)
                throw new org.arenaplan.io.InputException(file + ": holds " + t.values().length + " values " + Arrays.toString(t.dims())
                        + " but input '" + name + "' has " + want + " " + shape(g.tensor(name)));
            inputs.put(name, t.values());
        }
        return inputs;
    }

    /**
     * Checks {@code --output} and {@code --expect} before any work: the output's folder exists
     * (for several outputs PATH is, or can be made, a folder), and the reference is a readable
     * TensorProto and the graph has the one output it is compared with.
     */
    static void checkPaths(Graph g, Path output, Path expect) {
        if (output != null) {
            if (g.outputs().size() == 1) FileAccess.checkWritable(output, "--output");
            else if (Files.exists(output) && !Files.isDirectory(output))
                throw new InputException("--output " + output + ": the graph has " + g.outputs().size() + " outputs, so PATH must be a folder, and this is a file");
            else if (!Files.isDirectory(output.toAbsolutePath().getParent()))
                throw new InputException("--output " + output + ": cannot write: folder " + output.toAbsolutePath().getParent() + " does not exist");
        }
        if (expect != null) {
            if (g.outputs().size() != 1) throw new UsageException("--expect compares one output; the graph has " + g.outputs().size());
            try {
                OnnxTensorFile.read(expect);
            } catch (InputException e) {
                throw new InputException("--expect " + e.getMessage(), e);
            }
        }
    }

    static void writeOutputs(Graph g, Map<String, float[]> outputs, Path path, PrintStream out) throws java.io.IOException {
        if (g.outputs().size() == 1) {
            String name = g.outputs().get(0);
            OnnxTensorFile.write(path, name, g.tensor(name).shape(), outputs.get(name));
            out.println("wrote " + path);
            return;
        }
        Files.createDirectories(path);
        for (String name : g.outputs()) {
            Path f = path.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".pb");
            OnnxTensorFile.write(f, name, g.tensor(name).shape(), outputs.get(name));
            out.println("wrote " + f);
        }
    }

    /** Prints how the single output compares with the reference; true when within {@link #TOLERANCE}. */
    static boolean matchesReference(Graph g, Map<String, float[]> outputs, Path reference, PrintStream out) {
        if (g.outputs().size() != 1) throw new UsageException("--expect compares one output; the graph has " + g.outputs().size());
        float[] got = outputs.get(g.outputs().get(0));
        float[] want = OnnxTensorFile.read(reference).values();
        if (got.length != want.length) {
            out.println("reference " + reference + ": NO — " + want.length + " values, the output has " + got.length);
            return false;
        }
        double worst = 0;
        for (int i = 0; i < got.length; i++) {
            double scale = Math.max(1e-6, Math.abs(want[i]));
            worst = Math.max(worst, Math.abs(got[i] - want[i]) / scale);
        }
        boolean ok = worst <= TOLERANCE;
        out.printf(Locale.ROOT, "reference %s: %s (largest relative difference %.3g, tolerance %.0e)%n", reference, ok ? "matches" : "NO", worst, TOLERANCE);
        return ok;
    }

    private static String shape(Tensor t) {
        return t.hasShape() ? Arrays.toString(t.shape()) : t.bytes() + " B";
    }
}
