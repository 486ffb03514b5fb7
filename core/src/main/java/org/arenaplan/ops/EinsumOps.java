package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * ONNX Einsum (opset 12) of one or two operands on {@link Kernels#EINSUM}: each output element is
 * the sum, over the letters that are not in the output, of the product of the operands'
 * elements at those letters (a contraction as a reduce over products). A letter repeated in
 * one operand takes its diagonal; {@code ...} stands for the leading dims, broadcast between the
 * operands (an extent 1 repeats); without {@code ->} the output is the ellipsis dims, then the
 * letters seen once, in alphabetical order. f32, f16, bf16 and f64, accumulated in double.
 */
final class EinsumOps implements OpFamily {
    static final String KIND = "Einsum";
    /** Letters the kernel walks at most: its 40 ints hold 4 + 3 per letter. */
    static final int MAX_LETTERS = 12;

    @Override
    public List<OpDefinition> definitions() {
        return List.of(OpDefinition.op(KIND, 1, 2).attrs(new AttrSpec("equation", AttrSpec.Type.STRING, true, null, 0, 0, 0, 0))
                .shape(EinsumOps::shape).kernels(Kernels.EINSUM)
                .doc("sum over the letters not in the output of the product of the operands (one or two; repeated letters: the diagonal; "
                        + "... broadcast); f32, f16, bf16, f64")
                .lower((op, l) -> List.of(lower(op, l))).onnx("Einsum", 12, EinsumOps::importEinsum).build());
    }

    /**
     * An equation resolved against its operands' shapes: every letter (ellipsis dims as upper-case
     * stand-ins) with its extent, the output letters first, and each operand's element stride per letter.
     */
    record Plan(long[] extents, int outputs, long[][] strides) {
        long[] outputShape() {
            return Arrays.copyOf(extents, outputs);
        }
    }

    /** Resolves {@code equation} against the operand shapes; {@link GraphException} names what does not fit. */
    static Plan plan(String equation, long[][] shapes) {
        String eq = equation.replace(" ", "");
        int arrow = eq.indexOf("->");
        String[] terms = (arrow < 0 ? eq : eq.substring(0, arrow)).split(",", -1);
        if (terms.length != shapes.length) throw new GraphException("equation '" + equation + "' has " + terms.length + " operands, the op " + shapes.length);
        int[] ellipsis = new int[terms.length];
        int ellipsisRank = 0;
        for (int k = 0; k < terms.length; k++) {
            String named = terms[k].replace("...", "");
            for (char ch : named.toCharArray())
                if ((ch < 'a' || ch > 'z') && (ch < 'A' || ch > 'Z')) throw new GraphException("equation '" + equation + "': '" + ch + "' is not a letter");
            boolean dots = terms[k].contains("...");
            if (dots ? named.length() > shapes[k].length : named.length() != shapes[k].length)
                throw new GraphException("operand " + k + " '" + terms[k] + "' does not fit its shape " + Arrays.toString(shapes[k]));
            ellipsis[k] = dots ? shapes[k].length - named.length() : 0;
            ellipsisRank = Math.max(ellipsisRank, ellipsis[k]);
        }
        List<List<Character>> labels = new ArrayList<>();
        for (int k = 0; k < terms.length; k++) labels.add(expand(terms[k], ellipsisRank, ellipsis[k]));
        Map<Character, Long> extent = new LinkedHashMap<>();
        Map<Character, Integer> count = new TreeMap<>();
        for (int k = 0; k < labels.size(); k++) {
            for (int d = 0; d < labels.get(k).size(); d++) {
                char c = labels.get(k).get(d);
                long n = shapes[k][d];
                Long had = extent.get(c);
                if (had == null || had == 1) extent.put(c, n);
                else if (had != n && n != 1) throw new GraphException("equation '" + equation + "': '" + c + "' has extents " + had + " and " + n);
                count.merge(c, 1, Integer::sum);
            }
        }
        List<Character> out = new ArrayList<>();
        if (arrow >= 0) {
            for (char c : expand(eq.substring(arrow + 2), ellipsisRank, ellipsisRank)) {
                if (!extent.containsKey(c)) throw new GraphException("equation '" + equation + "': output letter '" + c + "' is in no operand");
                if (out.contains(c)) throw new GraphException("equation '" + equation + "': output letter '" + c + "' appears twice");
                out.add(c);
            }
        } else {
            for (int e = 0; e < ellipsisRank; e++) out.add(ellipsisLabel(e));
            for (Map.Entry<Character, Integer> e : count.entrySet())
                if (e.getValue() == 1 && !isEllipsis(e.getKey())) out.add(e.getKey());
        }
        List<Character> all = new ArrayList<>(out);
        for (char c : extent.keySet()) if (!all.contains(c)) all.add(c);
        if (all.size() > MAX_LETTERS) throw new GraphException("equation '" + equation + "' walks " + all.size() + " letters; the einsum kernel takes at most " + MAX_LETTERS);
        long[] extents = new long[all.size()];
        for (int i = 0; i < extents.length; i++) extents[i] = extent.get(all.get(i));
        long[][] strides = new long[shapes.length][all.size()];
        for (int k = 0; k < shapes.length; k++) {
            long s = 1;
            for (int d = shapes[k].length - 1; d >= 0; d--) {
                char c = labels.get(k).get(d);
                if (shapes[k][d] != 1 || extent.get(c) == 1) strides[k][all.indexOf(c)] += s;   // an extent 1 against a larger one broadcasts: stride 0
                s *= shapes[k][d];
            }
        }
        return new Plan(extents, out.size(), strides);
    }

    /** A term's labels, its {@code ...} replaced by the stand-ins of its {@code own} (right-aligned) of the {@code rank} ellipsis dims. */
    private static List<Character> expand(String term, int rank, int own) {
        List<Character> ls = new ArrayList<>();
        for (int i = 0; i < term.length(); i++) {
            if (term.startsWith("...", i)) {
                for (int e = rank - own; e < rank; e++) ls.add(ellipsisLabel(e));
                i += 2;
            } else {
                ls.add(term.charAt(i));
            }
        }
        return ls;
    }

    /** Ellipsis dims are labelled with characters no equation uses. */
    private static char ellipsisLabel(int e) {
        return (char) (0x100 + e);
    }

    private static boolean isEllipsis(char c) {
        return c >= 0x100;
    }

    static long[] shape(OpAttrs attrs, long[][] in) {
        Object eq = attrs.op().attrs().get("equation");
        return plan(String.valueOf(eq), in).outputShape();
    }

    private static KernelCall lower(Op op, OpLowering l) {
        String y = op.outputs().get(0);
        DType t = l.sameType(op, op.inputs().toArray(new String[0]));
        l.sameType(op, op.inputs().get(0), y);
        if (!t.isFloat32Compute() && t != DType.F64) throw fail(op, "operands are " + t.jsonName() + "; Einsum takes f32, f16, bf16 or f64");
        long[][] shapes = new long[op.inputs().size()][];
        for (int k = 0; k < shapes.length; k++) shapes[k] = l.shape(op, op.inputs().get(k));
        Plan p;
        try {
            p = plan(String.valueOf(op.attrs().get("equation")), shapes);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        int letters = p.extents().length;
        long[] ints = new long[4 + 3 * letters];
        ints[0] = shapes.length;
        ints[1] = t.onnxCode();
        ints[2] = letters;
        ints[3] = p.outputs();
        System.arraycopy(p.extents(), 0, ints, 4, letters);
        for (int k = 0; k < shapes.length; k++) System.arraycopy(p.strides()[k], 0, ints, 4 + letters * (k + 1), letters);
        List<KernelArg> args = new ArrayList<>();
        for (String in : op.inputs()) args.add(l.read(in));
        args.add(l.write(y));
        return l.call(op, Kernels.EINSUM, args, ints);
    }

    private static Lowered importEinsum(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 2);
        String equation = n.string("equation", null);
        n.require(equation != null, "attribute 'equation' is required");
        long[][] shapes = new long[n.inputCount()][];
        List<String> ins = new ArrayList<>();
        DType t = n.input(0).dtype();
        for (int k = 0; k < shapes.length; k++) {
            Value v = n.input(k);
            if (v.dtype() != t) throw n.error("operands " + n.shapes() + " must have one type");
            shapes[k] = v.shape();
            ins.add(v.name());
        }
        n.require(t.isFloat32Compute() || t == DType.F64, "operands are " + t.jsonName() + "; Einsum computes f32, f16, bf16 and f64");
        long[] out;
        try {
            out = plan(equation, shapes).outputShape();
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        return NodeLowering.op(n, KIND, ins, out, Map.of("equation", equation), t);
    }
}
