package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's logic, run on the simulator (which has no clock, so device times are NaN: "-" in the table, null in JSON). */
class DeviceBenchTest {
    private static final DeviceBench.IterationTimer NO_CLOCK = DeviceBench.IterationTimer.NONE;

    private static Graph chain() {
        return new GraphBuilder("chain")
                .tensor("x", DType.F32, 8, 16).tensor("w", DType.F32, 16, 16)
                .tensor("a", DType.F32, 8, 16).tensor("b", DType.F32, 8, 16).tensor("c", DType.F32, 8, 16).tensor("y", DType.F32, 8, 16)
                .input("x").weight("w").output("y")
                .op("mm", OpKinds.MATMUL).in("x", "w").out("a").add()
                .op("relu", OpKinds.RELU).in("a").out("b").add()
                .op("tanh", OpKinds.TANH).in("b").out("c").add()
                .op("sm", OpKinds.SOFTMAX).in("c").out("y").add()
                .build();
    }

    @Test
    void reportsEveryModeSideBySideWithPlannedMakingNoAllocatorCalls(@TempDir Path dir) throws Exception {
        List<DeviceBench.Row> rows;
        try (SimDevice sim = SimDevice.open(DeviceOptions.DEFAULT)) {
            rows = DeviceBench.run(sim, NO_CLOCK, Map.of("chain", chain()), 1, 3, new PrintStream(new ByteArrayOutputStream()));
        }
        assertThat(rows).extracting(DeviceBench.Row::mode).containsExactly("planned", "per-tensor", "pool", "graph");
        DeviceBench.Row planned = rows.get(0), perTensor = rows.get(1), pool = rows.get(2);
        assertThat(planned.allocatorCalls()).isZero();
        assertThat(perTensor.allocatorCalls()).isPositive().isEven();
        assertThat(pool.allocatorCalls()).isPositive();
        assertThat(rows).allMatch(DeviceBench.Row::outputsEqualPlanned);
        assertThat(planned.peakBytes()).isGreaterThanOrEqualTo(planned.arenaBytes()).isPositive();
        assertThat(rows.get(3).allocatorCalls()).as("graph replay").isZero();
        for (DeviceBench.Row r : rows) {
            // the simulator's held-memory model: whole 2 MiB pages, never less than requested
            assertThat(r.heldBytes()).as(r.mode()).isGreaterThanOrEqualTo(r.peakBytes());
            assertThat(r.heldBytes() % (2L << 20)).as(r.mode()).isZero();
        }
        assertThat(planned.hostMillis()).isPositive();
        assertThat(planned.deviceMillis()).isNaN();

        ByteArrayOutputStream table = new ByteArrayOutputStream();
        DeviceBench.printTable(rows, new PrintStream(table, true, StandardCharsets.UTF_8));
        String printed = table.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("alloc/inf").contains("held bytes").contains("per-tensor").contains("graph").contains("1.00")
                .doesNotContain("NaN").endsWith("device ms -: this device has no clock (the simulator), so there is no device time; --json writes null there" + System.lineSeparator());
        String plannedLine = printed.lines().filter(l -> l.startsWith("chain") && l.contains("planned")).findFirst().orElseThrow();
        String[] cells = plannedLine.trim().split(" +");   // model, mode, host ms, x plan, device ms, x plan, ...
        assertThat(cells[4]).as("device ms: " + plannedLine).isEqualTo("-");
        assertThat(cells[5]).as("device x plan: " + plannedLine).isEqualTo("-");
        Path json = dir.resolve("bench.json");
        DeviceBench.writeJson(rows, json);
        assertThat(Files.readString(json)).contains("\"mode\" : \"pool\"").contains("\"outputs_equal_planned\" : true").contains("\"allocator_calls\" : 0")
                .contains("\"mode\" : \"graph\"").contains("\"held_bytes\" : ")
                .contains("\"device_millis\" : null").doesNotContain("NaN");
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile()).get(0).get("host_millis").isNumber()).isTrue();
    }
}
