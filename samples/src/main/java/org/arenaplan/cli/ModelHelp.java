package org.arenaplan.cli;

import org.arenaplan.models.BuiltinModels;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The built-in models in the help text: a section listing every model with its options and
 * defaults (the footer of {@code plan --help} and {@code run --help}), and the help of one model
 * ({@code plan --model mlp --help}).
 */
final class ModelHelp {
    private ModelHelp() { }

    /** Footer lines: every model's name and its options with their defaults (each line under 80 columns). */
    static String[] footer(String command) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Built-in models (--model NAME, then its options; defaults shown):");
        for (String m : BuiltinModels.names()) {
            lines.add("  " + m);
            lines.add("    " + options(m));
        }
        lines.add("'arenaplan " + command + " --model NAME --help' describes one model.");
        return lines.toArray(String[]::new);
    }

    /** The help of one model under a command ({@code plan} or {@code run}). */
    static String of(String command, String model) {
        Map<String, String> defaults = BuiltinModels.defaults(model);   // IllegalArgumentException names the known models
        StringBuilder b = new StringBuilder();
        b.append("Usage: arenaplan ").append(command).append(" --model ").append(model);
        for (String k : defaults.keySet()) b.append(" [--").append(k).append(" VALUE]");
        b.append(" [").append(command).append("'s flags]\n");
        b.append(BuiltinModels.summary(model)).append('\n');
        b.append("Options (default):\n");
        Map<String, Integer> limits = BuiltinModels.limits(model);
        for (Map.Entry<String, String> e : defaults.entrySet())
            b.append(String.format("  --%-10s %s%s%n", e.getKey(), e.getValue(), limits.containsKey(e.getKey()) ? " (at most " + limits.get(e.getKey()) + ")" : ""));
        b.append("Also written --OPTION=VALUE. ").append(command).append("'s own flags: 'arenaplan ").append(command).append(" --help'.\n");
        return b.toString();
    }

    /** {@code --dim 256 --inplace all ...}. */
    static String options(String model) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : BuiltinModels.defaults(model).entrySet()) {
            if (b.length() > 0) b.append(' ');
            b.append("--").append(e.getKey()).append(' ').append(e.getValue());
        }
        return b.toString();
    }
}
