package org.arenaplan.ir;

/** Issue 11's lying graphs, unbuilt: the load check ({@link GraphBuilder#build}) and the plan validator are both tested on them. */
public final class LyingGraphs {
    private LyingGraphs() { }

    /** Case 3: Concat members along axis 1 of a [2, 3, 4] output (outer extent 2): 'a' [2, 1, 4] at 0, 'b' [2, 2, 4] at 32. */
    public static GraphBuilder concatMembersOnAxis1() {
        GraphBuilder g = new GraphBuilder().tensor("a", DType.F32, 2, 1, 4).tensor("b", DType.F32, 2, 2, 4).tensor("y", DType.F32, 2, 3, 4)
                .tensor("x", DType.F32, 2, 1, 4).input("x");
        g.op("pa", OpKinds.RELU).in("x").out("a").add();
        g.op("pb", OpKinds.CONCAT).in("x", "x").out("b").attr("axis", 1L).add();
        g.op("cat", OpKinds.CONCAT).in("a", "b").out("y").attr("axis", 1L).member(0, 0, 0).member(1, 0, 32).add();
        return g.output("y");
    }

    /** Case 4: 'a' and 'b' (16 B each) declared at 0 and 8 of the 32-B Concat output 'y'. */
    public static GraphBuilder overlappingMembers() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 1, 4).tensor("a", DType.F32, 1, 4).tensor("b", DType.F32, 1, 4)
                .tensor("y", DType.F32, 2, 4).input("x");
        g.op("pa", OpKinds.RELU).in("x").out("a").add();
        g.op("pb", OpKinds.TANH).in("x").out("b").add();
        g.op("cat", OpKinds.CONCAT).in("a", "b").out("y").attr("axis", 0L).member(0, 0, 0).member(1, 0, 8).add();
        return g.output("y");
    }
}
