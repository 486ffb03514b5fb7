package org.arenaplan.io;

/**
 * Text read from a file (a tensor, node or file name) made safe for the one line a message is
 * printed on: every control character (C0, DEL and C1, {@link Character#isISOControl}) and the
 * two Unicode line and paragraph separators (U+2028, U+2029, which Java's {@code \R} counts as
 * line breaks) written as {@code \\uXXXX}. A name holding a newline would otherwise split the
 * line, a carriage return overwrite its start, and an ANSI escape (ESC, U+001B) clear or
 * recolour the terminal.
 *
 * <p>And short: a name quoted in a message ({@link #name}) shows its first {@link #NAME_CHARS}
 * characters then {@code "… (N chars)"}; a whole line ({@link #of}) past {@link #LINE_CHARS}
 * characters keeps its start and its end around {@code "… (N chars left out) …"}. A 1 MB node
 * name printed whole is a 1 MB error line.
 */
public final class Printable {
    /** The characters of a name shown in a message; longer names are cut there. */
    public static final int NAME_CHARS = 200;
    /** The longest line {@link #of} returns whole (plus the marker of what it leaves out). */
    public static final int LINE_CHARS = 8_000;
    /** Of a longer line: the characters kept from its end (the rest from its start). */
    private static final int LINE_TAIL = 800;

    private Printable() { }

    /**
     * {@code s} with each such character as {@code \\uXXXX} (lower-case hex); past
     * {@link #LINE_CHARS} characters its first and last characters around
     * {@code "… (N chars left out) …"}; {@code s} itself when it has neither.
     */
    public static String of(String s) {
        if (s.length() <= LINE_CHARS) return escaped(s);
        int head = cut(s, LINE_CHARS - LINE_TAIL);
        int from = Character.isLowSurrogate(s.charAt(s.length() - LINE_TAIL)) ? s.length() - LINE_TAIL + 1 : s.length() - LINE_TAIL;
        return escaped(s.substring(0, head)) + "… (" + (from - head) + " chars left out) …" + escaped(s.substring(from));
    }

    /**
     * A name from the user's file, for a message: escaped as {@link #of} escapes; a name longer
     * than {@link #NAME_CHARS} characters is cut to its first ones then {@code "… (N chars)"},
     * N its whole length.
     */
    public static String name(String s) {
        if (s.length() <= NAME_CHARS) return escaped(s);
        return escaped(s.substring(0, cut(s, NAME_CHARS))) + "… (" + s.length() + " chars)";
    }

    /** {@code n}, or {@code n - 1} where {@code n} would split a surrogate pair. */
    private static int cut(String s, int n) {
        return Character.isHighSurrogate(s.charAt(n - 1)) ? n - 1 : n;
    }

    private static String escaped(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean escape = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
            if (escape && b == null) b = new StringBuilder(s.length() + 16).append(s, 0, i);
            if (escape) b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            else if (b != null) b.append(c);
        }
        return b == null ? s : b.toString();
    }
}
