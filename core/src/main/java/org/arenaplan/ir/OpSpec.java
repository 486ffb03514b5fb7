package org.arenaplan.ir;

import java.util.List;
import java.util.Set;

/**
 * Everything the passes know about one op kind, declared once (with its lowering and ONNX import,
 * in {@code org.arenaplan.ops}) and looked up in {@link OpRegistry}: how many
 * inputs and outputs it takes, its attributes, its shape rule, which aliasing
 * declarations its kernels honour, and the kernels it lowers to (names of
 * {@code org.arenaplan.device.Kernels}; the simulator and the CUDA backend each map a name to
 * an implementation, and tests fail when one is missing).
 *
 * @param kind          the ONNX op name (or arenaplan's own: Copy, ReluGrad)
 * @param minInputs     fewest inputs
 * @param maxInputs     most inputs ({@link Integer#MAX_VALUE}: variadic)
 * @param minOutputs    fewest outputs (at least 1)
 * @param maxOutputs    most outputs ({@link Integer#MAX_VALUE}: variadic, as Split, whose output
 *                      count is part of its meaning). Between the two, outputs are positional and
 *                      the trailing ones optional (ONNX's optional outputs: LSTM's Y_h, Y_c): an op
 *                      that lists fewer does not compute the others. Every listed output is a
 *                      tensor of its own, written by the op's kernels, with its own lifetime (one
 *                      that nothing reads lives only at its op's position).
 * @param attrs         every attribute the kind takes; any other name is an error
 * @param shape         the output shapes from the attributes and the input shapes (null for the
 *                      view kinds, whose output shape is free within {@code view}; a rule returns null
 *                      where the attributes leave the shape to a view declaration, e.g. Slice without starts)
 * @param view          whether outputs may be declared views of input 0, and where
 * @param inPlaceInputs inputs that output 0 may overwrite (same shape, same bytes): its kernels
 *                      read each element before writing the element at the same index
 * @param inPlaceGroups null, or which input each output of a kind with tensor groups may overwrite
 *                      ({@link InPlaceGroups}: the ONNX training optimizers' X_new over X)
 * @param members       whether the inputs may be declared member slices of the output (Concat)
 * @param kernels       the kernels its lowering may launch
 * @param flops         its floating-point operations, for the cost of recomputation ({@code train.Recompute})
 * @param computes      the element types its kernels compute, declared once here and checked by
 *                      its lowering and its ONNX import ({@code ops.OpDefinition.Builder#computes}):
 *                      every computed operand (inputs, and outputs but the index outputs a kind
 *                      names itself, as MaxPool's Indices) has one type of this list. Empty: the
 *                      kind's rule checks its own types (the casts, the index ops, the elementwise
 *                      table of {@code sim.ElementwiseMath})
 * @param summary       one line for the docs: semantics and inputs
 * @param bounded       null, or the kind's data-dependent outputs ({@link BoundedRule}): output 0 is then
 *                      the runtime extent and the others are planned at their upper bound
 * @param carries       null, or how the kind reads bounded tensors and which of its outputs are then
 *                      bounded by the same runtime extent ({@link BoundedFlow}); null: it reads none
 */
public record OpSpec(String kind, int minInputs, int maxInputs, int minOutputs, int maxOutputs, List<AttrSpec> attrs, ShapeRule shape,
                     ViewRule view, Set<Integer> inPlaceInputs, InPlaceGroups inPlaceGroups, boolean members, List<String> kernels, FlopRule flops,
                     List<DType> computes, String summary, BoundedRule bounded, BoundedFlow carries) {

    /**
     * The in-place facts of a kind whose inputs are {@code lead} single tensors, then
     * {@code inputs.size()} groups of n tensors each (n from the op's input count), and whose outputs
     * are {@code outputs.size()} groups of n: entry k of output group o may overwrite entry k of the
     * input group named {@code outputs.get(o)}, as the ONNX training optimizers
     * (ai.onnx.preview.training Adagrad, Adam, Momentum: inputs R, T, X1..Xn, G1..Gn, H1..Hn;
     * outputs X1_new..Xn_new, H1_new..Hn_new) update X and their state in place: their kernels read
     * each element of every input before writing the elements at the same index.
     *
     * @param lead    inputs before the groups (R and T), which no output overwrites
     * @param inputs  the names of the input groups, in order (X, G, H)
     * @param outputs per output group, the name of the input group it may overwrite (X, H)
     */
    public record InPlaceGroups(int lead, List<String> inputs, List<String> outputs) {
        public InPlaceGroups {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
            if (!inputs.containsAll(outputs)) throw new IllegalArgumentException("output groups " + outputs + " name an input group outside " + inputs);
        }

        /** The input output {@code output} may overwrite in an op of {@code inputCount} inputs, or -1 when the count does not make whole groups. */
        public int input(int output, int inputCount) {
            int n = (inputCount - lead) / inputs.size();
            if (n < 1 || (inputCount - lead) % inputs.size() != 0 || output < 0 || output >= n * outputs.size()) return -1;
            return lead + inputs.indexOf(outputs.get(output / n)) * n + output % n;
        }

        /** {@code X_new over X, H_new over H (each tensor)}: the table's words. */
        public String describe() {
            List<String> w = new java.util.ArrayList<>();
            for (String o : outputs) w.add(o + "_new over " + o);
            return String.join(", ", w) + " (each tensor)";
        }
    }

    /**
     * A kind whose output shape depends on its input values (ONNX NonZero, Compress), planned as
     * bounded dynamic shapes are in XLA (a bounded dimension is given its upper bound, the actual
     * size travels beside the data) and TFLite (upper-bound tensors): its shape rule gives each
     * data output at its upper bound, which the plan reserves in the arena; output 0 is the
     * <em>runtime extent</em>, an int64 [1] tensor into which the kernel writes the actual count
     * n. A bounded output holds the row-major tensor of its upper-bound shape with
     * {@link #axis} set to n in its first elements (the rest zero); the executors copy out that
     * actual shape after the run. The extent lives to the end of the run (as a graph output
     * does); an op reads a bounded output only where its kind declares a {@link BoundedFlow}, and
     * no op reads the extent itself.
     */
    @FunctionalInterface
    public interface BoundedRule {
        /**
         * The axis of output {@code output} (of upper-bound shape {@code shape}) whose extent is the
         * runtime count, or -1 for an output whose shape is known before the run (output 0, the extent itself).
         */
        int axis(OpAttrs attrs, long[] shape, int output);
    }

    /**
     * How a kind reads <em>bounded</em> tensors (a data-dependent output of a {@link BoundedRule}
     * kind, or a tensor derived from one): each is planned at its upper-bound shape, one axis of
     * which the runtime extent (int64 [1]) sets to the actual count n, and holds the actual tensor
     * <em>compactly</em>, row-major in its leading elements, with zeros after (the tail). A kind
     * that declares a flow runs its kernels over the upper bounds as declared by its shape rule and
     * must then leave each bounded output compact: the rule admits only the inputs for which that
     * holds (elementwise over operands of one bound or a single value; Gather of bounded indices
     * with nothing before its axis; a reshape that keeps the bounded axis; ...) and throws
     * otherwise. The lowering zeroes each computed bounded output's tail after the kernels
     * ({@code device.Kernels#ZERO_TAIL}), so the invariant holds for every reader (a Gather reads
     * index 0 in the tail of its indices, not garbage). XLA's bounded dynamic dimensions propagate
     * the same way (its dynamic padder sets the padding to a value each consumer ignores).
     */
    @FunctionalInterface
    public interface BoundedFlow {
        /**
         * @param inputs  the input shapes (bounded ones at their upper bound)
         * @param axes    per input, its bounded axis, or -1 for an input whose shape is known before the run
         * @param outputs the output shapes from the kind's shape rule
         * @return per output, the axis the runtime extent sets, or -1 for an output whose shape is known before the run
         * @throws GraphException with the reason, where the kind's kernels would not leave a bounded output compact
         */
        int[] outputs(OpAttrs attrs, long[][] inputs, int[] axes, long[][] outputs);

        /**
         * The input whose runtime extent bounds the outputs where the op reads tensors bounded by
         * two extents, or -1: such an op is refused (its inputs' actual extents may differ). A kind
         * that declares one reads the other extent in its kernel ({@link #ofExtent}).
         */
        default int extentOf() {
            return -1;
        }

        /**
         * Whether the op reads inputs bounded by different runtime extents, each in a kernel of its own, its bounded
         * outputs taking extents the op writes ({@link #ownExtents}: Concat along the bounded axis,
         * {@link BoundedFlows#CONCAT}); default: no (the op is refused unless {@link #extentOf} names one).
         *
         * @param inputs the input shapes
         * @param axes   per input, its bounded axis, or -1
         */
        default boolean readsExtents(OpAttrs attrs, long[][] inputs, int[] axes) {
            return false;
        }

        /**
         * The outputs from this index on are runtime extents (int64 [1]) the op writes for its
         * other outputs ({@link #ownExtents}), which no op reads; default: none (the output count).
         */
        default int extentOutputs(OpAttrs attrs, int outputs) {
            return outputs;
        }

        /**
         * Per output, the op's own output that holds its runtime extent (one of
         * {@link #extentOutputs}), or -1 where it takes its input's: Split's parts of the bounded
         * axis, which ONNX derives from the actual extent ({@link BoundedFlows#split}); default: none.
         *
         * @param inputs the input shapes
         * @param axes   per input, its bounded axis, or -1
         */
        default int[] ownExtents(OpAttrs attrs, long[][] inputs, int[] axes, int outputs) {
            int[] r = new int[outputs];
            java.util.Arrays.fill(r, -1);
            return r;
        }

        /** {@code flow}, whose outputs take the runtime extent of input {@code input} where its inputs have two ({@link #extentOf}). */
        static BoundedFlow ofExtent(int input, BoundedFlow flow) {
            return new BoundedFlow() {
                @Override public int[] outputs(OpAttrs attrs, long[][] inputs, int[] axes, long[][] outputs) { return flow.outputs(attrs, inputs, axes, outputs); }
                @Override public int extentOf() { return input; }
            };
        }
    }

    /** Where a view declaration may put output 0 inside input 0. */
    public enum ViewRule {
        /** The output is computed: no view. */
        NONE,
        /** The output reinterprets all of the input's bytes: offset 0, same size. */
        WHOLE,
        /** A contiguous run of whole rows along the leading axis: same trailing extents, offset a multiple of a row. */
        LEADING_SLICE,
        /** Output k is the bytes Split copies it from: at the summed sizes of outputs 0..k-1, only when every extent before axis is 1. */
        SPLIT
    }

    /**
     * The shapes of the op's {@code outputs} outputs; throws {@link GraphException} with the
     * reason when the inputs or attributes do not fit the rule.
     */
    @FunctionalInterface
    public interface ShapeRule {
        long[][] infer(OpAttrs attrs, long[][] inputs, int outputs);
    }

    /**
     * Floating-point operations of one op from its attributes and its tensors' shapes (a
     * multiply-add counts 2, a transcendental 1; a tensor without a shape comes as its element
     * count, flat). Declared per kind in its definition; the default
     * ({@link #PER_OUTPUT_ELEMENT}, or {@link #NO_ARITHMETIC} for the view kinds) where it says none.
     */
    @FunctionalInterface
    public interface FlopRule {
        long count(OpAttrs attrs, long[][] inputs, long[][] outputs);

        /** The element count of {@code shape} (1 for a scalar). */
        static long elements(long[] shape) {
            long n = 1;
            for (long d : shape) n *= d;
            return n;
        }
    }

    /** One operation per element of output 0. */
    public static final FlopRule PER_OUTPUT_ELEMENT = (a, in, out) -> FlopRule.elements(out[0]);
    /** One operation per element of input 0 (a reduction reads each once). */
    public static final FlopRule PER_INPUT_ELEMENT = (a, in, out) -> FlopRule.elements(in[0]);
    /** Moves bytes, computes nothing (Transpose, Copy, Concat, the views). */
    public static final FlopRule NO_ARITHMETIC = (a, in, out) -> 0;

    public OpSpec {
        if (minOutputs < 1 || maxOutputs < minOutputs) throw new IllegalArgumentException(kind + ": outputs " + minOutputs + ".." + maxOutputs);
        attrs = List.copyOf(attrs);
        inPlaceInputs = Set.copyOf(inPlaceInputs);
        kernels = List.copyOf(kernels);
        computes = List.copyOf(computes);
    }

    /** Whether the kind declares the element types it computes and {@code t} is not one of them. */
    public boolean refuses(DType t) {
        return !computes.isEmpty() && t != null && !computes.contains(t);
    }

    /** {@code f32 only}, {@code f32 and f16}, {@code f32, f16, bf16 and f64}: the declared types, for refusals. */
    public String computesText() {
        List<String> n = new java.util.ArrayList<>();
        for (DType t : computes) n.add(t.jsonName());
        if (n.size() == 1) return n.get(0) + " only";
        return String.join(", ", n.subList(0, n.size() - 1)) + " and " + n.get(n.size() - 1);
    }

    /** The declaration of attribute {@code name}, or null when the kind takes no such attribute. */
    public AttrSpec attr(String name) {
        for (AttrSpec a : attrs) if (a.name().equals(name)) return a;
        return null;
    }

    /** Every kernel maps element i of the inputs to element i of the output (unary, binary_broadcast, copy) and the output is computed. */
    public boolean elementwise() {
        return view == ViewRule.NONE && Set.of(OpRegistry.UNARY, OpRegistry.BINARY, OpRegistry.COPY).containsAll(kernels);
    }

    /** Whether trailing outputs past {@link #minOutputs} may be left out (not computed): fixed positional outputs, not a variadic list. */
    public boolean hasOptionalOutputs() {
        return maxOutputs != Integer.MAX_VALUE && maxOutputs > minOutputs;
    }

    public boolean mayBeView() {
        return view != ViewRule.NONE;
    }

    public boolean mayRunInPlace(int input) {
        return inPlaceInputs.contains(input);
    }

    /** Whether output {@code output} may overwrite input {@code input} of an op with {@code inputCount} inputs. */
    public boolean mayRunInPlace(int output, int input, int inputCount) {
        if (inPlaceGroups != null) return inPlaceGroups.input(output, inputCount) == input;
        return output == 0 && inPlaceInputs.contains(input);
    }

    /** Whether any output of the kind may overwrite an input. */
    public boolean runsInPlace() {
        return !inPlaceInputs.isEmpty() || inPlaceGroups != null;
    }
}
