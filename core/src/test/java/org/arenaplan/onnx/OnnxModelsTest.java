package org.arenaplan.onnx;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The seven shared models import, infer the classifier's 1000-class output and plan at their lower bound. */
class OnnxModelsTest {
    /** The first {@code shared/models/onnx-light} found walking up from the working directory (the module's). */
    static Path dir() {
        return shared("models", "onnx-light");
    }

    /** The first {@code shared/PARTS...} folder found walking up from the working directory; else {@code ../shared/PARTS...}. */
    static Path shared(String... parts) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared").resolve(Path.of("", parts));
            if (Files.isDirectory(candidate)) return candidate;
        }
        return Path.of("..", "shared").resolve(Path.of("", parts));
    }

    /** A shared model, or the test is skipped (with the reason printed) when ../shared is absent. */
    static Path model(String name) {
        Path p = dir().resolve(name);
        if (!Files.isRegularFile(p)) {
            String why = "shared model " + p.toAbsolutePath().normalize() + " is absent; skipping";
            System.out.println(why);
            Assumptions.abort(why);
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"light_bvlc_alexnet.onnx", "light_inception_v1.onnx", "light_resnet50.onnx", "light_shufflenet.onnx",
            "light_squeezenet.onnx", "light_vgg19.onnx", "light_zfnet512.onnx"})
    void plansAtItsLowerBoundAndValidates(String name) {
        Graph g = OnnxImporter.load(model(name), Map.of());
        assertThat(g.outputs()).hasSize(1);
        assertThat(g.tensor(g.outputs().get(0)).elements()).isEqualTo(1000);
        assertThat(g.inputs()).hasSize(1);
        assertThat(g.tensor(g.inputs().get(0)).shape()).containsExactly(1, 3, 224, 224);
        assertThat(g.weights()).isNotEmpty();
        for (String w : g.weights()) assertThat(g.producer(w)).isNull();
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.refusals()).isEmpty();
        assertThat(plan.arenaBytes()).isEqualTo(plan.stats().lowerBoundBytes());
        assertThat(plan.arenaBytes()).isLessThan(plan.stats().sumBytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"light_inception_v1.onnx", "light_squeezenet.onnx", "light_shufflenet.onnx"})
    void concatsAreWrittenInPlaceAndStillValidate(String name) {
        Path p = model(name);
        OnnxImporter.Options noElementwise = OnnxImporter.Options.DEFAULT.withElementwiseInPlace(false);
        Graph copy = OnnxImporter.load(p, noElementwise.withConcatInPlace(false));
        Graph inPlace = OnnxImporter.load(p, noElementwise);
        long concats = inPlace.ops().stream().filter(o -> o.kind().equals(OpKinds.CONCAT)).count();
        long storageOnly = inPlace.ops().stream().filter(o -> o.kind().equals(OpKinds.CONCAT) && o.isStorageOnly()).count();
        assertThat(concats).isPositive();
        assertThat(storageOnly).isEqualTo(concats);
        Plan a = ArenaPlanner.plan(copy), b = ArenaPlanner.plan(inPlace);
        assertThat(PlanValidator.validate(b)).isEmpty();
        assertThat(b.arenaBytes()).isEqualTo(b.stats().lowerBoundBytes()).isLessThanOrEqualTo(a.arenaBytes());
        assertThat(b.stats().sumBytes()).isLessThan(a.stats().sumBytes());
        for (Op op : inPlace.ops()) {
            if (!op.kind().equals(OpKinds.CONCAT)) continue;
            String out = op.outputs().get(0);
            for (Op.Member m : op.members()) {
                String in = op.inputs().get(m.input());
                assertThat(b.addressOf(in)).isEqualTo(b.addressOf(out) + m.byteOffset());
            }
        }
        assertThat(OnnxImporter.concatReport(p, OnnxImporter.Options.DEFAULT)).hasSize((int) concats).allSatisfy(l -> assertThat(l).endsWith(": in place"));
        if (name.contains("squeezenet"))      // the only one whose batch is not fixed by a Reshape constant
            assertThat(OnnxImporter.concatReport(p, OnnxImporter.Options.DEFAULT.withDims(Map.of(inPlace.inputs().get(0) + ".0", 2L))))
                    .allSatisfy(l -> assertThat(l).contains("copy (axis 1 slices of").contains("are not contiguous"));
        Plan both = ArenaPlanner.plan(OnnxImporter.load(p, OnnxImporter.Options.DEFAULT));
        assertThat(PlanValidator.validate(both)).isEmpty();
        assertThat(both.refusals()).isEmpty();
        assertThat(both.arenaBytes()).isEqualTo(both.stats().lowerBoundBytes());
    }
}
