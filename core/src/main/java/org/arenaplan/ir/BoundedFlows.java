package org.arenaplan.ir;

import java.util.Arrays;

/**
 * The {@link OpSpec.BoundedFlow}s the op registry declares, each admitting only inputs for which
 * its kind's kernels, run over the upper bounds, leave every bounded output <em>compact</em> (the
 * actual tensor row-major in its leading elements). A bounded tensor whose dimensions before its
 * bounded axis are all 1 is compact exactly when it is padded (each row of the bound either an
 * actual row or a tail row), so row-wise kernels keep it so; otherwise only kernels blind to the
 * layout do (elementwise over operands of one shape or single values; Gather reading the indices
 * in flat order). Each rule throws {@link GraphException} with the reason it refuses.
 */
public final class BoundedFlows {
    private BoundedFlows() { }

    /**
     * Elementwise kinds of one output broadcast from their inputs (numpy broadcasting; ONNX
     * Operators.md, "Broadcasting"): unary ops, Cast, Add, Mul, Where, ... Admitted: every bounded
     * input of the output's shape and every other a single value (the kernel's flat index is the
     * actual tensor's: any bounded axis); or the bounded axis the outermost of more than one
     * element and no other input spanning it (rows broadcast as rows). The output is bounded along
     * the inputs' bounded axis, aligned from the right.
     */
    public static int[] elementwise(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] y = out[0];
        int j = -1;
        for (int k = 0; k < in.length; k++) {
            if (axes[k] < 0) continue;
            int jk = axes[k] + y.length - in[k].length;
            if (in[k][axes[k]] != y[jk])
                throw new GraphException("input #" + k + " " + Arrays.toString(in[k]) + " is broadcast along its bounded axis " + axes[k] + " to " + Arrays.toString(y));
            if (j >= 0 && j != jk) throw new GraphException("its inputs are bounded along different axes of the output " + Arrays.toString(y));
            j = jk;
        }
        boolean flat = true;
        for (int k = 0; k < in.length; k++) flat &= axes[k] >= 0 ? Arrays.equals(in[k], y) : product(in[k], 0, in[k].length) == 1;
        if (flat) return new int[]{j};
        if (product(y, 0, j) != 1)
            throw new GraphException("it broadcasts over output " + Arrays.toString(y) + ", whose bounded axis " + j + " has axes of more than one element before it");
        for (int k = 0; k < in.length; k++) {
            int jk = j - (y.length - in[k].length);
            if (axes[k] < 0 && jk >= 0 && in[k][jk] != 1)
                throw new GraphException("input #" + k + " " + Arrays.toString(in[k]) + " spans the bounded axis " + j + " of the output with " + in[k][jk]
                        + " elements, where the actual extent is known only after the run");
        }
        return new int[]{j};
    }

    /**
     * NonZero of a bounded X (torch's {@code x[mask]} or {@code nonzero} after a data-dependent op:
     * CTC decoding's {@code u[u != blank]} after {@code unique_consecutive}): the tail of X is zeros,
     * so the kernel run over the upper bound finds exactly the actual tensor's non-zero elements,
     * and their coordinates in the upper-bound shape are the actual ones where every extent before
     * X's bounded axis is 1 (the row-major positions agree). Its outputs have NonZero's own runtime
     * extent ({@link OpSpec.BoundedRule}), none X's.
     */
    public static int[] nonZero(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0];
        if (product(x, 0, axes[0]) != 1)
            throw new GraphException("X " + Arrays.toString(x) + " has axes of more than one element before its bounded axis " + axes[0]
                    + ", so the coordinates found in the upper-bound shape are not the actual ones");
        int[] none = new int[out.length];
        Arrays.fill(none, -1);
        return none;
    }

    /**
     * ExpandAs (arenaplan's kind for ONNX {@code Expand(X, Shape(Y))} with Y bounded: torch's index
     * broadcast of one index tensor, {@code Expand(i, Shape(Max(i)))}; the index_add_ of HF's
     * mixture-of-experts layers, {@code Expand(Unsqueeze(top_x, 1), Shape(updates))}): X and Y
     * bounded along one axis, aligned from the right, by one runtime extent (the graph refuses two),
     * so Y's actual extent there is X's, and X broadcast to Y's shape along its other axes as
     * {@link #elementwise} admits a broadcast (X of Y's shape: a copy). An X whose shape is known
     * before the run is admitted where it does not span Y's bounded axis (1 there, or no such axis:
     * the dynamo exporter's {@code ones_like(x[mask])}, {@code Expand(1, Shape(x[mask]))}), the output
     * then bounded there by Y's extent as in {@link #expandToExtent}, and is not Y's shape (the ONNX
     * importer reads ExpandAs of an X of Y's shape as a copy of X, {@code onnx.NonZeroCounts}); any
     * other is refused: its actual shape would differ from Y's.
     */
    public static int[] expandAs(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        if (a.has("shape")) return expandToExtent(a, in, axes, out);
        int q = axes[1] - (in[1].length - in[0].length);   // X's axis at Y's bounded one
        if (axes[0] < 0 && axes[1] >= 0 && (q < 0 || in[0][q] == 1) && !Arrays.equals(in[0], in[1])) return elementwise(a, new long[][]{in[0], out[0]}, new int[]{-1, axes[1]}, out);
        if (axes[0] < 0) throw new GraphException("X " + Arrays.toString(in[0]) + " is not bounded, so its shape need not be Y's actual one, known only after the run");
        int j = axes[0] + in[1].length - in[0].length;
        if (axes[1] != j) throw new GraphException("X " + Arrays.toString(in[0]) + " is bounded along axis " + axes[0] + " and Y " + Arrays.toString(in[1]) + " along "
                + (axes[1] < 0 ? "none" : "axis " + axes[1]));
        return elementwise(a, new long[][]{in[0]}, new int[]{axes[0]}, out);
    }

    /**
     * ExpandAs with attributes {@code shape}, {@code axis} and {@code y_axis} (the ONNX importer's
     * {@code Expand(X, [ReduceSum(Cast(mask))])}, a count that NonZero(mask) has as its runtime extent:
     * the dynamo exporter's {@code y[mask] = v}): X broadcast to shape, whose axis {@code axis} is as
     * long as Y's axis {@code y_axis} in each run, so Y must be bounded along it and the output is then
     * bounded there by Y's extent; X must not span that axis (a single value, or rows broadcast as
     * {@link #elementwise} admits them), or be bounded along it itself.
     */
    private static int[] expandToExtent(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        int j = (int) a.integer("axis"), yAxis = (int) a.integer("y_axis");
        if (axes[1] != yAxis) throw new GraphException("Y " + Arrays.toString(in[1]) + " is " + (axes[1] < 0 ? "not bounded" : "bounded along axis " + axes[1])
                + ", where axis " + j + " of the output takes the runtime extent of its axis " + yAxis);
        return elementwise(a, new long[][]{in[0], out[0]}, new int[]{axes[0], j}, out);
    }

    /**
     * Expand (as imported: attribute {@code shape}, ONNX Expand-13's shape input known at import) of a
     * bounded X whose shape gives the bounded axis as 1 or not at all (HF's mixture-of-experts
     * {@code Expand(states, [1, d])}): numpy broadcasting keeps X's actual extent there, and the
     * kernel broadcasts as an elementwise op does ({@link #elementwise}). A shape giving that axis
     * another extent is refused: ONNX broadcasts the actual extent against it (n = 1 gives the
     * shape's extent, any other n than it fails).
     */
    public static int[] expand(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] shape = a.intsOrNull("shape");
        int j = axes[0] + out[0].length - in[0].length, s = j - (out[0].length - shape.length);
        if (s >= 0 && shape[s] != 1)
            throw new GraphException("its shape " + Arrays.toString(shape) + " gives the bounded axis " + j + " of the output as " + shape[s]
                    + ", which ONNX broadcasts against the actual extent, known only after the run");
        return elementwise(a, in, axes, out);
    }

    /**
     * ScatterElements (ONNX ScatterElements-18, any reduction, any axis) of indices and updates bounded
     * along one axis by one runtime extent (the graph refuses two), every axis before it of one
     * element, into data known before the run (torch's {@code index_add_} as the TorchScript exporter
     * writes it in HF's mixture-of-experts layers: ScatterElements of zeros at the selected tokens'
     * rows): the actual elements of both are their leading n * per elements, at the coordinates they
     * have in the bound, and the kernel applies only those ({@code device.Kernels#SCATTER_ELEMENTS}
     * with the extent), not the tail's zero indices. The output has data's shape, known before the run.
     */
    public static int[] scatterElements(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        if (axes[0] >= 0) throw new GraphException("its data " + Arrays.toString(in[0]) + " is bounded; ScatterElements carries bounded indices and updates into data known before the run");
        if (axes[1] < 0 || axes[2] != axes[1])
            throw new GraphException("its indices " + Arrays.toString(in[1]) + " and updates " + Arrays.toString(in[2]) + " are not both bounded along one axis (indices "
                    + (axes[1] < 0 ? "not bounded" : "along " + axes[1]) + ", updates " + (axes[2] < 0 ? "not bounded" : "along " + axes[2]) + ")");
        if (product(in[1], 0, axes[1]) != 1)
            throw new GraphException("the bounded axis " + axes[1] + " of indices " + Arrays.toString(in[1]) + " has axes of more than one element before it, so the actual elements are not the leading ones");
        return new int[]{-1};
    }

    /**
     * ScatterND (ONNX ScatterND-18, any reduction) of indices [.., n, .., k] and updates (indices[:-1] +
     * data[k:]) bounded along one axis by one runtime extent (the graph refuses two), not the index
     * tuples' own, every axis before it of one element, into data known before the run (torch's
     * {@code y[mask] = v} as both torch.onnx exporters write it: ScatterND at Transpose(NonZero(mask))):
     * the actual tuples and their slices are the leading n * per of each (per the tuples of one row of
     * the bounded axis), and the kernel applies only those ({@code device.Kernels#SCATTER_ND} with the
     * extent), not the tail's zero tuples, which would write data's first slice. The output has data's
     * shape, known before the run.
     */
    public static int[] scatterNd(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] idx = in[1];
        if (axes[0] >= 0) throw new GraphException("its data " + Arrays.toString(in[0]) + " is bounded; ScatterND carries bounded indices and updates into data known before the run");
        if (axes[1] < 0 || axes[2] != axes[1])
            throw new GraphException("its indices " + Arrays.toString(idx) + " and updates " + Arrays.toString(in[2]) + " are not both bounded along one axis (indices "
                    + (axes[1] < 0 ? "not bounded" : "along " + axes[1]) + ", updates " + (axes[2] < 0 ? "not bounded" : "along " + axes[2]) + ")");
        if (axes[1] == idx.length - 1) throw new GraphException("indices " + Arrays.toString(idx) + " are bounded along their last axis, the index tuples' own");
        if (product(idx, 0, axes[1]) != 1)
            throw new GraphException("the bounded axis " + axes[1] + " of indices " + Arrays.toString(idx) + " has axes of more than one element before it, so the actual tuples are not the leading ones");
        return new int[]{-1};
    }

    /**
     * MatMul (ONNX MatMul-13) of A bounded along its rows (the axis before the contracted one, every
     * axis before it of one element: a linear layer over selected rows, {@code [m, d] x [d, h]}) by a
     * B known before the run whose batch axes do not span the output before the rows: each output row
     * is its A row times B, so the actual rows stay compact (the tail's zero rows give zero rows, and
     * the lowering zeroes them anyway). The output is bounded along the rows.
     */
    public static int[] matmul(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0], y = out[0];
        if (axes[1] >= 0) throw new GraphException("B " + Arrays.toString(in[1]) + " is bounded; MatMul carries a bounded A along its rows only");
        if (x.length < 2 || axes[0] != x.length - 2)
            throw new GraphException("A " + Arrays.toString(x) + " is bounded along axis " + axes[0] + ", not its rows (axis " + (x.length - 2) + ")");
        int j = in[1].length == 1 ? y.length - 1 : y.length - 2;   // B [K]: the output ends with A's rows
        if (product(y, 0, j) != 1)
            throw new GraphException("output " + Arrays.toString(y) + " has axes of more than one element before its bounded rows " + j);
        return new int[]{j};
    }

    /**
     * Gather (ONNX Gather-13; attribute {@code axis} non-negative as imported): bounded indices,
     * with every data extent before {@code axis} 1 (the output is then the rows of the indices in
     * their flat order: compact for any bounded axis of the indices), and a data axis of at least one
     * element (the tail's zeros index row 0); or bounded data gathered along another axis, its
     * bounded axis the outermost of more than one element in the data and in the output. Or data
     * bounded along {@code axis} itself, every extent before it 1 (torchvision's {@code boxes[keep][inds]}
     * after {@code remove_small_boxes}): its rows lie where the bound's do, and the kernel wraps and
     * checks each real index against data's actual extent, which it reads, bounded indices' tail of
     * zeros being padding ({@code device.Kernels#GATHER}, {@code device.BoundedIndices});
     * the output is then bounded by the indices' extent ({@link OpSpec.BoundedFlow#extentOf}: input 1),
     * or not at all for indices known before the run.
     */
    public static int[] gather(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] d = in[0], idx = in[1];
        int axis = (int) Math.floorMod(a.integer("axis"), d.length);
        if (axes[0] == axis) {
            if (product(d, 0, axis) != 1)
                throw new GraphException("data " + Arrays.toString(d) + " has " + product(d, 0, axis) + " slices before its bounded axis " + axis + ", so its rows lie apart, not compact");
            if (axes[1] < 0) return new int[]{-1};
        } else if (axes[0] >= 0 && axes[1] >= 0) {
            throw new GraphException("its data and its indices are both bounded, the data along axis " + axes[0] + ", not the gathered axis " + axis);
        }
        if (axes[1] >= 0) {
            if (product(d, 0, axis) != 1)
                throw new GraphException("data " + Arrays.toString(d) + " has " + product(d, 0, axis) + " slices before axis " + axis + ", so the rows gathered for each would lie apart, not compact");
            if (d[axis] == 0 && product(idx, 0, idx.length) > 0)
                throw new GraphException("axis " + axis + " of data " + Arrays.toString(d) + " is empty, so no index is valid");
            return new int[]{axis + axes[1]};
        }
        int b = axes[0];
        if (b == axis) throw new GraphException("it gathers along the bounded axis " + b + " itself");
        int j = b < axis ? b : b - 1 + idx.length;
        if (product(d, 0, b) != 1 || product(out[0], 0, j) != 1)
            throw new GraphException("the bounded axis of data " + Arrays.toString(d) + " (" + b + ") or of the output " + Arrays.toString(out[0]) + " (" + j
                    + ") has axes of more than one element before it");
        return new int[]{j};
    }

    /**
     * TopK (ONNX TopK-11, {@code k} known at import as imported: torch's {@code x[x > 0].topk(k)},
     * {@code scores[keep].topk(k)}): X bounded along the TopK axis itself, every extent before it
     * 1, so each lane's actual values lie where the bound's do; the kernel reads X's runtime extent
     * and ranks only the lane's first min(extent, bound) values, failing where k exceeds them (ONNX
     * Runtime refuses "k argument [k] should not be greater than specified axis dim value [n]"), and
     * the outputs [.., k, ..] are known before the run ({@code device.Kernels#TOPK}). With
     * {@code clamp_k} 1 (a k computed in the run as min(c, the count): the dynamo exporter's
     * {@code topk(x[m], min(3, n))}, imported with k = min(c, the bound)) the kernel takes min(k, that
     * count) instead, and the outputs are bounded along the axis by X's extent, their actual count
     * min(count, k). Or X bounded along another axis, the outermost of more than one element: rows
     * stay rows, the outputs bounded along the same axis.
     */
    public static int[] topK(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0];
        int b = axes[0], axis = (int) Math.floorMod(a.integer("axis"), x.length);
        if (product(x, 0, b) != 1)
            throw new GraphException("the bounded axis " + b + " of X " + Arrays.toString(x) + " has axes of more than one element before it, so its lanes lie apart, not where the bound's do");
        if (a.integer("clamp_k") == 1 && b != axis)
            throw new GraphException("its k is at most the actual count of axis " + axis + " of X " + Arrays.toString(x) + ", which is not the bounded one (" + b + ")");
        return b == axis && a.integer("clamp_k") != 1 ? new int[]{-1, -1} : new int[]{b, b};
    }

    /**
     * NonMaxSuppression over boxes and scores computed from a data-dependent output (torchvision's
     * {@code batched_nms} after its score threshold, {@code boxes[keep]} and {@code scores[keep]}, as the
     * TorchScript exporter writes them: boxes [1, N, 4] bounded along N, scores [1, 1, N] along N, one runtime
     * extent, and the max, IoU and score thresholds known before the run): one batch and one class, so the actual
     * boxes and scores are the leading ones; the kernel reads the extent and takes the first min(extent, N) boxes
     * only ({@code device.Kernels#NMS} with the boxes' extent): the tail's zero boxes would otherwise be selected.
     * Its output stays bounded by its own count ({@code ops.DataDependentOps}); any other bounded operand is
     * refused.
     */
    public static int[] nms(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        if (in[0].length != 3 || in[1].length != 3 || axes[0] != 1 || axes[1] != 2 || in[0][0] != 1 || in[1][1] != 1)
            throw new GraphException("boxes " + Arrays.toString(in[0]) + " and scores " + Arrays.toString(in[1]) + " must be bounded along N, boxes [1, N, 4] "
                    + "along axis 1 and scores [1, 1, N] along axis 2 (one batch, one class), for the actual boxes to be the leading ones (bounded axes: boxes "
                    + axes[0] + ", scores " + axes[1] + ")");
        for (int k = 2; k < axes.length; k++)
            if (axes[k] >= 0) throw new GraphException("input #" + k + " is bounded; NonMaxSuppression takes only its boxes and scores bounded");
        int[] none = new int[out.length];
        Arrays.fill(none, -1);
        return none;
    }

    /**
     * The reductions (ONNX ReduceSum ... ReduceSumSquare, {@code axes} as imported, all when absent;
     * ArgMax/ArgMin, {@code axis}): X bounded along an axis with every axis before it of one element
     * (torch's {@code x[m].sum()}, {@code x[m].amax(0)}, {@code x[m].argmax(0)}), so that X's actual
     * elements are its leading ones, n * (the elements per step of the bounded axis); the kernel reads
     * X's runtime extent and reduces those only ({@code device.Kernels#REDUCE} with the extent): the
     * tail's zeros would take part in a max, min, product, mean or arg max. Where the bounded axis is
     * reduced the output is known before the run; else it is bounded along the same axis (less the
     * reduced axes before it, without keepdims), its rows each the reduction of X's row.
     */
    public static int[] reduce(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        boolean[] reduced = new boolean[in[0].length];
        long[] named = a.intsOrNull("axes");
        if (named == null || named.length == 0) Arrays.fill(reduced, true);
        else for (long d : named) reduced[(int) Math.floorMod(d, reduced.length)] = true;
        return reduced(a, in[0], axes[0], reduced);
    }

    /** ArgMax, ArgMin ({@code axis}): as {@link #reduce} over the one axis. */
    public static int[] arg(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        boolean[] reduced = new boolean[in[0].length];
        reduced[(int) Math.floorMod(a.integer("axis"), reduced.length)] = true;
        return reduced(a, in[0], axes[0], reduced);
    }

    private static int[] reduced(OpAttrs a, long[] x, int b, boolean[] reduced) {
        if (product(x, 0, b) != 1)
            throw new GraphException("the bounded axis " + b + " of X " + Arrays.toString(x) + " has axes of more than one element before it, so its actual elements are not its leading ones");
        if (reduced[b]) return new int[]{-1};
        int j = b;
        if (a.integer("keepdims") == 0) for (int d = 0; d < b; d++) if (reduced[d]) j--;
        return new int[]{j};
    }

    /**
     * Softmax, LogSoftmax, Hardmax ({@code axis}; {@code single_axis} 1 from ONNX opset 13: that axis alone, else
     * the axes from it to the end taken together): X bounded along an axis with every axis before it of one element
     * (torch's {@code softmax(x[m], 0)}, {@code log_softmax(x[m], -1)} of selected rows), so that X's actual values
     * lie where the bound's do. Where the bounded axis is among the normalised ones, the kernel reads X's runtime
     * extent and normalises each lane's actual values only ({@code device.Kernels#SOFTMAX} with the extent): the
     * tail's zeros would take part in the sum; else every lane lies in one row, all actual or all tail (whose
     * values zero_tail clears). The output is bounded along the same axis.
     */
    public static int[] softmax(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0];
        if (product(x, 0, axes[0]) != 1)
            throw new GraphException("the bounded axis " + axes[0] + " of X " + Arrays.toString(x) + " has axes of more than one element before it, so its lanes lie apart, not where the bound's do");
        return new int[]{axes[0]};
    }

    /**
     * GatherND (ONNX GatherND-13, {@code batch_dims} 0): bounded indices [.., n, .., k] whose bounded
     * axis is not the last (the index tuples' axis) and has only axes of one element before it, so
     * that the output indices[:-1] + data[k:] holds the gathered slices in the rows' order, compact;
     * the tail's zero tuples gather data's first slice (data's first k axes must not be empty). And
     * data bounded along its axis 0 (torch's {@code u[i]} of a data-dependent u: CTC decoding's
     * {@code u[u != blank]}), which the tuples' first index addresses: the rows of the compact actual
     * tensor lie where the upper bound's do, and the kernel wraps a negative index and checks the
     * range of each real tuple against data's actual extent, which it reads ({@code device.Kernels#GATHER_ND}); the
     * output is bounded by the indices' extent, or not at all for indices known before the run
     * ({@link OpSpec.BoundedFlow#extentOf}: input 1).
     */
    public static int[] gatherNd(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] d = in[0], idx = in[1];
        if (a.integer("batch_dims") != 0) throw new GraphException("batch_dims is " + a.integer("batch_dims") + "; GatherND carries bounded tensors with batch_dims 0 only");
        if (axes[0] > 0) throw new GraphException("data " + Arrays.toString(d) + " is bounded along axis " + axes[0] + "; GatherND carries data bounded along axis 0 only");
        if (axes[0] == 0 && idx[idx.length - 1] < 1) throw new GraphException("indices " + Arrays.toString(idx) + " index no axis of data, whose axis 0 is bounded");
        int b = axes[1];
        if (b < 0) return new int[]{-1};
        if (b == idx.length - 1) throw new GraphException("indices " + Arrays.toString(idx) + " are bounded along their last axis, the index tuples' own");
        if (product(idx, 0, b) != 1)
            throw new GraphException("the bounded axis " + b + " of indices " + Arrays.toString(idx) + " has axes of more than one element before it");
        int k = (int) idx[idx.length - 1];
        if (product(d, 0, k) == 0) throw new GraphException("data " + Arrays.toString(d) + " has an empty axis among the " + k + " indexed, so no index is valid");
        return new int[]{b};
    }

    /**
     * The view kinds (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout): the same elements in
     * the same order, so the actual tensor stays compact where the output has one axis of the
     * bounded axis's extent with as many elements before and after it as the input has (axes of
     * one element added or removed); a reshape that splits or merges the bounded axis, or one that
     * leaves two such axes (of one element), is refused, unless the op names them: a Squeeze or
     * Unsqueeze imported from ONNX keeps the axes it removes or inserts ({@code axes}, ONNX
     * Squeeze-13/Unsqueeze-13), which say where the bounded axis goes (a bound of 1: CTC decoding of
     * one step). A Reshape imported from ONNX ({@code shape_given},
     * its shape input as written; ONNX Reshape-14) must give that axis as -1, or as 0 on the same axis: a
     * constant equal to the bound would give ONNX another shape ([n, 2] bound at 6 reshaped to [6, -1]
     * is [6, n / 3] there, not [n, 2]). A Reshape or Flatten with {@code extents} 1 (the ONNX importer's,
     * where it merges or splits the leading axes of a tensor computed from a data-dependent output:
     * {@code x[m].view(-1)}) writes its output's own runtime extent, output 1 ({@link #scaled}); where it keeps the
     * bounded axis after all (the importer looks at the first axis of more than one element: [3, 4, n] to [12, n]) that
     * extent is the input's count again.
     */
    public static final OpSpec.BoundedFlow RESHAPE = new OwnExtentOfOutput0() {
        @Override public int[] outputs(OpAttrs a, long[][] in, int[] axes, long[][] out) {
            return output0(out.length, ownExtent(a) && keptAxis(in[0], axes[0], out[0]) < 0 ? scaledAxis(a, in[0], axes[0], out[0]) : reshape(a, in, axes, out)[0]);
        }

        @Override int own(OpAttrs a, long[][] in, int[] axes, int outputs) {
            return ownExtent(a) ? 1 : -1;
        }
    };

    /** Whether an op writes its output 0's runtime extent: {@code extents} 1 (Slice, Concat, Reshape, Flatten; the other view kinds have no such attribute). */
    private static boolean ownExtent(OpAttrs a) {
        return a.has("extents") && a.integer("extents") == 1;
    }

    private static int[] reshape(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0], y = out[0];
        int b = axes[0];
        int found = Arrays.equals(x, y) ? b : -1;   // Identity, Dropout: the same axis, even among axes of one element
        long[] named = a.intsOrNull("axes");   // Squeeze: the input axes removed; Unsqueeze: the output axes inserted (as imported)
        if (named != null && found < 0) found = namedAxis(named, b, x, y);
        if (found < 0) found = keptAxis(x, b, y);
        if (found < 0 || y[found] != x[b]) throw new GraphException("it reshapes " + Arrays.toString(x) + " to " + Arrays.toString(y) + ", splitting or merging the bounded axis " + b);
        long[] given = a.intsOrNull("shape_given");   // ONNX Reshape's shape as written: the actual extent reaches axis found only through -1, or 0 on the same axis
        if (given != null && given[found] != -1 && !(given[found] == 0 && found == b))
            throw new GraphException("its shape " + Arrays.toString(given) + " gives output axis " + found + " as " + given[found] + ", where the bounded axis " + b + " of "
                    + Arrays.toString(x) + " needs -1 (or 0 on the same axis): its actual extent is known only after the run");
        return new int[]{found};
    }

    /**
     * The output axis that keeps axis {@code b} of {@code x} through a reshape to {@code y}: of x[b]'s extent, with
     * as many elements before and after it; -1 where none does (the reshape merges or splits it).
     *
     * @throws GraphException where two do (axes of one element about it)
     */
    public static int keptAxis(long[] x, int b, long[] y) {
        long before = product(x, 0, b), after = product(x, b + 1, x.length);
        int found = -1;
        for (int j = 0; j < y.length; j++) {
            if (y[j] != x[b] || product(y, 0, j) != before || product(y, j + 1, y.length) != after) continue;
            if (found >= 0) throw new GraphException("output " + Arrays.toString(y) + " has two axes (" + found + " and " + j + ") that could be the bounded axis " + b + " of " + Arrays.toString(x));
            found = j;
        }
        return found;
    }

    /**
     * The bounded output axis of a Reshape or Flatten with {@code extents} 1, which merges or splits the bounded axis
     * b of x ({@code x[m].view(-1)}, {@code x[m].reshape(-1, 1)}, {@code flat.view(-1, 3)}): every axis before b and
     * before the output axis j of one element, so that the actual elements, n rows of x, lead both (row-major, the
     * zero tail a zero tail: the output stays a view) and are n * mul / div rows of the output, mul and div the
     * elements per row of x and of the output ({@link #scaled}); j is where ONNX's shape gives -1 (Reshape), or the
     * first axis of more than one element (Flatten).
     */
    private static int scaledAxis(OpAttrs a, long[] x, int b, long[] y) {
        if (product(x, 0, b) != 1)
            throw new GraphException("it reshapes " + Arrays.toString(x) + " to " + Arrays.toString(y) + ", merging or splitting the bounded axis " + b
                    + ", which has axes of more than one element before it, so its actual elements are not the leading ones");
        long[] given = a.intsOrNull("shape_given");
        int j = -1;
        if (given != null) {
            for (int i = 0; i < given.length; i++) if (given[i] == -1) j = i;
            if (j < 0)
                throw new GraphException("its shape " + Arrays.toString(given) + " merges or splits the bounded axis " + b + " of " + Arrays.toString(x)
                        + " with no -1, where the actual extent is known only after the run");
            if (b < given.length && given[b] == 0 && b != j)
                throw new GraphException("its shape " + Arrays.toString(given) + " copies the bounded axis " + b + " of " + Arrays.toString(x) + " (0) to output axis " + b
                        + ", where it merges or splits that axis through -1");
        } else {
            j = y.length - 1;   // all of one element: the last
            for (int i = y.length - 1; i >= 0; i--) if (y[i] != 1) j = i;
        }
        if (product(y, 0, j) != 1)
            throw new GraphException("it reshapes " + Arrays.toString(x) + " to " + Arrays.toString(y) + ", merging or splitting the bounded axis " + b
                    + " into output axis " + j + ", which has axes of more than one element before it");
        return j;
    }

    /** [mul, div]: the elements per row of the bounded axis {@code b} of x and of the output axis {@code j} of y (a Reshape with {@code extents} 1: {@link #scaledAxis}). */
    public static long[] scaled(long[] x, int b, long[] y, int j) {
        return new long[]{product(x, b + 1, x.length), product(y, j + 1, y.length)};
    }

    /**
     * The output axis of input axis {@code b} through a Squeeze (output rank below the input's:
     * {@code named} the removed input axes) or an Unsqueeze (above: the inserted output axes), or
     * -1 when {@code b} itself is removed.
     */
    private static int namedAxis(long[] named, int b, long[] x, long[] y) {
        if (y.length < x.length) {
            int removedBefore = 0;
            for (long r : named) {
                if (r == b) throw new GraphException("it squeezes the bounded axis " + b + " of " + Arrays.toString(x) + " away");
                if (r < b) removedBefore++;
            }
            return b - removedBefore;
        }
        for (int j = 0, kept = 0; j < y.length; j++) {
            boolean inserted = false;
            for (long r : named) inserted |= r == j;
            if (!inserted && kept++ == b) return j;
        }
        return -1;
    }

    /**
     * Slice (ONNX Slice-13, as imported: attributes starts, ends, axes, steps; {@link IndexShapeRules#slice}):
     * the bounded axis the outermost of more than one element, taken from its start with step 1 (a
     * prefix: keep[:k], the actual count then min(n, k), which is the output's bound clamping n,
     * {@link Graph.Bounded}); any other axis sliced freely (rows stay rows).
     */
    public static int[] slice(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0];
        int b = axes[0];
        if (!a.has("starts")) throw new GraphException("a Slice declared only as a view has no starts to check");
        IndexShapeRules.Range r = IndexShapeRules.slice(a, x)[b];
        if (r.start() != 0 || (r.step() != 1 && r.count() > 1))
            throw new GraphException("it takes the bounded axis " + b + " from " + r.start() + " by step " + r.step() + ", not a prefix (start 0, step 1)");
        long end = rawEnd(a, x.length, b);
        if (r.step() > 0 && end < 0)   // counted back from the actual extent, which the bound does not give: [:-1] of n rows is n - 1 rows
            throw new GraphException("it ends the bounded axis " + b + " at " + end + ", counted from the actual extent, which is known only after the run");
        if (product(x, 0, b) != 1)
            throw new GraphException("the bounded axis " + b + " of " + Arrays.toString(x) + " has axes of more than one element before it");
        return new int[]{b};
    }

    /**
     * Slice as {@link #slice} admits it, or with {@code extents} 1 (the ONNX importer's, for a Slice of a tensor
     * computed from a data-dependent output that is not a prefix of each axis it slices, or whose starts or ends
     * it computes in the run from a count, given by {@code counted}: ten integers per entry, the start's and
     * the end's {@link CountedSlice} terms) along the bounded axis, the outermost of more than one element, every
     * other axis whole: its kernel ({@code device.Kernels#SLICE_BOUNDED}) takes the rows ONNX takes of the actual
     * extent n and writes their count, output 1, which bounds output 0 ({@link OpSpec.BoundedFlow#ownExtents}).
     * Output 0's upper bound (the rows at the input's bound) must hold the rows of every n up to the bound
     * (x[m][1:]: n - 1; flip: n; torch.chunk's second part: floor(n / 2)); else refused.
     */
    public static final OpSpec.BoundedFlow SLICE = new OwnExtentOfOutput0() {
        @Override public int[] outputs(OpAttrs a, long[][] in, int[] axes, long[][] out) {
            int i = countedEntry(a, in[0].length, axes[0]);
            return output0(out.length, i >= 0 ? countedSlice(a, i, in[0], axes[0], out[0]) : slice(a, in, axes, out)[0]);
        }

        @Override int own(OpAttrs a, long[][] in, int[] axes, int outputs) {
            return countedEntry(a, in[0].length, axes[0]) >= 0 ? 1 : -1;
        }
    };

    /**
     * A flow whose output 0 may take a runtime extent of its own, an output after it that the op lists where
     * {@code extents} is 1 (Slice's {@link #SLICE}, Concat's {@link #CONCAT}, Reshape's and Flatten's {@link #RESHAPE}; no op reads one).
     */
    private abstract static class OwnExtentOfOutput0 implements OpSpec.BoundedFlow {
        /** The output that holds output 0's own runtime extent, or -1 where it takes its input's. */
        abstract int own(OpAttrs a, long[][] in, int[] axes, int outputs);

        @Override public int extentOutputs(OpAttrs a, int outputs) {
            return ownExtent(a) ? 1 : outputs;
        }

        @Override public int[] ownExtents(OpAttrs a, long[][] in, int[] axes, int outputs) {
            return output0(outputs, own(a, in, axes, outputs));
        }
    }

    /** {@code outputs} entries, -1 but the first, {@code first}. */
    private static int[] output0(int outputs, int first) {
        int[] r = new int[outputs];
        Arrays.fill(r, -1);
        r[0] = first;
        return r;
    }

    /**
     * The entry of a Slice with {@code extents} 1 that slices axis {@code b} of a rank-{@code rank} input other than as a
     * prefix by constants (start 0, step 1, an end not negative: {@link #slice} takes those, bounded by the input's extent), else -1.
     */
    public static int countedEntry(OpAttrs a, int rank, int b) {
        long[] starts = a.intsOrNull("starts"), axes = a.intsOrNull("axes"), steps = a.intsOrNull("steps"), v = a.intsOrNull("counted");
        if (a.integer("extents") != 1 || starts == null || v == null || v.length != 2 * CountedSlice.TERMS * starts.length) return -1;
        for (int i = 0; i < starts.length; i++) {
            if (ShapeRules.axis(axes == null ? i : axes[i], rank, "axis") != b) continue;
            int at = 2 * CountedSlice.TERMS * i;
            boolean constants = v[at] == 0 && v[at + CountedSlice.TERMS] == 0;
            boolean prefix = constants && CountedSlice.value(v, at, 0) == 0 && (steps == null || steps[i] == 1) && CountedSlice.value(v, at + CountedSlice.TERMS, 0) >= 0;
            return prefix ? -1 : i;
        }
        return -1;
    }

    private static int countedSlice(OpAttrs a, int i, long[] x, int b, long[] y) {
        if (product(x, 0, b) != 1)
            throw new GraphException("the bounded axis " + b + " of " + Arrays.toString(x) + " has axes of more than one element before it");
        IndexShapeRules.Range[] r = IndexShapeRules.slice(a, x);
        for (int d = 0; d < x.length; d++)
            if (d != b && (r[d].start() != 0 || r[d].step() != 1 || r[d].count() != x[d]))
                throw new GraphException("it slices axis " + d + " of " + Arrays.toString(x) + " too, where its bounded axis " + b + " is sliced by the actual extent; "
                        + "slice_bounded takes whole rows");
        long[] v = a.intsOrNull("counted"), steps = a.intsOrNull("steps");
        long step = steps == null ? 1 : steps[i];
        long most = CountedSlice.mostRows(v, 2 * CountedSlice.TERMS * i, step, x[b]);
        if (most > y[b])
            throw new GraphException("it takes up to " + most + " rows of the bounded axis " + b + " of " + Arrays.toString(x) + " where fewer than " + x[b]
                    + " are kept, more than the " + y[b] + " it takes of the upper bound, its output's bound");
        return b;
    }

    /**
     * Split (ONNX Split-18, as imported: attribute {@code axis} and the parts' extents): along an
     * axis other than the bounded one, the bounded axis the outermost of more than one element (rows
     * stay rows in each part: {@code torch.nonzero(x, as_tuple=True)}, NonZero, Transpose, Split
     * along axis 1, Squeeze); every output bounded along the same axis. Or along the bounded axis
     * itself, into parts of fixed extents (which sum to the bound): ONNX needs them to sum to the
     * actual extent, so the lowering stops a run whose runtime extent is not the bound
     * ({@code device.Kernels#CHECK_EXTENT}), as ONNX Runtime fails it; in any other run the input is
     * whole, its layout the bound's, and every part is known before the run (HF's mixture-of-experts
     * layers: {@code for expert_idx in expert_hit}, traced over the experts hit, exports one part each).
     * With {@code rest} 1 (the importer's part for the rows past parts summing to less than the bound:
     * {@code x[mask].split(2)} traced at 4 of a bound 6) the run must hold exactly the parts before the last,
     * the bounded axis the outermost of more than one element, so that they lie where the bound's do.
     * Or along the bounded axis, the outermost of more than one element, without ONNX's
     * {@code split} ({@code even}: 1 equal parts, 2 Split-18's {@code num_outputs}): ONNX derives
     * the parts from the actual extent n, so each part is bounded by a runtime extent of its own,
     * an output after the parts ({@code extents}, which the importer adds to such a Split of a tensor
     * computed from a data-dependent output), written by its kernel ({@code device.Kernels#SPLIT_BOUNDED},
     * {@code device.ExtentCheck#parts}); with {@code num_outputs} the last part's bound must hold the
     * rest of every n up to the bound (n = 6 of a bound 7 into 3: [2, 2, 2], bound [3, 3, 1]).
     */
    public static final OpSpec.BoundedFlow SPLIT = new OpSpec.BoundedFlow() {
        @Override public int[] outputs(OpAttrs a, long[][] in, int[] axes, long[][] out) {
            return split(a, in, axes, out);
        }

        @Override public int extentOutputs(OpAttrs a, int outputs) {
            return ShapeRules.splitParts(a, outputs);
        }

        @Override public int[] ownExtents(OpAttrs a, long[][] in, int[] axes, int outputs) {
            int[] r = new int[outputs];
            int parts = ShapeRules.splitParts(a, outputs);
            boolean own = parts < outputs && a.integer("even") > 0 && Math.floorMod(a.integer("axis"), in[0].length) == axes[0];
            for (int k = 0; k < outputs; k++) r[k] = own && k < parts ? parts + k : -1;
            return r;
        }
    };

    private static int[] split(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        long[] x = in[0];
        int b = axes[0], axis = (int) Math.floorMod(a.integer("axis"), x.length), parts = ShapeRules.splitParts(a, out.length);
        int[] r = new int[out.length];
        Arrays.fill(r, -1);
        if (axis == b && a.integer("even") > 0) {
            if (parts == out.length)
                throw new GraphException("it splits the bounded axis " + b + " of " + Arrays.toString(x) + " into " + out.length + " parts without 'split', which ONNX derives "
                        + "from the actual extent, and lists no runtime extent for each part");
            if (product(x, 0, b) != 1)
                throw new GraphException("the bounded axis " + b + " of " + Arrays.toString(x) + " has axes of more than one element before it");
            long most = a.integer("even") == 2 ? mostRest(x[b], parts) : 0;
            if (most > out[parts - 1][b])
                throw new GraphException("it splits the bounded axis " + b + " of " + Arrays.toString(x) + " into " + parts + " parts by num_outputs, whose last one holds up to "
                        + most + " rows where fewer than " + x[b] + " are kept, more than its bound " + out[parts - 1][b]);
            Arrays.fill(r, 0, parts, b);
            return r;
        }
        if (a.integer("rest") == 1 && (axis != b || product(x, 0, b) != 1))
            throw new GraphException("its parts sum to less than the extent of axis " + axis + " of " + Arrays.toString(x) + ", which a run takes only where that axis is "
                    + "the bounded one, the outermost of more than one element, holding fewer rows than the bound; here " + (axis != b ? "the bounded axis is " + b
                    : "the bounded axis " + b + " has axes of more than one element before it"));
        Arrays.fill(r, 0, parts, axis == b ? -1 : b);
        if (axis != b && product(x, 0, b) != 1)
            throw new GraphException("the bounded axis " + b + " of " + Arrays.toString(x) + " has axes of more than one element before it");
        return r;
    }

    /**
     * Concat (ONNX Concat-13, {@code axis}): along the bounded axis of its bounded inputs, the outermost of more
     * than one element ({@code torch.cat([x[m], x[~m]])}, {@code torch.cat([x[m], y])}): ONNX joins their actual
     * extents, so with {@code extents} 1 (which the importer gives a Concat of a tensor computed from a
     * data-dependent output: one runtime extent per input after the output, {@link ShapeRules#concat}) the output
     * is bounded by the sum of the bounds and by its own runtime extent, the last one, which the kernels write: one
     * {@code device.Kernels#CONCAT_BOUNDED} per input moves its actual rows (all rows of an input known before the
     * run) after those of the inputs before it; the inputs may be bounded by different runtime extents
     * ({@link OpSpec.BoundedFlow#readsExtents}). Along another axis: every input bounded along one axis by one
     * extent, the outermost of more than one element (rows stay rows), the output bounded along it.
     */
    public static final OpSpec.BoundedFlow CONCAT = new OwnExtentOfOutput0() {
        @Override public int[] outputs(OpAttrs a, long[][] in, int[] axes, long[][] out) {
            long[] y = out[0];
            int axis = (int) Math.floorMod(a.integer("axis"), y.length), b = -1;
            for (int j = 0; j < in.length; j++) {
                if (axes[j] < 0) continue;
                if (b >= 0 && axes[j] != b) throw new GraphException("its inputs are bounded along different axes (" + b + " and " + axes[j] + ")");
                b = axes[j];
            }
            if (product(y, 0, b) != 1)
                throw new GraphException("the bounded axis " + b + " of output " + Arrays.toString(y) + " has axes of more than one element before it");
            int[] r = output0(out.length, b);
            if (b == axis) {
                if (a.integer("extents") != 1)
                    throw new GraphException("it joins its inputs along their bounded axis " + b + " and lists no runtime extent for its output, whose actual extent is their actual extents' sum");
                return r;
            }
            for (int j = 0; j < in.length; j++)
                if (axes[j] < 0) throw new GraphException("input #" + j + " " + Arrays.toString(in[j]) + " is known before the run, where the others hold their actual extent along the bounded axis " + b);
            return r;
        }

        @Override public boolean readsExtents(OpAttrs a, long[][] in, int[] axes) {
            for (int j = 0; j < in.length; j++)
                if (axes[j] >= 0) return axes[j] == Math.floorMod(a.integer("axis"), in[j].length) && a.integer("extents") == 1;
            return false;
        }

        @Override int own(OpAttrs a, long[][] in, int[] axes, int outputs) {
            return readsExtents(a, in, axes) ? outputs - 1 : -1;
        }
    };

    /** The most rows num_outputs' last part holds over the n up to {@code bound} that split into {@code parts} (ceil(n / parts) each, a positive rest: {@code device.ExtentCheck#parts}). */
    private static long mostRest(long bound, long parts) {
        long most = 0;
        for (long n = bound; n >= parts; n--) {
            long each = (n + parts - 1) / parts;
            if (each <= most) break;   // the rest is at most ceil(n / parts), which only falls with n
            most = Math.max(most, n - (parts - 1) * each);
        }
        return most;
    }

    /**
     * Transpose (ONNX Transpose; attribute {@code perm}, the reversed axes by default): any bounded
     * axis, since its lowering then reads the count and transposes the actual tensor
     * ({@code device.Kernels#TRANSPOSE_BOUNDED}: NonZero's [rank, n] to [n, rank]); ranks up to 16.
     */
    public static int[] transpose(OpAttrs a, long[][] in, int[] axes, long[][] out) {
        int rank = in[0].length;
        if (rank > 16) throw new GraphException("input of rank " + rank + " is above the 16 axes transpose_bounded takes");
        long[] perm = a.permutation(rank);
        for (int d = 0; d < rank; d++) if (perm[d] == axes[0]) return new int[]{d};
        throw new GraphException("perm " + Arrays.toString(perm) + " does not name axis " + axes[0]);
    }

    /** Slice's {@code ends} entry for axis {@code d} of a rank-{@code rank} input, as written (negative: from the end); Long.MAX_VALUE where the axis is not sliced. */
    private static long rawEnd(OpAttrs a, int rank, int d) {
        long[] ends = a.intsOrNull("ends"), axes = a.intsOrNull("axes");
        for (int i = 0; i < ends.length; i++)
            if (ShapeRules.axis(axes == null ? i : axes[i], rank, "axis") == d) return ends[i];
        return Long.MAX_VALUE;
    }

    private static long product(long[] s, int from, int to) {
        long p = 1;
        for (int i = from; i < to; i++) p *= s[i];
        return p;
    }
}
