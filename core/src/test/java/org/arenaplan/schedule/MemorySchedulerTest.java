package org.arenaplan.schedule;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class MemorySchedulerTest {
    private static final long ALIGN = 256;
    private static final MemoryScheduler.Options MEMORY = MemoryScheduler.Options.DEFAULT.withMode(ScheduleMode.MEMORY).withTimeLimit(Duration.ofSeconds(20));

    /** Small graphs of three kinds: byte-only with views, slices, in-place and donation; executable with concats in place; irregular wiring. */
    private static List<Graph> smallGraphs(int count) {
        List<Graph> gs = new ArrayList<>();
        for (int s = 0; gs.size() < count; s++) {
            switch (s % 3) {
                case 0 -> gs.add(org.arenaplan.plan.RandomGraphs.generate(s));
                case 1 -> gs.add(org.arenaplan.sim.RandomGraphs.generate(s, 4 + s % 7, 1));
                default -> gs.add(IrregularGraphs.randWire(new IrregularGraphs.Spec(s % 2 == 0 ? "ws" : "er", 2 + s % 3, 2, 0.5, 4, 2, 1, s)));
            }
        }
        return gs;
    }

    @Test
    void theModelsPeakIsLifetimesLowerBoundForEveryOrderTried() {
        Random r = new Random(5);
        int checked = 0;
        for (Graph g : smallGraphs(240)) {
            Dependences d = Dependences.of(g);
            LiveModel m = new LiveModel(g, ALIGN);
            for (int k = 0; k < 12; k++) {
                int[] order = k == 0 ? Reorder.identity(g.opCount()) : TopologicalOrders.random(d, r);
                assertThat(m.peakOf(order)).as(g.name() + " order " + java.util.Arrays.toString(order))
                        .isEqualTo(MemoryScheduler.lowerBound(Reorder.of(g, order), ALIGN));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(240 * 12);
    }

    /**
     * Two outputs of one op hinted in place over the same input: Lifetimes grants the first and
     * refuses the second (the outputs would share bytes), and the model must replay that refusal
     * too, or its peak drops below Lifetimes's lower bound.
     */
    @Test
    void theModelRefusesASecondInPlaceGrantOfOneOpOverTheSameInput() {
        org.arenaplan.ir.GraphBuilder b = new org.arenaplan.ir.GraphBuilder("two-outputs");
        b.tensor("x", 1024).tensor("a", 1024).tensor("o1", 1024).tensor("o2", 1024).tensor("y", 256).input("x");
        b.op("make_a", "K").in("x").out("a").add();
        b.op("two", "custom.Two").in("a").out("o1", "o2").inPlace(0, 0).inPlace(1, 0).add();
        b.op("late", "K").in("o2").out("y").add();
        Graph g = b.output("y").build();
        assertThat(new LiveModel(g, ALIGN).peakOf(Reorder.identity(g.opCount()))).isEqualTo(MemoryScheduler.lowerBound(g, ALIGN)).isEqualTo(3 * 1024);
    }

    @Test
    void theExactSchedulerMatchesBruteForceOverEveryOrder() {
        int compared = 0, improved = 0;
        for (Graph g : smallGraphs(450)) {
            List<int[]> orders = TopologicalOrders.all(Dependences.of(g), 1_500);
            if (orders == null) continue;
            long brute = Long.MAX_VALUE;
            for (int[] o : orders) brute = Math.min(brute, MemoryScheduler.lowerBound(Reorder.of(g, o), ALIGN));
            Schedule s = MemoryScheduler.schedule(g, MEMORY);
            assertThat(s.provenOptimal()).as(g.name()).isTrue();
            assertThat(s.lowerBound()).as(g.name()).isEqualTo(brute);
            assertThat(MemoryScheduler.lowerBound(s.graph(), ALIGN)).isEqualTo(s.lowerBound());
            compared++;
            if (brute < s.fileLowerBound()) improved++;
        }
        assertThat(compared).as("graphs small enough to enumerate").isGreaterThanOrEqualTo(300);
        assertThat(improved).as("graphs where the file order is not optimal").isGreaterThan(20);
    }

    @Test
    void theHeuristicIsNeverWorseThanTheFileOrder() {
        MemoryScheduler.Options heuristic = MEMORY.withMaxExactStates(50).withTimeLimit(Duration.ofMillis(200));
        for (int s = 0; s < 40; s++) {
            Graph g = s % 2 == 0 ? org.arenaplan.sim.RandomGraphs.generate(s, 120, 1)
                    : IrregularGraphs.randWire(new IrregularGraphs.Spec("ws", 24, 4, 0.75, 16, 8, 1, s));
            Schedule sc = MemoryScheduler.schedule(g, heuristic);
            assertThat(sc.lowerBound()).as(g.name()).isLessThanOrEqualTo(sc.fileLowerBound());
            assertThat(sc.method()).isIn("file", "heuristic");
            assertThat(MemoryScheduler.lowerBound(sc.graph(), ALIGN)).isEqualTo(sc.lowerBound());
            assertThat(PlanValidator.validate(ArenaPlanner.plan(sc.graph()))).isEmpty();
        }
    }

    @Test
    void theMemoryOrderLowersTheBoundOfIrregularGraphs() {
        int lower = 0;
        for (int s = 0; s < 6; s++) {
            Graph g = IrregularGraphs.randWire(new IrregularGraphs.Spec("ws", 16, 4, 0.75, 16, 8, 1, s));
            Schedule sc = MemoryScheduler.schedule(g, MEMORY.withTimeLimit(Duration.ofSeconds(2)));
            if (sc.lowerBound() < sc.fileLowerBound()) lower++;
        }
        assertThat(lower).isGreaterThan(0);
    }

    @Test
    void reorderedRunsGiveTheFileOrdersOutputsBitForBit() {
        List<Graph> graphs = new ArrayList<>();
        for (int s = 0; s < 12; s++) graphs.add(org.arenaplan.sim.RandomGraphs.generate(100 + s, 30, 1));
        for (int s = 0; s < 4; s++) graphs.add(IrregularGraphs.randWire(new IrregularGraphs.Spec("er", 8, 2, 0.4, 4, 4, 1, s)));
        int reordered = 0;
        for (Graph g : graphs) {
            Schedule sc = MemoryScheduler.schedule(g, MEMORY.withTimeLimit(Duration.ofSeconds(1)));
            if (sc.graph() == g) continue;
            reordered++;
            try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(3).withMaxDelayNanos(50_000))) {
                Executors.Comparison file = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, Inputs.of(g, 3), 5);
                Executors.Comparison mem = Executors.run(ArenaPlanner.plan(sc.graph()), d, List.of(Mode.values()), 1, Inputs.of(g, 3), 5);
                assertThat(mem.outputsEqual()).as(g.name() + ": " + mem.firstDifference()).isTrue();
                assertThat(Executors.difference(file.last(Mode.PLANNED), mem.last(Mode.PLANNED))).as(g.name()).isNull();
                assertThat(d.hazards()).as(g.name()).isEmpty();
            }
        }
        assertThat(reordered).isGreaterThan(3);
    }

    @Test
    void severalStreamsKeepEachStreamsOrder() {
        Graph g = org.arenaplan.sim.RandomGraphs.generate(9, 40, 3);
        Schedule sc = MemoryScheduler.schedule(g, MEMORY.withTimeLimit(Duration.ofSeconds(1)));
        for (int stream : g.streams()) {
            List<String> before = new ArrayList<>(), after = new ArrayList<>();
            g.ops().stream().filter(o -> o.stream() == stream).forEach(o -> before.add(o.name()));
            sc.graph().ops().stream().filter(o -> o.stream() == stream).forEach(o -> after.add(o.name()));
            assertThat(after).isEqualTo(before);
        }
    }
}
