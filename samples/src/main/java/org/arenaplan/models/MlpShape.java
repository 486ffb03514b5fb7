package org.arenaplan.models;

import java.util.LinkedHashMap;
import java.util.Map;

/** The options both MLP models take: layers, width and batch of [batch, width] activations. */
record MlpShape(int layers, long width, long batch) {
    static Map<String, String> defaults(int layers, int width, int batch) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("layers", Integer.toString(layers));
        d.put("width", Integer.toString(width));
        d.put("batch", Integer.toString(batch));
        return d;
    }

    static MlpShape of(ModelOptions o) {
        return new MlpShape(o.positiveInt("layers"), o.positiveInt("width"), o.positiveInt("batch"));
    }
}
