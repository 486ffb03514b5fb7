package org.arenaplan.report;

import java.util.List;

/** Colours of plan pictures: one per storage kind, or one per stream. */
final class Palette {
    /** {@code Storage.kind()} values in legend order, and their colours. */
    static final List<String> KINDS = List.of("activation", "aliased", "output", "input", "donated-input");
    private static final List<String> KIND_COLOURS = List.of("#4e79a7", "#b07aa1", "#f28e2b", "#9d9d9d", "#59a14f");

    /** Stream colours (Tableau 10 without grey, which marks graph inputs). */
    private static final List<String> STREAM_COLOURS = List.of("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
            "#edc948", "#b07aa1", "#ff9da7", "#9c755f");

    static final String INPUT_GREY = "#9d9d9d";
    static final String PLAIN = "#4e79a7";

    private Palette() { }

    static String kindColour(String kind) {
        int i = KINDS.indexOf(kind);
        if (i < 0) throw new IllegalArgumentException("unknown storage kind '" + kind + "'");
        return KIND_COLOURS.get(i);
    }

    static String streamColour(int ordinal) {
        return STREAM_COLOURS.get(ordinal % STREAM_COLOURS.size());
    }
}
