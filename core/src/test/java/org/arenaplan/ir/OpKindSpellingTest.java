package org.arenaplan.ir;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The near-miss rule of {@link OpKindSpelling}: typos of registry kinds are caught, custom kinds are not. */
class OpKindSpellingTest {
    @Test
    void typosOfRegistryKindsAreNearMisses() {
        assertThat(OpKindSpelling.nearMisses("Tranpose")).containsExactly("Transpose");            // 1 edit, 8 letters
        assertThat(OpKindSpelling.nearMisses("transpose")).containsExactly("Transpose");           // case only
        assertThat(OpKindSpelling.nearMisses("RELU")).containsExactly("Relu");
        assertThat(OpKindSpelling.nearMisses("Rleu")).containsExactly("Relu");                     // 4 letters: a swap
        assertThat(OpKindSpelling.nearMisses("Concatt")).containsExactly("Concat");
        assertThat(OpKindSpelling.nearMisses("BatchNormalizaton")).containsExactly("BatchNormalization");
        assertThat(OpKindSpelling.nearMisses("LayerNormalisation")).containsExactly("LayerNormalization");
        assertThat(OpKindSpelling.nearMisses("EluGrad")).containsExactly("ReluGrad", "GeluGrad");   // both 1 edit away
    }

    @Test
    void customKindsRegistryKindsAndKindsWithADomainAreNot() {
        for (String custom : List.of("MyFusedThing", "MyFusedKernel", "FusedMatMul", "GeluAdd", "Foo", "K", "Op", "Silu", "Sort",
                "Shape", "Flip", "Loss", "Relu6", "Conv2d", "Attention", "custom.Tranpose", "com.acme.EluGrad", "Transpose", "Relu"))
            assertThat(OpKindSpelling.nearMisses(custom)).as(custom).isEmpty();
        assertThat(OpKindSpelling.nearMisses("Transpose".repeat(10_000))).isEmpty();
    }

    @Test
    void theSuggestionAndTheLineNameTheOpItsPositionAndTheKind() {
        assertThat(OpKindSpelling.suggestion("Tranpose")).isEqualTo("; did you mean 'Transpose'?");
        assertThat(OpKindSpelling.suggestion("EluGrad")).isEqualTo("; did you mean 'ReluGrad' or 'GeluGrad'?");
        assertThat(OpKindSpelling.suggestion("MyFusedThing")).isEmpty();
        Graph g = new GraphBuilder("g")
                .tensor("x", DType.F32, 4, 8).tensor("a", DType.F32, 4, 8).tensor("b", DType.F32, 8, 4).tensor("c", DType.F32, 4, 8)
                .tensor("y", DType.F32, 4, 8)
                .input("x", false)
                .op("r", OpKinds.RELU).in("x").out("a").add()
                .op("t", "Tranpose").in("a").out("b").add()
                .op("t2", "Tranpose").in("b").out("c").add()
                .op("m", "MyFusedThing").in("c").out("y").add()
                .output("y")
                .build();
        List<OpKindSpelling.NearMiss> misses = OpKindSpelling.in(g);
        assertThat(misses).hasSize(1);
        assertThat(misses.get(0).line()).isEqualTo(
                "op 't' (Tranpose, position 1) and 1 later op of that kind: unknown op kind 'Tranpose'; did you mean 'Transpose'?");
    }
}
