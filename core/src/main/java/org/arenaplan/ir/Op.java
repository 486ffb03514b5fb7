package org.arenaplan.ir;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scheduled operation. Besides its inputs and outputs an op may declare:
 * <ul>
 *   <li>{@link View}: output k shares storage with input j at a byte offset (reshape, flatten,
 *       identity, slice...). Views issue no device work.</li>
 *   <li>{@link Member}: input j was written straight into output k at a byte offset (concat in
 *       place): one allocation with several member slices.</li>
 *   <li>{@link InPlace}: output k may be written over input j; the planner folds it only where legal.</li>
 * </ul>
 * Which of these a kind allows, its attributes and their defaults are its {@link OpRegistry}
 * entry's ({@link OpChecks}, {@link OpAttrs}).
 */
public record Op(String name, String kind, List<String> inputs, List<String> outputs, int stream,
                 Map<String, Object> attrs, List<View> views, List<Member> members, List<InPlace> inPlace) {

    /** The highest stream an op may run on: the copy stream of {@code hb.CopyPlan} takes the number after the last. */
    public static final int MAX_STREAM = Integer.MAX_VALUE - 1;

    /** Output {@code output} is a view of input {@code input}, starting {@code byteOffset} bytes into it. */
    public record View(int output, int input, long byteOffset) { }

    /** Input {@code input} lives inside output {@code output}, {@code byteOffset} bytes into it. */
    public record Member(int input, int output, long byteOffset) { }

    /** Output {@code output} may overwrite input {@code input} (elementwise ops). */
    public record InPlace(int output, int input) { }

    public Op {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        attrs = attrs == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attrs));
        views = views == null ? List.of() : List.copyOf(views);
        members = members == null ? List.of() : List.copyOf(members);
        inPlace = inPlace == null ? List.of() : List.copyOf(inPlace);
    }

    /**
     * True when the op moves no bytes on the device: every output is a view of an input, or every
     * input is a member slice of the output. Its reads are not runtime reads.
     */
    public boolean isStorageOnly() {
        if (!outputs.isEmpty() && views.size() == outputs.size()) return true;
        return !inputs.isEmpty() && members.size() == inputs.size();
    }

    /** Whether input j is read by device work of this op (not a view source, not a member slice). */
    public boolean readsAtRuntime(int inputIndex) {
        if (isStorageOnly()) return false;
        for (Member m : members) if (m.input() == inputIndex) return false;
        return true;
    }

    /** Whether output k is computed by this op (not a view). */
    public boolean writesAtRuntime(int outputIndex) {
        for (View v : views) if (v.output() == outputIndex) return false;
        return true;
    }

    @Override
    public String toString() {
        return name + ":" + kind + inputs + "->" + outputs + (stream == 0 ? "" : "@s" + stream);
    }
}
