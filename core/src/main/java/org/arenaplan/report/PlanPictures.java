package org.arenaplan.report;

import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.Plan;

/**
 * PLACEHOLDER so the command line compiles on its own branch: one rectangle per storage
 * (x = schedule position, y = byte offset) with a tooltip. The full pictures (live-bytes panel,
 * colours by kind and stream, lower-bound line) replace this class.
 */
public final class PlanPictures {
    private PlanPictures() { }

    public static String svg(Plan plan) {
        int w = 800, h = 400;
        double steps = Math.max(1, plan.graph().opCount());
        double bytes = Math.max(1, plan.arenaBytes());
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w).append("\" height=\"").append(h).append("\">\n");
        for (Storage st : plan.storages()) {
            double x = st.start() / steps * w, x2 = st.end() / steps * w;
            double y = plan.storageOffset(st.id()) / bytes * h, hh = plan.problem().alignedSize(st.id()) / bytes * h;
            s.append(String.format(java.util.Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#8ab\" stroke=\"#333\"><title>%s (%d B)</title></rect>%n",
                    x, h - y - hh, x2 - x, hh, escape(st.name()), st.bytes()));
        }
        return s.append("</svg>\n").toString();
    }

    public static String html(Plan plan) {
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(plan.graph().name()) + "</title></head><body>\n"
                + svg(plan) + "<p>arena " + plan.arenaBytes() + " B, lower bound " + plan.stats().lowerBoundBytes() + " B</p>\n</body></html>\n";
    }

    private static String escape(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
