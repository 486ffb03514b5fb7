package org.arenaplan.ir;

import org.arenaplan.io.Printable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether an op kind outside {@link OpRegistry} is a misspelling of one inside it ("Tranpose",
 * "transpose"), and the words every command uses to say so ({@code unknown op kind 'Tranpose';
 * did you mean 'Transpose'?}). A kind outside the registry is opaque (planning trusts its
 * declarations), so a misspelt one would silently plan what the real kind forbids; {@code plan}
 * warns about a near miss (refuses it with {@code --strict}) and {@code run} names it when it
 * refuses the kind.
 *
 * <p><b>The near-miss rule</b> (written only here). Names are compared ignoring case, with the
 * optimal-string-alignment Damerau-Levenshtein distance (insertions, deletions, substitutions
 * and swaps of adjacent letters, each one edit). With L the length of the shorter of the two
 * names, a kind is a near miss of a registry kind when the two are
 * <ul>
 *   <li>equal ignoring case (any L: {@code matmul}, {@code RELU});</li>
 *   <li>L = 4: one swap of adjacent letters ({@code Rleu}, {@code Cpoy});</li>
 *   <li>5 &le; L &le; 8: at most 1 edit ({@code Tranpose}, {@code Concatt});</li>
 *   <li>L &ge; 9: at most 2 edits ({@code BatchNormalizaton}, {@code LayerNormalisation}).</li>
 * </ul>
 * Shorter names get no edits: the registry is dense there (Sin, Sinh, Sign, Selu, Celu, Elu...),
 * so one edit would take genuine kinds for typos ({@code Silu} for Selu, {@code Sort} for Sqrt,
 * {@code Shape} for Reshape, {@code Op} for Or). A kind holding a '.' ({@code com.acme.EluGrad})
 * names its domain and is never a near miss: that is how a custom kind keeps a name close to a
 * registry kind. Cost: one distance per registry kind, O(|kind| x |registry kind|) each, only for
 * kinds outside the registry.
 */
public final class OpKindSpelling {
    private OpKindSpelling() { }

    /**
     * The registry kinds {@code kind} is a near miss of (the closest ones, in the table's order),
     * or none: for a registry kind, a kind with a domain ('.'), or one no registry kind is near.
     */
    public static List<String> nearMisses(String kind) {
        if (OpRegistry.knows(kind) || kind.indexOf('.') >= 0) return List.of();
        return nearMisses(kind, OpRegistry.all().stream().map(OpSpec::kind).toList());
    }

    /**
     * The names of {@code among} that {@code kind} is a near miss of, by the rule of the class
     * comment (the closest ones, in {@code among}'s order), or none; {@code kind} itself is never
     * its own near miss. Used for the ONNX op types the importer supports as well as the registry.
     */
    public static List<String> nearMisses(String kind, Collection<String> among) {
        List<String> best = new ArrayList<>();
        int bestDistance = Integer.MAX_VALUE;
        for (String k : among) {
            if (k.equals(kind) || Math.abs(k.length() - kind.length()) > 2) continue;   // then more than 2 edits apart
            int d = distance(kind, k);
            if (!near(kind, k, d) || d > bestDistance) continue;
            if (d < bestDistance) best.clear();
            bestDistance = d;
            best.add(k);
        }
        return List.copyOf(best);
    }

    /** {@code ; did you mean 'X'?} (or {@code 'X' or 'Y'}) for the names of {@code among} that {@code kind} nearly spells, else empty. */
    public static String suggestion(String kind, Collection<String> among) {
        return didYouMean(nearMisses(kind, among));
    }

    /**
     * Why {@code kind} cannot name an op, or null when it can: it must not be empty, start or end
     * with white space, hold a control character (a newline would split the one-line messages
     * that name it), or have an empty part around a '.' (a domain is {@code domain.Name}). Inner
     * spaces are allowed (an opaque kind is any name).
     */
    public static String malformed(String kind) {
        if (kind.isBlank()) return "an op kind must not be empty";
        if (!kind.strip().equals(kind)) return "op kind '" + Printable.name(kind.strip()) + "' has white space around it";
        for (int i = 0; i < kind.length(); i++) {
            if (Character.isISOControl(kind.charAt(i))) return "op kind holds a control character (U+" + String.format(Locale.ROOT, "%04X", (int) kind.charAt(i)) + ")";
        }
        if (kind.startsWith(".") || kind.endsWith(".") || kind.contains("..")) return "op kind '" + Printable.name(kind) + "' has an empty part around a '.' (a domain is written domain.Name)";
        return null;
    }

    /** {@code unknown op kind 'K'}: how every command names a kind outside the registry. */
    public static String unknown(String kind) {
        return "unknown op kind '" + Printable.name(kind) + "'";
    }

    /** {@code ; did you mean 'Transpose'?} (or {@code 'ReluGrad' or 'GeluGrad'}) for a near miss, else empty. */
    public static String suggestion(String kind) {
        return didYouMean(nearMisses(kind));
    }

    private static String didYouMean(List<String> near) {
        if (near.isEmpty()) return "";
        return "; did you mean '" + String.join("' or '", near) + "'?";
    }

    /**
     * An op of {@code g} whose kind is a near miss: the first op of that kind, its position in
     * the schedule, and how many later ops have the same kind.
     */
    public record NearMiss(Op op, int position, int moreOfKind) {
        /** {@code op 't' (Tranpose, position 1): unknown op kind 'Tranpose'; did you mean 'Transpose'?} */
        public String line() {
            return "op '" + Printable.name(op.name()) + "' (" + Printable.name(op.kind()) + ", position " + position + ")"
                    + (moreOfKind == 0 ? "" : " and " + moreOfKind + " later op" + (moreOfKind == 1 ? "" : "s") + " of that kind")
                    + ": " + unknown(op.kind()) + suggestion(op.kind());
        }
    }

    /**
     * Why strict planning ({@code plan --strict}, {@code ArenaPlanner.Options#strict}) refuses
     * {@code m}: its {@link NearMiss#line()} and how to keep a custom kind of that name.
     */
    public static String strictRefusal(NearMiss m) {
        return m.line() + " (--strict refuses a kind this close to one of the registry;"
                + " a custom kind of that name: write it with a domain, e.g. 'custom." + m.op().kind() + "')";
    }

    /** One {@link NearMiss} per distinct near-miss kind of {@code g}, in the order their first ops run. */
    public static List<NearMiss> in(Graph g) {
        List<Op> ops = g.ops();
        Map<String, Boolean> isNear = new HashMap<>();
        Map<String, int[]> firstAndCount = new LinkedHashMap<>();   // near-miss kind -> {first position, ops}
        for (int p = 0; p < ops.size(); p++) {
            String kind = ops.get(p).kind();
            if (!isNear.computeIfAbsent(kind, k -> !nearMisses(k).isEmpty())) continue;
            final int first = p;
            firstAndCount.computeIfAbsent(kind, k -> new int[]{first, 0})[1]++;
        }
        List<NearMiss> out = new ArrayList<>();
        for (int[] fc : firstAndCount.values()) out.add(new NearMiss(ops.get(fc[0]), fc[0], fc[1] - 1));
        return out;
    }

    /** The rule of the class comment, given the distance {@code d} of {@code a} and {@code b}. */
    private static boolean near(String a, String b, int d) {
        int shorter = Math.min(a.length(), b.length());
        if (d == 0) return true;
        if (shorter >= 9) return d <= 2;
        if (shorter >= 5) return d <= 1;
        return shorter == 4 && d == 1 && a.length() == b.length() && sameLetters(a, b);   // then the one edit is a swap
    }

    private static boolean sameLetters(String a, String b) {
        char[] x = a.toLowerCase(Locale.ROOT).toCharArray(), y = b.toLowerCase(Locale.ROOT).toCharArray();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y);
    }

    /** The distance of the class comment (the one {@link OpChecks} suggests attribute names by), ignoring case. */
    static int distance(String a, String b) {
        return OpChecks.editDistance(a.toLowerCase(Locale.ROOT), b.toLowerCase(Locale.ROOT));
    }
}
