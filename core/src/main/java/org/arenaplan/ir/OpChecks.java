package org.arenaplan.ir;

import org.arenaplan.io.Printable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Checks one op against its {@link OpRegistry} entry: input count, attributes (unknown names,
 * types, ranges, required ones), the declared output shape against the shape rule, and the
 * declared views and member slices against where the op really reads and writes. Kinds outside
 * the registry are not checked. {@link GraphBuilder} throws on the first problem; the plan
 * validator reports {@link #aliasProblems} as violations, so it does not depend on the graph
 * having been checked; liveness turns {@link #inPlaceRefusal} into a refusal.
 */
public final class OpChecks {
    /** A declared view or member slice that the op's kernels do not honour. */
    public record AliasProblem(boolean member, List<String> tensors, long fromByte, long toByte, String message) { }

    private OpChecks() { }

    /**
     * Throws {@link GraphException} ("{@code where}: reason") when {@code op} breaks its entry.
     * Assumes the structural checks of {@link GraphBuilder} passed (tensors exist, indices in range).
     */
    static void check(Op op, String where, Function<String, Tensor> tensors) {
        OpSpec spec = OpRegistry.get(op.kind());
        if (spec == null) return;
        try {
            checkArity(op, spec);
            checkAttrs(op, spec);
            checkShape(op, spec, tensors);
        } catch (GraphException e) {
            throw new GraphException(where + ": " + e.getMessage(), e);
        } catch (ArithmeticException e) {
            throw new GraphException(where + ": a shape computed from the inputs and attributes overflows a long", e);
        }
        List<AliasProblem> p = aliasProblems(op, tensors);
        if (!p.isEmpty()) throw new GraphException(where + ": " + p.get(0).message());
    }

    private static void checkArity(Op op, OpSpec spec) {
        int n = op.inputs().size();
        if (n < spec.minInputs() || n > spec.maxInputs()) {
            throw new GraphException("has " + n + " input" + (n == 1 ? "" : "s") + "; " + spec.kind() + " takes " + count(spec.minInputs(), spec.maxInputs()));
        }
        int m = op.outputs().size();
        if (m < spec.minOutputs() || m > spec.maxOutputs())
            throw new GraphException("has " + m + " output" + (m == 1 ? "" : "s") + "; " + spec.kind() + " has " + count(spec.minOutputs(), spec.maxOutputs()));
    }

    private static String count(int min, int max) {
        return min == max ? "exactly " + min : max == Integer.MAX_VALUE ? "at least " + min : min + " to " + max;
    }

    private static void checkAttrs(Op op, OpSpec spec) {
        for (var e : op.attrs().entrySet()) {
            AttrSpec a = spec.attr(e.getKey());
            if (a == null) {
                List<String> names = new ArrayList<>();
                for (AttrSpec d : spec.attrs()) names.add(d.name());
                throw new GraphException(unknownAttribute(e.getKey(), names, spec.kind()));
            }
            String problem = a.problem(e.getValue());
            if (problem != null) throw new GraphException(problem);
        }
        for (AttrSpec a : spec.attrs()) {
            if (a.required() && !op.attrs().containsKey(a.name())) throw new GraphException("attribute '" + a.name() + "' is required");
        }
    }

    /**
     * "unknown attribute 'alpah'; LRN takes size, alpha, beta, bias (did you mean 'alpha'?)": the
     * suggestion when a name it takes is one or two edits away.
     */
    public static String unknownAttribute(String name, java.util.Collection<String> takes, String kind) {
        String msg = "unknown attribute '" + Printable.name(name) + "'; " + kind + " takes " + (takes.isEmpty() ? "no attributes" : String.join(", ", takes));
        for (String t : takes) {
            if (editDistance(name.toLowerCase(java.util.Locale.ROOT), t.toLowerCase(java.util.Locale.ROOT)) <= 2) return msg + " (did you mean '" + t + "'?)";
        }
        return msg;
    }

    /** Levenshtein distance, with a transposition counted as one edit. */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
        return d[a.length()][b.length()];
    }

    /** The shape rule, or the view rule's element count, when every tensor of the op has a shape. */
    private static void checkShape(Op op, OpSpec spec, Function<String, Tensor> tensors) {
        long[][] in = new long[op.inputs().size()][];
        for (int j = 0; j < in.length; j++) {
            Tensor t = tensors.apply(op.inputs().get(j));
            if (!t.hasShape()) return;
            in[j] = t.shape();
        }
        long[][] inferred = spec.shape() == null ? null : spec.shape().infer(OpAttrs.of(op), in, op.outputs().size());
        if (inferred != null) {
            for (int k = 0; k < Math.min(inferred.length, op.outputs().size()); k++) {
                Tensor out = tensors.apply(op.outputs().get(k));
                if (out.hasShape() && !Arrays.equals(inferred[k], out.shape()))
                    throw new GraphException("output '" + Printable.name(out.name()) + "' is declared " + Arrays.toString(out.shape()) + " but " + spec.kind()
                            + " of " + shapes(in) + " gives " + Arrays.toString(inferred[k]));
            }
            return;
        }
        Tensor out = tensors.apply(op.outputs().get(0));
        if (!out.hasShape()) return;
        long[] declared = out.shape();
        if (spec.view() == OpSpec.ViewRule.WHOLE && product(declared) != product(in[0]))
            throw new GraphException("output '" + Printable.name(out.name()) + "' " + Arrays.toString(declared) + " does not hold the "
                    + product(in[0]) + " elements of input '" + Printable.name(op.inputs().get(0)) + "' " + Arrays.toString(in[0]));
        if (spec.view() == OpSpec.ViewRule.LEADING_SLICE) {
            long[] x = in[0];
            boolean rows = declared.length == x.length && declared.length > 0 && declared[0] <= x[0]
                    && Arrays.equals(Arrays.copyOfRange(declared, 1, declared.length), Arrays.copyOfRange(x, 1, x.length));
            if (!rows) throw new GraphException("output '" + Printable.name(out.name()) + "' " + Arrays.toString(declared)
                    + " is not a run of whole rows of input '" + Printable.name(op.inputs().get(0)) + "' " + Arrays.toString(x) + " along the leading axis");
        }
    }

    private static String shapes(long[][] in) {
        List<String> s = new ArrayList<>();
        for (long[] x : in) s.add(Arrays.toString(x));
        return String.join(" and ", s);
    }

    /**
     * Declared views and member slices that contradict what the op's kernels do: a view on an op
     * that computes its output, a view that is not all of its input (or whole leading rows of it),
     * a member slice on an op that takes none, or member slices that are not exactly where Concat
     * writes each input (a non-leading axis with an outer extent above 1, overlaps, gaps).
     * Empty for kinds outside the registry.
     */
    public static List<AliasProblem> aliasProblems(Op op, Function<String, Tensor> tensors) {
        OpSpec spec = OpRegistry.get(op.kind());
        List<AliasProblem> out = new ArrayList<>();
        if (spec == null) return out;
        for (Op.View v : op.views()) {
            String y = op.outputs().get(v.output()), x = op.inputs().get(v.input());
            long yb = tensors.apply(y).bytes();
            String declared = "'" + Printable.name(y) + "' is declared a view of '" + Printable.name(x) + "' (bytes [" + v.byteOffset() + ", " + (v.byteOffset() + yb) + ") of it)";
            String problem = viewProblem(op, spec, v, tensors);
            if (problem != null) out.add(new AliasProblem(false, List.of(y, x), v.byteOffset(), v.byteOffset() + yb, declared + ", but " + problem));
        }
        if (!op.members().isEmpty()) memberProblems(op, spec, tensors, out);
        return out;
    }

    private static String viewProblem(Op op, OpSpec spec, Op.View v, Function<String, Tensor> tensors) {
        if (!spec.mayBeView())
            return spec.kind() + " computes its output (kernel" + (spec.kernels().size() > 1 ? "s " : " ") + quoted(spec.kernels())
                    + "); only " + String.join(", ", OpRegistry.viewKinds()) + " may be views";
        if (spec.view() == OpSpec.ViewRule.SPLIT) return splitViewProblem(op, v, tensors);
        if (v.output() != 0 || v.input() != 0) return "a " + spec.kind() + " view is its output #0 of its input #0";
        Tensor y = tensors.apply(op.outputs().get(0)), x = tensors.apply(op.inputs().get(0));
        if (spec.view() == OpSpec.ViewRule.WHOLE) {
            if (v.byteOffset() != 0 || y.bytes() != x.bytes())
                return spec.kind() + " reinterprets all " + x.bytes() + " B of its input, so the view must be at offset 0 with the same size";
            return null;
        }
        if (x.hasShape() && op.attrs().containsKey("starts")) return IndexShapeRules.sliceViewProblem(OpAttrs.of(op), x, v.byteOffset());
        if (y.hasShape() && x.hasShape() && x.shape().length > 0) {
            long rowBytes = x.shape()[0] == 0 ? 0 : x.bytes() / x.shape()[0];
            if (rowBytes > 0 && v.byteOffset() % rowBytes != 0)
                return "a " + spec.kind() + " view starts on a whole row of " + rowBytes + " B along the leading axis";
        }
        return null;
    }

    /** Split: output k is read from [offset_k + o * rowIn, ... + rowOut_k) of the input for each outer index o. */
    private static String splitViewProblem(Op op, Op.View v, Function<String, Tensor> tensors) {
        if (v.input() != 0) return "a Split view is of its input #0";
        Tensor x = tensors.apply(op.inputs().get(0));
        long expected = 0;
        for (int k = 0; k < v.output(); k++) expected = Math.addExact(expected, tensors.apply(op.outputs().get(k)).bytes());
        long yb = tensors.apply(op.outputs().get(v.output())).bytes();
        long outer = x.hasShape() && x.shape().length > 0 ? outerExtent(op, x) : 1;
        if (outer > 1) {
            long rowIn = x.bytes() / outer, rowOut = yb / outer, first = expected / outer;
            return "the extents of '" + Printable.name(x.name()) + "' " + Arrays.toString(x.shape()) + " before the split axis multiply to " + outer
                    + ", so Split reads that output from " + outer + " separate byte ranges ([" + first + ", " + (first + rowOut) + "), ["
                    + (first + rowIn) + ", " + (first + rowIn + rowOut) + ")" + (outer > 2 ? ", ..." : "") + "), not one slice";
        }
        if (v.byteOffset() != expected) return "Split reads that output from bytes [" + expected + ", " + (expected + yb) + ") of it";
        return null;
    }

    /** Concat: input j is written at [offset_j + o * rowOut, ... + rowIn_j) for each outer index o. */
    private static void memberProblems(Op op, OpSpec spec, Function<String, Tensor> tensors, List<AliasProblem> out) {
        String y = op.outputs().get(0);
        if (!spec.members()) {
            Op.Member m = op.members().get(0);
            String x = op.inputs().get(m.input());
            long xb = tensors.apply(x).bytes();
            out.add(new AliasProblem(true, List.of(x, y), m.byteOffset(), m.byteOffset() + xb, "input '" + Printable.name(x) + "' is declared a member slice of '"
                    + Printable.name(y) + "' at bytes [" + m.byteOffset() + ", " + (m.byteOffset() + xb) + "), but " + spec.kind() + " computes its output (kernel "
                    + quoted(spec.kernels()) + "); only Concat inputs may be member slices"));
            return;
        }
        Tensor yt = tensors.apply(y);
        int n = op.inputs().size();
        long[] bytes = new long[n];
        long[] expected = new long[n];
        long at = 0;
        for (int j = 0; j < n; j++) {
            bytes[j] = tensors.apply(op.inputs().get(j)).bytes();
            expected[j] = at;
            at = Math.addExact(at, bytes[j]);
        }
        long outer = outerExtent(op, yt);
        if (outer > 1) {
            int axis = ShapeRules.axis(OpAttrs.of(op).integer("axis"), yt.shape().length, "axis");
            Op.Member m = op.members().get(0);
            String x = op.inputs().get(m.input());
            long rowOut = yt.bytes() / outer, rowIn = bytes[m.input()] / outer;
            long first = expected[m.input()] / outer;
            out.add(new AliasProblem(true, List.of(x, y), first, first + rowIn, "member slices of '" + Printable.name(y) + "' " + Arrays.toString(yt.shape())
                    + " along axis " + axis + " are not contiguous: the extents before axis " + axis + " multiply to " + outer
                    + ", so Concat writes input '" + Printable.name(x) + "' to " + outer + " separate byte ranges ([" + first + ", " + (first + rowIn) + "), ["
                    + (first + rowOut) + ", " + (first + rowOut + rowIn) + ")" + (outer > 2 ? ", ..." : "") + "), not to one slice at ["
                    + m.byteOffset() + ", " + (m.byteOffset() + bytes[m.input()]) + ")"));
            return;
        }
        List<String> faults = new ArrayList<>();
        List<String> named = new ArrayList<>(List.of(y));
        long[][] written = new long[n][];
        boolean[] isMember = new boolean[n];
        long from = Long.MAX_VALUE, to = 0;
        for (Op.Member m : op.members()) {
            int j = m.input();
            String x = op.inputs().get(j);
            isMember[j] = true;
            written[j] = new long[]{m.byteOffset(), m.byteOffset() + bytes[j]};
            if (m.output() != 0) faults.add("'" + Printable.name(x) + "' is declared inside output #" + m.output() + ", not #0");
            else if (m.byteOffset() != expected[j]) {
                faults.add("'" + Printable.name(x) + "' is declared at [" + m.byteOffset() + ", " + (m.byteOffset() + bytes[j]) + ") but Concat writes it at ["
                        + expected[j] + ", " + (expected[j] + bytes[j]) + ")");
                named.add(x);
                from = Math.min(from, Math.min(m.byteOffset(), expected[j]));
                to = Math.max(to, Math.max(m.byteOffset(), expected[j]) + bytes[j]);
            }
        }
        if (faults.isEmpty()) return;
        for (int j = 0; j < n; j++) if (!isMember[j]) written[j] = new long[]{expected[j], expected[j] + bytes[j]};
        List<String> overlaps = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                long lo = Math.max(written[a][0], written[b][0]), hi = Math.min(written[a][1], written[b][1]);
                if (lo < hi) overlaps.add("'" + Printable.name(op.inputs().get(a)) + "' and '" + Printable.name(op.inputs().get(b)) + "' share [" + lo + ", " + hi + ")");
            }
        }
        String msg = "member slices of '" + Printable.name(y) + "' are not where Concat writes its inputs: " + String.join("; ", faults);
        if (!overlaps.isEmpty()) msg += "; overlapping: " + String.join(", ", overlaps);
        String gaps = unwritten(written, yt.bytes());
        if (!gaps.isEmpty()) msg += "; bytes of '" + Printable.name(y) + "' left unwritten: " + gaps;
        out.add(new AliasProblem(true, named, from == Long.MAX_VALUE ? 0 : from, to, msg));
    }

    /** The product of {@code y}'s extents before the op's axis (Concat's output, Split's input); 1 when shapes are unknown. */
    private static long outerExtent(Op op, Tensor y) {
        if (!y.hasShape() || y.shape().length == 0 || !op.attrs().containsKey("axis")) return 1;
        long axis = OpAttrs.of(op).integer("axis");
        int rank = y.shape().length;
        if (axis < -rank || axis >= rank) return 1;   // the shape rule reports it
        int a = (int) (axis < 0 ? axis + rank : axis);
        long p = 1;
        for (int d = 0; d < a; d++) p = Math.multiplyExact(p, y.shape()[d]);
        return p;
    }

    private static String unwritten(long[][] ranges, long size) {
        long[][] r = ranges.clone();
        Arrays.sort(r, (a, b) -> Long.compare(a[0], b[0]));
        List<String> gaps = new ArrayList<>();
        long cursor = 0;
        for (long[] x : r) {
            if (x[0] > cursor) gaps.add("[" + cursor + ", " + Math.min(x[0], size) + ")");
            cursor = Math.max(cursor, x[1]);
        }
        if (cursor < size) gaps.add("[" + cursor + ", " + size + ")");
        return String.join(", ", gaps);
    }

    /**
     * Why output {@code h.output()} of {@code op} may not overwrite input {@code h.input()}
     * according to its entry, or null when the entry allows it (or the kind is unknown): the
     * kernels must run in place over that input, and the two tensors must have the same shape
     * (a broadcast operand is read more than once) and size.
     */
    public static String inPlaceRefusal(Op op, Op.InPlace h, Function<String, Tensor> tensors) {
        OpSpec spec = OpRegistry.get(op.kind());
        if (spec == null) return null;
        if (!spec.mayRunInPlace(h.output(), h.input(), op.inputs().size())) {
            if (!spec.runsInPlace())
                return spec.kind() + " cannot run in place: kernel " + quoted(spec.kernels()) + " reads input elements after writing output elements over them";
            if (spec.inPlaceGroups() != null) {
                int j = spec.inPlaceGroups().input(h.output(), op.inputs().size());
                return spec.kind() + " output #" + h.output() + " may overwrite " + (j < 0 ? "no input" : "only input #" + j)
                        + ", not input #" + h.input() + " (" + spec.inPlaceGroups().describe() + ")";
            }
            List<String> allowed = new ArrayList<>();
            for (int j : new java.util.TreeSet<>(spec.inPlaceInputs())) allowed.add("#" + j);
            return spec.kind() + " may overwrite only input" + (allowed.size() > 1 ? "s " : " ") + String.join(", ", allowed) + ", not input #" + h.input();
        }
        Tensor y = tensors.apply(op.outputs().get(h.output())), x = tensors.apply(op.inputs().get(h.input()));
        if (y.hasShape() && x.hasShape() && !Arrays.equals(y.shape(), x.shape()))
            return "'" + Printable.name(y.name()) + "' " + Arrays.toString(y.shape()) + " and '" + Printable.name(x.name()) + "' " + Arrays.toString(x.shape())
                    + " differ in shape (a broadcast operand cannot be overwritten)";
        if (y.bytes() != x.bytes()) return "'" + Printable.name(y.name()) + "' (" + y.bytes() + " B) and '" + Printable.name(x.name()) + "' (" + x.bytes() + " B) differ in size";
        return null;
    }

    private static String quoted(List<String> kernels) {
        List<String> q = new ArrayList<>();
        for (String k : kernels) q.add("'" + k + "'");
        return String.join(", ", q);
    }

    private static long product(long[] s) {
        long p = 1;
        for (long d : s) p = Math.multiplyExact(p, d);
        return p;
    }
}
