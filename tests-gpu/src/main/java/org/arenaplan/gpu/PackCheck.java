package org.arenaplan.gpu;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the packed GPU runner ships, and whether it is enough for the tests. The runner folder
 * (built by {@code tests-gpu/gpu-runner/pack.sh} from {@code tests-gpu/target/gpu-runner}) holds
 * {@code lib/arenaplan-gpu.jar} (the application), {@code lib/arenaplan-gpu-tests.jar} (the tests),
 * {@code lib/junit-platform-console-standalone.jar}, {@code lib/test-lib/*.jar} (AssertJ and what
 * it needs) and a jlink'd runtime of {@link #modules(Path)}.
 *
 * <p>Steps of {@link #missing}: {@code jdeps -verbose:class} (the JDK's class-level dependency
 * lister) over the test classes, with the pack's jars as class path; every class a test class
 * refers to must be found in a pack jar or in a JDK module the runtime ships. Cost: one jdeps run
 * (a few seconds). Only classes named in the bytecode are seen (as with any import list), not
 * ones loaded by reflection; the launcher's own service loading is covered by {@code jdk.zipfs}.
 *
 * <p>Usage (pack.sh): {@code java -cp lib/arenaplan-gpu.jar org.arenaplan.gpu.PackCheck modules LIBDIR}
 * prints the module list for jlink; {@code ... check LIBDIR} prints every missing class and exits 1
 * when there is one. Needs a full JDK (jdeps), not the packed runtime.
 */
public final class PackCheck {
    /** The application jar's name in the pack. */
    public static final String APP_JAR = "arenaplan-gpu.jar";
    /** The tests' jar's name in the pack. */
    public static final String TESTS_JAR = "arenaplan-gpu-tests.jar";

    /**
     * JDK modules dropped although jdeps lists them, each with the only packages allowed to refer to
     * it: Jackson's {@code databind.ext} loads its java.beans support reflectively and carries on
     * without it (jackson-databind {@code Java7Support}); java.desktop is 10 MiB of the runtime.
     */
    static final java.util.Map<String, String> OPTIONAL_MODULES = java.util.Map.of("java.desktop", "com.fasterxml.jackson.databind.ext");

    /** Added although jdeps cannot see them: the JUnit launcher reads jars through the zip file system provider. */
    static final List<String> SERVICE_MODULES = List.of("jdk.zipfs");

    private PackCheck() { }

    /** One class a test class needs that the pack does not ship. */
    public record Missing(String from, String needed, String where) {
        @Override
        public String toString() {
            return from + " -> " + needed + " (" + where + ")";
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !List.of("modules", "check").contains(args[0])) {
            System.err.println("usage: PackCheck (modules | check) LIBDIR");
            System.exit(2);
        }
        Path lib = Path.of(args[1]);
        if (args[0].equals("modules")) {
            System.out.println(String.join(",", modules(lib)));
            return;
        }
        List<Missing> missing = missing(lib.resolve(TESTS_JAR), classPath(lib), modules(lib));
        for (Missing m : missing) System.out.println("pack: missing " + m);
        System.out.println("pack: " + (missing.isEmpty() ? "every class the tests refer to is shipped" : missing.size() + " class reference(s) not shipped"));
        System.exit(missing.isEmpty() ? 0 : 1);
    }

    /** The pack's jars other than the tests' own, in class-path order. */
    public static List<Path> classPath(Path lib) throws IOException {
        List<Path> jars = new ArrayList<>();
        jars.add(lib.resolve(APP_JAR));
        jars.add(lib.resolve("junit-platform-console-standalone.jar"));
        Path testLib = lib.resolve("test-lib");
        if (Files.isDirectory(testLib)) {
            try (Stream<Path> s = Files.list(testLib)) {
                jars.addAll(s.filter(p -> p.toString().endsWith(".jar")).sorted().toList());
            }
        }
        for (Path j : jars) if (!Files.isRegularFile(j)) throw new IOException("pack: " + j + " is missing");
        return jars;
    }

    /**
     * The JDK modules the runtime ships: every system module a package of a jar in {@code lib}
     * refers to (one {@code jdeps -verbose:package} pass), less {@link #OPTIONAL_MODULES} when only
     * their allowed packages refer to them, plus {@link #SERVICE_MODULES}. jlink adds what they
     * require.
     */
    public static List<String> modules(Path lib) throws IOException {
        List<String> args = new ArrayList<>(List.of("--multi-release", "17", "--ignore-missing-deps", "-verbose:package"));
        for (Path p : classPath(lib)) args.add(p.toString());
        args.add(lib.resolve(TESTS_JAR).toString());
        Set<String> mods = new TreeSet<>();
        java.util.Map<String, Set<String>> users = new java.util.HashMap<>();
        java.lang.module.ModuleFinder system = java.lang.module.ModuleFinder.ofSystem();
        for (String line : jdeps(args).lines().toList()) {
            if (!line.startsWith("   ")) continue;
            String[] f = line.strip().split("\\s+");
            if (f.length < 4 || !f[1].equals("->")) continue;
            String module = where(f);
            if (system.find(module).isEmpty()) continue;
            mods.add(module);
            users.computeIfAbsent(module, k -> new TreeSet<>()).add(f[0]);
        }
        for (var e : OPTIONAL_MODULES.entrySet()) {
            if (mods.contains(e.getKey()) && users.get(e.getKey()).stream().allMatch(pkg -> pkg.equals(e.getValue()))) mods.remove(e.getKey());
        }
        mods.addAll(SERVICE_MODULES);
        return List.copyOf(mods);
    }

    /**
     * Every class that a class in {@code tests} (a jar or a class folder) refers to and that is
     * neither in {@code classPath} nor in one of {@code modules} (with the modules they require,
     * as jlink resolves them).
     */
    public static List<Missing> missing(Path tests, List<Path> classPath, List<String> modules) {
        Set<String> shipped = resolved(modules);
        String cp = classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
        String out = jdeps(List.of("--multi-release", "17", "-verbose:class", "-cp", cp, tests.toString()));
        List<Missing> missing = new ArrayList<>();
        for (String line : out.lines().toList()) {
            if (!line.startsWith("   ")) continue;
            String[] f = line.strip().split("\\s+");
            if (f.length < 4 || !f[1].equals("->")) continue;
            String where = where(f);
            boolean ok = where.endsWith(".jar") || where.equals(tests.getFileName().toString())
                    || (!where.equals("not found") && shipped.contains(where));
            if (!ok) missing.add(new Missing(f[0], f[2], where.equals("not found") ? "not in the pack" : "JDK module " + where + " not in the runtime"));
        }
        return missing;
    }

    /**
     * Where jdeps found a dependence: a jar, a module, "not found", or for a JDK-internal API
     * ("JDK internal API (jdk.unsupported)") the module in parentheses.
     */
    private static String where(String[] f) {
        String w = String.join(" ", Arrays.copyOfRange(f, 3, f.length));
        int open = w.lastIndexOf('(');
        return open >= 0 && w.endsWith(")") ? w.substring(open + 1, w.length() - 1) : w;
    }

    /** The modules and everything they require, transitively (what jlink --add-modules puts in). */
    static Set<String> resolved(List<String> roots) {
        Set<String> out = new TreeSet<>();
        java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String m = todo.pop();
            if (!out.add(m)) continue;
            java.lang.module.ModuleFinder.ofSystem().find(m).ifPresent(ref -> ref.descriptor().requires().forEach(r -> todo.push(r.name())));
        }
        return out;
    }

    private static String jdeps(List<String> args) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("jdeps is not available: PackCheck needs a full JDK"));
        StringWriter out = new StringWriter(), err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
        if (rc != 0) throw new IllegalStateException("jdeps " + String.join(" ", args) + " failed (" + rc + "): " + err + out);
        return out.toString();
    }
}
