package org.arenaplan.onnx;

import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.OpRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Attribute defaults come from the registry entry of the kind an op type imports as, not from an entry named like the op type. */
class NodeContextTest {
    private static NodeContext node(String opType) {
        return new NodeContext("t.onnx", new OnnxModel.Node("n", opType, "", List.of(), List.of("y"), Map.of()), 0, NodeLowering.MAX_OPSET, List.of(), v -> null);
    }

    @Test
    void upsampleReadsResizesDefaults() {
        assertThat(node("Upsample").integer("exclude_outside")).isZero();
        assertThat(node("Upsample").real("cubic_coeff_a")).isEqualTo(-0.75);
    }

    @Test
    void everyOpTypeImportedUnderAnotherKindReadsThatKindsNumericDefaults() {
        int checked = 0;
        for (String opType : NodeLowering.supported()) {
            String kind = NodeLowering.kindOf(opType);
            if (kind.equals(opType)) continue;
            for (AttrSpec a : OpRegistry.get(kind).attrs()) {
                if (!(a.dflt() instanceof Number d)) continue;
                if (a.type() == AttrSpec.Type.INT) assertThat(node(opType).integer(a.name())).as(opType + "." + a.name()).isEqualTo(d.longValue());
                else if (a.type() == AttrSpec.Type.FLOAT) assertThat(node(opType).real(a.name())).as(opType + "." + a.name()).isEqualTo(d.doubleValue());
                else continue;
                checked++;
            }
        }
        assertThat(checked).isPositive();
    }
}
