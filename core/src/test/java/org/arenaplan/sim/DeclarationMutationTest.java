package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.PerTensorExecutor;
import org.arenaplan.exec.PlannedExecutor;
import org.arenaplan.exec.RunResult;
import org.arenaplan.exec.WeightRegion;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.GreedySizePlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.Violation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plants each kind of wrong aliasing declaration into random graphs ({@link RandomGraphs}) and
 * counts who notices: the static checks (the registry's load check in {@link GraphBuilder#build},
 * liveness's refusal, and {@link PlanValidator} on a plan that honours the lie) must reject every
 * one; the simulator (a planned run compared with the truthful graph's reference run) catches
 * those whose damage reaches a graph output or trips its per-byte checks. Prints the counts.
 */
class DeclarationMutationTest {
    private static final int GRAPHS = 60;

    enum Mutation {
        /** An in-place hint on a MatMul, Transpose or Conv, granted by a liveness that trusted it. */
        IN_PLACE_ON_NON_IN_PLACE_KERNEL,
        /** A computing op's output declared a view of its input. */
        VIEW_ON_COMPUTING_OP,
        /** Member slices on a Concat whose outer extent is above 1. */
        MEMBERS_ON_NON_LEADING_AXIS,
        /** The second member slice moved to overlap the first. */
        OVERLAPPING_MEMBERS,
        /** Member slices swapped: each input declared where the other is written. */
        SWAPPED_MEMBERS,
        /** Split outputs declared views on a non-leading axis with an outer extent above 1. */
        SPLIT_VIEWS_ON_NON_LEADING_AXIS,
        /** A Slice view moved by half a row: inside its input, but not whole rows along the leading axis. */
        SLICE_VIEW_OFF_A_ROW
    }

    /** Per mutation: planted, rejected by the static checks, caught by the simulator. */
    private record Tally(int[] planted, int[] rejected, int[] caught) {
        Tally() {
            this(new int[Mutation.values().length], new int[Mutation.values().length], new int[Mutation.values().length]);
        }
    }

    @Test
    void everyPlantedDeclarationIsRejectedStatically() {
        Tally t = new Tally();
        for (int i = 0; i < GRAPHS; i++) {
            long seed = 11_000 + i;
            Graph g = RandomGraphs.generate(seed, 24, 1);
            for (Mutation m : Mutation.values()) plant(m, g, seed, t);
        }
        StringBuilder report = new StringBuilder("mutation                        planted  static  simulator\n");
        int planted = 0, rejected = 0, caught = 0;
        for (Mutation m : Mutation.values()) {
            int k = m.ordinal();
            report.append(String.format("%-31s %7d %7d %10d%n", m.name().toLowerCase(java.util.Locale.ROOT), t.planted[k], t.rejected[k], t.caught[k]));
            planted += t.planted[k];
            rejected += t.rejected[k];
            caught += t.caught[k];
            assertThat(t.planted[k]).as(m + " planted at least once").isGreaterThan(0);
        }
        report.append(String.format("%-31s %7d %7d %10d%n", "all", planted, rejected, caught));
        System.out.print(report);
        assertThat(rejected).as(report.toString()).isEqualTo(planted);
        assertThat(caught).isLessThanOrEqualTo(planted);
    }

    private static void plant(Mutation m, Graph g, long seed, Tally t) {
        for (int p = 0; p < g.opCount(); p++) {
            Op op = g.ops().get(p);
            Op lie = lie(m, g, op);
            if (lie == null) continue;
            int pos = p;
            Graph lying;
            try {
                lying = rebuild(g, (q, o) -> q == pos ? lie : o, true);
            } catch (GraphException e) {
                continue;   // structurally impossible here (e.g. the output is already a member slice): try another op
            }
            Plan plan;
            boolean loadRejects;
            boolean livenessRefuses = false;
            if (m == Mutation.IN_PLACE_ON_NON_IN_PLACE_KERNEL) {
                Graph believed = rebuild(g, (q, o) -> q == pos ? withKind(lie, "TrustedKernel") : o, true);
                Lifetimes l = Lifetimes.of(believed);
                if (!l.refusals().stream().filter(r -> r.op().equals(op.name())).toList().isEmpty()) continue;   // not foldable anyway
                Problem pr = ArenaPlanner.problemOf(l, 256);
                Placement s = new GreedySizePlanner().place(pr);
                plan = new Plan(lying, l, pr, s, ArenaPlanner.statsOf(l, pr, s, 0));
                loadRejects = false;
                livenessRefuses = Lifetimes.of(lying).refusals().stream().anyMatch(r -> r.op().equals(op.name()));
            } else {
                loadRejects = rejectsOnLoad(g, pos, lie);
                plan = ArenaPlanner.plan(lying);
            }
            List<Violation> v = PlanValidator.validate(plan);
            boolean validatorRejects = v.stream().anyMatch(x -> x.kind() == expected(m));
            int k = m.ordinal();
            t.planted[k]++;
            if (m == Mutation.IN_PLACE_ON_NON_IN_PLACE_KERNEL ? livenessRefuses && validatorRejects : loadRejects && validatorRejects) t.rejected[k]++;
            if (simulatorCatches(g, plan, seed)) t.caught[k]++;
            return;   // one plant per graph and mutation
        }
    }

    private static Violation.Kind expected(Mutation m) {
        return switch (m) {
            case IN_PLACE_ON_NON_IN_PLACE_KERNEL -> Violation.Kind.ILLEGAL_IN_PLACE;
            case VIEW_ON_COMPUTING_OP -> Violation.Kind.ILLEGAL_VIEW;
            case SPLIT_VIEWS_ON_NON_LEADING_AXIS, SLICE_VIEW_OFF_A_ROW -> Violation.Kind.ILLEGAL_VIEW;
            default -> Violation.Kind.ILLEGAL_MEMBER;
        };
    }

    /** The lying version of {@code op} for mutation {@code m}, or null when {@code op} cannot carry it. */
    private static Op lie(Mutation m, Graph g, Op op) {
        switch (m) {
            case IN_PLACE_ON_NON_IN_PLACE_KERNEL: {
                if (!List.of(OpKinds.MATMUL, OpKinds.TRANSPOSE, OpKinds.CONV).contains(op.kind())) return null;
                if (g.isWeight(op.inputs().get(0)) || g.isInput(op.inputs().get(0))) return null;
                if (g.tensor(op.inputs().get(0)).bytes() != g.tensor(op.outputs().get(0)).bytes()) return null;
                return with(op, List.of(), op.members(), List.of(new Op.InPlace(0, 0)));
            }
            case VIEW_ON_COMPUTING_OP: {
                if (!OpRegistry.knows(op.kind()) || OpRegistry.get(op.kind()).mayBeView() || op.kind().equals(OpKinds.CONCAT)) return null;
                if (g.tensor(op.inputs().get(0)).bytes() != g.tensor(op.outputs().get(0)).bytes()) return null;
                return with(op, List.of(new Op.View(0, 0, 0)), List.of(), List.of());
            }
            case MEMBERS_ON_NON_LEADING_AXIS: {
                if (!op.kind().equals(OpKinds.CONCAT) || !op.members().isEmpty() || g.tensor(op.outputs().get(0)).shape()[0] == 1) return null;
                if (!producedByComputingOps(g, op)) return null;
                return with(op, List.of(), tiled(g, op), List.of());
            }
            case OVERLAPPING_MEMBERS: {
                if (op.members().size() != 2) return null;
                Op.Member second = op.members().get(1);
                long first = g.tensor(op.inputs().get(0)).bytes();
                return with(op, List.of(), List.of(op.members().get(0), new Op.Member(second.input(), 0, first / 2)), List.of());
            }
            case SWAPPED_MEMBERS: {
                if (op.members().size() != 2) return null;
                long a = op.members().get(0).byteOffset(), b = op.members().get(1).byteOffset();
                return with(op, List.of(), List.of(new Op.Member(0, 0, b), new Op.Member(1, 0, a)), List.of());
            }
            case SPLIT_VIEWS_ON_NON_LEADING_AXIS: {
                if (!op.kind().equals(OpKinds.SPLIT) || !op.views().isEmpty() || g.tensor(op.inputs().get(0)).shape()[0] == 1) return null;
                List<Op.View> views = new ArrayList<>();
                long at = 0;
                for (int k = 0; k < op.outputs().size(); k++) {
                    views.add(new Op.View(k, 0, at));
                    at += g.tensor(op.outputs().get(k)).bytes();
                }
                return with(op, views, List.of(), List.of());
            }
            case SLICE_VIEW_OFF_A_ROW: {
                if (!op.kind().equals(OpKinds.SLICE) || op.views().size() != 1) return null;
                long[] xs = g.tensor(op.inputs().get(0)).shape();
                long row = g.tensor(op.inputs().get(0)).bytes() / xs[0], at = op.views().get(0).byteOffset();
                long moved = at >= row / 2 ? at - row / 2 : at + row / 2;
                if (row < 8 || moved + g.tensor(op.outputs().get(0)).bytes() > g.tensor(op.inputs().get(0)).bytes()) return null;
                return with(op, List.of(new Op.View(0, 0, moved)), List.of(), List.of());
            }
            default:
                throw new IllegalStateException(m.toString());
        }
    }

    private static boolean producedByComputingOps(Graph g, Op concat) {
        for (String in : concat.inputs()) {
            Op p = g.producer(in);
            if (p == null || g.isView(in) || g.isOutput(in)) return false;
        }
        return concat.inputs().stream().distinct().count() == concat.inputs().size();
    }

    /** Members at the summed byte sizes of the inputs before each: right for a leading axis only. */
    private static List<Op.Member> tiled(Graph g, Op op) {
        List<Op.Member> m = new ArrayList<>();
        long at = 0;
        for (int j = 0; j < op.inputs().size(); j++) {
            m.add(new Op.Member(j, 0, at));
            at += g.tensor(op.inputs().get(j)).bytes();
        }
        return m;
    }

    private static Op with(Op o, List<Op.View> views, List<Op.Member> members, List<Op.InPlace> inPlace) {
        return new Op(o.name(), o.kind(), o.inputs(), o.outputs(), o.stream(), o.attrs(), views, members, inPlace);
    }

    private static Op withKind(Op o, String kind) {
        return new Op(o.name(), kind, o.inputs(), o.outputs(), o.stream(), o.attrs(), o.views(), o.members(), o.inPlace());
    }

    /** Whether the registry's load check rejects the graph with the lie at {@code pos}. */
    private static boolean rejectsOnLoad(Graph g, int pos, Op lie) {
        try {
            rebuild(g, (q, o) -> q == pos ? lie : o, false);
            return false;
        } catch (GraphException e) {
            return e.getMessage().contains("op '" + lie.name() + "'");
        }
    }

    private static Graph rebuild(Graph g, BiFunction<Integer, Op, Op> edit, boolean trusting) {
        GraphBuilder b = new GraphBuilder(g.name());
        g.tensors().values().forEach(b::tensor);
        for (String in : g.inputs()) b.input(in, g.isDonated(in));
        for (String w : g.weights()) {
            if (g.weightFill(w) != null) b.weight(w, g.weightFill(w));
            else b.weight(w);
        }
        for (int p = 0; p < g.opCount(); p++) b.add(edit.apply(p, g.ops().get(p)));
        g.outputs().forEach(b::output);
        return trusting ? b.buildTrusting() : b.build();
    }

    /** A planned run of the lying plan: a hazard the device reports, a failure, or outputs unlike the truthful graph's. */
    private static boolean simulatorCatches(Graph truthful, Plan plan, long seed) {
        RunResult reference;
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT); WeightRegion w = new WeightRegion(d, truthful, seed);
             PerTensorExecutor e = new PerTensorExecutor(d, ArenaPlanner.plan(truthful), w)) {
            reference = e.run(Inputs.of(truthful, seed));
        }
        SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(seed));
        RunResult lying;
        try (d; WeightRegion w = new WeightRegion(d, plan.graph(), seed); PlannedExecutor e = new PlannedExecutor(d, plan, w)) {
            lying = e.run(Inputs.of(plan.graph(), seed));
        } catch (DeviceException | ExecutionException e) {
            return true;
        }
        return !d.hazards().isEmpty() || Executors.difference(reference, lying) != null;
    }
}
