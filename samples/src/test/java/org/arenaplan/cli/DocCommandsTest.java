package org.arenaplan.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command the docs print runs as written and prints what the docs show, so a doc cannot
 * rot. Commands are the lines of fenced blocks in README.md and docs/*.md that start with
 * {@code $ ./arenaplan} (the lines after one, up to the next {@code $} line or the fence, are
 * its output) or with {@code ./arenaplan} and hold no synopsis placeholder ({@code [ ( | ...}),
 * and the commands written inline in prose ({@link #inline}).
 *
 * <p>Each runs in-process through {@link ArenaplanCli#commandLine()}, in doc order, so a
 * later command can read a file an earlier one wrote. Paths: {@code ../shared/...} and files of
 * the repository resolve against the repository root; the values of {@code --out},
 * {@code --svg}, {@code --html}, {@code --json} and {@code --output}, and any file an earlier
 * command wrote, go to a temporary folder. The exit code must be 0, or N when the line's
 * comment starts {@code # exit N}. Every shown output line must appear in what the command printed
 * (stdout and stderr), with runs of spaces collapsed, every decimal number (times, ratios)
 * matching any decimal number, and {@code …} matching anything.
 *
 * <p>Skipped, each with its reason: commands that read ../shared when it is absent, output
 * shown from a machine without a GPU when this one has CUDA, and the expensive ones ({@link #EXPENSIVE}: long searches and benchmarks measured for the README).
 */
class DocCommandsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> OUTPUT_FLAGS = Set.of("--out", "--svg", "--html", "--json", "--output");
    /** Commands a CI run should not repeat: they take minutes (each was run by hand for the docs). */
    private static final List<Pattern> EXPENSIVE = List.of(
            Pattern.compile("^bench search"),
            Pattern.compile("^bench( models)? --device cuda"),
            Pattern.compile("--time-limit (?:[2-9]\\d|\\d{3,})"),
            Pattern.compile("--graphs \\d{4,}"));
    private static final Pattern PLACEHOLDER = Pattern.compile("[\\[(|]|\\.\\.\\.|…|NAME|FILE|GRAPH|PROBLEM|MODEL\\.onnx");

    @TempDir
    static Path work;

    /** One documented command: where it is, its words, its exit code and its shown output. */
    record Example(String where, String line, List<String> args, int exit, List<String> shown) { }

    @TestFactory
    Stream<DynamicTest> everyDocumentedCommandRuns() throws IOException {
        Assumptions.assumeTrue(Files.exists(ROOT.resolve("README.md")), "README.md is not beside this module");
        List<Example> examples = new ArrayList<>();
        for (Path doc : docs()) examples.addAll(examples(doc));
        assertThat(examples).as("documented commands").hasSizeGreaterThan(10);
        return examples.stream().map(e -> DynamicTest.dynamicTest(e.where() + ": " + e.line(), () -> check(e)));
    }

    private static void check(Example e) {
        String joined = String.join(" ", e.args());
        for (Pattern p : EXPENSIVE)
            Assumptions.assumeFalse(p.matcher(joined).find(), "expensive (minutes), run by hand for the docs: " + joined);
        for (String a : e.args())
            if (a.startsWith("../shared/")) Assumptions.assumeTrue(Files.exists(ROOT.resolve(a)), a + " is absent (../shared beside the repository)");
        boolean showsNoGpu = e.shown().stream().anyMatch(l -> l.contains("cuda unavailable") || l.contains("cuda driver:   not loaded"));
        Assumptions.assumeFalse(showsNoGpu && org.arenaplan.cuda.Cuda.isAvailable(), "the docs show a machine without a GPU; this one has CUDA");
        String[] resolved = resolve(e.args());
        Cli r = Cli.run(resolved);
        assertThat(r.code()).as(e.where() + " " + e.line() + "\n" + r).isEqualTo(e.exit());
        String all = r.out() + "\n" + r.err();
        for (int i = 0; i < resolved.length; i++) all = all.replace(resolved[i], e.args().get(i));   // paths as the docs spell them
        List<String> printed = new ArrayList<>();
        for (String l : all.split("\n")) printed.add(squeeze(l));
        for (String shown : e.shown()) {
            if (shown.isBlank() || shown.strip().equals("…")) continue;
            Pattern want = pattern(shown);
            assertThat(printed.stream().anyMatch(l -> want.matcher(l).matches()))
                    .as(e.where() + ": '" + e.line() + "' should print\n  " + shown + "\nbut printed\n" + r)
                    .isTrue();
        }
    }

    /** The shown line as a regex: spaces collapsed, decimals and … as wildcards. */
    static Pattern pattern(String shown) {
        String s = squeeze(shown);
        StringBuilder re = new StringBuilder();
        Matcher m = Pattern.compile("\\d[\\d,]*\\.\\d+|…").matcher(s);
        int at = 0;
        while (m.find()) {
            re.append(Pattern.quote(s.substring(at, m.start())));
            re.append(m.group().equals("…") ? ".*" : "[\\d,]+\\.\\d+");
            at = m.end();
        }
        re.append(Pattern.quote(s.substring(at)));
        return Pattern.compile(re.toString());
    }

    private static String squeeze(String l) {
        return l.strip().replaceAll("\\s+", " ");
    }

    private static String[] resolve(List<String> args) {
        String[] out = new String[args.size()];
        for (int i = 0; i < out.length; i++) {
            String a = args.get(i);
            boolean isOutput = i > 0 && OUTPUT_FLAGS.contains(args.get(i - 1)) && !a.equals("-");
            if (isOutput || Files.exists(work.resolve(a))) out[i] = work.resolve(a).toString();
            else if (!a.startsWith("-") && a.contains(".") && Files.exists(ROOT.resolve(a))) out[i] = ROOT.resolve(a).normalize().toString();
            else out[i] = a;
        }
        return out;
    }

    /** A fenced block right after {@code <!-- file: PATH -->} shows PATH (from the repository root) exactly. */
    @TestFactory
    Stream<DynamicTest> everyShownFileIsTheCommittedOne() throws IOException {
        Assumptions.assumeTrue(Files.exists(ROOT.resolve("README.md")), "README.md is not beside this module");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path doc : docs()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i + 1 < lines.size(); i++) {
                Matcher m = SHOWN_FILE.matcher(lines.get(i).strip());
                if (!m.matches()) continue;
                int open = i + 1, close = open + 1;
                while (close < lines.size() && !lines.get(close).strip().startsWith("```")) close++;
                String shown = String.join("\n", lines.subList(open + 1, close)) + "\n";
                Path file = ROOT.resolve(m.group(1));
                String where = ROOT.relativize(doc) + ":" + (i + 1);
                tests.add(DynamicTest.dynamicTest(where + " shows " + m.group(1), () -> {
                    assertThat(lines.get(open).strip()).as(where + ": a fenced block follows the marker").startsWith("```");
                    assertThat(Files.readString(file)).as(where + " shows " + file).isEqualTo(shown);
                }));
            }
        }
        assertThat(tests).as("file markers in the docs").isNotEmpty();
        return tests.stream();
    }

    private static final Pattern SHOWN_FILE = Pattern.compile("<!-- file: (\\S+) -->");

    static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** The commands of one markdown file, in order. */
    static List<Example> examples(Path doc) throws IOException {
        List<String> lines = Files.readAllLines(doc);
        String name = ROOT.relativize(doc.toAbsolutePath().normalize()).toString();
        List<Example> out = new ArrayList<>();
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) {
                out.addAll(inline(name, i + 1, l));
                continue;
            }
            boolean dollar = l.startsWith("$ ./arenaplan ");
            if (!dollar && !l.startsWith("./arenaplan ")) continue;
            String command = l.substring(l.indexOf("./arenaplan ") + "./arenaplan ".length());
            int exit = 0;
            int hash = command.indexOf(" #");
            if (hash >= 0) {
                Matcher m = Pattern.compile("#\\s*exit (\\d+)").matcher(command.substring(hash));
                if (m.find()) exit = Integer.parseInt(m.group(1));
                command = command.substring(0, hash).strip();
            }
            if (!dollar && PLACEHOLDER.matcher(command).find()) continue;   // a synopsis, not a command
            List<String> shown = new ArrayList<>();
            if (dollar) {
                for (int j = i + 1; j < lines.size(); j++) {
                    String o = lines.get(j);
                    if (o.strip().startsWith("```") || o.startsWith("$ ")) break;
                    shown.add(o);
                }
            }
            out.add(new Example(name + ":" + (i + 1), command, List.of(command.split("\\s+")), exit, shown));
        }
        return out;
    }

    /**
     * The commands written inline in prose ({@code `./arenaplan …`}), except synopses (a
     * placeholder such as {@code M.onnx}, {@code N} or {@code none|add}): each must exit 0, or 3
     * where it names {@code --device cuda} and this machine has no CUDA (the documented exit).
     */
    static List<Example> inline(String doc, int lineNo, String line) {
        List<Example> out = new ArrayList<>();
        Matcher m = INLINE.matcher(line);
        while (m.find()) {
            String command = m.group(1).strip();
            List<String> args = List.of(command.split("\\s+"));
            if (PLACEHOLDER.matcher(command).find() || args.stream().anyMatch(a -> INLINE_PLACEHOLDER.matcher(a).matches())) continue;
            int exit = args.contains("cuda") && !org.arenaplan.cuda.Cuda.isAvailable() ? 3 : 0;
            out.add(new Example(doc + ":" + lineNo + " (inline)", command, args, exit, List.of()));
        }
        return out;
    }

    private static final Pattern INLINE = Pattern.compile("`\\./arenaplan ([^`]+)`");
    /** A word that stands for a value the reader picks: {@code N}, {@code M}, {@code F.csv}, {@code M.onnx}. */
    private static final Pattern INLINE_PLACEHOLDER = Pattern.compile("[A-Z]{1,2}(\\.[a-z]+)?");
}
