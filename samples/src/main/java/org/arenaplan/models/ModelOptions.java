package org.arenaplan.models;

import org.arenaplan.ir.DType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A model's option values as the command line gives them ({@code --layers 4} becomes
 * {@code layers -> "4"}), merged over the model's defaults. Every lookup that cannot be read
 * throws {@link IllegalArgumentException} naming the model, the option and the value.
 */
final class ModelOptions {
    private final String model;
    private final Map<String, String> values;
    private final Map<String, Integer> limits;

    private ModelOptions(String model, Map<String, String> values, Map<String, Integer> limits) {
        this.model = model;
        this.values = values;
        this.limits = limits;
    }

    /**
     * @param defaults every option the model knows, with its default
     * @param limits   the largest value of each count option ({@link Model#limits})
     * @param given    the caller's values; keys may carry leading dashes; null means none
     */
    static ModelOptions of(String model, Map<String, String> defaults, Map<String, Integer> limits, Map<String, String> given) {
        Map<String, String> merged = new LinkedHashMap<>(defaults);
        if (given != null) {
            for (Map.Entry<String, String> e : given.entrySet()) {
                String key = stripDashes(e.getKey());
                if (!defaults.containsKey(key)) {
                    throw new IllegalArgumentException("model '" + model + "' has no option '--" + key + "'; its options: " + describe(defaults));
                }
                if (e.getValue() == null) throw new IllegalArgumentException("model '" + model + "': option --" + key + " needs a value");
                merged.put(key, e.getValue().trim());
            }
        }
        return new ModelOptions(model, merged, Map.copyOf(limits));
    }

    private static String describe(Map<String, String> defaults) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : defaults.entrySet()) {
            if (b.length() > 0) b.append(", ");
            b.append("--").append(e.getKey()).append(" (default ").append(e.getValue()).append(')');
        }
        return b.toString();
    }

    private static String stripDashes(String key) {
        String k = key == null ? "" : key.trim();
        while (k.startsWith("-")) k = k.substring(1);
        return k;
    }

    /** A whole number of at least 1 and at most the option's limit ({@link Model#limits}; 2^31-1 when it has none). */
    int positiveInt(String key) {
        String v = raw(key);
        int max = limits.getOrDefault(key, Integer.MAX_VALUE);
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= max) return n;
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new IllegalArgumentException("model '" + model + "': option --" + key + " must be a positive integer of at most " + max
                + (max < Integer.MAX_VALUE ? " (a larger graph would take minutes and gigabytes to build and plan)" : "") + ", got '" + v + "'");
    }

    /** A number in [0, 1]. */
    double fraction(String key) {
        String v = raw(key);
        try {
            double d = Double.parseDouble(v);
            if (d >= 0 && d <= 1) return d;
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new IllegalArgumentException("model '" + model + "': option --" + key + " must be a number from 0 to 1, got '" + v + "'");
    }

    boolean bool(String key) {
        String v = raw(key).toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("yes") || v.equals("1")) return true;
        if (v.equals("false") || v.equals("no") || v.equals("0")) return false;
        throw new IllegalArgumentException("model '" + model + "': option --" + key + " must be true or false, got '" + raw(key) + "'");
    }

    String choice(String key, List<String> choices) {
        String v = raw(key).toLowerCase(Locale.ROOT);
        if (choices.contains(v)) return v;
        throw new IllegalArgumentException("model '" + model + "': option --" + key + " must be one of " + String.join(", ", choices) + ", got '" + raw(key) + "'");
    }

    /** The element type of every tensor (option {@code dtype}). */
    DType dtype() {
        DType d = DType.parse(raw("dtype"));
        if (d == null) {
            throw new IllegalArgumentException("model '" + model + "': option --dtype must be an element type such as float32, float16, bfloat16, float64, got '" + raw("dtype") + "'");
        }
        return d;
    }

    private String raw(String key) {
        String v = values.get(key);
        if (v == null) throw new IllegalStateException("model '" + model + "' reads undeclared option '" + key + "'");
        return v;
    }
}
