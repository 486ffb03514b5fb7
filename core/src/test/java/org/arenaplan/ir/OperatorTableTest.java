package org.arenaplan.ir;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** README's operator table is the registry, rendered: it cannot drift from what the code enforces. */
class OperatorTableTest {

    static String table() {
        StringBuilder s = new StringBuilder("| op | inputs | attributes (default) | view | in place over input | member slices | kernels | computes |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (OpSpec o : OpRegistry.all()) {
            String inputs = o.minInputs() == o.maxInputs() ? "" + o.minInputs()
                    : o.maxInputs() == Integer.MAX_VALUE ? o.minInputs() + "+" : o.minInputs() + "-" + o.maxInputs();
            if (o.maxOutputs() > 1) inputs += " (outputs: " + (o.maxOutputs() == Integer.MAX_VALUE ? o.minOutputs() + "+" : o.minOutputs() + "-" + o.maxOutputs()) + ")";
            List<String> attrs = new ArrayList<>();
            for (AttrSpec a : o.attrs()) attrs.add("`" + a.name() + "`" + (a.required() ? " (required)" : a.dflt() != null ? " (" + a.dflt() + ")" : ""));
            String view = switch (o.view()) {
                case NONE -> "no";
                case WHOLE -> "all of input 0";
                case LEADING_SLICE -> "whole leading rows of input 0";
                case SPLIT -> "output k at its part of input 0, when every extent before `axis` is 1";
            };
            List<String> inPlace = new ArrayList<>();
            for (int j : new TreeSet<>(o.inPlaceInputs())) inPlace.add("" + j);
            if (o.inPlaceGroups() != null) inPlace.add(o.inPlaceGroups().describe());
            List<String> kernels = new ArrayList<>();
            for (String k : o.kernels()) kernels.add("`" + k + "`");
            s.append("| ").append(o.kind()).append(" | ").append(inputs).append(" | ").append(attrs.isEmpty() ? "none" : String.join(", ", attrs))
                    .append(" | ").append(view).append(" | ").append(inPlace.isEmpty() ? "no" : String.join(", ", inPlace))
                    .append(" | ").append(o.members() ? "when every extent before `axis` is 1" : "no")
                    .append(" | ").append(String.join(", ", kernels))
                    .append(" | ").append(o.computes().isEmpty() ? "as its kernels" : String.join(", ", o.computes().stream().map(org.arenaplan.ir.DType::jsonName).toList()))
                    .append(" |\n");
        }
        return s.toString();
    }

    @Test
    void readmeListsEveryOperatorAsTheRegistryDeclaresIt() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme);
        assertThat(text).as("README.md's operator table; the registry renders it as:\n" + table()).contains(table());
    }
}
