package org.arenaplan.report;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * One self-contained HTML page: a title, a strip of headline figures, the picture inline, then
 * the full stats table and a list (refusals, violations). No scripts, no external resources.
 * The page goes straight to a {@link Writer}; the picture writes itself there in its turn.
 */
final class HtmlPage {
    /** A label and its value. */
    record Row(String label, String value) { }

    /** What writes the picture (an SVG document) into the page. */
    interface Picture {
        void writeTo(Writer w) throws IOException;
    }

    private HtmlPage() { }

    /** @param afterPicture HTML placed right after the picture (already escaped) */
    static void render(String title, List<Row> headline, Picture svg, String afterPicture, List<Row> table, String listTitle, List<String> list,
                       Writer w) throws IOException {
        StringBuilder b = new StringBuilder(4096);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(Xml.escape(title)).append("</title>\n<style>\n")
                .append("body{font-family:Helvetica,Arial,sans-serif;margin:16px 24px;color:#222}\n")
                .append("h1{font-size:20px;margin:0 0 10px}\nh2{font-size:16px;margin:22px 0 8px}\n")
                .append(".headline{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:10px}\n")
                .append(".fig{border:1px solid #ddd;border-radius:4px;padding:4px 10px;background:#fafafa}\n")
                .append(".fig b{display:block;font-size:15px}\n.fig span{font-size:11px;color:#666}\n")
                .append("table{border-collapse:collapse}\ntd,th{border:1px solid #ddd;padding:3px 10px;text-align:left;font-size:13px}\n")
                .append("th{background:#f3f3f3;font-weight:normal;color:#444}\n")
                .append("td.num{text-align:right;font-variant-numeric:tabular-nums}\n.mark{font-weight:bold}\n")
                .append("</style>\n</head>\n<body>\n<h1>").append(Xml.escape(title)).append("</h1>\n<div class=\"headline\">\n");
        for (Row r : headline) {
            b.append("<div class=\"fig\"><b>").append(Xml.escape(r.value())).append("</b><span>").append(Xml.escape(r.label())).append("</span></div>\n");
        }
        b.append("</div>\n<div class=\"picture\">\n");
        w.append(b);
        svg.writeTo(w);
        b.setLength(0);
        b.append("</div>\n").append(afterPicture).append("<h2>Stats</h2>\n<table>\n");
        for (Row r : table) {
            b.append("<tr><th>").append(Xml.escape(r.label())).append("</th><td>").append(Xml.escape(r.value())).append("</td></tr>\n");
        }
        b.append("</table>\n<h2>").append(Xml.escape(listTitle)).append("</h2>\n");
        if (list.isEmpty()) {
            b.append("<p>none</p>\n");
        } else {
            b.append("<ul>\n");
            for (String s : list) {
                b.append("<li>").append(Xml.escape(s)).append("</li>\n");
                if (b.length() >= ArenaSvg.SPILL) {
                    w.append(b);
                    b.setLength(0);
                }
            }
            b.append("</ul>\n");
        }
        b.append("</body>\n</html>\n");
        w.append(b);
    }
}
