package org.arenaplan.ops;

import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The one list of definitions is what every table reads, and the layers below never import it. */
class OperatorsTest {
    private static final Path SRC = Path.of("src", "main", "java", "org", "arenaplan");
    /** The pure algorithms: no device, executor, simulator or ONNX code. */
    private static final List<String> PURE = List.of("ir", "liveness", "hb", "plan", "schedule", "train", "io", "report");

    @Test
    void theRegistryIsTheDefinitionsInOrder() {
        List<String> defined = Operators.definitions().stream().map(d -> d.spec().kind()).toList();
        assertThat(OpRegistry.all().stream().map(OpSpec::kind).toList()).isEqualTo(defined);
        assertThat(new Operators().rules().keySet()).containsExactlyElementsOf(defined);
    }

    @Test
    void everyOnnxImportTakesItsKindsAttributes() {
        for (OpDefinition d : Operators.definitions()) {
            for (var i : d.imports()) {
                for (var a : d.spec().attrs()) assertThat(i.attributes()).as(i.opType()).contains(a.name());
            }
        }
    }

    /**
     * A definition's lowering, shape rule and importer read the facts the definition declares
     * (a pool's mode, a cell's gates), never the op's kind name: a kind renamed or a second kind
     * sharing the code cannot silently take another branch.
     */
    @Test
    void noDefinitionDispatchesOnTheKindName() throws IOException {
        java.util.regex.Pattern byName = java.util.regex.Pattern.compile(
                "\\.kind\\(\\)\\s*\\.(equals|startsWith|endsWith|contains)\\(|switch\\s*\\([^)]*\\.kind\\(\\)\\)|String \\w+ = [^;]*\\bop\\(\\)\\.kind\\(\\);|String \\w+ = op\\.kind\\(\\);");
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.list(SRC.resolve("ops"))) {
            for (Path f : files.filter(OperatorsTest::isDefinitionCode).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) if (byName.matcher(lines.get(i)).find()) offenders.add(f.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
            }
        }
        assertThat(offenders).isEmpty();
    }

    /**
     * {@code ir.OpKinds} names only registry kinds, and only those that code outside the
     * definitions refers to (core passes, the backward pass, built-in models, the CUDA backend and GPU runner);
     * a kind only its family names is declared there, so adding an op never touches OpKinds.
     */
    @Test
    void opKindsHoldsTheRegistryKindsNamedOutsideTheDefinitions() throws Exception {
        StringBuilder outside = new StringBuilder();
        for (Path root : List.of(SRC, Path.of("..", "samples", "src", "main", "java"), Path.of("..", "cuda-backend", "src", "main", "java"), Path.of("..", "tests-gpu", "src", "main", "java"))) {
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java") && !isDefinitionCode(p)).toList()) outside.append(Files.readString(f));
            }
        }
        List<String> wrong = new ArrayList<>();
        for (java.lang.reflect.Field f : org.arenaplan.ir.OpKinds.class.getFields()) {
            String kind = (String) f.get(null);
            if (!OpRegistry.knows(kind)) wrong.add(f.getName() + " = \"" + kind + "\" is no registry kind");
            if (!java.util.regex.Pattern.compile("OpKinds\\." + f.getName() + "\\b").matcher(outside).find())
                wrong.add(f.getName() + ": only op definitions name it; declare it in its family class");
        }
        assertThat(wrong).isEmpty();
    }

    /**
     * The op definitions: the family classes of {@code ops} and the helpers their definitions call
     * (lowerings, importers, kernel-call builders); not the passes that live there (EpilogueFusion).
     */
    private static boolean isDefinitionCode(Path f) {
        String name = f.getFileName().toString();
        if (!f.startsWith(SRC.resolve("ops")) || !name.endsWith(".java")) return false;
        try {
            return Files.readString(f).contains("implements OpFamily") || name.matches(".*(Lowering|Import|Imports|Calls|Walk)\\.java");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void noLayerBelowImportsOpsAndThePureAlgorithmsImportNoDeviceCode() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (String pkg : List.of("ir", "exec", "onnx", "device", "liveness", "plan", "io", "train", "sim", "schedule", "hb", "report")) {
            try (Stream<Path> files = Files.walk(SRC.resolve(pkg))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String text = Files.readString(f);
                    if (text.contains("import org.arenaplan.ops.")) offenders.add(f + " imports org.arenaplan.ops");
                    if (PURE.contains(pkg) && java.util.regex.Pattern.compile("import (static )?org\\.arenaplan\\.(device|exec|sim|onnx)\\.").matcher(text).find())
                        offenders.add(f + " (a pure algorithm) imports device, executor, simulator or ONNX code");
                }
            }
        }
        assertThat(offenders).isEmpty();
    }
}
