package org.arenaplan.report;

/** Escaping for text and attribute values in SVG and HTML. */
final class Xml {
    private Xml() { }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    // XML 1.0 forbids most control characters even escaped; names never need them.
                    if (c < 0x20 && c != '\n' && c != '\t') b.append('?');
                    else b.append(c);
                }
            }
        }
        return b.toString();
    }
}
