package org.arenaplan.ir;

import org.arenaplan.io.Printable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scheduled dataflow graph: ops in schedule order (position = index), the tensors they read
 * and write, caller-owned graph inputs (optionally donated) and outputs, and read-only weights.
 * Immutable; built and validated by {@link GraphBuilder}.
 */
public final class Graph {
    private final String name;
    private final Map<String, Tensor> tensors;
    private final List<Op> ops;
    private final List<String> inputs;
    private final Set<String> inputSet;      // membership in O(1): liveness asks per tensor
    private final Set<String> donated;
    private final List<String> outputs;
    private final Set<String> outputSet;
    private final Set<String> weights;
    private final Map<String, Double> weightFill;
    private final Map<String, WeightValues> weightValues;
    private final Map<String, Integer> producer;
    private final Map<String, Op.View> viewOf;       // view tensor -> its declaration (input index is into producer's inputs)
    private final Map<String, Bounded> bounded;      // bounded tensor -> its runtime extent and axis (BoundedTensors)

    Graph(String name, Map<String, Tensor> tensors, List<Op> ops, List<String> inputs, Set<String> donated,
          List<String> outputs, Set<String> weights, Map<String, Double> weightFill, Map<String, WeightValues> weightValues,
          Map<String, Integer> producer, Map<String, Bounded> bounded) {
        this.name = name;
        this.tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
        this.ops = List.copyOf(ops);
        this.inputs = List.copyOf(inputs);
        this.inputSet = Set.copyOf(inputs);
        this.donated = Collections.unmodifiableSet(new LinkedHashSet<>(donated));
        this.outputs = List.copyOf(outputs);
        Set<String> kept = new java.util.HashSet<>(outputs);
        for (Op op : ops) {
            OpSpec spec = OpRegistry.get(op.kind());
            if (spec != null && spec.bounded() != null && !op.outputs().isEmpty()) kept.add(op.outputs().get(0));   // its runtime extent, read after the run
        }
        for (Bounded b : bounded.values()) kept.add(b.extent());   // also those an op writes for its outputs (OpSpec.BoundedFlow#ownExtents)
        this.outputSet = Set.copyOf(kept);
        this.weights = Collections.unmodifiableSet(new LinkedHashSet<>(weights));
        this.weightFill = Collections.unmodifiableMap(new LinkedHashMap<>(weightFill));
        this.weightValues = Collections.unmodifiableMap(new LinkedHashMap<>(weightValues));
        this.producer = Collections.unmodifiableMap(new HashMap<>(producer));
        Map<String, Op.View> views = new HashMap<>();
        for (Op op : this.ops) for (Op.View v : op.views()) views.put(op.outputs().get(v.output()), v);
        this.viewOf = views;
        this.bounded = Map.copyOf(bounded);
    }

    public String name() { return name; }

    public Map<String, Tensor> tensors() { return tensors; }

    public Tensor tensor(String name) {
        Tensor t = tensors.get(name);
        if (t == null) throw new GraphException("unknown tensor '" + Printable.name(name) + "'");
        return t;
    }

    public List<Op> ops() { return ops; }

    public int opCount() { return ops.size(); }

    public List<String> inputs() { return inputs; }

    public boolean isInput(String t) { return inputSet.contains(t); }

    public boolean isDonated(String t) { return donated.contains(t); }

    public Set<String> donated() { return donated; }

    public List<String> outputs() { return outputs; }

    /**
     * Whether {@code t} lives to the end of the run and is read after it: a graph output, or a
     * runtime extent: output 0 of an op with data-dependent outputs ({@link OpSpec.BoundedRule}), or
     * one an op writes for its bounded outputs ({@link OpSpec.BoundedFlow#ownExtents}).
     */
    public boolean isOutput(String t) { return outputSet.contains(t); }

    /**
     * Where the actual shape of bounded tensor {@code t} is found after its op runs: the runtime
     * extent tensor (int64 [1], the count) and the axis of {@code t}'s upper-bound shape it sets.
     * Bounded are the data-dependent outputs ({@link OpSpec.BoundedRule}) and the outputs of ops
     * that read one through their kind's {@link OpSpec.BoundedFlow}, which share its extent; null
     * when {@code t}'s shape is known before the run.
     */
    public Bounded bounded(String t) {
        return bounded.get(t);
    }

    /**
     * A bounded tensor's runtime extent tensor and the axis its count sets: the actual extent of
     * that axis is min(count, the axis's upper bound), the count itself for a data-dependent output
     * (its kernel writes at most the bound) and less where a prefix Slice cut the bound
     * ({@link BoundedFlows#slice}: keep[:k] holds min(n, k) rows).
     */
    public record Bounded(String extent, int axis) { }

    public Set<String> weights() { return weights; }

    public boolean isWeight(String t) { return weights.contains(t); }

    /** The constant a weight is filled with, or null (its values, or the executors' seeded default). */
    public Double weightFill(String t) { return weightFill.get(t); }

    /** Where a weight's values are read from (an imported model's), or null (a fill, or the seeded default). */
    public WeightValues weightValues(String t) { return weightValues.get(t); }

    /** Schedule position of the op that writes {@code t}, or -1 for inputs and weights. */
    public int producerPosition(String t) {
        Integer p = producer.get(t);
        return p == null ? -1 : p;
    }

    public Op producer(String t) {
        int p = producerPosition(t);
        return p < 0 ? null : ops.get(p);
    }

    /** True when {@code t} is declared a view of one of its producer's inputs. */
    public boolean isView(String t) {
        return viewOf.containsKey(t);
    }

    /** The tensor whose bytes view {@code t} points into, following views down to one that is not a view (a weight, an input or a computed tensor); {@code t} itself when it is no view. */
    public String viewRoot(String t) {
        String root = t;
        for (Op.View v = viewOf.get(root); v != null; v = viewOf.get(root)) root = producer(root).inputs().get(v.input());
        return root;
    }

    /** The distinct stream ids used by ops, ascending. */
    public List<Integer> streams() {
        Set<Integer> s = new java.util.TreeSet<>();
        for (Op op : ops) s.add(op.stream());
        return new ArrayList<>(s);
    }

    /** The same graph with every op moved to the stream {@code streamOf.apply(position)}. */
    public Graph withStreams(java.util.function.IntUnaryOperator streamOf) {
        List<Op> moved = new ArrayList<>(ops.size());
        for (int p = 0; p < ops.size(); p++) {
            Op o = ops.get(p);
            moved.add(new Op(o.name(), o.kind(), o.inputs(), o.outputs(), streamOf.applyAsInt(p), o.attrs(), o.views(), o.members(), o.inPlace()));
        }
        return new Graph(name, tensors, moved, inputs, donated, outputs, weights, weightFill, weightValues, producer, bounded);
    }

    @Override
    public String toString() {
        return "Graph(" + name + ", " + ops.size() + " ops, " + tensors.size() + " tensors)";
    }
}
