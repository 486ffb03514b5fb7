package org.arenaplan.cli;

import org.arenaplan.exec.Inputs;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;
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
    static Map<String, TensorValue> inputs(Graph g, List<String> specs) {
        Map<String, TensorValue> inputs = new LinkedHashMap<>(Inputs.of(g, 1));
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
            TensorValue t = OnnxTensorFile.read(file).value();
            Tensor want = g.tensor(name);
            DType type = want.dtype() == null ? DType.F32 : want.dtype();
            if (t.dtype() != type)
                throw new org.arenaplan.io.InputException(file + ": holds " + t.dtype().jsonName() + " values but input '" + name + "' is " + type.jsonName());
            if (t.byteCount() != want.bytes())
                throw new org.arenaplan.io.InputException(file + ": holds " + t.elements() + " values " + Arrays.toString(t.shape())
                        + " but input '" + name + "' has " + want.bytes() / type.bytes() + " " + shape(want));
            inputs.put(name, new TensorValue(t.dtype(), want.shape(), t.bytes()));
        }
        return inputs;
    }

    static void writeOutputs(Graph g, Map<String, TensorValue> outputs, Path path, PrintStream out) throws java.io.IOException {
        if (g.outputs().size() == 1) {
            String name = g.outputs().get(0);
            OnnxTensorFile.write(path, name, outputs.get(name));
            out.println("wrote " + path);
            return;
        }
        Files.createDirectories(path);
        for (String name : g.outputs()) {
            Path f = path.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".pb");
            OnnxTensorFile.write(f, name, outputs.get(name));
            out.println("wrote " + f);
        }
    }

    /**
     * Prints how the single output compares with the reference; true when of the same type and
     * count and within {@link #TOLERANCE} (relative) for floating-point types, equal for integers and bool.
     */
    static boolean matchesReference(Graph g, Map<String, TensorValue> outputs, Path reference, PrintStream out) {
        if (g.outputs().size() != 1) throw new UsageException("--expect compares one output; the graph has " + g.outputs().size());
        TensorValue got = outputs.get(g.outputs().get(0));
        TensorValue want = OnnxTensorFile.read(reference).value();
        if (got.dtype() != want.dtype() || got.elements() != want.elements()) {
            out.println("reference " + reference + ": NO — " + want.elements() + " " + want.dtype().jsonName() + " values, the output has "
                    + got.elements() + " " + got.dtype().jsonName());
            return false;
        }
        double worst = 0;
        for (int i = 0; i < got.elements(); i++) {
            double w = want.getDouble(i), d = Math.abs(got.getDouble(i) - w);
            worst = Math.max(worst, got.dtype().isIntegral() ? d : d / Math.max(1e-6, Math.abs(w)));
        }
        double tolerance = got.dtype().isIntegral() ? 0 : TOLERANCE;
        boolean ok = worst <= tolerance;
        out.printf(Locale.ROOT, "reference %s: %s (largest %s difference %.3g, tolerance %.0e)%n", reference, ok ? "matches" : "NO",
                got.dtype().isIntegral() ? "absolute" : "relative", worst, tolerance);
        return ok;
    }

    private static String shape(Tensor t) {
        return t.hasShape() ? Arrays.toString(t.shape()) : t.bytes() + " B";
    }
}
