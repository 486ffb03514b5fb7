package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.Tensor;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BuiltinModelsTest {
    private static final long MIB = 1L << 20;

    static List<String> models() {
        return BuiltinModels.names();
    }

    private static Graph small(String name) {
        return BuiltinModels.build(name, Map.of());
    }

    @ParameterizedTest
    @MethodSource("models")
    void everyModelPlansValidlyWithEveryHintHonoured(String name) {
        Plan plan = ArenaPlanner.plan(small(name));

        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.refusals()).as("in-place hints are declared only where they are legal").isEmpty();
        assertThat(plan.arenaBytes()).isBetween(plan.stats().lowerBoundBytes(), plan.stats().sumBytes());
    }

    @ParameterizedTest
    @MethodSource("models")
    void everyModelUsesOnlyRegisteredKindsWithShapedTensors(String name) {
        Graph g = small(name);
        for (Op op : g.ops()) {
            OpSpec spec = OpRegistry.get(op.kind());
            assertThat(spec).as(op.toString()).isNotNull();
            if (spec.mayBeView()) assertThat(op.views()).as(op.toString()).hasSize(1);
            if (!op.inPlace().isEmpty()) assertThat(spec.elementwise()).as(op.toString()).isTrue();
        }
        for (Tensor t : g.tensors().values()) {
            assertThat(t.hasShape()).as(t.name()).isTrue();
            assertThat(t.bytes()).as(t.name()).isEqualTo(t.elements() * 4);
        }
    }

    @Test
    void chainWithoutInPlaceHasSevenActivationsAndALowerBoundOfThree() {
        Plan plan = plan("chain", Map.of("dim", "4096", "inplace", "none"));
        assertThat(plan.storages()).hasSize(7);
        assertThat(plan.stats().sumBytes()).isEqualTo(448 * MIB);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(192 * MIB);
    }

    @Test
    void chainWithTheTextbookBiasInPlaceHasSum384AndLowerBound192() {
        Plan plan = plan("chain", Map.of("dim", "4096", "inplace", "bias"));
        assertThat(plan.storages()).hasSize(6);
        assertThat(plan.stats().sumBytes()).isEqualTo(384 * MIB);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(192 * MIB);
        assertThat(plan.arenaBytes()).isEqualTo(192 * MIB);
    }

    @Test
    void chainFullyInPlaceStillNeeds192MiBWhileTheCallerOwnsX() {
        Plan plan = plan("chain", Map.of("dim", "4096"));
        assertThat(plan.storages()).hasSize(4);
        assertThat(plan.stats().sumBytes()).isEqualTo(256 * MIB);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(192 * MIB);
        assertThat(plan.arenaBytes()).isEqualTo(192 * MIB);
    }

    @Test
    void chainFullyInPlaceWithXDonatedFitsIn128MiB() {
        Plan plan = plan("chain", Map.of("dim", "4096", "donate", "true"));
        assertThat(plan.stats().sumBytes()).isEqualTo(256 * MIB);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(128 * MIB);
        assertThat(plan.arenaBytes()).isEqualTo(128 * MIB);
        assertThat(PlanValidator.validate(plan)).isEmpty();
    }

    @Test
    void mlpHoldsInputPlusTwoLayers() {
        // 3 layers of [32, 256] f32 = 32 KiB; each layer's MatMul, bias and Relu share one storage.
        // Storages x, l1, l2, l3: sum 4 x 32 KiB. At l2's MatMul x, l1 and l2 are live: LB 3 x 32 KiB.
        Plan plan = plan("mlp", Map.of("layers", "3", "width", "256", "batch", "32"));
        assertThat(plan.storages()).hasSize(4);
        assertThat(plan.stats().sumBytes()).isEqualTo(4 * 32768);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(3 * 32768);
        assertThat(plan.arenaBytes()).isEqualTo(3 * 32768);
    }

    @Test
    void trainMlpKeepsActivationsUntilTheirGradient() {
        // Two layers, activations s = [16, 64] f32 = 4 KiB, weight gradients S = [64, 64] f32 = 16 KiB.
        // Storages: x, target, z1/h1, y/dy, dW2, dh1/dz1 (s each) and dW1, dW2 (S each): sum 5s + 2S.
        // At dh1's Gemm: x, target, h1, dy, dh1 and dW2 are live (5s + S); at dW1's Gemm h1 and dy
        // are dead but both gradients are live (3s + 2S = 44 KiB), the maximum.
        Plan plan = plan("train-mlp", Map.of("layers", "2", "width", "64", "batch", "16"));
        long s = 4096;
        long big = 16384;
        assertThat(plan.storages()).hasSize(7);
        assertThat(plan.stats().sumBytes()).isEqualTo(5 * s + 2 * big);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(3 * s + 2 * big);
    }

    @Test
    void trainMlpArenaGrowsWithDepthWhileInferenceMlpDoesNot() {
        long train4 = plan("train-mlp", Map.of("layers", "4")).arenaBytes();
        long train8 = plan("train-mlp", Map.of("layers", "8")).arenaBytes();
        long mlp4 = plan("mlp", Map.of("layers", "4")).arenaBytes();
        long mlp8 = plan("mlp", Map.of("layers", "8")).arenaBytes();
        assertThat(train8).isGreaterThan(train4);
        assertThat(mlp8).isEqualTo(mlp4);
    }

    @Test
    void inceptionSavesLittle() {
        // x (C), the concat (4C) and one intermediate (C, the pool branch) live at once, out of
        // x + C/2 + C/4 + C + 4C in the sum: the arena is 6/6.75 of the sum.
        Plan plan = plan("inception", Map.of());
        long unit = 32L * 28 * 28 * 4;
        assertThat(plan.stats().sumBytes()).isEqualTo(unit * 27 / 4);
        assertThat(plan.stats().lowerBoundBytes()).isEqualTo(6 * unit);
        assertThat(plan.arenaBytes()).isEqualTo(6 * unit);
    }

    @Test
    void dtypeChangesEveryTensorsWidth() {
        Graph f32 = BuiltinModels.build("mlp", Map.of());
        Graph f16 = BuiltinModels.build("mlp", Map.of("--dtype", "float16"));
        for (String t : f32.tensors().keySet()) {
            assertThat(f16.tensor(t).bytes() * 2).as(t).isEqualTo(f32.tensor(t).bytes());
        }
    }

    @Test
    void optionsScaleTheModels() {
        Graph deep = BuiltinModels.build("transformer", Map.of("layers", "3", "hidden", "128", "heads", "8"));
        assertThat(deep.tensor("b2.qh").shape()).containsExactly(1, 8, 32, 16);
        assertThat(BuiltinModels.build("resnet", Map.of("blocks", "5")).opCount())
                .isGreaterThan(BuiltinModels.build("resnet", Map.of("blocks", "2")).opCount());
        assertThat(BuiltinModels.build("inception", Map.of("branches", "6")).tensor("concat").shape()).containsExactly(1, 6 * 32, 28, 28);
        assertThat(BuiltinModels.build("unet", Map.of("depth", "4", "image", "32")).tensor("head").shape()).containsExactly(1, 2, 32, 32);
    }

    @Test
    void unknownModelNamesItAndTheChoices() {
        assertThatThrownBy(() -> BuiltinModels.build("gpt", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'gpt'").hasMessageContaining("chain").hasMessageContaining("train-mlp");
    }

    @Test
    void unknownOptionNamesItAndTheModelsOptions() {
        assertThatThrownBy(() -> BuiltinModels.build("mlp", Map.of("--depth", "3")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--depth").hasMessageContaining("--layers").hasMessageContaining("--dtype");
    }

    @Test
    void badValuesNameTheOption() {
        assertThatThrownBy(() -> BuiltinModels.build("mlp", Map.of("layers", "two")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--layers").hasMessageContaining("'two'");
        assertThatThrownBy(() -> BuiltinModels.build("mlp", Map.of("width", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--width");
        assertThatThrownBy(() -> BuiltinModels.build("chain", Map.of("dtype", "float7")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--dtype");
        assertThatThrownBy(() -> BuiltinModels.build("chain", Map.of("inplace", "some")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("none, bias, all");
        assertThatThrownBy(() -> BuiltinModels.build("transformer", Map.of("hidden", "65")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--heads");
        assertThatThrownBy(() -> BuiltinModels.build("mlp", Map.of("width", "2000000000", "batch", "2000000000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'mlp'").hasMessageContaining("overflows");
        assertThatThrownBy(() -> BuiltinModels.build("unet", Map.of("image", "36")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--image");
    }

    @Test
    void defaultsListEveryOptionWithDtype() {
        for (String name : BuiltinModels.names()) {
            Map<String, String> d = BuiltinModels.defaults(name);
            assertThat(d).containsEntry("dtype", "float32");
            assertThat(BuiltinModels.summary(name)).isNotBlank();
            assertThat(BuiltinModels.build(name, new HashMap<>(d)).opCount()).isPositive();
        }
    }

    private static Plan plan(String model, Map<String, String> options) {
        return ArenaPlanner.plan(BuiltinModels.build(model, options));
    }
}
