package org.arenaplan.models;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The models {@code --model NAME} builds. Each takes its options as strings (the command line's
 * {@code --layers 4} as {@code layers -> "4"}, with or without the dashes); every model also
 * takes {@code dtype} (float32 by default).
 */
public final class BuiltinModels {
    private static final Map<String, Model> MODELS = new LinkedHashMap<>();

    static {
        for (Model m : List.of(new ChainModel(), new MlpModel(), new TransformerModel(), new ResNetModel(),
                new InceptionModel(), new UNetModel(), new TrainMlpModel(), new RandWireModel(true), new RandWireModel(false))) {
            MODELS.put(m.name(), m);
        }
    }

    private BuiltinModels() { }

    public static List<String> names() {
        return List.copyOf(MODELS.keySet());
    }

    /**
     * @throws IllegalArgumentException for an unknown model, an unknown option, or a value that
     *                                  cannot be read; the message names it and the valid choices
     */
    public static Graph build(String name, Map<String, String> options) {
        Model m = model(name);
        ModelOptions o = ModelOptions.of(m.name(), defaults(m), m.limits(), options);
        try {
            return m.build(o);
        } catch (GraphException e) {
            // Options too large for a tensor's byte size to fit in a long end here.
            throw new IllegalArgumentException("model '" + name + "' cannot be built with these options: " + e.getMessage(), e);
        }
    }

    /** Every option of the model with its default value, dtype last. */
    public static Map<String, String> defaults(String name) {
        return defaults(model(name));
    }

    /** The largest value of each count option of the model that has one ({@link Model#limits}). */
    public static Map<String, Integer> limits(String name) {
        return model(name).limits();
    }

    /** One line saying what the model is. */
    public static String summary(String name) {
        return model(name).summary();
    }

    private static Map<String, String> defaults(Model m) {
        Map<String, String> d = new LinkedHashMap<>(m.defaults());
        d.put("dtype", "float32");
        return d;
    }

    private static Model model(String name) {
        Model m = MODELS.get(name);
        if (m == null) throw new IllegalArgumentException("unknown model '" + name + "'; built-in models: " + String.join(", ", MODELS.keySet()));
        return m;
    }
}
