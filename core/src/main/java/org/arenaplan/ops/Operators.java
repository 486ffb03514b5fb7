package org.arenaplan.ops;

import org.arenaplan.exec.KernelRule;
import org.arenaplan.exec.LoweringTable;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.OpTable;
import org.arenaplan.onnx.OnnxImport;
import org.arenaplan.onnx.OnnxOpTable;
import org.arenaplan.train.GradientRule;
import org.arenaplan.train.GradientTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The list of op families, and the tables derived from it: the registry entries
 * ({@code ir.OpRegistry}), the lowering dispatch ({@code exec.OpLowering}), the gradient rules
 * ({@code train.Gradients}) and the ONNX import dispatch with its supported-op list
 * ({@code onnx.NodeLowering}). Each lower layer finds this
 * class through {@link java.util.ServiceLoader} (META-INF/services), so none of them depends on
 * this package at compile time. A new family is one line in {@link #FAMILIES}.
 */
public final class Operators implements OpTable, LoweringTable, OnnxOpTable, GradientTable {
    /** Every family, in the order of the README's operator table. */
    static final List<OpFamily> FAMILIES = List.of(new LinearAlgebraOps(), new ElementwiseOps(), new NormalizationOps(), new ImageOps(), new DetectionOps(), new DataDependentOps(),
            new LayoutOps(), new TypeAndIndexOps(), new ShapeIndexOps(), new TrainingOps(), new OptimizerOps(), new MlOps(), new ReductionOps(), new LossOps(), new EinsumOps(), new RecurrentOps(), new TransformerOps(), new StateSpaceOps(), new LinearAttentionOps(), new FlexAttentionOps(), new SignalOps(), new QuantizedOps(), new SequenceOps());

    /** The definitions, built once. */
    private static final class All {
        static final List<OpDefinition> DEFINITIONS = build();

        private static List<OpDefinition> build() {
            List<OpDefinition> all = new ArrayList<>();
            for (OpFamily f : FAMILIES) all.addAll(f.definitions());
            return List.copyOf(all);
        }
    }

    /** Every definition, families in order. */
    public static List<OpDefinition> definitions() {
        return All.DEFINITIONS;
    }

    @Override
    public List<OpSpec> specs() {
        return definitions().stream().map(OpDefinition::spec).toList();
    }

    @Override
    public Map<String, KernelRule> rules() {
        Map<String, KernelRule> m = new LinkedHashMap<>();
        for (OpDefinition d : definitions()) m.put(d.spec().kind(), d.lowering());
        return m;
    }

    @Override
    public Map<String, GradientRule> gradients() {
        Map<String, GradientRule> m = new LinkedHashMap<>();
        for (OpDefinition d : definitions()) if (d.gradient() != null) m.put(d.spec().kind(), d.gradient());
        return m;
    }

    @Override
    public Set<String> backwardKinds() {
        Set<String> kinds = new LinkedHashSet<>();
        for (OpDefinition d : new TrainingOps().definitions()) kinds.add(d.spec().kind());
        return kinds;
    }

    @Override
    public List<OnnxImport> imports() {
        List<OnnxImport> all = new ArrayList<>();
        for (OpDefinition d : definitions()) all.addAll(d.imports());
        return all;
    }
}
