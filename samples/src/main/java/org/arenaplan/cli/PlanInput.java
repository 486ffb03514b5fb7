package org.arenaplan.cli;

import org.arenaplan.device.DataException;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.io.GraphJson;
import org.arenaplan.io.InputException;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphException;
import org.arenaplan.models.BuiltinModels;
import org.arenaplan.onnx.OnnxEdges;
import org.arenaplan.onnx.OnnxImporter;
import org.arenaplan.plan.PlanningException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code plan} was asked to plan: a graph (from a graph file, an ONNX model or a built-in
 * model) or a bare placement problem (a CSV file, read later with the alignment it needs).
 * Exactly one of {@code graph} and {@code csv} is set; {@code edges} says how an ONNX model's
 * inputs and outputs map onto the graph's tensors (its sequences and optionals), null for other inputs.
 */
record PlanInput(String label, Graph graph, Path csv, OnnxEdges edges) {

    PlanInput(String label, Graph graph, Path csv) {
        this(label, graph, csv, null);
    }

    boolean isGraph() {
        return graph != null;
    }

    /** Whether the graph's in-place hints are all the ONNX importer's own: an ONNX model (its format declares none). */
    boolean importerHints() {
        return edges != null;
    }

    /**
     * The line for a CSV problem given where ops are needed, naming the file:
     * {@code PROBLEM.csv p.csv: run needs a graph (GRAPH.json, MODEL.onnx or --model); a CSV problem has no ops}.
     *
     * @param what who needs the graph, with its verb ({@code "run needs"})
     */
    String csvNeedsAGraph(String what) {
        return "PROBLEM.csv " + csv + ": " + what + " a graph (GRAPH.json, MODEL.onnx or --model); a CSV problem has no ops";
    }

    /**
     * Plans or runs this input's graph with {@code work}. A graph that cannot be planned or run as
     * given (a size that overflows once rounded up to the alignment, an op the executors cannot
     * run, an index its data holds out of range, a hint {@code --strict} refuses) is bad input naming the input; a placement that misses the capacity stays a
     * {@link NoPlacementException}.
     */
    <T> T blamingInput(Function<Graph, T> work) {
        try {
            return work.apply(graph);
        } catch (PlanningException | ExecutionException | DataException | GraphException e) {
            throw new InputException(label + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param words        the command's free words: the input file, or the model's options after --model
     * @param model        the --model name, or null
     * @param dims         an ONNX model's dynamic dims
     * @param donateInputs donates an ONNX model's graph inputs
     * @param given        values of an ONNX model's graph inputs (from {@code --input NAME=FILE}): tensors that its
     *                     shape operands may read at import ({@link OnnxImporter.Options#withInputValues}), and the
     *                     sequences and optionals the import binds ({@link OnnxImporter.Options#withSequenceInputs})
     */
    static PlanInput resolve(List<String> words, String model, Map<String, Long> dims, boolean donateInputs,
                             TensorFiles.Given given) throws IOException {
        if (model != null && !dims.isEmpty()) throw new UsageException("--dim applies to ONNX models only (built-in models take --OPTION VALUE)");
        if (model != null && donateInputs) throw new UsageException("--donate-inputs applies to ONNX models only (built-in models take their own --donate option where they have one)");
        if (model != null) {
            Map<String, String> options = modelOptions(words, model);
            Graph g;
            try {
                g = BuiltinModels.build(model, options);
            } catch (IllegalArgumentException | GraphException e) {
                throw new InputException("--model " + model + ": " + e.getMessage(), e);
            }
            return new PlanInput("model " + model + (options.isEmpty() ? "" : " " + inModelOrder(model, options)), g, null);
        }
        if (words.isEmpty()) throw new UsageException("missing input: give GRAPH.json, PROBLEM.csv, MODEL.onnx or --model NAME");
        for (String w : words) if (w.startsWith("-")) throw new UsageException("unknown option '" + w + "'");
        if (words.size() > 1) throw new UsageException("expected one input file, found " + words.size() + ": " + String.join(" ", words));
        if (words.get(0).isEmpty()) throw new UsageException("the input's name is empty (''); give GRAPH.json, PROBLEM.csv, MODEL.onnx or --model NAME");
        Path file = Path.of(words.get(0));
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".onnx") && !dims.isEmpty()) throw new UsageException("--dim applies to ONNX models only");
        if (!name.endsWith(".onnx") && donateInputs) throw new UsageException("--donate-inputs applies to ONNX models only");
        if (name.endsWith(".csv")) {
            FileAccess.refuseFolder(file, "PROBLEM.csv");
            return new PlanInput(file.toString(), null, file);
        }
        if (name.endsWith(".json")) return new PlanInput(file.toString(), FileAccess.read(file, "GRAPH.json", GraphJson::read), null);
        if (name.endsWith(".onnx")) {
            FileAccess.refuseFolder(file, "MODEL.onnx");
            OnnxImporter.Imported imported = OnnxImporter.importModel(file, OnnxImporter.Options.DEFAULT.withDims(dims).withDonateInputs(donateInputs)
                    .withInputValues(given.tensors()).withSequenceInputs(given.sequences()));
            return new PlanInput(file.toString() + (dims.isEmpty() ? "" : " " + dims) + (donateInputs ? " (inputs donated)" : ""), imported.graph(), null, imported.edges());
        }
        String folder = org.arenaplan.io.TextFiles.folderNotFile("", file);   // a folder: say so rather than that its name has no known ending
        if (folder != null) throw new InputException(folder + "; expected GRAPH.json, PROBLEM.csv or MODEL.onnx");
        throw new UsageException("cannot tell the type of '" + file + "': expected GRAPH.json, PROBLEM.csv or MODEL.onnx");
    }

    /** The given options in the order the model declares them (the label reads the same however they were typed). */
    private static Map<String, String> inModelOrder(String model, Map<String, String> options) {
        Map<String, String> ordered = new LinkedHashMap<>();
        for (String k : BuiltinModels.defaults(model).keySet()) if (options.containsKey(k)) ordered.put(k, options.get(k));
        ordered.putAll(options);
        return ordered;
    }

    /**
     * {@code --name value} and {@code --name=value} pairs; a name without a value is {@code true}
     * where the model's option is a flag (its default true or false), else bad input naming the
     * option (was read as the value 'true': "--layers must be a positive integer ..., got 'true'").
     */
    static Map<String, String> modelOptions(List<String> words, String model) {
        Map<String, String> defaults;
        try {
            defaults = BuiltinModels.defaults(model);
        } catch (IllegalArgumentException e) {
            defaults = Map.of();   // an unknown model: building it says so
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.startsWith("--") || w.length() == 2)
                throw new UsageException("unexpected '" + w + "' after --model: model options are written --name value");
            String key = w.substring(2);
            String value;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            } else if (i + 1 < words.size() && !words.get(i + 1).startsWith("--")) {
                value = words.get(++i);
            } else {
                String d = defaults.get(key);
                if (d != null && !d.equals("true") && !d.equals("false"))
                    throw new InputException("--model " + model + ": model '" + model + "': option --" + key + " needs a value (default " + d + ")");
                value = "true";
            }
            if (options.put(key, value) != null) throw new UsageException("model option --" + key + " given twice");
        }
        return options;
    }
}
