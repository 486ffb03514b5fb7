package org.arenaplan.io;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlanJsonTest {

    /** A chain with views, a refused in-place hint (x is caller-owned) and one granted. */
    static Graph graph() {
        return new GraphBuilder("small")
                .tensor("x", DType.F32, 64).tensor("a", DType.F32, 64).tensor("v", DType.F32, 64)
                .tensor("b", DType.F32, 64).tensor("c", DType.F32, 64).tensor("y", DType.F32, 16)
                .input("x").output("y")
                .op("r0", "Relu").in("x").out("a").inPlace().add()
                .op("view", "Reshape").in("a").out("v").view().add()
                .op("r1", "Relu").in("v").out("b").inPlace().add()
                .op("r2", "Relu").in("b").out("c").add()
                .op("head", "Slice").in("c").out("y").view(0, 0, 0).add()
                .build();
    }

    @Test
    void roundTripGivesTheSameOffsetsAddressesStatsRefusalsAndEvents() {
        Plan p0 = ArenaPlanner.plan(graph());
        SyncPlan sync = new SyncPlan(List.of(new SyncEvent(0, 1, 3, SyncEvent.Reason.DATA, 0), new SyncEvent(1, 2, 4, SyncEvent.Reason.REUSE, 256)));
        Plan plan = new Plan(p0.graph(), p0.lifetimes(), p0.problem(), p0.placement(), p0.stats(), sync);
        assertThat(plan.refusals()).isNotEmpty();

        PlanJson.PlanDocument doc = PlanJson.parse(PlanJson.toString(plan), "plan.json");

        assertThat(doc.graph()).isEqualTo("small");
        assertThat(doc.alignment()).isEqualTo(256);
        assertThat(doc.arenaBytes()).isEqualTo(plan.arenaBytes());
        assertThat(doc.offsets()).containsExactly(plan.placement().offsets());
        for (String t : graph().tensors().keySet()) assertThat(doc.tensors().get(t).address()).as(t).isEqualTo(plan.addressOf(t));
        assertThat(doc.storages()).hasSize(plan.storages().size());
        assertThat(doc.storages().get(0).members()).isEqualTo(plan.storages().get(0).members());
        assertThat(doc.refusals()).isEqualTo(plan.refusals());
        assertThat(doc.events()).isEqualTo(sync.events());
        assertThat(doc.stats()).isEqualTo(plan.stats());
        assertThat(doc.provenOptimal()).isEqualTo(plan.placement().provenOptimal());
        assertThat(PlacementValidator.validate(doc.problem(), doc.offsets(), doc.arenaBytes(), null)).isEmpty();
    }

    /**
     * breaker21: a multi-stream plan's events name op positions, and which stream each op is
     * issued on was nowhere in the file: with {@code --streams N} the assignment is the planner's,
     * not the graph file's (here every op is on stream 0 in the graph), so the events could not be
     * applied from the file. The schedule now lists each op's stream.
     */
    @Test
    void aMultiStreamPlanRecordsTheStreamOfEveryOpItsEventsReferTo() {
        GraphBuilder b = new GraphBuilder("fork").tensor("x", DType.F32, 64).input("x").output("y");
        for (String br : List.of("a", "b", "c")) b.tensor(br, DType.F32, 64).op(br, "Relu").in("x").out(br).add();
        b.tensor("ab", DType.F32, 64).tensor("y", DType.F32, 64);
        b.op("join1", "Add").in("a", "b").out("ab").add();
        b.op("join2", "Add").in("ab", "c").out("y").add();
        Plan plan = org.arenaplan.plan.StreamPlanner.plan(b.build(), 3, org.arenaplan.hb.SyncMode.parse("none"), ArenaPlanner.Options.DEFAULT);
        List<Integer> assigned = plan.graph().ops().stream().map(o -> o.stream()).toList();
        assertThat(assigned).as("the assigner spread the branches").anyMatch(s -> s > 0);
        assertThat(plan.sync().events()).isNotEmpty();

        String json = PlanJson.toString(plan);
        PlanJson.PlanDocument doc = PlanJson.parse(json, "plan.json");
        assertThat(doc.streams()).isEqualTo(assigned);
        assertThat(doc.order()).hasSize(assigned.size());

        String streams = json.substring(json.indexOf("\"streams\" : ["));
        String list = streams.substring(0, streams.indexOf(']') + 1);
        assertThatThrownBy(() -> PlanJson.parse(json.replace(list, "\"streams\" : [ 0 ]"), "plan.json")).isInstanceOf(InputException.class)
                .hasMessage("plan.json: $.schedule.streams: has 1 entries, but $.schedule.order has " + assigned.size() + " ops");
        String negative = list.replaceFirst("\\[ \\d+", "[ -1");
        assertThatThrownBy(() -> PlanJson.parse(json.replace(list, negative), "plan.json"))
                .hasMessage("plan.json: $.schedule.streams[0]: must be a stream id, a whole number in [0, 2147483647], found -1");
        assertThat(PlanJson.parse(json.replace(",\n    " + list, ""), "plan.json").streams())
                .as("a file written before the field still reads").isEmpty();
    }

    @Test
    void aCsvProblemPlanRoundTrips() throws Exception {
        Problem problem = new Problem(new String[]{"a", "b", "c"}, new long[]{0, 1, 2}, new long[]{2, 3, 4}, new long[]{10, 20, 10}, 1);
        Placement placement = Planners.byName("greedy-size").place(problem);
        PlanStats stats = new PlanStats(placement.planner(), placement.arenaBytes(), problem.sumBytes(), problem.lowerBound(), 3, 3, 6, 1, 0.5);
        StringWriter w = new StringWriter();
        PlanJson.write(problem, placement, stats, w);

        PlanJson.PlanDocument doc = PlanJson.parse(w.toString(), "p.json");
        assertThat(doc.graph()).isNull();
        assertThat(doc.offsets()).containsExactly(placement.offsets());
        assertThat(doc.stats()).isEqualTo(stats);
        assertThat(doc.problem().lowerBound()).isEqualTo(problem.lowerBound());
        assertThat(doc.tensors().get("b").address()).isEqualTo(placement.offset(1));
    }

    @Test
    void aFileThatContradictsItselfIsRefusedNamingThePath() {
        String json = PlanJson.toString(ArenaPlanner.plan(graph()));
        String badAddress = json.replaceFirst("\"address\" : (\\d+)", "\"address\" : 7");
        assertThatThrownBy(() -> PlanJson.parse(badAddress, "plan.json")).isInstanceOf(InputException.class)
                .hasMessageStartingWith("plan.json: $.tensors.x.address: 7 is not the storage's offset plus offset_in_storage");
        String misaligned = json.replaceFirst("\"offset\" : (\\d+)", "\"offset\" : 3");
        assertThatThrownBy(() -> PlanJson.parse(misaligned, "plan.json")).hasMessage("plan.json: $.storages[0].offset: 3 is not a multiple of the alignment 256");
        String noStats = json.replace("\"stats\"", "\"statz\"");
        assertThatThrownBy(() -> PlanJson.parse(noStats, "plan.json")).hasMessageStartingWith("plan.json: $.statz: unknown field");
        assertThatThrownBy(() -> PlanJson.parse(json.replace("arenaplan-plan/1", "arenaplan-graph/1"), "plan.json"))
                .hasMessageContaining("$.format: unsupported format");
    }

    @Test
    void anUnknownStorageKindIsRefusedNamingThePathAndEveryWrittenKindReads() {
        String json = PlanJson.toString(ArenaPlanner.plan(graph()));
        assertThat(json).contains("\"kind\" : \"input\"");
        assertThatThrownBy(() -> PlanJson.parse(json.replaceFirst("\"kind\" : \"input\"", "\"kind\" : \"inptu\""), "plan.json"))
                .isInstanceOf(InputException.class)
                .hasMessage("plan.json: $.storages[0].kind: expected activation, aliased, output, input, donated-input, buffer, found 'inptu'");
        for (String kind : List.of("activation", "aliased", "output", "input", "donated-input", "buffer"))
            assertThat(PlanJson.parse(json.replaceFirst("\"kind\" : \"input\"", "\"kind\" : \"" + kind + "\""), "plan.json").storages().get(0).kind())
                    .isEqualTo(kind);
    }

    @Test
    void statsCarryTheRequiredFields() throws Exception {
        var root = JsonReading.MAPPER.readTree(PlanJson.toString(ArenaPlanner.plan(graph())));
        assertThat(root.get("format").asText()).isEqualTo("arenaplan-plan/1");
        for (String f : List.of("arena_bytes", "lower_bound_bytes", "sum_bytes", "storages", "planner", "planning_ms", "tensors",
                "alloc_calls_naive", "alloc_calls_planned", "ratio")) {
            assertThat(root.get("stats").has(f)).as(f).isTrue();
        }
    }

    /** The graph plan of {@link #graph()} with sync events and fixed stats (planning_ms varies from run to run). */
    private static Plan fixedGraphPlan() {
        Plan p0 = ArenaPlanner.plan(graph());
        SyncPlan sync = new SyncPlan(List.of(new SyncEvent(0, 1, 3, SyncEvent.Reason.DATA, 0), new SyncEvent(1, 2, 4, SyncEvent.Reason.REUSE, 256)));
        PlanStats s = p0.stats();
        PlanStats fixed = new PlanStats(s.planner(), s.arenaBytes(), s.sumBytes(), s.lowerBoundBytes(), s.storages(), s.tensors(),
                s.allocCallsNaive(), s.allocCallsPlanned(), 1.25);
        return new Plan(p0.graph(), p0.lifetimes(), p0.problem(), p0.placement(), fixed, sync);
    }

    private static String problemPlanJson() throws Exception {
        Problem problem = new Problem(new String[]{"a", "b", "c"}, new long[]{0, 1, 2}, new long[]{2, 3, 4}, new long[]{10, 20, 10}, 1);
        Placement placement = Planners.byName("greedy-size").place(problem);
        PlanStats stats = new PlanStats(placement.planner(), placement.arenaBytes(), problem.sumBytes(), problem.lowerBound(), 3, 3, 6, 1, 0.5);
        StringWriter w = new StringWriter();
        PlanJson.write(problem, placement, stats, w);
        return w.toString();
    }

    private static String resource(String name) throws Exception {
        try (var in = PlanJsonTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * The streamed file is byte for byte the one the former tree-based writer made (Jackson's default
     * pretty printer over the whole tree, then a newline): checked in as written by both when the
     * writer was switched, and re-derived here from the parsed tree.
     */
    @Test
    void theStreamedFileIsTheTreeWriterFileByteForByte() throws Exception {
        String graphPlan = PlanJson.toString(fixedGraphPlan());
        String problemPlan = problemPlanJson();
        assertThat(graphPlan).isEqualTo(resource("small-graph-plan.json"));
        assertThat(problemPlan).isEqualTo(resource("csv-problem-plan.json"));
        for (String json : List.of(graphPlan, problemPlan, PlanJson.toString(ArenaPlanner.plan(graph())))) {
            String tree = JsonReading.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(JsonReading.MAPPER.readTree(json)) + "\n";
            assertThat(json).isEqualTo(tree);
        }
    }

    /**
     * The reader streams, but a file with several faults gets the message the whole-tree reader
     * gave (checked side by side with it when the reader was switched, on 6,093 mutated plans):
     * a syntax error anywhere first, then format, unknown fields, alignment, arena, storages,
     * tensors, and so on, whatever their places in the file.
     */
    @Test
    void faultsAreReportedInTheFixedOrderWhereverTheyLieInTheFile() throws Exception {
        String t = resource("csv-problem-plan.json");
        String badId = t.replace("\"id\" : 1", "\"id\" : 5");
        String badAddress = t.replace("\"address\" : 0", "\"address\" : 3");
        assertThatThrownBy(() -> PlanJson.parse(badId, "p.json")).isInstanceOf(InputException.class)
                .hasMessage("p.json: $.storages[1].id: expected 1 (storages are listed in id order), found 5");
        assertThatThrownBy(() -> PlanJson.parse(badId + "}", "p.json"))
                .hasMessage("p.json:99:1: malformed JSON: Unexpected close marker '}': no open Object to close");
        assertThatThrownBy(() -> PlanJson.parse(badId.replace("\"events\"", "\"eventz\""), "p.json"))
                .hasMessageStartingWith("p.json: $.eventz: unknown field (expected one of alignment, arena_bytes, events,");
        assertThatThrownBy(() -> PlanJson.parse(badId.replace("\"format\" : \"arenaplan-plan/1\"", "\"format\" : 2"), "p.json"))
                .hasMessage("p.json: $.format: unsupported format 2; this build reads \"arenaplan-plan/1\"");
        assertThatThrownBy(() -> PlanJson.parse(badId.replace("\"address\" : 0", "\"address\" : 3"), "p.json"))
                .hasMessage("p.json: $.storages[1].id: expected 1 (storages are listed in id order), found 5");
        assertThatThrownBy(() -> PlanJson.parse(badAddress.replace("\"lower_bound_bytes\"", "\"lower_bound_bytez\""), "p.json"))
                .hasMessage("p.json: $.tensors.b.address: 3 is not the storage's offset plus offset_in_storage (0)");
        assertThatThrownBy(() -> PlanJson.parse(t + " 1", "p.json")).hasMessage("p.json:99:2: malformed JSON: more text after the end of the JSON document");
        assertThatThrownBy(() -> PlanJson.parse(" ", "p.json")).hasMessage("p.json: $: empty document");
        assertThatThrownBy(() -> PlanJson.parse("[1]", "p.json")).hasMessage("p.json: $: expected an object");
    }

    /**
     * A storage's members and the tensors are two views of one mapping (the writer writes the
     * tensors from the members); a file where they disagree, or a member lies outside its storage,
     * read as valid (review: {@code validate} said OK), though a tensor's own offset outside its
     * storage was refused.
     */
    @Test
    void membersThatContradictTheTensorsAreRefusedNamingThePath() throws Exception {
        String t = resource("csv-problem-plan.json");
        String bMember = "\"members\" : {\n      \"b\" : 0\n    }";
        assertThat(t).contains(bMember);
        assertThatThrownBy(() -> PlanJson.parse(t.replace(bMember, bMember.replace("\"b\" : 0", "\"b\" : 100")), "p.json")).isInstanceOf(InputException.class)
                .hasMessage("p.json: $.storages[1].members.b: 100 is outside the storage's 20 B");
        assertThatThrownBy(() -> PlanJson.parse(t.replace(bMember, bMember.replace("\"b\" : 0", "\"b\" : -1")), "p.json"))
                .hasMessage("p.json: $.storages[1].members.b: -1 is outside the storage's 20 B");
        assertThatThrownBy(() -> PlanJson.parse(t.replace(bMember, bMember.replace("\"b\" : 0", "\"b\" : 4")), "p.json"))
                .hasMessage("p.json: $.tensors.b.offset_in_storage: 0 differs from the offset 4 at which storage 1 lists it among its members");
        assertThatThrownBy(() -> PlanJson.parse(t.replace(bMember, bMember.replace("\"b\" : 0", "\"zz\" : 0")), "p.json"))
                .hasMessage("p.json: $.tensors.b.storage: storage 1 ('b') does not list 'b' among its members");
        assertThatThrownBy(() -> PlanJson.parse(t.replace(bMember, bMember.replace("\"b\" : 0", "\"b\" : 0,\n      \"b2\" : 0")), "p.json"))
                .hasMessage("p.json: $.storages[1].members.b2: has no entry in $.tensors (every member is an arena tensor with its address)");
        // a member listed by a second storage as well read as valid: the tensors put it in one (newcomer finding 2)
        assertThatThrownBy(() -> PlanJson.parse(t.replace(bMember, bMember.replace("\"b\" : 0", "\"b\" : 0,\n      \"a\" : 0")), "p.json"))
                .hasMessage("p.json: $.storages[1].members.a: $.tensors.a.storage puts it in storage 0 (a tensor lies in one storage)");
        String extra = t.replace("\"tensors\" : {", "\"tensors\" : {\n    \"z\" : {\n      \"storage\" : 0,\n      \"offset_in_storage\" : 0,\n      \"address\" : 20\n    },");
        assertThatThrownBy(() -> PlanJson.parse(extra, "p.json")).hasMessage("p.json: $.tensors.z.storage: storage 0 ('a') does not list 'z' among its members");
        // members listed in another order than the tensors still read
        String twoMembers = t.replace(bMember, "\"members\" : {\n      \"b1\" : 4,\n      \"b\" : 0\n    }")
                .replace("\"tensors\" : {", "\"tensors\" : {\n    \"b1\" : {\n      \"storage\" : 1,\n      \"offset_in_storage\" : 4,\n      \"address\" : 4\n    },");
        assertThat(PlanJson.parse(twoMembers, "p.json").tensors().get("b1").address()).isEqualTo(4);
    }

    /**
     * Two storages of one name: {@code validate} matches a plan's storages to the problem's rows by
     * name, so a second storage named 'b' (a copy of b, on b's bytes at b's time) went unseen and
     * the plan read as valid (newcomer finding 1).
     */
    @Test
    void twoStoragesOfOneNameAreRefusedNamingBoth() throws Exception {
        String t = resource("csv-problem-plan.json");
        assertThatThrownBy(() -> PlanJson.parse(t.replace("\"name\" : \"c\"", "\"name\" : \"a\""), "p.json")).isInstanceOf(InputException.class)
                .hasMessage("p.json: $.storages[2].name: 'a' names $.storages[0] too (a storage is named by its base tensor, "
                        + "or by its buffer's id in a CSV problem's plan: one storage per name)");
    }

    /** A hand-edited file may list the fields in any order: what a storage or tensor depends on may come after it. */
    @Test
    void fieldsInAnyOrderReadTheSame() throws Exception {
        String t = resource("csv-problem-plan.json");
        String storages = t.substring(t.indexOf("  \"storages\""), t.indexOf("  \"tensors\""));
        String tensors = t.substring(t.indexOf("  \"tensors\""), t.indexOf("  \"refusals\""));
        String alignment = "  \"alignment\" : 1,\n";
        PlanJson.PlanDocument inOrder = PlanJson.parse(t, "p.json");
        for (String moved : List.of(t.replace(storages, "").replace(tensors, tensors + storages),
                t.replace(alignment, "").replace(tensors, tensors + alignment))) {
            PlanJson.PlanDocument doc = PlanJson.parse(moved, "p.json");
            assertThat(doc.storages()).isEqualTo(inOrder.storages());
            assertThat(doc.tensors()).isEqualTo(inOrder.tensors());
            assertThat(doc.offsets()).containsExactly(inOrder.offsets());
            assertThat(doc.stats()).isEqualTo(inOrder.stats());
        }
        String lateAlignment = t.replace(alignment, "").replace(tensors, tensors + "  \"alignment\" : 4,\n");
        assertThatThrownBy(() -> PlanJson.parse(lateAlignment, "p.json"))
                .hasMessage("p.json: $.storages[0].aligned_bytes: 10 is not bytes 10 rounded up to the alignment 4 (12)");
    }

    /** 20,000 buffers read back into columns: every storage, member and tensor as written, tensors found by name. */
    @Test
    void aLargePlanReadsBackEntryForEntry() throws Exception {
        int n = 20_000;
        java.util.Random random = new java.util.Random(17);
        String[] ids = new String[n];
        long[] lo = new long[n], hi = new long[n], sz = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = "t" + i;
            lo[i] = random.nextInt(5_000);
            hi[i] = lo[i] + 1 + random.nextInt(50);
            sz[i] = 1 + random.nextInt(1 << 16);
        }
        Problem problem = new Problem(ids, lo, hi, sz, 64);
        Placement placement = Planners.byName("greedy-size").place(problem);
        PlanStats stats = new PlanStats(placement.planner(), placement.arenaBytes(), problem.sumBytes(), problem.lowerBound(), n, n, 2L * n, 1, 3.5);
        StringWriter w = new StringWriter();
        PlanJson.write(problem, placement, stats, w);

        PlanJson.PlanDocument doc = PlanJson.parse(w.toString(), "big.json");
        assertThat(doc.offsets()).containsExactly(placement.offsets());
        assertThat(doc.storages()).hasSize(n);
        assertThat(doc.tensors()).hasSize(n);
        for (int i = 0; i < n; i += 997) {
            PlanJson.StorageEntry s = doc.storages().get(i);
            assertThat(s).isEqualTo(new PlanJson.StorageEntry(i, ids[i], placement.offset(i), sz[i], lo[i], hi[i], "buffer", java.util.Map.of(ids[i], 0L)));
            assertThat(doc.tensors().get(ids[i])).isEqualTo(new PlanJson.TensorEntry(ids[i], i, 0, placement.offset(i)));
        }
        assertThat(doc.tensors()).doesNotContainKey("t" + n).containsKey("t0");
        assertThat(doc.tensors().keySet()).containsExactly(ids);
        assertThat(PlacementValidator.validate(doc.problem(), doc.offsets(), doc.arenaBytes(), null)).isEmpty();
    }
}
