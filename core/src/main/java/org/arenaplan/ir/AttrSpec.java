package org.arenaplan.ir;

import java.util.Arrays;

/**
 * One attribute an op kind takes, as {@link OpRegistry} declares it: name (ONNX spelling),
 * type, default, and the range every value (every element of a list) must lie in.
 *
 * <p>Values in an {@link Op} are {@code Long} (also {@code Integer}), {@code Double},
 * {@code String}, {@code String[]}, {@code long[]} (also {@code int[]}) or {@code double[]}. A {@link Type#FLOAT}
 * attribute accepts a whole number too (JSON writes 1.0 as 1). Per-axis lists
 * ({@link #perAxis} > 0) default to {@link #fill} repeated {@code perAxis} times per spatial axis
 * (pads: 2 per axis, begins then ends, as ONNX orders them).
 *
 * <p>A {@link Type#FLOAT} attribute's numeric default is held as the float32 nearest the number
 * declared (a {@link Float}: LeakyRelu's {@code alpha} 0.01 is 0.00999999977648258209228515625):
 * ONNX's {@code AttributeProto} holds a FLOAT attribute as {@code float f} (onnx.proto), so an
 * ONNX file's value and ONNX Runtime's default are float32, and a default computed with the
 * nearer double would differ from ONNX Runtime's output in the last bit. Printed, the default
 * reads as declared ({@code Float.toString}: 0.01).
 *
 * @param required true when there is no default and the op must give the attribute
 * @param dflt     the default of a scalar attribute (a FLOAT's as a {@link Float}, see above); for a
 *                 list, a description of its default for the docs (the passes derive it:
 *                 {@link OpAttrs#perAxis}); null when required
 * @param min      smallest allowed value (integers, list elements); ignored for floats and strings
 * @param max      largest allowed value
 * @param perAxis  values per spatial axis of a per-axis list (1, or 2 for pads), 0 otherwise
 * @param fill     the default element of a per-axis list
 */
public record AttrSpec(String name, Type type, boolean required, Object dflt, long min, long max, int perAxis, long fill) {
    public enum Type {
        INT("an integer"), FLOAT("a number"), STRING("a string"), INTS("a list of integers"), FLOATS("a list of numbers"),
        STRINGS("a list of strings");

        private final String words;

        Type(String words) { this.words = words; }

        public String words() { return words; }
    }

    public AttrSpec {
        if (type == Type.FLOAT && dflt instanceof Number n) dflt = n.floatValue();   // float32, as AttributeProto's float f (see above)
    }

    /** Largest kernel size, stride, pad, dilation or group: kernels index with 32-bit integers. */
    public static final long MAX_INT32 = Integer.MAX_VALUE;
    /** Largest rank an axis attribute may name before the shapes are known. */
    public static final int MAX_RANK = 64;

    public static AttrSpec integer(String name, long dflt, long min, long max) {
        return new AttrSpec(name, Type.INT, false, dflt, min, max, 0, 0);
    }

    public static AttrSpec requiredInteger(String name, long min, long max) {
        return new AttrSpec(name, Type.INT, true, null, min, max, 0, 0);
    }

    /** A 0/1 flag. */
    public static AttrSpec flag(String name) {
        return integer(name, 0, 0, 1);
    }

    /** An axis: counted from the end when negative; checked against the rank once shapes are known. */
    public static AttrSpec axis(String name, long dflt) {
        return integer(name, dflt, -MAX_RANK, MAX_RANK - 1);
    }

    public static AttrSpec requiredAxis(String name) {
        return requiredInteger(name, -MAX_RANK, MAX_RANK - 1);
    }

    /** A float whose default is {@code dflt}, held as the float32 nearest it (see the class comment). */
    public static AttrSpec real(String name, double dflt) {
        return new AttrSpec(name, Type.FLOAT, false, dflt, 0, 0, 0, 0);
    }

    /** A float with no default: absent means the feature is off ({@code dflt} says so in the docs). */
    public static AttrSpec optionalReal(String name, String dflt) {
        return new AttrSpec(name, Type.FLOAT, false, dflt, 0, 0, 0, 0);
    }

    /** A string (Resize's mode, Pad's mode, the scatter reductions); the values it may take are checked where it is read. */
    public static AttrSpec string(String name, String dflt) {
        return new AttrSpec(name, Type.STRING, false, dflt, 0, 0, 0, 0);
    }

    /** A list of strings whose default the op derives ({@code dflt} describes it). */
    public static AttrSpec strings(String name, String dflt) {
        return new AttrSpec(name, Type.STRINGS, false, dflt, 0, 0, 0, 0);
    }

    /** A list of numbers; {@code dflt} describes the default, or null when it is required. */
    public static AttrSpec reals(String name, String dflt) {
        return new AttrSpec(name, Type.FLOATS, dflt == null, dflt, 0, 0, 0, 0);
    }

    /** A per-spatial-axis list of integers (kernel_shape, strides, pads, dilations). */
    public static AttrSpec perAxis(String name, boolean required, long min, int perAxis, long fill) {
        return new AttrSpec(name, Type.INTS, required, required ? null : fill + (perAxis == 2 ? " at both ends of each axis" : " per axis"), min, MAX_INT32, perAxis, fill);
    }

    /** A per-axis list whose default is not a fill (Conv's kernel_shape: the weight's extents). */
    public static AttrSpec perAxis(String name, long min, String dflt) {
        return new AttrSpec(name, Type.INTS, false, dflt, min, MAX_INT32, 1, 0);
    }

    /** A list of integers whose default depends on the input (Transpose's perm: reversed axes). */
    public static AttrSpec ints(String name, long min, long max, String dflt) {
        return new AttrSpec(name, Type.INTS, false, dflt, min, max, 0, 0);
    }

    /** {@code a} as Arrays.toString writes it, its middle elided past 16 entries (a file may give a perm of 100,000: one line, not 600 KB). */
    static String brief(long[] a) {
        if (a.length <= 16) return Arrays.toString(a);
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < 8; i++) b.append(a[i]).append(", ");
        return b.append("..., ").append(a[a.length - 1]).append("] (").append(a.length).append(" entries)").toString();
    }

    /**
     * Why {@code v} is not a valid value of this attribute, or null when it is.
     * Messages read "attribute 'axis' ..." with the value shown.
     */
    public String problem(Object v) {
        String head = "attribute '" + name + "' ";
        switch (type) {
            case INT: {
                if (!(v instanceof Long || v instanceof Integer)) return head + "must be " + type.words() + ", got " + show(v);
                long x = ((Number) v).longValue();
                return x < min || x > max ? head + "= " + x + " is out of range [" + min + ", " + max + "]" : null;
            }
            case FLOAT: {
                if (!(v instanceof Number n)) return head + "must be " + type.words() + ", got " + show(v);
                return Double.isFinite(n.doubleValue()) ? null : head + "must be finite, got " + n;
            }
            case STRING:
                return v instanceof String ? null : head + "must be " + type.words() + ", got " + show(v);
            case INTS: {
                long[] a = asLongs(v);
                if (a == null) return head + "must be " + type.words() + ", got " + show(v);
                for (long x : a) if (x < min || x > max) return head + brief(a) + " holds " + x + ", out of range [" + min + ", " + max + "]";
                return null;
            }
            case STRINGS:
                return v instanceof String[] ? null : head + "must be " + type.words() + ", got " + show(v);
            case FLOATS: {
                if (!(v instanceof double[] d)) return head + "must be " + type.words() + ", got " + show(v);
                for (double x : d) if (!Double.isFinite(x)) return head + "must hold finite numbers, got " + x;
                return null;
            }
            default:
                throw new IllegalStateException(type.toString());
        }
    }

    /** A list-of-integers value as {@code long[]}, or null when {@code v} is not one. */
    static long[] asLongs(Object v) {
        if (v instanceof long[] a) return a.clone();
        if (v instanceof int[] a) return Arrays.stream(a).asLongStream().toArray();
        return null;
    }

    static String show(Object v) {
        if (v == null) return "nothing";
        if (v instanceof String s) return "the string \"" + s + "\"";
        if (v instanceof long[] a) return "the list " + Arrays.toString(a);
        if (v instanceof int[] a) return "the list " + Arrays.toString(a);
        if (v instanceof double[] a) return "the list " + Arrays.toString(a);
        if (v instanceof String[] a) return "the list " + Arrays.toString(a);
        if (v instanceof Double || v instanceof Float) return "the number " + v;
        if (v instanceof Number) return "the integer " + v;
        return "a " + v.getClass().getSimpleName();
    }
}
