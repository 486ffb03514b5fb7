package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a node's optional outputs become ir outputs: trailing absent ones left off, earlier absent ones computed under a stand-in name. */
class OptionalOutputsTest {
    private static final List<OptionalOutputs.Slot> THREE = List.of(new OptionalOutputs.Slot(DType.F32, new long[]{5, 1, 2, 3}),
            new OptionalOutputs.Slot(DType.F32, new long[]{1, 2, 3}), new OptionalOutputs.Slot(DType.F32, new long[]{1, 2, 3}));

    private static NodeContext node(String... outputs) {
        OnnxModel.Node n = new OnnxModel.Node("lstm", "LSTM", "", List.of("X"), List.of(outputs), Map.of());
        return new NodeContext("m.onnx", n, 0, 14, List.of(), name -> null);
    }

    private static List<String> names(List<Value> vs) {
        return vs.stream().map(Value::name).toList();
    }

    @Test
    void trailingAbsentOutputsAreLeftOffAndEarlierOnesKeptUnnamed() {
        assertThat(names(OptionalOutputs.of(node("Y"), 0, THREE))).containsExactly("Y");
        assertThat(names(OptionalOutputs.of(node("Y", "", ""), 0, THREE))).containsExactly("Y");
        assertThat(names(OptionalOutputs.of(node("", "Y_h"), 0, THREE))).containsExactly("", "Y_h");
        List<Value> all = OptionalOutputs.of(node("Y", "", "Y_c"), 0, THREE);
        assertThat(names(all)).containsExactly("Y", "", "Y_c");
        assertThat(all.get(0).shape()).containsExactly(5, 1, 2, 3);
    }

    @Test
    void aNodeWithNoOutputOrTooManyOrAnUnnamedRequiredOneIsRefusedByName() {
        assertThatThrownBy(() -> OptionalOutputs.of(node("", ""), 0, THREE)).hasMessageContaining("node 'lstm'").hasMessageContaining("has no output");
        assertThatThrownBy(() -> OptionalOutputs.of(node("a", "b", "c", "d"), 0, THREE)).hasMessageContaining("has 4 outputs; LSTM has at most 3");
        assertThatThrownBy(() -> OptionalOutputs.of(node("", "b"), 1, THREE)).hasMessageContaining("output #0 is required");
    }

    @Test
    void aStandInNameTakesNoNameTheFileUses() {
        assertThat(OptionalOutputs.standIn("lstm", 0, Set.of("X"))).isEqualTo("lstm#0");
        assertThat(OptionalOutputs.standIn("lstm", 0, Set.of("lstm#0", "lstm#0_"))).isEqualTo("lstm#0__");
    }
}
