package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.exec.KernelRule;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.onnx.OnnxImport;
import org.arenaplan.train.GradientRule;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything about one op kind, declared in one expression: its registry facts ({@link OpSpec}:
 * inputs, outputs, attributes, shape rule, aliasing, kernels, FLOPs), its lowering to kernel calls
 * ({@link KernelRule}), its gradient rule ({@link GradientRule}) and the ONNX op types imported as
 * it ({@link OnnxImport}). The tables of {@code ir.OpRegistry}, {@code exec.OpLowering},
 * {@code train.Gradients} and {@code onnx.NodeLowering} are derived from the list of definitions
 * ({@link Operators}). Built with {@link #op}; see docs/adding-an-op.md.
 *
 * @param spec     the registry entry
 * @param lowering how the executors lower an op of the kind
 * @param gradient how the backward pass differentiates it (null: no rule; training a graph with
 *                 such an op on a gradient path is refused naming it)
 * @param imports  the ONNX op types imported as this kind (empty: the kind comes only from graph
 *                 JSON, training graphs or other importers)
 */
public record OpDefinition(OpSpec spec, KernelRule lowering, GradientRule gradient, List<OnnxImport> imports) {
    public OpDefinition {
        imports = List.copyOf(imports);
    }

    /** A definition of {@code kind} taking {@code minInputs}..{@code maxInputs} inputs ({@link Integer#MAX_VALUE}: variadic). */
    public static Builder op(String kind, int minInputs, int maxInputs) {
        return new Builder(kind, minInputs, maxInputs);
    }

    /** The shape rule of a kind with one output. */
    @FunctionalInterface
    public interface OneShape {
        long[] infer(OpAttrs attrs, long[][] inputs);
    }

    /** Fluent construction of one definition; {@link #build()} checks it is complete. */
    public static final class Builder {
        private final String kind;
        private final int minInputs, maxInputs;
        private int minOutputs = 1, maxOutputs = 1;
        private final List<AttrSpec> attrs = new ArrayList<>();
        private OpSpec.ShapeRule shape;
        private OpSpec.ViewRule view = OpSpec.ViewRule.NONE;
        private final List<Integer> inPlace = new ArrayList<>();
        private OpSpec.InPlaceGroups inPlaceGroups;
        private boolean members;
        private final List<String> kernels = new ArrayList<>();
        private OpSpec.FlopRule flops;
        private OpSpec.BoundedRule bounded;
        private OpSpec.BoundedFlow carries;
        private final List<DType> computes = new ArrayList<>();
        private String doc = "";
        private KernelRule lowering;
        private GradientRule gradient;
        private final List<PendingImport> imports = new ArrayList<>();
        private final Set<String> internal = new LinkedHashSet<>();

        private record PendingImport(String opType, long since, OnnxImport.Importer importer, List<String> onnxOnly) { }

        Builder(String kind, int minInputs, int maxInputs) {
            this.kind = kind;
            this.minInputs = minInputs;
            this.maxInputs = maxInputs;
        }

        // ---- registry facts ----

        /** Every attribute the kind takes; any other name is an error. */
        public Builder attrs(AttrSpec... a) { attrs.addAll(List.of(a)); return this; }

        /**
         * Attributes of {@link #attrs} that the kind's importer sets and an ONNX file never carries
         * (arenaplan's own, e.g. DeformConv's has_bias): left out of the attributes an unknown-attribute
         * refusal says the ONNX op type takes.
         */
        public Builder internal(String... names) { internal.addAll(List.of(names)); return this; }

        /** A kind with one output: its shape (a rule returns null where the attributes leave it to a view declaration: Slice without starts). */
        public Builder shape(OneShape r) {
            shape = (a, in, n) -> {
                long[] s = r.infer(a, in);
                return s == null ? null : new long[][]{s};
            };
            return this;
        }

        /** A kind with several outputs ({@link #outputs}): their shapes. */
        public Builder shapes(OpSpec.ShapeRule r) { shape = r; return this; }

        /** Outputs min..max (default 1..1): positional, the trailing ones optional; max {@link Integer#MAX_VALUE}: variadic. */
        public Builder outputs(int min, int max) { minOutputs = min; maxOutputs = max; return this; }

        public Builder view(OpSpec.ViewRule v) { view = v; return this; }

        /** Inputs output 0 may overwrite: its kernels read each element before writing the element at the same index. */
        public Builder inPlace(Integer... inputs) { inPlace.addAll(List.of(inputs)); return this; }

        /** Outputs in groups that may each overwrite an input of the group named ({@link OpSpec.InPlaceGroups}). */
        public Builder inPlaceGroups(OpSpec.InPlaceGroups groups) { inPlaceGroups = groups; return this; }

        /** The inputs may be declared member slices of the output (Concat). */
        public Builder members() { members = true; return this; }

        /**
         * Data-dependent outputs ({@link OpSpec.BoundedRule}): output 0 is the int64 [1] runtime
         * extent, and {@code rule} names the axis of each other output whose extent it holds.
         */
        public Builder bounded(OpSpec.BoundedRule rule) { bounded = rule; return this; }

        /**
         * The kind reads bounded tensors as {@code flow} says ({@link OpSpec.BoundedFlow}); its
         * calls are then followed by {@link Kernels#ZERO_TAIL} per computed bounded output
         * ({@code exec.OpLowering}, for every such kind: not one of the kernels its rule launches).
         */
        public Builder carries(OpSpec.BoundedFlow flow) { carries = flow; return this; }

        /** The kernels ({@code device.Kernels} names) the lowering may launch. */
        public Builder kernels(String... k) { kernels.addAll(List.of(k)); return this; }

        /** Its FLOPs (default: one per output element; none for a view kind). */
        public Builder flops(OpSpec.FlopRule f) { flops = f; return this; }

        /**
         * The element types the kind's kernels compute ({@link OpSpec#computes}), declared once:
         * {@link #lowerTyped} and the ONNX import ({@code FamilyImports.requireComputed}) check
         * operands against it, and the refusal lists it. Called again, replaces (MaxPool widens the
         * pools' list).
         */
        public Builder computes(DType... types) {
            computes.clear();
            computes.addAll(List.of(types));
            return this;
        }

        /** One line for the docs; called again, appends. */
        public Builder doc(String d) { doc = doc.isEmpty() ? d : doc + "; " + d; return this; }

        // ---- lowering ----

        public Builder lower(KernelRule rule) { lowering = rule; return this; }

        /** A rule for a kind that computes f32 only ({@code computes(F32)}): every input and output is checked first. */
        public Builder lowerF32(KernelRule rule) {
            computes.clear();
            computes.add(DType.F32);
            return lowerTyped(rule);
        }

        /**
         * A rule for a kind of declared {@link #computes} types: every input and output must have
         * one of them, all the same ({@code OpLowering.requireComputed}), before {@code rule} runs.
         */
        public Builder lowerTyped(KernelRule rule) {
            lowering = (op, l) -> {
                for (String t : op.inputs()) l.requireComputed(op, t);
                for (String t : op.outputs()) l.requireComputed(op, t);
                return rule.lower(op, l);
            };
            return this;
        }

        // ---- training ----

        /** The gradient rule (null: none). */
        public Builder gradient(GradientRule rule) { gradient = rule; return this; }

        // ---- ONNX ----

        /** The ONNX op type of the kind's name imports as it, in every opset; {@code onnxOnly}: attributes consumed at import. */
        public Builder onnx(OnnxImport.Importer importer, String... onnxOnly) {
            return onnx(kind, 1, importer, onnxOnly);
        }

        /** ONNX op type {@code opType}, which exists from opset {@code sinceOpset}, imports as this kind. */
        public Builder onnx(String opType, long sinceOpset, OnnxImport.Importer importer, String... onnxOnly) {
            imports.add(new PendingImport(opType, sinceOpset, importer, List.of(onnxOnly)));
            return this;
        }

        public OpDefinition build() {
            if (lowering == null) throw new IllegalStateException(kind + " has no lowering");
            OpSpec.FlopRule f = flops != null ? flops : view != OpSpec.ViewRule.NONE ? OpSpec.NO_ARITHMETIC : OpSpec.PER_OUTPUT_ELEMENT;
            OpSpec spec = new OpSpec(kind, minInputs, maxInputs, minOutputs, maxOutputs, attrs, shape, view, Set.copyOf(inPlace), inPlaceGroups, members, kernels, f, computes, doc, bounded, carries);
            List<OnnxImport> onnx = new ArrayList<>();
            for (PendingImport p : imports) {
                Set<String> allowed = new LinkedHashSet<>();
                for (AttrSpec a : attrs) allowed.add(a.name());
                allowed.addAll(p.onnxOnly());
                onnx.add(new OnnxImport(p.opType(), kind, p.since(), allowed, internal, p.importer()));
            }
            return new OpDefinition(spec, lowering, gradient, onnx);
        }
    }
}
