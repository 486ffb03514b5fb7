package org.arenaplan.cli;

import org.arenaplan.io.GraphJson;
import org.arenaplan.io.PlanJson;
import org.arenaplan.io.ProblemCsv;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.models.BuiltinModels;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Planner;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PlanCommandTest {
    @TempDir
    Path dir;

    /** x is caller-owned, so the in-place hint of r0 is refused; r1's is granted. */
    static Graph graph() {
        return new GraphBuilder("small")
                .tensor("x", DType.F32, 256).tensor("a", DType.F32, 256).tensor("b", DType.F32, 256)
                .tensor("c", DType.F32, 256).tensor("y", DType.F32, 256)
                .input("x").output("y")
                .op("r0", "Relu").in("x").out("a").inPlace().add()
                .op("r1", "Relu").in("a").out("b").inPlace().add()
                .op("r2", "Relu").in("b").out("c").add()
                .op("r3", "Relu").in("c").out("y").add()
                .build();
    }

    private Path graphFile() throws Exception {
        Path f = dir.resolve("small.json");
        GraphJson.write(graph(), f);
        return f;
    }

    private Path csv(String name, String body) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, body);
        return f;
    }

    private static final String THREE = "id,lower,upper,size\na,0,2,4\nb,1,3,4\nc,2,4,4\n";

    @Test
    void plansAModelAndPrintsTheTable() {
        Cli r = Cli.run("plan", "--model", "chain");
        assertThat(r.code()).as(r.toString()).isZero();
        Plan expected = ArenaPlanner.plan(BuiltinModels.build("chain", Map.of()));
        assertThat(r.out()).contains("plan of model chain by best")
                .contains(String.format("%,d B", expected.stats().lowerBoundBytes()))
                .contains(String.format("%,d B", expected.stats().sumBytes()))
                .contains("arena / LB").contains("alloc calls / run  naive " + expected.stats().allocCallsNaive() + ", planned 1")
                .contains("planning").contains("alignment 256");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void modelOptionsReachTheModel() {
        long sum32 = ArenaPlanner.plan(BuiltinModels.build("chain", Map.of())).stats().sumBytes();
        Cli f32 = Cli.run("plan", "--model", "chain");
        Cli f16 = Cli.run("plan", "--model", "chain", "--dtype", "f16", "--planner", "naive");
        assertThat(f16.code()).as(f16.toString()).isZero();
        assertThat(f16.out()).contains("{dtype=f16}").contains("by naive").contains(String.format("%,d B", sum32 / 2));
        assertThat(f32.out()).contains(String.format("%,d B", sum32));
    }

    @Test
    void severalStreamsPrintThePriceOfConcurrencyAndTheEvents() throws Exception {
        Path out = dir.resolve("streams.json");
        Cli none = Cli.run("plan", "--model", "inception", "--streams", "4", "--out", out.toString());
        assertThat(none.code()).as(none.toString()).isZero();
        assertThat(none.out()).contains("price of concurrency: 4 streams").contains("events, data deps").contains(", DATA");
        Cli add = Cli.run("plan", "--model", "inception", "--streams", "4", "--sync", "add");
        assertThat(add.code()).as(add.toString()).isZero();
        assertThat(add.out()).contains(", REUSE, saves ");
        assertThat(java.nio.file.Files.readString(out)).contains("\"events\"").contains("\"wait_before\"");
    }

    @Test
    void streamFlagsAreCheckedAsUsage() throws Exception {
        Path problem = csv("p.csv", THREE);
        badInput(Cli.run("plan", "--model", "chain", "--streams", "0"), "--streams must be at least 1");
        badInput(Cli.run("plan", "--model", "chain", "--sync", "sometimes"), "--sync sometimes");
        badInput(Cli.run("plan", problem.toString(), "--streams", "2"), "need a graph");
    }

    @Test
    void printsEveryRefusalWithItsReason() throws Exception {
        Cli r = Cli.run("plan", graphFile().toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("refused            1 request")
                .contains("in-place refused: op 'r0' writing 'a' over 'x': 'x' is a caller-owned graph input (not donated)");
    }

    @Test
    void writesAPlanJsonThatReadsBackToTheSameOffsets() throws Exception {
        Path out = dir.resolve("plan.json");
        Cli r = Cli.run("plan", graphFile().toString(), "--planner", "greedy-size", "--align", "512", "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("wrote " + out);
        Plan expected = ArenaPlanner.plan(graph(), ArenaPlanner.Options.DEFAULT.withPlanner("greedy-size").withAlignment(512));
        PlanJson.PlanDocument doc = PlanJson.read(out);
        assertThat(doc.alignment()).isEqualTo(512);
        assertThat(doc.offsets()).containsExactly(expected.placement().offsets());
        assertThat(doc.refusals()).isEqualTo(expected.refusals());
        assertThat(doc.stats().planner()).isEqualTo("greedy-size");
    }

    @Test
    void aGraphPlanAsCsvIsASolutionThatValidates() throws Exception {
        Path out = dir.resolve("sol.csv");
        assertThat(Cli.run("plan", graphFile().toString(), "--out", out.toString()).code()).isZero();
        Path problem = dir.resolve("problem.csv");
        Files.writeString(problem, String.join("\n", Files.readAllLines(out).stream().map(l -> l.substring(0, l.lastIndexOf(','))).toList()) + "\n");
        Cli v = Cli.run("validate", problem.toString(), out.toString(), "--align", "256");
        assertThat(v.code()).as(v.toString()).isZero();
    }

    @Test
    void plansACsvProblemWithAlignmentOne() throws Exception {
        Path out = dir.resolve("s.csv");
        Cli r = Cli.run("plan", csv("p.csv", THREE).toString(), "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("alignment 1").contains("storages           3").contains("arena              8 B");
        ProblemCsv.Parsed s = ProblemCsv.readSolution(out, 1);
        assertThat(s.offsets()).hasSize(3);
        Path json = dir.resolve("s.json");
        assertThat(Cli.run("plan", csv("p.csv", THREE).toString(), "--out", json.toString()).code()).isZero();
        assertThat(PlanJson.read(json).arenaBytes()).isEqualTo(8);
    }

    /**
     * breaker20: a problem's columns besides id,lower,upper,size were dropped from the written
     * solution. They are kept as written, before the new offset (an old offset column is replaced),
     * and the solution still validates against the problem.
     */
    @Test
    void aCsvProblemsOtherColumnsAreKeptInTheWrittenSolution() throws Exception {
        Path problem = csv("notes.csv", "id,kind,lower,upper,size,offset\na,weight,0,2,4,99\nb, act ,1,3,4,99\n");
        Path out = dir.resolve("notes.solution.csv");
        Cli r = Cli.run("plan", problem.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        java.util.List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("id,lower,upper,size,kind,offset");
        assertThat(lines.get(1)).startsWith("a,0,2,4,weight,").doesNotEndWith(",99");
        assertThat(lines.get(2)).startsWith("b,1,3,4, act ,");
        Cli v = Cli.run("validate", problem.toString(), out.toString());
        assertThat(v.code()).as(v.toString()).isZero();
    }

    @Test
    void exitsThreeWhenNoPlacementFitsTheCapacity() throws Exception {
        Path out = dir.resolve("s.csv");
        Cli r = Cli.run("plan", csv("p.csv", THREE).toString(), "--capacity", "7", "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.err()).contains("no placement within the capacity of 7 B");
        assertThat(out).doesNotExist();
        assertThat(Cli.run("plan", csv("p.csv", THREE).toString(), "--capacity", "8").code()).isZero();
    }

    /** best's greedy orders reach 10 B here; a packing in 9 B, the lower bound, exists. */
    private static final String TIGHT = "id,lower,upper,size\nb0,5,8,4\nb1,0,2,3\nb2,4,8,5\nb3,1,4,2\nb4,0,5,3\nb5,3,4,2\nb6,2,3,4\n";

    /**
     * TIGHT, then 2,000 one-byte buffers each alone in time after it: more buffers than best's
     * exact last step takes (core's ExactFinish.MAX_BUFFERS), which reaches 9 B on TIGHT alone.
     */
    private static final String TIGHT_PADDED = TIGHT + java.util.stream.IntStream.range(0, 2_000)
            .mapToObj(k -> "p" + k + "," + (10 + k) + "," + (11 + k) + ",1\n").collect(java.util.stream.Collectors.joining());

    @Test
    void aHeuristicThatMissesTheCapacityHandsOverToSearch() throws Exception {
        Path problem = csv("tight.csv", TIGHT_PADDED);
        assertThat(Planners.byName("best").place(ProblemCsv.read(problem, 1)).arenaBytes())
                .as("this test needs an instance where best misses the lower bound; pick another if best improved").isEqualTo(10);
        Path out = dir.resolve("s.csv");
        Cli r = Cli.run("plan", problem.toString(), "--capacity", "9", "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("by search").contains("capacity           9 B  (fits)");
        assertThat(r.err()).contains("best(greedy-size)'s arena of 10 B misses the capacity of 9 B; trying --planner search (--time-limit 10.0 s)")
                .contains("search: arena 9 B, within the capacity");
        Cli check = Cli.run("validate", problem.toString(), out.toString(), "--capacity", "9");
        assertThat(check.code()).as(check.toString()).isZero();
        Cli naive = Cli.run("plan", problem.toString(), "--capacity", "9", "--planner", "naive");
        assertThat(naive.code()).as(naive.toString()).isZero();
        assertThat(naive.err()).contains("naive's arena of 2,023 B misses the capacity of 9 B");
        Cli roomy = Cli.run("plan", problem.toString(), "--capacity", "10");
        assertThat(roomy.err()).as("best fits: no search").doesNotContain("search");
    }

    @Test
    void aGraphPlannedOnSeveralStreamsTriesSearchOnceAtMostAndOnlyForTheFinalPlan() {
        // Planning on several streams places many problems on the way (one per attempt of --sync add);
        // only the final plan's arena is held against the capacity, so no search is tried here.
        Cli r = Cli.run("plan", "--model", "inception", "--streams", "4", "--capacity", "602112");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).doesNotContain("trying");
    }

    @Test
    void theSearchTriedIsBoundedByTheTimeLimit() throws Exception {
        Cli r = Cli.run("plan", csv("tight.csv", TIGHT).toString(), "--capacity", "9", "--time-limit", "0.0001");
        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.err()).contains(", still over the capacity").contains("no placement within the capacity of 9 B");
    }

    @Test
    void noSearchIsTriedWhenTheLowerBoundExceedsTheCapacity() throws Exception {
        Cli r = Cli.run("plan", csv("tight.csv", TIGHT).toString(), "--capacity", "8");
        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.err()).contains("none exists: no placement is smaller than the lower bound of 9 B").doesNotContain("trying");
    }

    @Test
    void theCapacityMayComeFromTheFileName() throws Exception {
        assertThat(Cli.run("plan", csv("tight.7.csv", THREE).toString()).code()).isEqualTo(3);
        Cli ok = Cli.run("plan", csv("roomy.8.csv", THREE).toString());
        assertThat(ok.code()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("capacity           8 B  (fits)");
    }

    @Test
    void graphCapacityIsCheckedToo() {
        assertThat(Cli.run("plan", "--model", "chain", "--capacity", "1000").code()).isEqualTo(3);
        assertThat(Cli.run("plan", "--model", "chain", "--capacity", String.valueOf(1L << 40), "--time-limit", "0.5").code()).isZero();
    }

    @Test
    void capacityAndTimeLimitReachThePlanner() throws Exception {
        List<PlannerOptions> seen = new ArrayList<>();
        Planners.register("test-probe", o -> {
            seen.add(o);
            return Planners.byName("naive", o);
        });
        Cli r = Cli.run("plan", csv("p.csv", THREE).toString(), "--planner", "test-probe", "--capacity", "100", "--time-limit", "2.5");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).capacity()).isEqualTo(100L);
        assertThat(seen.get(0).timeLimit()).isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void aPlannerThatGivesUpMeansExitThree() throws Exception {
        Planners.register("test-gives-up", o -> new Planner() {
            @Override
            public String name() {
                return "test-gives-up";
            }

            @Override
            public Placement place(Problem p) {
                throw new PlanningException("no placement within " + o.capacity() + " bytes");
            }
        });
        Cli r = Cli.run("plan", csv("p.csv", THREE).toString(), "--planner", "test-gives-up", "--capacity", "7");
        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        assertThat(r.err()).contains("test-gives-up found no placement: no placement within 7 bytes");
    }

    @Test
    void anInvalidPlacementIsAnInternalErrorNotAFile() throws Exception {
        Planners.register("test-overlaps", o -> new Planner() {
            @Override
            public String name() {
                return "test-overlaps";
            }

            @Override
            public Placement place(Problem p) {
                return Placement.of(p, new long[p.size()], name());
            }
        });
        Path out = dir.resolve("s.csv");
        Cli r = Cli.run("plan", csv("p.csv", THREE).toString(), "--planner", "test-overlaps", "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("test-overlaps produced an invalid plan").contains("OVERLAP");
        assertThat(out).doesNotExist();
    }

    @Test
    void writesPictures() throws Exception {
        Path svg = dir.resolve("p.svg");
        Path html = dir.resolve("p.html");
        Cli r = Cli.run("plan", "--model", "chain", "--svg", svg.toString(), "--html", html.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(Files.readString(svg)).contains("<svg");
        assertThat(Files.readString(html)).contains("<svg").containsIgnoringCase("<html");
    }

    // ---- bad input: one line, exit 2 ----

    private static void badInput(Cli r, String... fragments) {
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).as(r.toString()).startsWith("arenaplan: ").doesNotContain("\tat ").doesNotContain("Exception");
        for (String f : fragments) assertThat(r.err()).as(r.toString()).contains(f);
    }

    @Test
    void malformedCsvNamesFileLineAndField() throws Exception {
        badInput(Cli.run("plan", csv("m.csv", "id,lower,size\na,0,4\n").toString()), "m.csv:1: missing column 'upper'");
        badInput(Cli.run("plan", csv("n.csv", "id,lower,upper,size\na,0,x,4\n").toString()), "n.csv:2: field 'upper' is not a whole number: 'x'");
        badInput(Cli.run("plan", csv("s.csv", "id,lower,upper,size\na,0,1,4\nb,0,1,-4\n").toString()), "s.csv:3: field 'size' is negative");
        badInput(Cli.run("plan", csv("u.csv", "id,lower,upper,size\na,3,3,4\n").toString()), "u.csv:2: field 'upper' (3) must exceed 'lower' (3)");
        badInput(Cli.run("plan", csv("d.csv", "id,lower,upper,size\na,0,1,4\na,1,2,4\n").toString()), "d.csv:3: duplicate id 'a'");
        badInput(Cli.run("plan", csv("two.csv", "id,lower,upper,size,size\na,0,1,4,8\n").toString()), "two.csv:1: column 'size' appears twice");
        badInput(Cli.run("plan", csv("arabic.csv", "id,lower,upper,size\na,0,1,\u0664\n").toString()), "arabic.csv:2: field 'size' is not a whole number");
        badInput(Cli.run("plan", csv("dot.csv", "id,lower,upper,size\na,0,1,4.5\n").toString()), "dot.csv:2: field 'size' is not a whole number: '4.5' (digits 0-9, an optional sign)");
        Cli plus = Cli.run("plan", csv("plus.csv", "id,lower,upper,size\na,0,1,+4\n").toString());   // the documented optional sign
        assertThat(plus.code()).as(plus.toString()).isZero();
        badInput(Cli.run("plan", csv("big.csv", "id,lower,upper,size\na,0,1,99999999999999999999\n").toString()), "big.csv:2: field 'size' does not fit in 64 bits");
    }

    @Test
    void sizesSummingPast2To63AreBadInputNamingFileAndField() throws Exception {
        String max = String.valueOf(Long.MAX_VALUE);
        badInput(Cli.run("plan", csv("o.csv", "id,lower,upper,size\na,0,1," + max + "\nb,0,1," + max + "\n").toString()),
                "o.csv: field 'size': buffer 'b'", "sum past 2^63-1");
        badInput(Cli.run("plan", csv("q.csv", "id,lower,upper,size\na,0,1," + max + "\n").toString(), "--align", "256"),
                "q.csv: field 'size': buffer 'a'", "overflows when aligned to 256");
        badInput(Cli.run("plan", csv("r.99999999999999999999.csv", THREE).toString()), "does not fit in 64 bits");
    }

    @Test
    void aGraphWhoseSizeOverflowsOnceAlignedIsBadInputNamingTheFile() throws Exception {
        Path g = dir.resolve("huge.json");
        Files.writeString(g, "{\"format\":\"arenaplan-graph/1\",\"tensors\":[{\"name\":\"x\",\"bytes\":" + Long.MAX_VALUE + "},"
                + "{\"name\":\"y\",\"bytes\":0}],\"inputs\":[{\"name\":\"x\"}],\"outputs\":[\"y\"],"
                + "\"ops\":[{\"name\":\"c\",\"kind\":\"Copy\",\"inputs\":[\"x\"],\"outputs\":[\"y\"]}]}");
        badInput(Cli.run("plan", g.toString()), "huge.json: buffer 'x': size " + Long.MAX_VALUE + " overflows when aligned to 256");
    }

    @Test
    void textThatIsNotUtf8IsBadInputSayingSo() throws Exception {
        Path f = dir.resolve("latin1.csv");
        Files.write(f, "id,lower,upper,size\nb\u00e9,0,1,4\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        badInput(Cli.run("plan", f.toString()), "cannot read " + f, "not UTF-8 text");
    }

    @Test
    void aByteOrderMarkBeforeAGraphOrPlanIsSkipped() throws Exception {
        Path g = dir.resolve("bom.json");
        Files.writeString(g, "\uFEFF" + GraphJson.toString(graph()));
        Path plan = dir.resolve("plan.json");
        Cli r = Cli.run("plan", g.toString(), "--out", plan.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        Files.writeString(plan, "\uFEFF" + Files.readString(plan));
        assertThat(PlanJson.read(plan).storages()).isNotEmpty();
    }

    @Test
    void aByteOrderMarkBeforeTheHeaderIsSkipped() throws Exception {
        Cli r = Cli.run("plan", csv("bom.csv", "\uFEFF" + THREE).toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("arena              8 B");
    }

    @Test
    void malformedGraphJsonNamesFileAndPath() throws Exception {
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\": \"arenaplan-graph/1\",\n \"tensors\": [}");
        badInput(Cli.run("plan", broken.toString()), "broken.json:2:", "malformed JSON");
        Path typo = dir.resolve("typo.json");
        Files.writeString(typo, GraphJson.toString(graph()).replace("\"inputs\" : [ \"x\" ]", "\"inputs\" : [ 3 ]"));
        badInput(Cli.run("plan", typo.toString()), "typo.json: $.ops[0].inputs[0]: expected a string");
        Path cyclic = dir.resolve("order.json");
        Files.writeString(cyclic, GraphJson.toString(graph()).replace("\"inputs\" : [ \"a\" ]", "\"inputs\" : [ \"c\" ]"));
        badInput(Cli.run("plan", cyclic.toString()), "order.json: op 'r1'", "before it is written");
    }

    @Test
    void unknownPlannerModelOrOptionIsBadInput() throws Exception {
        badInput(Cli.run("plan", "--model", "chain", "--planner", "magic"), "unknown planner 'magic'", "best");
        badInput(Cli.run("plan", "--model", "nosuch"), "unknown model 'nosuch'");
        badInput(Cli.run("plan", "--model", "chain", "--layers", "3"), "--layers");
        badInput(Cli.run("plan", csv("p.csv", THREE).toString(), "--planer", "best"), "unknown option '--planer'");
        badInput(Cli.run("plan"), "missing input");
        badInput(Cli.run("plan", dir.resolve("g.txt").toString()), "cannot tell the type");
        badInput(Cli.run("plan", dir.resolve("none.json").toString()), "cannot read", "none.json", "no such file");
        badInput(Cli.run("plan", csv("p.csv", THREE).toString(), "--align", "0"), "--align must be a power of two");
        badInput(Cli.run("plan", csv("p.csv", THREE).toString(), "--align", "many"), "--align");
        badInput(Cli.run("nosuchcommand"), "nosuchcommand");
    }

    @Test
    void aMalformedOnnxFileIsBadInputNamingTheFile() throws Exception {
        Path model = dir.resolve("m.onnx");
        Files.write(model, new byte[]{8, 7});
        badInput(Cli.run("plan", model.toString()), "m.onnx");
        badInput(Cli.run("plan", "--model", "chain", "--dim", "batch=2"), "--dim applies to ONNX models only");
        badInput(Cli.run("plan", "--model", "chain", "--dim", "batch=2,4"), "--dim applies to ONNX models only");
    }

    @Test
    void unwritableOutputsAreBadInput() throws Exception {
        Path p = csv("p.csv", THREE);
        badInput(Cli.run("plan", p.toString(), "--out", dir.resolve("no/such/dir/s.csv").toString()), "--out", "does not exist");
        badInput(Cli.run("plan", p.toString(), "--out", dir.resolve("s.txt").toString()), "must end in .json");
        badInput(Cli.run("plan", p.toString(), "--out", dir.toString() + "/"), "--out");
        badInput(Cli.run("plan", p.toString(), "--svg", dir.resolve("no/dir/p.svg").toString()), "--svg", "does not exist");
    }

    /** docs/pictures.md promises pictures of every input, CSV problems included. */
    @Test
    void aCsvProblemGetsPictures() throws Exception {
        Path p = csv("p.csv", THREE);
        Cli r = Cli.run("plan", p.toString(), "--svg", dir.resolve("p.svg").toString(), "--html", dir.resolve("p.html").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(Files.readString(dir.resolve("p.svg"))).startsWith("<svg").contains("id=\"peak\"");
        assertThat(Files.readString(dir.resolve("p.html"))).contains("Why the peak is what it is", "3 buffers");
        assertThat(r.out()).contains("peak: time ", "buffer(s) = the lower bound");
    }

    @Test
    void debugAddsTheStackTrace() throws Exception {
        Cli r = Cli.run("plan", csv("n.csv", "id,lower,upper,size\na,0,x,4\n").toString(), "--debug");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("n.csv:2: field 'upper'").contains("InputException").contains("\tat ");
    }

    @Test
    void anArenaAboveTheLowerBoundIsCalledOptimalOnlyWhenProvenAndNotAsEqualToIt() {
        // search proves an arena above the lower bound optimal where conflicts of several streams
        // make the bytes live at once unreachable: the note must not say "arena = lower bound".
        org.arenaplan.plan.PlanStats above = new org.arenaplan.plan.PlanStats("search", 3, 4, 1, 3, 3, 6, 1, 0.5);
        assertThat(SummaryTable.optimalNote(above, true)).isEqualTo("  (optimal: every smaller arena proven infeasible)");
        assertThat(SummaryTable.optimalNote(above, false)).isEmpty();
        org.arenaplan.plan.PlanStats at = new org.arenaplan.plan.PlanStats("best", 1, 4, 1, 3, 3, 6, 1, 0.5);
        assertThat(SummaryTable.optimalNote(at, false)).isEqualTo("  (optimal: arena = lower bound)");
    }

    /**
     * bert_base's arena is 2,056 B above its lower bound of 15.7 GB: four decimals print 1.0000,
     * which read as optimal beside the rows that are (breaker).
     */
    @Test
    void anArenaJustAboveTheLowerBoundSaysByHowMuchWhereTheRatioPrintsAsOne() {
        org.arenaplan.plan.PlanStats bert = new org.arenaplan.plan.PlanStats("best(greedy-breadth)", 15_734_936_745L, 40_000_000_000L, 15_734_934_689L, 3, 3, 6, 1, 0.5);
        assertThat(String.format(java.util.Locale.ROOT, "%.4f", bert.ratio())).isEqualTo("1.0000");
        assertThat(SummaryTable.optimalNote(bert, false)).isEqualTo("  (2,056 B above the lower bound; not proven optimal)");
        assertThat(SummaryTable.optimalNote(bert, true)).isEqualTo("  (optimal: every smaller arena proven infeasible)");
        org.arenaplan.plan.PlanStats far = new org.arenaplan.plan.PlanStats("naive", 2, 4, 1, 3, 3, 6, 1, 0.5);
        assertThat(SummaryTable.optimalNote(far, false)).isEmpty();   // 2.0000 says it
    }

    /**
     * The table's "optimal: arena = lower bound" and the plan JSON's {@code proven_optimal} say the
     * same: on 4 streams with --sync none the arena meets the plan's lower bound (live bytes plus
     * the storages no event orders) and the table said optimal while the JSON said
     * {@code "proven_optimal": false} (breaker).
     */
    @Test
    void theJsonSaysOptimalWhereTheTableDoes() throws Exception {
        Path json = dir.resolve("inception.json");
        Cli r = Cli.run("plan", "--model", "inception", "--streams", "4", "--sync", "none", "--out", json.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        var stats = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile()).get("stats");
        boolean tableSaysOptimal = r.out().contains("(optimal: ");
        assertThat(stats.get("arena_bytes").asLong()).as("the case this test is about").isEqualTo(stats.get("lower_bound_bytes").asLong());
        assertThat(tableSaysOptimal).isTrue();
        assertThat(stats.get("proven_optimal").asBoolean()).isEqualTo(tableSaysOptimal);
        assertThat(PlanJson.read(json).provenOptimal()).isTrue();
    }

    /**
     * With --sync none the plan's lower bound holds the storages no event orders, which --sync add
     * may order: "none exists" was said of a capacity that --sync add then met (breaker).
     */
    @Test
    void aCapacityBelowTheSyncNoneBoundIsNotCalledImpossibleWhereSyncAddMayMeetIt() {
        Cli none = Cli.run("plan", "--model", "inception", "--streams", "4", "--sync", "none", "--capacity", "602112");
        assertThat(none.code()).as(none.toString()).isEqualTo(3);
        assertThat(none.err()).contains("arenaplan: no placement within the capacity of 602112 B was found by best(greedy-size) (arena 677376 B); "
                + "none exists with --sync none: its lower bound of 677376 B holds 75264 B of storages that no event orders against the peak; --sync add may order them; nothing written");
        Cli add = Cli.run("plan", "--model", "inception", "--streams", "4", "--capacity", "602112");
        assertThat(add.code()).as(add.toString()).isZero();
    }

    /**
     * A storage named " y" beside one named "y": plan --out FILE.csv wrote both, and reading the
     * file back (validate) dropped the spaces and refused it as a duplicate id 'y' (breaker).
     */
    @Test
    void aSolutionCsvIsRefusedForANameItWouldNotReadBackAsWritten() throws Exception {
        Path g = dir.resolve("sp.json");
        Files.writeString(g, "{\"format\":\"arenaplan-graph/1\",\"name\":\"g\",\"tensors\":[{\"name\":\"x\",\"bytes\":1024},"
                + "{\"name\":\" y\",\"bytes\":1024},{\"name\":\"y\",\"bytes\":1024}],\"inputs\":[{\"name\":\"x\"}],\"outputs\":[\"y\"],"
                + "\"ops\":[{\"name\":\"o\",\"kind\":\"Relu\",\"inputs\":[\"x\"],\"outputs\":[\" y\"]},"
                + "{\"name\":\"p\",\"kind\":\"Relu\",\"inputs\":[\" y\"],\"outputs\":[\"y\"]}]}");
        Path out = dir.resolve("sp.csv");
        Cli r = Cli.run("plan", g.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("arenaplan: --out " + out + ": the name of storage ' y' has spaces or tabs around it, which the CSV reader drops "
                + "(it would read back as 'y'); use --out FILE.json (see 'arenaplan plan --help')\n");
        assertThat(out).doesNotExist();
        assertThat(Cli.run("plan", g.toString(), "--out", dir.resolve("sp.json.out.json").toString()).code()).isZero();
    }
}
