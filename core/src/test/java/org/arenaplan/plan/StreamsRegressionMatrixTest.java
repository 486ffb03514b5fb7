package org.arenaplan.plan;

import org.arenaplan.hb.StreamAssigner;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.liveness.Storage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 4's regression matrix. Each case states what a correct plan must satisfy, passes with
 * the real guard, and fails with a deliberately weakened one ({@link WeakGuards}).
 */
class StreamsRegressionMatrixTest {
    private static final long K = 1024;

    /** The case's failures for a plan: validator violations plus the case's own expectations. */
    private static List<String> problems(Plan plan, Function<Plan, List<String>> expectations) {
        List<String> out = new ArrayList<>();
        for (Violation v : PlanValidator.validate(plan)) out.add(v.toString());
        out.addAll(ByteOracle.unordered(plan));
        out.addAll(expectations.apply(plan));
        return out;
    }

    private static void holdsOnlyWithTheRealGuard(Graph g, Function<Plan, List<String>> expectations, WeakGuards... weakened) {
        assertThat(problems(WeakGuards.REAL.plan(g), expectations)).as("%s with the real guard", g.name()).isEmpty();
        for (WeakGuards w : weakened) {
            assertThat(problems(w.plan(g), expectations)).as("%s must fail with the %s guard", g.name(), w).isNotEmpty();
        }
    }

    private static long[] storageBytes(Plan p, String tensor) {
        int s = p.lifetimes().storageOf(tensor);
        return new long[]{p.storageOffset(s), p.storageOffset(s) + p.problem().alignedSize(s)};
    }

    private static boolean shareBytes(Plan p, String a, String b) {
        long[] x = storageBytes(p, a), y = storageBytes(p, b);
        return x[0] < y[1] && y[0] < x[1];
    }

    private static List<String> distinct(Plan p, String a, String b) {
        return shareBytes(p, a, b) ? List.of("'" + a + "' and '" + b + "' share bytes") : List.of();
    }

    private static Storage storage(Plan p, String t) {
        return p.storages().get(p.lifetimes().storageOf(t));
    }

    // 1. One-level and multilevel views: the final readers decide the storage's lifetime.

    static Graph viewChain(int readerStream) {
        return new GraphBuilder(readerStream == 0 ? "views-one-stream" : "views-two-streams")
                .tensor("x", K).input("x").tensor("A", K).tensor("R", K).tensor("B", K / 2).tensor("C", K / 2).tensor("D", K / 2)
                .tensor("V", K).tensor("W", K).tensor("E", K).tensor("U", K / 2)
                .op("a", "Relu").in("x").out("A").add()
                .op("r", "Relu").in("A").out("R").add()
                .op("b", "Slice").in("A").out("B").view(0, 0, 0).add()
                .op("c", "Reshape").in("B").out("C").view().add()
                .op("d", "Reshape").in("C").out("D").view().add()
                .op("u", "Relu").in("D").out("U").stream(readerStream).add()
                .op("e", "Relu").in("x").out("E").add()
                .output("R").output("E").output("U").build();
    }

    @Test
    void case1ViewsOneAndMultiLevelFinalReadersDecideTheLifetime() {
        Graph multi = new GraphBuilder("views-single-stream-late-reader")
                .tensor("x", K).input("x").tensor("A", K).tensor("R", K).tensor("V", K).tensor("B", K / 2).tensor("C", K / 2).tensor("D", K / 2)
                .tensor("E", K).tensor("U", K / 2).tensor("U1", K)
                .op("a", "Relu").in("x").out("A").add()
                .op("r", "Relu").in("A").out("R").add()
                .op("v", "Reshape").in("A").out("V").view().add()
                .op("b", "Slice").in("A").out("B").view(0, 0, 0).add()
                .op("c", "Reshape").in("B").out("C").view().add()
                .op("d", "Reshape").in("C").out("D").view().add()
                .op("e", "Relu").in("x").out("E").add()
                .op("u1", "Relu").in("V").out("U1").add()
                .op("u", "Relu").in("D").out("U").add()
                .output("R").output("E").output("U").output("U1").build();
        holdsOnlyWithTheRealGuard(multi, p -> {
            List<String> out = new ArrayList<>(distinct(p, "A", "E"));
            if (storage(p, "D").end() != 9) out.add("storage of D ends at " + storage(p, "D").end() + ", not after its last reader u (8)");
            return out;
        }, WeakGuards.DIRECT_USERS_ONLY);

        Graph twoStreams = viewChain(1);
        holdsOnlyWithTheRealGuard(twoStreams, p -> distinct(p, "A", "E"), WeakGuards.POSITIONS_ONLY);
        List<Violation> caught = PlanValidator.validate(WeakGuards.POSITIONS_ONLY.plan(twoStreams));
        assertThat(caught).extracting(Violation::kind).contains(Violation.Kind.UNORDERED_REUSE);
        assertThat(caught.toString()).contains("UNORDERED_REUSE: storage A (read by u on stream 1 through views B, C, D) overwritten by e on stream 0");
        assertThat(caught.toString()).contains("no event orders u before e");
    }

    // 2. Two cross-stream branches.

    @Test
    void case2CrossStreamBranchesGetDistinctStorageAndEachBranchsViewsShareItsAddress() {
        GraphBuilder b = new GraphBuilder("two-branches").tensor("x", K).input("x").tensor("P", K).op("p", "Relu").in("x").out("P").add();
        for (int br = 1; br <= 2; br++) {
            int s = br - 1;
            b.tensor("B" + br, K).tensor("V" + br, K).tensor("C" + br, K / 4)
                    .op("b" + br, "Relu").in("P").out("B" + br).stream(s).add()
                    .op("v" + br, "Reshape").in("B" + br).out("V" + br).view().stream(s).add()
                    .op("c" + br, "Relu").in("V" + br).out("C" + br).stream(s).add();
        }
        Graph g = b.tensor("J", K / 4).op("j", "Add").in("C1", "C2").out("J").add().output("J").build();
        holdsOnlyWithTheRealGuard(g, p -> {
            List<String> out = new ArrayList<>(distinct(p, "B1", "B2"));
            if (p.addressOf("V1") != p.addressOf("B1") || p.addressOf("V2") != p.addressOf("B2")) out.add("a branch's view is not at its base's address");
            return out;
        }, WeakGuards.POSITIONS_ONLY);
    }

    // 3. Serial reads and writes on one stream: reuse is allowed.

    @Test
    void case3SerialWorkOnOneStreamReusesBytes() {
        GraphBuilder one = new GraphBuilder("serial-one-stream").tensor("x", K).input("x");
        GraphBuilder two = new GraphBuilder("serial-chain-per-stream").tensor("x", K).input("x");
        for (int i = 1; i <= 6; i++) {
            one.tensor("t" + i, K).op("o" + i, "Relu").in(i == 1 ? "x" : "t" + (i - 1)).out("t" + i).add();
            two.tensor("a" + i, K).op("a" + i, "Relu").in(i == 1 ? "x" : "a" + (i - 1)).out("a" + i).stream(0).add();
            two.tensor("b" + i, K).op("b" + i, "Relu").in(i == 1 ? "x" : "b" + (i - 1)).out("b" + i).stream(1).add();
        }
        Graph g1 = one.output("t6").build();
        Graph g2 = two.output("a6").output("b6").build();
        holdsOnlyWithTheRealGuard(g1, p -> p.arenaBytes() == p.stats().lowerBoundBytes() ? List.of()
                : List.of("arena " + p.arenaBytes() + " above the lower bound " + p.stats().lowerBoundBytes()), WeakGuards.NO_REUSE);
        holdsOnlyWithTheRealGuard(g2, p -> {
            List<String> out = new ArrayList<>();
            if (!shareBytes(p, "a1", "a3") && !shareBytes(p, "a1", "a4")) out.add("stream 0's chain reuses nothing");
            if (!shareBytes(p, "b1", "b3") && !shareBytes(p, "b1", "b4")) out.add("stream 1's chain reuses nothing");
            return out;
        }, WeakGuards.NO_REUSE);
    }

    // 4. Several alias members of one allocation: readers of every member count.

    @Test
    void case4ReadersOfEveryMemberSliceCount() {
        Graph g = new GraphBuilder("concat-members")
                .tensor("x", K).input("x").tensor("M1", K / 2).tensor("M2", K / 2).tensor("Kc", K).tensor("S", K).tensor("Q", K / 2).tensor("E", K)
                .op("m1", "Relu").in("x").out("M1").stream(0).add()
                .op("m2", "Relu").in("x").out("M2").stream(1).add()
                .op("k", "Concat").in("M1", "M2").out("Kc").member(0, 0, 0).member(1, 0, K / 2).stream(0).add()
                .op("s", "Relu").in("Kc").out("S").stream(0).add()
                .op("q", "Relu").in("M1").out("Q").stream(1).add()
                .op("e", "Relu").in("x").out("E").stream(0).add()
                .output("S").output("Q").output("E").build();
        holdsOnlyWithTheRealGuard(g, p -> distinct(p, "Kc", "E"), WeakGuards.POSITIONS_ONLY, WeakGuards.DIRECT_USERS_ONLY);
        Graph late = new GraphBuilder("concat-member-read-late")
                .tensor("x", K).input("x").tensor("M1", K / 2).tensor("M2", K / 2).tensor("Kc", K).tensor("S", K).tensor("Q", K / 2).tensor("E", K)
                .op("m1", "Relu").in("x").out("M1").add()
                .op("m2", "Relu").in("x").out("M2").add()
                .op("k", "Concat").in("M1", "M2").out("Kc").member(0, 0, 0).member(1, 0, K / 2).add()
                .op("s", "Relu").in("Kc").out("S").add()
                .op("e", "Relu").in("x").out("E").add()
                .op("q", "Relu").in("M1").out("Q").add()
                .output("S").output("Q").output("E").build();
        holdsOnlyWithTheRealGuard(late, p -> distinct(p, "Kc", "E"), WeakGuards.DIRECT_USERS_ONLY);
    }

    // 5. Unknown op kinds and return boundaries: kept live conservatively.

    @Test
    void case5UnknownKindsReadEverythingAndViewsThatEscapePinTheirStorage() {
        Graph unknown = new GraphBuilder("unknown-kind")
                .tensor("x", K).input("x").tensor("A", K).tensor("V", K).tensor("R", K).tensor("E", K).tensor("U", K)
                .op("a", "Relu").in("x").out("A").add()
                .op("v", "Reshape").in("A").out("V").view().add()
                .op("r", "Relu").in("A").out("R").add()
                .op("e", "Relu").in("x").out("E").stream(1).add()
                .op("u", "MyFusedKernel").in("V", "x").out("U").add()
                .output("R").output("E").output("U").build();
        holdsOnlyWithTheRealGuard(unknown, p -> {
            List<String> out = new ArrayList<>(distinct(p, "A", "E"));
            if (storage(p, "A").end() != 5) out.add("the unknown op u does not keep A live");
            return out;
        }, WeakGuards.DIRECT_USERS_ONLY);

        Graph escape = new GraphBuilder("escaping-view")
                .tensor("x", K).input("x").tensor("A", K).tensor("O", K).tensor("R", K).tensor("E", K)
                .op("a", "Relu").in("x").out("A").add()
                .op("o", "Flatten").in("A").out("O").view().add()
                .op("r", "Relu").in("A").out("R").add()
                .op("e", "Relu").in("x").out("E").add()
                .output("O").output("R").output("E").build();
        holdsOnlyWithTheRealGuard(escape, p -> {
            List<String> out = new ArrayList<>(distinct(p, "A", "E"));
            if (storage(p, "A").end() != escape.opCount()) out.add("A is not pinned to the end by its escaping view O");
            return out;
        }, WeakGuards.DIRECT_USERS_ONLY);
    }

    // 6. Branch joins and long chains: traversal terminates, planning stays linear.

    static Graph deepViewChain(int depth) {
        GraphBuilder b = new GraphBuilder("view-chain-" + depth).tensor("x", K).input("x").tensor("A", K)
                .op("a", "Relu").in("x").out("A").add();
        String prev = "A";
        for (int i = 1; i <= depth; i++) {
            b.tensor("v" + i, K).op("v" + i, "Reshape").in(prev).out("v" + i).view().add();
            prev = "v" + i;
        }
        return b.tensor("E", K).tensor("U", K).tensor("J", K)
                .op("e", "Relu").in("x").out("E").stream(1).add()
                .op("u", "Relu").in(prev).out("U").add()
                .op("j", "Add").in("U", "E").out("J").add()
                .output("J").build();
    }

    @Test
    void case6ATenThousandDeepViewChainAndManyJoinsPlan() {
        Graph chain = deepViewChain(10_000);
        long t0 = System.nanoTime();
        Plan plan = WeakGuards.REAL.plan(chain);
        long t1 = System.nanoTime();
        WeakGuards.REAL.plan(deepViewChain(20_000));
        long t2 = System.nanoTime();
        System.out.printf("view chain planning: 10,000 deep %.1f ms, 20,000 deep %.1f ms%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6);
        assertThat(storage(plan, "v10000").end()).as("the chain's storage lives until u reads its last view").isEqualTo(chain.opCount() - 1);
        holdsOnlyWithTheRealGuard(chain, p -> distinct(p, "A", "E"), WeakGuards.DIRECT_USERS_ONLY);

        Graph joins = StreamAssigner.assign(org.arenaplan.hb.StreamGraphsForTests.inceptionLike(3, 6), 4);
        holdsOnlyWithTheRealGuard(joins, p -> List.of(), WeakGuards.POSITIONS_ONLY);
    }
}
