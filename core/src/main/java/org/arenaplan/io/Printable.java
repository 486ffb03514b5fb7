package org.arenaplan.io;

/**
 * Text read from a file (a tensor, node or file name) made safe for the one line a message is
 * printed on: every control character (C0, DEL and C1, {@link Character#isISOControl}) and the
 * two Unicode line and paragraph separators (U+2028, U+2029, which Java's {@code \R} counts as
 * line breaks) written as {@code \\uXXXX}. A name holding a newline would otherwise split the
 * line, a carriage return overwrite its start, and an ANSI escape (ESC, U+001B) clear or
 * recolour the terminal.
 */
public final class Printable {
    private Printable() { }

    /** {@code s} with each such character as {@code \\uXXXX} (lower-case hex); {@code s} itself when it has none. */
    public static String of(String s) {
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
