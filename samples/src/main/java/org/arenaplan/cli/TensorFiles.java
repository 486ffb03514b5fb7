package org.arenaplan.cli;

import org.arenaplan.exec.AllClose;
import org.arenaplan.exec.Inputs;
import org.arenaplan.io.InputException;
import org.arenaplan.io.Printable;
import org.arenaplan.io.TextFiles;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.onnx.OnnxEdges;
import org.arenaplan.onnx.OnnxImporter;
import org.arenaplan.onnx.OnnxTensorFile;
import org.arenaplan.onnx.OnnxValue;
import org.arenaplan.onnx.OnnxValueFile;
import org.arenaplan.onnx.OnnxValueMatch;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Graph inputs and outputs as ONNX TensorProto ({@code .pb}) files, for {@code run}; an ONNX
 * model's sequence and optional inputs and outputs as SequenceProto and OptionalProto files
 * ({@link OnnxValueFile}), mapped onto the graph's tensors by {@link OnnxEdges}.
 */
final class TensorFiles {
    private TensorFiles() { }

    /** The values given before import: tensors by input name, and the sequences and optionals an ONNX import binds. */
    record Given(Map<String, TensorValue> tensors, Map<String, OnnxValue> sequences) {
        static final Given NONE = new Given(Map.of(), Map.of());
    }

    /**
     * The values of the {@code --input NAME=FILE} specs that name their input (before any graph
     * exists: for an ONNX model's shape operands, and its sequence and optional inputs, each read as
     * the model declares it: a SequenceProto or an OptionalProto). The specs passed
     * {@link #checkBeforeWork} first (run and plan call it before any work).
     *
     * @param words the command's free words (the ONNX model's file, where it is one)
     * @throws InputException naming the input and the file when a file is not of its input's kind
     * @throws UsageException naming an unnamed spec and the input when a sequence or optional input has no file by name ({@link #refuseUnnamed})
     */
    static Given named(List<String> specs, List<String> words, String model) {
        Map<String, Class<? extends OnnxValue>> kinds = Map.of();
        boolean onnx = model == null && words.size() == 1 && words.get(0).toLowerCase(java.util.Locale.ROOT).endsWith(".onnx") && Files.isRegularFile(Path.of(words.get(0)));
        if (onnx && !specs.isEmpty()) kinds = OnnxImporter.sequenceInputs(Path.of(words.get(0)));
        Map<String, TensorValue> values = new LinkedHashMap<>();
        Map<String, OnnxValue> sequences = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0) continue;
            String name = spec.substring(0, eq);
            if (kinds.containsKey(name)) sequences.put(name, readValue(spec, name, Path.of(spec.substring(eq + 1)), kinds.get(name)));
            else values.put(name, read(spec, name, Path.of(spec.substring(eq + 1))));
        }
        refuseUnnamed(specs, kinds, sequences);
        return new Given(values, sequences);
    }

    /**
     * The checks of {@code --input} that need no graph, made before any work (import, build,
     * planning): no empty name before '=', no empty file after it, each file there and not a
     * folder. What needs the graph (the name an input's, the type and shape its) is checked when
     * the values are read.
     *
     * @throws UsageException naming the flag and the spec
     * @throws InputException naming the spec and the file that is not there
     */
    static void checkBeforeWork(List<String> specs) {
        refuseEmptyNames("--input", specs);
        for (String spec : specs) {
            refuseEmptySpec(spec);
            int eq = spec.indexOf('=');
            String input = eq > 0 ? spec.substring(0, eq) : spec;
            Path file = Path.of(eq > 0 ? spec.substring(eq + 1) : spec);
            checkInputFile(spec, input, file);
            if (!Files.exists(file)) throw new InputException("--input " + (eq > 0 ? input + ": " : "") + file + ": no such file");   // as reading it says
        }
    }

    /**
     * A spec that starts with '=' ({@code --input =x.pb}) names no input or output: refused rather
     * than read as a file named {@code =x.pb} (a file whose name starts with '=' is given as {@code ./=x.pb}).
     *
     * @param flag {@code --input} or {@code --expect}
     * @throws UsageException in one line naming the flag and the spec
     */
    private static void refuseEmptyNames(String flag, List<String> specs) {
        for (String spec : specs)
            if (spec.startsWith("="))
                throw new UsageException(flag + " " + spec + ": the name before '=' is empty; write " + flag + " NAME=FILE.pb, or " + flag + " FILE.pb without '='");
    }

    /**
     * An unnamed {@code --input FILE.pb} while a sequence or optional input ({@code kinds}) has no
     * file by name ({@code named}) is refused: such an input is bound at import, before an unnamed
     * file is matched to an input (as the graph's one input, or by its TensorProto's name), so its
     * file must be named.
     *
     * @throws UsageException in one line naming the first unnamed spec, the input and its kind
     */
    private static void refuseUnnamed(List<String> specs, Map<String, Class<? extends OnnxValue>> kinds, Map<String, OnnxValue> named) {
        String unnamed = specs.stream().filter(s -> !s.isEmpty() && s.indexOf('=') <= 0).findFirst().orElse(null);
        if (unnamed == null) return;
        for (Map.Entry<String, Class<? extends OnnxValue>> k : kinds.entrySet()) {
            if (named.containsKey(k.getKey())) continue;
            boolean seq = k.getValue() == OnnxValue.Sequence.class;
            throw new UsageException("--input " + unnamed + ": graph input '" + k.getKey() + "' is " + (seq ? "a sequence" : "an optional")
                    + ", so its file must be named: arenaplan binds a sequence or optional input at import, before it matches unnamed files to inputs;"
                    + " write --input " + k.getKey() + "=FILE.pb (" + (seq ? "a SequenceProto" : "an OptionalProto") + ", onnx-data.proto)");
        }
    }

    /**
     * {@code dims} (the {@code --dim} values) with the values an ONNX model's named symbolic dims
     * take from the shapes of the {@code --input} files ({@link OnnxImporter#dimsOfGiven}), so
     * that {@code run M.onnx --input x=a.pb} needs no {@code --dim} for x's dims; a {@code --dim}
     * given wins (the file is then checked against the shape it makes). An unnamed
     * {@code --input FILE.pb} is for the model's one input, or for the input its tensor names;
     * a file that cannot be read gives nothing here (reading it later says why).
     *
     * @throws InputException naming both {@code --input}s, the inputs' axes and the dim when two files give one dim two extents
     */
    static Map<String, Long> withDimsOfInputs(Map<String, Long> dims, List<String> specs, List<String> words, String model, Given given) {
        boolean onnx = model == null && words.size() == 1 && words.get(0).toLowerCase(java.util.Locale.ROOT).endsWith(".onnx") && Files.isRegularFile(Path.of(words.get(0)));
        if (!onnx || specs.isEmpty()) return dims;
        Path file = Path.of(words.get(0));
        List<String> missing = new java.util.ArrayList<>(OnnxImporter.symbolicDims(file));
        missing.removeAll(dims.keySet());
        if (missing.isEmpty()) return dims;
        Map<String, long[]> shapes = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        given.tensors().forEach((name, t) -> shapes.put(name, t.shape()));
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq > 0) from.putIfAbsent(spec.substring(0, eq), "--input " + spec);
            if (eq > 0 || spec.isEmpty() || !Files.isRegularFile(Path.of(spec))) continue;
            try {
                OnnxTensorFile.NamedTensor t = OnnxTensorFile.read(Path.of(spec));
                String name = t.name() == null ? "" : t.name();
                if (shapes.putIfAbsent(name, t.value().shape()) == null) from.put(name, "--input " + spec);
                if (shapes.putIfAbsent("", t.value().shape()) == null) from.put("", "--input " + spec);
            } catch (InputException e) {
                // reading it as the input's value says why
            }
        }
        Map<String, Long> all = new LinkedHashMap<>(dims);
        OnnxImporter.dimsOfGiven(file, shapes, from, dims.keySet()).forEach(all::putIfAbsent);
        return all;
    }

    /** {@code --input ''} (an unset shell variable, say) names no file: refused rather than read as the working folder. */
    private static void refuseEmptySpec(String spec) {
        if (spec.isEmpty()) throw new UsageException("--input '': the name is empty; give --input FILE.pb or --input NAME=FILE.pb");
    }

    /** The checks every {@code --input} file gets before it is read: a file after '=', and not a folder. */
    private static void checkInputFile(String spec, String input, Path file) {
        if (file.toString().isEmpty())
            throw new UsageException("--input " + input + "=: no file after '='; write --input " + input + "=FILE.pb");
        FileAccess.refuseFolder(file, spec.indexOf('=') > 0 ? "--input " + input + "=" : "--input");
    }

    /** {@code --input NAME=FILE} of a sequence or optional input: the file read as that kind, its errors naming the input. */
    private static OnnxValue readValue(String spec, String input, Path file, Class<? extends OnnxValue> kind) {
        checkInputFile(spec, input, file);
        try {
            return OnnxValueFile.read(file, kind);
        } catch (InputException e) {
            throw new InputException("--input " + input + " (" + (kind == OnnxValue.Sequence.class ? "a sequence" : "an optional") + "): " + e.getMessage(), e);
        }
    }

    /**
     * The values of {@code --input NAME=FILE}; a file that cannot be read is bad input naming the input too.
     *
     * @param spec the option's value as typed ({@code x=a.pb} or {@code a.pb})
     */
    private static TensorValue read(String spec, String input, Path file) {
        refuseEmptySpec(spec);
        checkInputFile(spec, input, file);
        try {
            return OnnxTensorFile.read(file).value();
        } catch (InputException e) {
            throw new InputException("--input " + input + ": " + e.getMessage(), e);
        }
    }

    /**
     * The values a run feeds: {@code values} by graph input name, and {@code random}, the graph
     * inputs no {@code --input} gave, which hold seeded random values ({@link Inputs#of}).
     */
    record Fed(Map<String, TensorValue> values, List<String> random) { }

    /**
     * Seeded random inputs, with the ones named in {@code specs} read from files; a sequence or
     * optional input of an ONNX model ({@code edges}, null for other graphs) gives its tensors.
     * The specs passed {@link #checkBeforeWork} first.
     */
    static Fed inputs(Graph g, OnnxEdges edges, List<String> specs) {
        Map<String, TensorValue> inputs = new LinkedHashMap<>(Inputs.of(g, 1));
        Set<String> given = new HashSet<>();
        Set<String> fed = new HashSet<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            String name;
            Path file;
            if (eq > 0) {
                name = spec.substring(0, eq);
                file = Path.of(spec.substring(eq + 1));
                if (edges != null && edges.edges().containsKey(name)) {
                    if (!given.add(name)) throw new UsageException("--input " + spec + ": input '" + name + "' is given twice");
                    Map<String, TensorValue> tensors = edges.feed(name, readValue(spec, name, file, edges.kind(name)), "--input " + spec);
                    fed.addAll(tensors.keySet());
                    inputs.putAll(tensors);
                    continue;
                }
            } else {
                file = Path.of(spec);
                name = g.inputs().size() == 1 ? g.inputs().get(0) : nameInFile(file, g.inputs(), "--input", spec, "inputs");
            }
            if (!g.isInput(name)) throw new UsageException("--input " + spec + ": '" + name + "' is not a graph input; inputs: " + g.inputs());
            if (!given.add(name)) throw new UsageException("--input " + spec + ": input '" + name + "' is given twice");
            TensorValue t = read(spec, name, file);
            Tensor want = g.tensor(name);
            DType type = want.dtype() == null ? DType.F32 : want.dtype();
            String flag = "--input " + spec + ": ";   // as the flag's other errors: the file and the input it was given for
            if (t.dtype() != type)
                throw new InputException(flag + "holds " + t.dtype().jsonName() + " values but input '" + name + "' is " + type.jsonName());
            if (t.byteCount() != want.bytes())
                throw new InputException(flag + "holds " + t.elements() + " values " + Arrays.toString(t.shape())
                        + " but input '" + name + "' has " + want.elements() + " " + shape(want));
            if (want.hasShape() && !Arrays.equals(t.shape(), want.shape()))   // as ONNX Runtime: the same values under another shape are another tensor
                throw new InputException(flag + "holds a tensor of shape " + Arrays.toString(t.shape()) + " but input '" + name + "' is " + shape(want));
            inputs.put(name, new TensorValue(t.dtype(), want.shape(), t.bytes()));
            fed.add(name);
        }
        return new Fed(inputs, g.inputs().stream().filter(i -> !fed.contains(i)).toList());
    }

    /**
     * The graph input or output an unnamed {@code FILE.pb} is for, where the graph has several:
     * the TensorProto's own {@code name} (ONNX's test data names each file's tensor so), which
     * must be one of {@code names}.
     *
     * @throws UsageException when the file's tensor has no name or names none of them
     * @throws InputException when the file is no readable TensorProto (naming the flag)
     */
    private static String nameInFile(Path file, List<String> names, String flag, String spec, String what) {
        String many = flag + " " + spec + ": the graph has " + names.size() + " " + what + " " + names;
        if (!Files.isRegularFile(file)) throw new UsageException(many + "; write " + flag + " NAME=FILE.pb");
        String name;
        try {
            name = OnnxTensorFile.read(file).name();
        } catch (InputException e) {
            throw new InputException(flag + " " + e.getMessage(), e);
        }
        if (name == null || name.isEmpty())
            throw new UsageException(many + " and the file's tensor has no name; write " + flag + " NAME=FILE.pb");
        if (!names.contains(name))
            throw new UsageException(many + " and the file's tensor is named '" + name + "', none of them; write " + flag + " NAME=FILE.pb");
        return name;
    }

    /**
     * The {@code --expect} specs as output name -> reference file; checks the tolerances too. An
     * unnamed file is for the graph's one output, or for the output its tensor names.
     *
     * @throws UsageException when a tolerance is negative, NaN or infinite ({@link AllClose}'s rule)
     */
    private static Map<String, Path> references(Graph g, OnnxEdges edges, List<String> specs, double rtol, double atol) {
        if (rtol < 0 || atol < 0 || Double.isNaN(rtol) || Double.isNaN(atol))
            throw new UsageException("--rtol and --atol must be >= 0, got " + rtol + " and " + atol);
        if (Double.isInfinite(rtol) || Double.isInfinite(atol))   // 1e400 parses as Infinity, and an infinite tolerance accepts any finite value
            throw new UsageException("--rtol and --atol must be finite, got " + rtol + " and " + atol
                    + " (a number past 1.8e308 reads as Infinity, and an infinite tolerance would accept any value)");
        refuseEmptyNames("--expect", specs);
        Map<String, Path> refs = new LinkedHashMap<>();
        List<String> outputs = outputs(g, edges);
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            String name = eq > 0 ? spec.substring(0, eq) : null;
            Path file;
            if (name != null && outputs.contains(name)) {
                file = Path.of(spec.substring(eq + 1));
            } else if (name != null && !Files.exists(Path.of(spec))) {     // NAME=FILE naming no output (a file name may hold '=')
                throw new UsageException("--expect " + spec + ": '" + name + "' is not a graph output; outputs: " + outputs);
            } else {
                file = Path.of(spec);
                name = outputs.size() == 1 ? outputs.get(0) : nameInFile(file, outputs, "--expect", spec, "outputs");
            }
            if (refs.put(name, file) != null) throw new UsageException("--expect: output '" + name + "' is given two references");
        }
        return refs;
    }

    /**
     * Checks {@code --output} and {@code --expect} before any work: the output's folder exists
     * (for several outputs PATH is, or can be made, a folder), and every reference names an
     * output and is a readable TensorProto. {@code typed} is {@code --output}'s value as typed:
     * one that ends in '/' names a folder, which a graph of one output, written to PATH itself,
     * cannot take ({@link Path} drops the '/', so the file would silently get the folder's name).
     */
    static void checkPaths(Graph g, OnnxEdges edges, Path output, String typed, List<String> expect, double rtol, double atol) {
        List<String> names = outputs(g, edges);
        int outputs = names.size();
        if (output != null) {
            if (outputs == 1 && typed != null && FileToWrite.namesAFolder(typed))
                throw new UsageException("--output " + typed + ": ends in '/', so it names a folder, but the graph has 1 output ('" + org.arenaplan.io.Printable.of(names.get(0))
                        + "'), written to PATH itself; give a file name");
            if (outputs == 1 || output.toString().equals("-")) FileAccess.checkWritable(output, "--output");
            else if (output.toString().isEmpty())   // Java's working folder: the outputs would land there unasked
                throw new InputException(TextFiles.notAFolder("--output", output));
            else if (Files.exists(output) && !Files.isDirectory(output))
                throw new InputException(TextFiles.notAFolder("--output", output) + " (the graph has " + outputs + " outputs, so PATH is a folder of NAME.pb files)");
            else if (!Files.isDirectory(output.toAbsolutePath().getParent()))
                throw new InputException("--output " + output + ": cannot write: folder " + output.toAbsolutePath().getParent() + " does not exist");
        }
        for (Map.Entry<String, Path> ref : references(g, edges, expect, rtol, atol).entrySet()) {
            Path reference = ref.getValue();
            boolean named = expect.contains(ref.getKey() + "=" + reference);   // a folder is named as it was typed
            FileAccess.refuseFolder(reference, named ? "--expect " + ref.getKey() + "=" : "--expect");
            OnnxValue want;
            try {
                want = OnnxValueFile.read(reference, edges == null ? OnnxValue.Tensor.class : edges.kind(ref.getKey()));
            } catch (InputException e) {
                throw new InputException("--expect " + e.getMessage(), e);
            }
            if (want instanceof OnnxValue.Tensor w) refuseUnfit(g, ref.getKey(), reference, w.value());
        }
    }

    /**
     * Refuses a reference that cannot describe tensor output {@code name}: another element type
     * (references are compared in the output's type, not converted), or another shape where the
     * output's shape is known before the run (for a data-dependent output, another rank, or an
     * extent past the output's upper bound along its data-dependent axis, or another extent on
     * any other axis). A data-dependent extent within the bound may differ from the reference
     * only when the values do, so that is {@link #matchReferences}'s {@code NO}, exit 1.
     *
     * @throws InputException naming the reference file, the output and both types and shapes
     */
    private static void refuseUnfit(Graph g, String name, Path reference, TensorValue want) {
        Tensor t = g.tensor(name);
        DType type = t.dtype() == null ? DType.F32 : t.dtype();   // as an input without a type: run's tensors hold f32
        Graph.Bounded bounded = g.bounded(name);
        boolean fits = type == want.dtype() && (t.hasShape() ? shapeFits(t.shape(), want.shape(), bounded == null ? -1 : bounded.axis()) : want.byteCount() == t.bytes());
        if (fits) return;
        String numpy = numpyName(type);
        throw new InputException("--expect " + reference + ": the reference is " + want.dtype().jsonName() + " " + Arrays.toString(want.shape())
                + " but output '" + Printable.name(name) + "' is " + type.jsonName() + " " + (t.hasShape() ? Arrays.toString(t.shape()) : t.bytes() + " B")
                + (bounded != null ? " (axis " + bounded.axis() + " data-dependent, at most " + t.shape()[bounded.axis()] + ")" : "")
                + (type != want.dtype() ? "; references are compared in the output's element type: save it as " + type.jsonName()
                        + (numpy != null ? " (numpy: .astype(np." + numpy + "))" : "") : ""));
    }

    /** Whether a reference of shape {@code ref} can hold output {@code shape}: equal, but along {@code axis} (data-dependent, -1 for none) at most the bound. */
    private static boolean shapeFits(long[] shape, long[] ref, int axis) {
        if (ref.length != shape.length) return false;
        for (int i = 0; i < shape.length; i++) if (i == axis ? ref[i] > shape[i] : ref[i] != shape[i]) return false;
        return true;
    }

    /** The graph's outputs as the user names them: an ONNX model's own (a sequence or optional one being one output), else the graph's. */
    private static List<String> outputs(Graph g, OnnxEdges edges) {
        return edges == null ? g.outputs() : edges.outputs();
    }

    /** The value of output {@code name}: a tensor, or an ONNX model's sequence or optional read back from its tensors. */
    private static OnnxValue value(OnnxEdges edges, String name, Map<String, TensorValue> outputs) {
        return edges == null ? new OnnxValue.Tensor(outputs.get(name)) : edges.value(name, outputs);
    }

    /**
     * Writes each output to its file ({@link #outputFiles}) and prints one line per file,
     * {@code wrote FILE}, followed by {@code (output 'NAME')} where FILE is not NAME.pb, so that a
     * renamed output's file is named next to it.
     */
    static void writeOutputs(Graph g, OnnxEdges edges, Map<String, TensorValue> outputs, Path path, PrintStream out) throws java.io.IOException {
        if (outputs(g, edges).size() > 1) Files.createDirectories(path);
        Map<String, Path> files = outputFiles(g, edges, path);
        for (Map.Entry<String, Path> e : files.entrySet()) {
            OnnxValueFile.write(e.getValue(), e.getKey(), value(edges, e.getKey(), outputs));
            boolean renamed = files.size() > 1 && !e.getValue().getFileName().toString().equals(e.getKey() + ".pb");
            out.println("wrote " + e.getValue() + (renamed ? " (output '" + Printable.of(e.getKey()) + "')" : ""));
        }
    }

    /**
     * The file {@code --output PATH} writes for each graph output: PATH itself for one output,
     * else a file in folder PATH. An output whose name is a plain file name (only
     * {@code A-Za-z0-9_.-}) is always written NAME.pb, whatever other outputs are called, so NAME.pb
     * holds output NAME. Any other output is renamed: each character outside that set written
     * {@code _}, as STEM.pb, or STEM_2.pb, STEM_3.pb, ... where an earlier output or another output's
     * own NAME.pb (compared ignoring case, for file systems that do) took it, so a renamed output
     * never shares a file (two plain names differing only in case, {@code Y} and {@code y}, keep
     * Y.pb and y.pb, one file where case is ignored). Outputs {@code a_b}, {@code a/b} and {@code a_b_2} are written a_b.pb, a_b_3.pb and
     * a_b_2.pb. A sequence or optional output of an ONNX model is one SequenceProto or OptionalProto file.
     */
    static Map<String, Path> outputFiles(Graph g, OnnxEdges edges, Path path) {
        Map<String, Path> files = new LinkedHashMap<>();
        List<String> outputs = outputs(g, edges);
        if (outputs.size() == 1) {
            files.put(outputs.get(0), path);
            return files;
        }
        Set<String> taken = new HashSet<>();   // file names, lower-cased
        for (String name : outputs) if (plainFileName(name)) taken.add(lower(name + ".pb"));
        for (String name : outputs) {
            if (plainFileName(name)) {
                files.put(name, path.resolve(name + ".pb"));
                continue;
            }
            String stem = name.replaceAll("[^A-Za-z0-9_.-]", "_"), file = stem + ".pb";
            for (int k = 2; !taken.add(lower(file)); k++) file = stem + "_" + k + ".pb";
            files.put(name, path.resolve(file));
        }
        return files;
    }

    /** Whether an output's name is written as its own file name (NAME.pb): only {@code A-Za-z0-9_.-}. */
    private static boolean plainFileName(String name) {
        return name.matches("[A-Za-z0-9_.-]+");
    }

    private static String lower(String s) {
        return s.toLowerCase(java.util.Locale.ROOT);
    }

    /** numpy's name of f16, f32 and f64 ({@code float32} for f32), for {@link #refuseUnfit}'s hint; null for other types. */
    private static String numpyName(DType t) {
        return switch (t) {
            case F16 -> "float16";
            case F64 -> "float64";
            case F32 -> "float32";
            default -> null;
        };
    }

    /**
     * Compares outputs with references like numpy's allclose ({@link AllClose}) and prints one
     * line per reference: {@code reference FILE: matches|NO (output 'NAME', worst element ...)}.
     * A reference has the output's element type and shape ({@link #checkPaths} refused it before
     * the run otherwise), but for a data-dependent output, whose actual extent may differ from the
     * reference's: then {@code NO}; integer and bool outputs must equal it exactly (the tolerances
     * apply to floating-point outputs).
     *
     * @param specs {@code NAME=FILE.pb}, or {@code FILE.pb} when the graph has one output
     * @return true when every output named matches its reference
     */
    static boolean matchReferences(Graph g, OnnxEdges edges, Map<String, TensorValue> outputs, List<String> specs, double rtol, double atol, PrintStream out) {
        Map<String, Path> refs = references(g, edges, specs, rtol, atol);
        boolean all = true;
        for (Map.Entry<String, Path> e : refs.entrySet()) {
            String name = e.getKey();
            Path reference = e.getValue();
            if (edges != null && edges.edges().containsKey(name)) {   // a sequence or optional: element by element, each as a tensor below
                OnnxValue got = edges.value(name, outputs);
                String why = OnnxValueMatch.mismatch(got, OnnxValueFile.read(reference, edges.kind(name)), (a, b) -> tensorMismatch(a, b, rtol, atol));
                out.println("reference " + reference + ": " + (why == null ? "matches (output '" + name + "', " + got.describe() + ")" : "NO (output '" + name + "' " + why + ")"));
                all &= why == null;
                continue;
            }
            TensorValue got = outputs.get(name), want = OnnxTensorFile.read(reference).value();
            Tensor t = g.tensor(name);
            long[] actual = got.shape() != null ? got.shape() : t.shape();   // a data-dependent output's actual shape, not its planned upper bound
            if (got.dtype() != want.dtype() || got.elements() != want.elements() || actual != null && !Arrays.equals(actual, want.shape())) {
                out.println("reference " + reference + ": NO (output '" + name + "' " + (actual != null ? Arrays.toString(actual) : t.bytes() + " B") + " has " + got.elements() + " " + got.dtype().jsonName()
                        + " values, the reference " + Arrays.toString(want.shape()) + " " + want.elements() + " " + want.dtype().jsonName() + ")");
                all = false;
                continue;
            }
            AllClose c = AllClose.compare(got, want, rtol, atol);   // integers exactly
            out.println("reference " + reference + ": " + (c.ok() ? "matches" : "NO") + " (output '" + name + "', " + c.describe(actual) + ")");
            if (c.ok() && !c.exact() && c.count() > 0) {
                double largest = largestMagnitude(want);
                if (largest <= atol) out.println("note: reference " + reference + ": every element of output '" + name + "' lies within atol (largest |r| "
                        + String.format(java.util.Locale.ROOT, "%.3g", largest) + " <= atol " + String.format(java.util.Locale.ROOT, "%.3g", atol)
                        + "), so an output of zeros would match it too: this comparison tests little; give inputs or weights whose outputs are larger"
                        + (largest > 0 ? ", or a smaller --atol" : ""));
            }
            all &= c.ok();
        }
        return all;
    }

    /** The largest |r| of a floating-point reference (0 when empty, infinity when one is NaN or infinite): at or below atol, zeros would match it. */
    private static double largestMagnitude(TensorValue want) {
        double m = 0;
        for (double r : want.doubles()) m = Double.isFinite(r) ? Math.max(m, Math.abs(r)) : Double.POSITIVE_INFINITY;
        return m;
    }

    /** Why one tensor of a sequence or optional output does not match its reference (as a tensor output is compared), or null. */
    private static String tensorMismatch(TensorValue got, TensorValue want, double rtol, double atol) {
        if (got.dtype() != want.dtype() || got.elements() != want.elements() || !Arrays.equals(got.shape(), want.shape()))
            return "is " + Arrays.toString(got.shape()) + " " + got.dtype().jsonName() + ", the reference " + Arrays.toString(want.shape()) + " " + want.dtype().jsonName();
        AllClose c = AllClose.compare(got, want, rtol, atol);   // integers exactly
        return c.ok() ? null : c.describe(want.shape());
    }


    private static String shape(Tensor t) {
        return t.hasShape() ? Arrays.toString(t.shape()) : t.bytes() + " B";
    }
}
