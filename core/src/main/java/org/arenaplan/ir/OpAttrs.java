package org.arenaplan.ir;

import java.util.Arrays;

/**
 * An op's attributes read through its {@link OpSpec}: a missing attribute gives the declared
 * default, so no pass writes a default of its own. Values are assumed checked
 * ({@link OpChecks#check}); a kind outside the registry has no defaults.
 */
public final class OpAttrs {
    private final Op op;
    private final OpSpec spec;

    private OpAttrs(Op op, OpSpec spec) {
        this.op = op;
        this.spec = spec;
    }

    public static OpAttrs of(Op op) {
        return new OpAttrs(op, OpRegistry.get(op.kind()));
    }

    public Op op() { return op; }

    public boolean has(String name) {
        return op.attrs().containsKey(name);
    }

    /** An integer attribute, or its declared default. */
    public long integer(String name) {
        Object v = op.attrs().get(name);
        if (v instanceof Number n) return n.longValue();
        return ((Number) declared(name).dflt()).longValue();
    }

    /** A float attribute, or its declared default. */
    public double real(String name) {
        Object v = op.attrs().get(name);
        if (v instanceof Number n) return n.doubleValue();
        return ((Number) declared(name).dflt()).doubleValue();
    }

    /** A string attribute, or its declared default (null when it has none). */
    public String string(String name) {
        Object v = op.attrs().get(name);
        if (v instanceof String str) return str;
        return (String) declared(name).dflt();
    }

    /** A list of strings, or null when absent (the caller derives the default). */
    public String[] stringsOrNull(String name) {
        Object v = op.attrs().get(name);
        return v instanceof String[] s ? s.clone() : null;
    }

    /** A list of numbers, or null when absent (the caller derives the default). */
    public double[] realsOrNull(String name) {
        Object v = op.attrs().get(name);
        return v instanceof double[] d ? d.clone() : null;
    }

    /** A list of integers, or null when absent (the caller derives the default, e.g. Transpose's perm). */
    public long[] intsOrNull(String name) {
        return AttrSpec.asLongs(op.attrs().get(name));
    }

    /** Transpose's perm for an input of {@code rank} axes (the axes reversed when absent); {@link GraphException} when it is not a permutation. */
    public long[] permutation(int rank) {
        return ShapeRules.permutation(this, rank);
    }

    /**
     * A per-spatial-axis list for an image with {@code spatial} spatial axes: the value given, or
     * the declared fill repeated. Throws {@link GraphException} when a required one is missing or
     * the length is not {@code perAxis * spatial}.
     */
    public long[] perAxis(String name, int spatial) {
        AttrSpec a = declared(name);
        long[] v = intsOrNull(name);
        if (v == null) {
            if (a.required()) throw new GraphException("attribute '" + name + "' is required");
            v = new long[a.perAxis() * spatial];
            Arrays.fill(v, a.fill());
        }
        if (v.length != a.perAxis() * spatial)
            throw new GraphException("attribute '" + name + "' " + Arrays.toString(v) + " must have " + a.perAxis() * spatial
                    + " values for " + spatial + " spatial axes");
        return v;
    }

    private AttrSpec declared(String name) {
        AttrSpec a = spec == null ? null : spec.attr(name);
        if (a == null) throw new IllegalStateException(op.kind() + " declares no attribute '" + name + "'");
        return a;
    }
}
