package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.device.KernelCall;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * Sequence ops.
 * <ul>
 * <li>ReverseSequence (opset 10) on {@link Kernels#REVERSE_SEQUENCE}: for each batch entry b,
 *     the first {@code sequence_lens[b]} steps along {@code time_axis} in reverse order, the rest
 *     copied; {@code batch_axis} and {@code time_axis} are 0 and 1 in either order. Any element
 *     type; sequence_lens int64 [batch], each in [0, steps] (outside: an error naming the op on
 *     the simulator, a trap on CUDA).</li>
 * <li>TfIdfVectorizer (opset 9) on {@link Kernels#TFIDF}: int32/int64 tokens [C] or [N, C] to f32
 *     [max(ngram_indexes) + 1] or [N, that]: per row, the count of each pool n-gram (sizes
 *     min_gram_length..max_gram_length; items 1 + skip apart, skip 0..max_skip_count; unigrams
 *     counted once), as the ONNX reference (op_tfidf_vectorizer.py) counts them; mode TF (the
 *     count), IDF (weights[i] or 1 where the count is not 0) or TFIDF (weights[i] or 1 times the
 *     count), i the output position (as the reference and ONNX Runtime read weights). A pool n-gram listed twice counts under its last index, as the reference's map keeps
 *     it. pool_strings (string tokens) is refused: arenaplan has no string tensors.</li>
 * </ul>
 * No version differences.
 */
final class SequenceOps implements OpFamily {
    static final String REVERSE_SEQUENCE = "ReverseSequence";
    static final String TFIDF_VECTORIZER = "TfIdfVectorizer";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(OpDefinition.op(REVERSE_SEQUENCE, 2, 2).attrs(AttrSpec.integer("batch_axis", 1, 0, 1), AttrSpec.integer("time_axis", 0, 0, 1))
                .shape(ShapeRules::sameAsFirst).kernels(Kernels.REVERSE_SEQUENCE)
                .doc("inputs input [time, batch, ...] or [batch, time, ...], sequence_lens int64 [batch]; each batch entry's first steps reversed")
                .lower((op, l) -> List.of(lower(op, l))).onnx(REVERSE_SEQUENCE, 10, SequenceOps::importReverseSequence).build(),
                OpDefinition.op(TFIDF_VECTORIZER, 1, 1)
                        .attrs(new AttrSpec("mode", AttrSpec.Type.STRING, true, null, 0, 0, 0, 0), AttrSpec.requiredInteger("min_gram_length", 1, 64),
                                AttrSpec.requiredInteger("max_gram_length", 1, 64), AttrSpec.requiredInteger("max_skip_count", 0, 1 << 20),
                                AttrSpec.ints("ngram_counts", 0, Integer.MAX_VALUE, null), AttrSpec.ints("ngram_indexes", 0, Integer.MAX_VALUE, null),
                                AttrSpec.ints("pool_int64s", Long.MIN_VALUE, Long.MAX_VALUE, null), AttrSpec.reals("weights", "1 per output"))
                        .shape(SequenceOps::tfidfShape).kernels(Kernels.TFIDF)
                        .doc("int32/int64 tokens [C] or [N, C] to f32 n-gram counts over pool_int64s (skips, TF/IDF/TFIDF), [max(ngram_indexes) + 1] per row")
                        .lower((op, l) -> List.of(lowerTfIdf(op, l))).onnx(TFIDF_VECTORIZER, 9, SequenceOps::importTfIdf, "pool_strings").build());
    }

    private static final List<String> MODES = List.of("TF", "IDF", "TFIDF");

    static long[] tfidfShape(OpAttrs a, long[][] in) {
        return tfidfShape(a.intsOrNull("ngram_indexes"), in[0]);
    }

    static long[] tfidfShape(long[] indexes, long[] x) {
        long out = Arrays.stream(indexes).max().orElseThrow(() -> new GraphException("ngram_indexes is empty")) + 1;
        if (x.length == 1) return new long[] {out};
        if (x.length == 2) return new long[] {x[0], out};
        throw new GraphException("input " + Arrays.toString(x) + " must be [C] or [N, C]");
    }

    /**
     * The pool's n-grams of sizes min..max as {@link Kernels#TFIDF}'s tail: G, then per n-gram [size,
     * output index, items...]; an n-gram listed twice keeps only its last index.
     */
    static long[] grams(OpAttrs a) {
        long[] counts = a.intsOrNull("ngram_counts"), indexes = a.intsOrNull("ngram_indexes"), pool = a.intsOrNull("pool_int64s");
        long min = a.integer("min_gram_length"), max = a.integer("max_gram_length");
        Map<List<Long>, Long> kept = new java.util.LinkedHashMap<>();
        int id = 0;
        for (int s = 0; s < counts.length; s++) {
            long from = counts[s], to = s + 1 < counts.length ? counts[s + 1] : pool.length, size = s + 1;
            if (from > to || to > pool.length || (to - from) % size != 0) throw new GraphException("ngram_counts " + Arrays.toString(counts) + " do not split the pool of " + pool.length + " into " + size + "-grams");
            for (long at = from; at < to; at += size, id++) {
                if (id >= indexes.length) throw new GraphException("ngram_indexes has " + indexes.length + " entries for more n-grams in the pool");
                if (size < min || size > max) continue;
                List<Long> gram = new java.util.ArrayList<>();
                for (long j = 0; j < size; j++) gram.add(pool[(int) (at + j)]);
                kept.remove(gram);
                kept.put(gram, indexes[id]);
            }
        }
        List<Long> out = new java.util.ArrayList<>(List.of((long) kept.size()));
        kept.forEach((gram, index) -> {
            out.add((long) gram.size());
            out.add(index);
            out.addAll(gram);
        });
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** ints [rows, C, dtype, outSize, mode, maxSkip, hasWeights, then {@link #grams}]; floats: the weights. */
    private static KernelCall lowerTfIdf(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = OpLowering.out(op);
        DType t = l.dtype(x);
        if (t != DType.I64 && t != DType.I32) throw fail(op, "input " + x + " is " + t.jsonName() + "; TfIdfVectorizer takes int32 or int64 tokens");
        if (l.dtype(y) != DType.F32) throw fail(op, "output " + y + " must be f32");
        OpAttrs a = OpAttrs.of(op);
        long[] xs = l.shape(op, x), ys = l.shape(op, y);
        long[] g;
        try {
            g = grams(a);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        double[] w = a.realsOrNull("weights");
        long out = ys[ys.length - 1];
        // the spec gives one weight per entry of ngram_indexes; the reference and ONNX Runtime read weights[output index]
        if (w != null && (w.length != a.intsOrNull("ngram_indexes").length || w.length < out))
            throw fail(op, "weights has " + w.length + " values; it needs one per ngram_indexes entry and at least one per output (" + out + ")");
        long[] head = {xs.length == 2 ? xs[0] : 1, xs[xs.length - 1], t.onnxCode(), out, MODES.indexOf(a.string("mode")), a.integer("max_skip_count"), w == null ? 0 : 1};
        long[] ints = Arrays.copyOf(head, head.length + g.length);
        System.arraycopy(g, 0, ints, head.length, g.length);
        return l.call(op, Kernels.TFIDF, List.of(l.read(x), l.write(y)), ints, w == null ? new double[0] : w);
    }

    private static Lowered importTfIdf(NodeContext n) {
        Value x = n.input(0);
        n.require(!n.hasAttr("pool_strings"), "pool_strings: string tokens are not supported (no string tensors); pool_int64s is");
        n.require(x.dtype() == DType.I64 || x.dtype() == DType.I32, "input " + x + " is " + x.dtype().jsonName() + "; TfIdfVectorizer takes int32 or int64 tokens here");
        String mode = n.string("mode", null);
        n.require(MODES.contains(mode), "mode " + mode + " must be TF, IDF or TFIDF");
        Map<String, Object> attrs = new java.util.LinkedHashMap<>();
        attrs.put("mode", mode);
        for (String k : List.of("min_gram_length", "max_gram_length", "max_skip_count")) attrs.put(k, n.integer(k, -1));
        for (String k : List.of("ngram_counts", "ngram_indexes", "pool_int64s")) {
            long[] v = n.ints(k, null);
            n.require(v != null, "attribute '" + k + "' is required");
            attrs.put(k, v);
        }
        n.require((long) attrs.get("min_gram_length") >= 1 && (long) attrs.get("min_gram_length") <= (long) attrs.get("max_gram_length"),
                "min_gram_length and max_gram_length must satisfy 1 <= min <= max");
        if (n.hasAttr("weights")) attrs.put("weights", n.reals("weights", null));
        long[] y = FamilyImports.shape(n, () -> tfidfShape((long[]) attrs.get("ngram_indexes"), x.shape()));
        return NodeLowering.op(n, TFIDF_VECTORIZER, List.of(x.name()), y, attrs, DType.F32);
    }

    /** ints [d0, d1, inner, timeAxis, elementBytes, lensDtype]. */
    private static KernelCall lower(Op op, OpLowering l) {
        String x = op.inputs().get(0), lens = op.inputs().get(1), y = OpLowering.out(op);
        l.sameType(op, x, y);
        long[] s = l.shape(op, x);
        int time = (int) OpAttrs.of(op).integer("time_axis");
        if (s.length < 2 || time == OpAttrs.of(op).integer("batch_axis")) throw fail(op, "needs rank 2 or more and batch_axis != time_axis");
        if (l.dtype(lens) != DType.I64 || l.elements(lens) != s[1 - time]) throw fail(op, "sequence_lens " + lens + " must be int64 [" + s[1 - time] + "]");
        long inner = OpLowering.product(Arrays.copyOfRange(s, 2, s.length));
        long[] ints = {s[0], s[1], inner, time, l.dtype(x).bytes(), DType.I64.onnxCode()};
        return l.call(op, Kernels.REVERSE_SEQUENCE, List.of(l.read(x), l.read(lens), l.write(y)), ints);
    }

    private static Lowered importReverseSequence(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 2);
        Value x = n.input(0), lens = n.input(1);
        long batch = n.integer("batch_axis", 1), time = n.integer("time_axis", 0);
        n.require(x.rank() >= 2, "input " + x + " must have rank 2 or more");
        n.require(batch != time && (batch == 0 || batch == 1) && (time == 0 || time == 1), "batch_axis " + batch + " and time_axis " + time + " must be 0 and 1");
        n.require(lens.dtype() == DType.I64 && lens.rank() == 1 && lens.dim(0) == x.dim((int) batch), "sequence_lens " + lens + " must be int64 [" + x.dim((int) batch) + "]");
        return NodeLowering.op(n, REVERSE_SEQUENCE, List.of(x.name(), lens.name()), x.shape(), Map.of("batch_axis", batch, "time_axis", time));
    }
}
