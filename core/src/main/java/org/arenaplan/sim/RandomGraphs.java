package org.arenaplan.sim;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random executable graphs for stress runs: every live tensor is {@code rows x n} f32 (rows 1 or
 * 2), built from unary and binary elementwise ops (half of them declared in place), matmuls with
 * weights, copies, view chains (reshape, identity, flatten), slices of 2-row tensors and
 * splits of one into both its rows next to a view of all of it (overlapping views), in-place
 * concatenations of two 1-row results (member slices on axis 0), concatenations on the last
 * axis (member slices when the outer extent is 1, a copy otherwise), splits along the leading
 * axis (views) and the last axis (views where contiguous, copies otherwise), transposes (through
 * 3-D views) and 1-D convolutions (through N x C x L views), each op on a random stream.
 * Matmuls, transposes and convolutions carry an in-place hint a third of the time; their
 * kernels cannot run in place, so liveness must refuse every one of those hints.
 * The same seed gives the same graph.
 */
public final class RandomGraphs {
    private record T(String name, int rows, boolean memberCandidate) { }

    private final SplittableRandom r;
    private final int n;
    private final int streams;
    private final GraphBuilder b;
    private final List<T> live = new ArrayList<>();
    private int next;

    private RandomGraphs(long seed, int streams) {
        this.r = new SplittableRandom(seed);
        this.n = 8 << r.nextInt(3);
        this.streams = streams;
        this.b = new GraphBuilder("random-" + seed);
    }

    /** A graph of {@code ops} ops (views included) on streams 0..streams-1. */
    public static Graph generate(long seed, int ops, int streams) {
        return new RandomGraphs(seed, Math.max(1, streams)).build(ops);
    }

    private Graph build(int ops) {
        String x = "in0";
        b.tensor(x, DType.F32, 2, n).input(x);
        live.add(new T(x, 2, false));
        if (r.nextBoolean()) {
            String x1 = "in1";
            b.tensor(x1, DType.F32, 1, n).input(x1, r.nextBoolean());
            live.add(new T(x1, 1, false));
        }
        while (b.opCount() < ops) step();
        List<String> outs = new ArrayList<>();
        outs.add(live.get(live.size() - 1).name);
        if (live.size() > 3 && r.nextBoolean()) {
            String extra = live.get(r.nextInt(live.size() - 1)).name;
            if (!extra.equals(outs.get(0)) && !extra.startsWith("in")) outs.add(extra);
        }
        for (String o : outs) b.output(o);
        return b.build();
    }

    private void step() {
        int k = r.nextInt(100);
        if (k < 20) unary();
        else if (k < 33) binary();
        else if (k < 41) matmul();
        else if (k < 50) view();
        else if (k < 57) slice();
        else if (k < 65) concat();
        else if (k < 71) concatLastAxis();
        else if (k < 77) transpose();
        else if (k < 83) conv();
        else if (k < 88) split();
        else if (k < 95) splitJoin();
        else copy();
    }

    private String tensor(int rows) {
        return tensor(new long[]{rows, n});
    }

    private String tensor(long[] shape) {
        String t = "t" + next++;
        b.tensor(t, DType.F32, shape);
        return t;
    }

    /** A third of the time, an in-place hint that liveness must refuse (the op's kernel cannot run in place). */
    private GraphBuilder.OpBuilder maybeWrongHint(GraphBuilder.OpBuilder op) {
        return r.nextInt(3) == 0 ? op.inPlace() : op;
    }

    private T pick() {
        // Prefer recent tensors so chains form, but reach back for branches.
        int i = live.size() - 1 - Math.min(live.size() - 1, (int) Math.abs(r.nextGaussian() * 3));
        return live.get(i);
    }

    private int stream() {
        return r.nextInt(streams);
    }

    private String opName() {
        return "op" + b.opCount();
    }

    private void unary() {
        T a = pick();
        String[] kinds = {OpKinds.RELU, OpKinds.SIGMOID, OpKinds.TANH, OpKinds.GELU};
        String y = tensor(a.rows);
        boolean inPlace = r.nextBoolean();
        GraphBuilder.OpBuilder op = b.op(opName(), kinds[r.nextInt(kinds.length)]).in(a.name).out(y).stream(stream());
        if (inPlace) op.inPlace();
        op.add();
        live.add(new T(y, a.rows, !inPlace));
    }

    private void binary() {
        T a = pick();
        T c = null;
        for (int tries = 0; tries < 8 && c == null; tries++) {
            T t = live.get(r.nextInt(live.size()));
            if (t.rows == a.rows) c = t;
        }
        if (c == null) c = a;
        String[] kinds = {OpKinds.ADD, OpKinds.MUL, OpKinds.SUB};
        String y = tensor(a.rows);
        boolean inPlace = r.nextBoolean() && !c.name.equals(a.name);
        GraphBuilder.OpBuilder op = b.op(opName(), kinds[r.nextInt(kinds.length)]).in(a.name, c.name).out(y).stream(stream());
        if (inPlace) op.inPlace();
        op.add();
        live.add(new T(y, a.rows, !inPlace));
    }

    private void matmul() {
        T a = pick();
        String w = "w" + next++;
        b.tensor(w, DType.F32, n, n).weight(w);
        String y = tensor(a.rows);
        maybeWrongHint(b.op(opName(), OpKinds.MATMUL).in(a.name, w).out(y).stream(stream())).add();
        live.add(new T(y, a.rows, true));
    }

    /** A view of {@code x} with another shape (same elements). */
    private String reshaped(String x, long... shape) {
        String v = tensor(shape);
        b.op(opName(), OpKinds.RESHAPE).in(x).out(v).view().stream(stream()).add();
        return v;
    }

    /** [rows, n] viewed as [rows, 2, n/2], transposed to [rows, n/2, 2], viewed as [rows, n]. */
    private void transpose() {
        T a = pick();
        String v = reshaped(a.name, a.rows, 2, n / 2);
        String t = tensor(new long[]{a.rows, n / 2, 2});
        maybeWrongHint(b.op(opName(), OpKinds.TRANSPOSE).in(v).out(t).attr("perm", new long[]{0, 2, 1}).stream(stream())).add();
        live.add(new T(reshaped(t, a.rows, n), a.rows, false));
    }

    /** [rows, n] viewed as an image 1 x rows x n, a 1-D convolution (kernel 3, padding 1), viewed back. */
    private void conv() {
        T a = pick();
        String v = reshaped(a.name, 1, a.rows, n);
        String w = "w" + next++;
        b.tensor(w, DType.F32, a.rows, a.rows, 3).weight(w);
        String c = tensor(new long[]{1, a.rows, n});
        maybeWrongHint(b.op(opName(), OpKinds.CONV).in(v, w).out(c).attr("kernel_shape", new long[]{3}).attr("pads", new long[]{1, 1})
                .stream(stream())).add();
        live.add(new T(reshaped(c, a.rows, n), a.rows, false));
    }

    /**
     * Two fresh [rows, n/2] matmul results concatenated along the last axis (axis 1 or -1): member
     * slices when rows is 1 (the outer extent is 1, so each input is one contiguous run of the
     * output), a copying Concat when rows is 2.
     */
    private void concatLastAxis() {
        T a = pick();
        String[] parts = new String[2];
        for (int i = 0; i < 2; i++) {
            String w = "w" + next++;
            b.tensor(w, DType.F32, n, n / 2).weight(w);
            parts[i] = tensor(new long[]{a.rows, n / 2});
            T src = i == 0 ? a : pick();
            b.op(opName(), OpKinds.MATMUL).in(src.rows == a.rows ? src.name : a.name, w).out(parts[i]).stream(stream()).add();
        }
        String y = tensor(a.rows);
        GraphBuilder.OpBuilder cat = b.op(opName(), OpKinds.CONCAT).in(parts).out(y).attr("axis", r.nextBoolean() ? 1L : -1L).stream(stream());
        if (a.rows == 1) cat.member(0, 0, 0).member(1, 0, 4L * (n / 2));
        cat.add();
        live.add(new T(y, a.rows, a.rows == 2));
    }

    /**
     * A Split: a 2-row tensor into its rows along axis 0 (outputs declared views), or any tensor
     * into two halves along the last axis (views half the time when it has one row, where the
     * halves are contiguous; computed otherwise), the halves then concatenated back swapped.
     */
    private void splitJoin() {
        T a = pick();
        if (a.rows == 2 && r.nextBoolean()) {
            String s0 = tensor(1), s1 = tensor(1);
            b.op(opName(), OpKinds.SPLIT).in(a.name).out(s0, s1).attr("axis", 0L).view(0, 0, 0).view(1, 0, 4L * n).stream(stream()).add();
            live.add(new T(s0, 1, false));
            live.add(new T(s1, 1, false));
            return;
        }
        String h0 = tensor(new long[]{a.rows, n / 2}), h1 = tensor(new long[]{a.rows, n / 2});
        GraphBuilder.OpBuilder split = b.op(opName(), OpKinds.SPLIT).in(a.name).out(h0, h1).attr("axis", r.nextBoolean() ? 1L : -1L).stream(stream());
        if (a.rows == 1 && r.nextBoolean()) split.view(0, 0, 0).view(1, 0, 4L * (n / 2));
        split.add();
        String y = tensor(a.rows);
        b.op(opName(), OpKinds.CONCAT).in(h1, h0).out(y).attr("axis", 1L).stream(stream()).add();
        live.add(new T(y, a.rows, true));
    }

    /** A 2-row tensor split into its two rows (slice views) while a view of all of it stays live: three overlapping views. */
    private void split() {
        T a = null;
        for (int i = live.size() - 1; i >= 0 && a == null; i--) if (live.get(i).rows == 2) a = live.get(i);
        if (a == null) {
            copy();
            return;
        }
        String whole = tensor(2);
        b.op(opName(), OpKinds.IDENTITY).in(a.name).out(whole).view().stream(stream()).add();
        for (int row = 0; row < 2; row++) {
            String s = tensor(1);
            b.op(opName(), OpKinds.SLICE).in(a.name).out(s).view(0, 0, 4L * n * row).stream(stream()).add();
            live.add(new T(s, 1, false));
        }
        live.add(new T(whole, 2, false));
    }

    private void copy() {
        T a = pick();
        String y = tensor(a.rows);
        b.op(opName(), OpKinds.COPY).in(a.name).out(y).stream(stream()).add();
        live.add(new T(y, a.rows, true));
    }

    /** A chain of one to three views. */
    private void view() {
        T a = pick();
        String[] kinds = {OpKinds.RESHAPE, OpKinds.IDENTITY, OpKinds.FLATTEN};
        int len = 1 + r.nextInt(3);
        String cur = a.name;
        for (int i = 0; i < len; i++) {
            String y = tensor(a.rows);
            b.op(opName(), kinds[r.nextInt(kinds.length)]).in(cur).out(y).view().stream(stream()).add();
            cur = y;
        }
        live.add(new T(cur, a.rows, false));
    }

    private void slice() {
        T a = null;
        for (int i = live.size() - 1; i >= 0 && a == null; i--) if (live.get(i).rows == 2 && r.nextInt(3) > 0) a = live.get(i);
        if (a == null) {
            unary();
            return;
        }
        String y = tensor(1);
        long offset = r.nextBoolean() ? 0 : 4L * n;
        b.op(opName(), OpKinds.SLICE).in(a.name).out(y).view(0, 0, offset).stream(stream()).add();
        live.add(new T(y, 1, false));
    }

    /** Two fresh 1-row op results written in place into a 2-row tensor. */
    private void concat() {
        List<T> c = new ArrayList<>();
        for (int i = live.size() - 1; i >= 0 && c.size() < 2; i--) {
            T t = live.get(i);
            if (t.memberCandidate && t.rows == 1) c.add(t);
        }
        if (c.size() < 2) {
            matmulRows1();
            return;
        }
        String y = tensor(2);
        b.op(opName(), OpKinds.CONCAT).in(c.get(1).name, c.get(0).name).out(y).attr("axis", 0L)
                .member(0, 0, 0).member(1, 0, 4L * n).stream(stream()).add();
        live.removeIf(t -> t == c.get(0) || t == c.get(1));
        live.add(new T(c.get(1).name, 1, false));
        live.add(new T(c.get(0).name, 1, false));
        live.add(new T(y, 2, false));
    }

    /** A 1-row result (so that concatenations find members). */
    private void matmulRows1() {
        T a = pick();
        String src = a.name;
        if (a.rows == 2) {
            String s = tensor(1);
            b.op(opName(), OpKinds.SLICE).in(a.name).out(s).view().stream(stream()).add();
            src = s;
        }
        String w = "w" + next++;
        b.tensor(w, DType.F32, n, n).weight(w);
        String y = tensor(1);
        b.op(opName(), OpKinds.MATMUL).in(src, w).out(y).stream(stream()).add();
        live.add(new T(y, 1, true));
    }
}
