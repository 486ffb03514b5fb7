package org.arenaplan.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * Draws an {@link ArenaChart} as a standalone SVG, written by hand.
 *
 * <p>Steps: title and legend; the placement panel (x = time, y = byte offset growing upwards,
 * one {@code rect} with a {@code <title>} tooltip per box, a dashed line at the lower bound and
 * a red one at the arena top); below it, on the same axes, the live-bytes curve with the same two
 * lines. Both panels share one byte scale, so the curve's peak meets the lower-bound line.
 *
 * <p>At scale: above {@link #LABEL_LIMIT} boxes no box gets a text label or an outline, and
 * colours are CSS classes, so 10,000 boxes stay near 100 bytes each plus their tooltip. Boxes
 * thinner than a pixel are drawn a pixel wide so every buffer stays visible; the picture does
 * not promise to show byte-exact gaps at that zoom (the tooltips do).
 *
 * <p>The text goes to a {@link Writer} in pieces of about {@link #SPILL} characters, and a box's
 * tooltip is built only when it is drawn, so memory does not grow with the document.
 */
final class ArenaSvg {
    static final int WIDTH = 1200;
    /** Above this many boxes, boxes carry no text label and no outline. */
    static final int LABEL_LIMIT = 300;

    private static final int LEFT = 96;
    private static final int RIGHT = 24;
    private static final int TOP = 70;
    private static final int PLOT_H = 460;
    private static final int GAP = 46;
    private static final int LIVE_H = 150;
    private static final int BOTTOM = 46;
    private static final int PLOT_W = WIDTH - LEFT - RIGHT;
    /** Above this many boxes the placement panel is a raster image (see {@link Raster}), so the file stays small. */
    static final int RASTER_LIMIT = 10_000;
    /** Boxes that keep a hover tooltip over a raster: the largest ones (and every one live at the peak). */
    static final int RASTER_TOOLTIPS = 300;
    private static final int LANE_H = 16;
    /** Up to this many boxes live at the peak are outlined; more would hide the picture (the column still marks the peak). */
    static final int OUTLINED_AT_PEAK = 60;

    /** Characters gathered before they go to the writer. */
    static final int SPILL = 1 << 16;

    private final ArenaChart c;
    private final Writer sink;
    private final StringBuilder out = new StringBuilder(SPILL + 4096);
    private final double yMax;
    private final double xSpan;
    private final int eventsTop;
    private final int liveTop;
    private final int height;

    private ArenaSvg(ArenaChart chart, Writer sink) {
        this.c = chart;
        this.sink = sink;
        this.yMax = Math.max(1, Math.max(chart.arena(), chart.lowerBound())) * 1.08;
        this.xSpan = Math.max(1, (double) chart.timeEnd() - chart.timeStart());
        this.eventsTop = TOP + PLOT_H + GAP;
        int eventsH = chart.events().isEmpty() ? 0 : 28 + LANE_H * chart.lanes().size();
        this.liveTop = eventsTop + eventsH;
        this.height = liveTop + LIVE_H + BOTTOM;
    }

    /** Writes the SVG document to {@code w} (left open). */
    static void render(ArenaChart chart, Writer w) throws IOException {
        try {
            new ArenaSvg(chart, w).draw();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Hands what has gathered to the writer once it passes {@link #SPILL} characters. */
    private void spill() {
        if (out.length() >= SPILL) flush();
    }

    private void flush() {
        try {
            sink.append(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.setLength(0);
    }

    private void draw() {
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
        style();
        out.append("<rect width=\"").append(WIDTH).append("\" height=\"").append(height).append("\" fill=\"#ffffff\"/>\n");
        text(LEFT, 24, "title", c.title());
        legend();
        placementPanel();
        eventsPanel();
        livePanel();
        text(LEFT + PLOT_W / 2.0, height - 12, "axis-title", c.timeLabel());
        out.append("</svg>\n");
        flush();
    }

    private void style() {
        boolean outlined = c.boxes().size() <= LABEL_LIMIT;
        out.append("<style>\n");
        out.append(".buf{stroke:").append(outlined ? "#ffffff;stroke-width:0.6" : "none").append("}\n");
        List<ArenaChart.Legend> legend = c.legend();
        for (int i = 0; i < legend.size(); i++) out.append(".c").append(i).append("{fill:").append(legend.get(i).colour()).append("}\n");
        out.append(".lb{stroke:#222222;stroke-width:1.5;stroke-dasharray:7 4}\n")
                .append(".top{stroke:#d62728;stroke-width:1.5}\n")
                .append(".grid{stroke:#e4e4e4;stroke-width:1}\n")
                .append(".frame{fill:none;stroke:#888888}\n")
                .append(".curve{fill:#4e79a7;fill-opacity:0.25;stroke:#2f4b7c;stroke-width:1.2}\n")
                .append(".title{font-size:16px;font-weight:bold}\n")
                .append(".axis-title{text-anchor:middle;fill:#444444}\n")
                .append(".tick{fill:#555555;font-size:11px}\n")
                .append(".ytick{fill:#555555;font-size:11px;text-anchor:end}\n")
                .append(".box-label{fill:#ffffff;font-size:10px;pointer-events:none}\n")
                .append(".line-label{font-size:11px;paint-order:stroke;stroke:#ffffff;stroke-width:3px}\n")
                .append(".peak{fill:#ffe680;stroke:#b38f00;stroke-width:1;stroke-dasharray:3 3}\n")
                .append(".peak-edge{fill:none;stroke:#b38f00;stroke-width:1.2;stroke-dasharray:3 3}\n")
                .append(".peak-label{font-size:11px;fill:#7a6200;font-weight:bold;paint-order:stroke;stroke:#ffffff;stroke-width:3px}\n")
                .append(".at-peak{fill:none;stroke:#111111;stroke-width:1.4}\n")
                .append(".reader{fill:#111111;stroke:#ffffff;stroke-width:0.8}\n")
                .append(".lane{stroke:#cccccc;stroke-width:1}\n.lane-label{fill:#555555;font-size:10px;text-anchor:end}\n")
                .append(".ev-data{stroke:#777777;stroke-width:1.2;fill:none}\n.ev-reuse{stroke:#d62728;stroke-width:1.4;fill:none}\n")
                .append(".ev-dot{fill:#333333}\n.hover{fill:#000000;fill-opacity:0}\n")
                .append("</style>\n");
    }

    private void legend() {
        double x = LEFT;
        double y = 46;
        List<ArenaChart.Legend> legend = c.legend();
        for (int i = 0; i < legend.size(); i++) {
            out.append("<rect class=\"c").append(i).append("\" x=\"").append(num(x)).append("\" y=\"").append(num(y - 10))
                    .append("\" width=\"12\" height=\"12\"/>");
            text(x + 17, y, null, legend.get(i).name());
            x += 30 + 7 * legend.get(i).name().length();
        }
        x += 10;
        line("lb", x, y - 4, x + 28, y - 4, null);
        text(x + 34, y, null, "lower bound " + bytes(c.lowerBound()));
        x += 64 + 7 * (12 + bytes(c.lowerBound()).length());
        line("top", x, y - 4, x + 28, y - 4, null);
        text(x + 34, y, null, "arena " + bytes(c.arena()) + gap());
    }

    /** Short units, unless they would show the lower bound and the arena alike while they differ: then exact bytes. */
    private String bytes(long b) {
        return ByteUnits.hidesGap(c.lowerBound(), c.arena()) ? String.format(java.util.Locale.ROOT, "%,d B", b) : ByteUnits.format(b);
    }

    private String gap() {
        long g = c.arena() - c.lowerBound();
        return g == 0 ? "" : String.format(java.util.Locale.ROOT, " (+%s)", ByteUnits.hidesGap(c.lowerBound(), c.arena())
                ? String.format(java.util.Locale.ROOT, "%,d B", g) : ByteUnits.format(g));
    }

    private void placementPanel() {
        out.append("<g id=\"placement\">\n");
        yGrid(TOP, PLOT_H);
        xTicks(TOP + PLOT_H);
        boolean labelled = c.boxes().size() <= LABEL_LIMIT;
        peakColumn(TOP, PLOT_H, true);
        if (c.boxes().size() > RASTER_LIMIT) {
            rasterBoxes();
        } else {
            for (int i = 0; i < c.boxes().size(); i++) {
                ArenaChart.Box b = c.boxes().get(i);
                double x = xOf(b.start());
                double w = Math.max(1, xOf(b.end()) - x);
                double yTop = yOf(TOP, PLOT_H, b.offset() + b.size());
                double h = Math.max(1, yOf(TOP, PLOT_H, b.offset()) - yTop);
                out.append("<rect class=\"buf c").append(b.colour()).append("\" x=\"").append(num(x)).append("\" y=\"").append(num(yTop))
                        .append("\" width=\"").append(num(w)).append("\" height=\"").append(num(h)).append("\"><title>")
                        .append(Xml.escape(c.tooltips().apply(i))).append("</title></rect>\n");
                if (labelled) boxLabel(b.label(), x, yTop, w, h);
                spill();
            }
        }
        peakMarks();
        levelLine("lower-bound", "lb", TOP, PLOT_H, c.lowerBound(), "lower bound", false);
        levelLine("arena-top", "top", TOP, PLOT_H, c.arena(), "arena", true);
        frame(TOP, PLOT_H);
        out.append("</g>\n");
        out.append("<text class=\"axis-title\" transform=\"translate(18,").append(TOP + PLOT_H / 2).append(") rotate(-90)\">byte offset</text>\n");
    }

    /**
     * Above {@link #RASTER_LIMIT} boxes: the boxes as one PNG (one pixel per pixel of the panel,
     * so nothing is lost that the vector form would show), with invisible hover rectangles for
     * the {@link #RASTER_TOOLTIPS} largest boxes and every box live at the peak.
     */
    private void rasterBoxes() {
        Raster r = new Raster(PLOT_W, PLOT_H, c.legend());
        for (int i = 0; i < c.boxes().size(); i++) {
            ArenaChart.Box b = c.boxes().get(i);
            double x = xOf(b.start()) - LEFT;
            double w = Math.max(1, xOf(b.end()) - LEFT - x);
            double yTop = yOf(TOP, PLOT_H, b.offset() + b.size()) - TOP;
            double h = Math.max(1, yOf(TOP, PLOT_H, b.offset()) - TOP - yTop);
            r.fill(x, yTop, w, h, b.colour(), i & 1);
        }
        out.append("<image x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(PLOT_W).append("\" height=\"").append(PLOT_H)
                .append("\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,").append(r.pngBase64())
                .append("\"><title>").append(c.boxes().size()).append(" boxes drawn as an image; hover the largest for details</title></image>\n");
        java.util.Set<Integer> hover = new java.util.LinkedHashSet<>(largest(RASTER_TOOLTIPS));
        if (c.peak() != null) hover.addAll(c.peak().boxes());
        for (int i : hover) {
            ArenaChart.Box b = c.boxes().get(i);
            double x = xOf(b.start());
            double yTop = yOf(TOP, PLOT_H, b.offset() + b.size());
            out.append("<rect class=\"hover\" x=\"").append(num(x)).append("\" y=\"").append(num(yTop)).append("\" width=\"")
                    .append(num(Math.max(1, xOf(b.end()) - x))).append("\" height=\"").append(num(Math.max(1, yOf(TOP, PLOT_H, b.offset()) - yTop)))
                    .append("\"><title>").append(Xml.escape(c.tooltips().apply(i))).append("</title></rect>\n");
            spill();
        }
    }

    /** The {@code k} largest boxes, largest first and, among equal sizes, lowest index first; a heap of k, not a sort of all. */
    private List<Integer> largest(int k) {
        java.util.Comparator<Integer> worstFirst = (a, b) -> {
            int bySize = Long.compare(c.boxes().get(a).size(), c.boxes().get(b).size());
            return bySize != 0 ? bySize : Integer.compare(b, a);
        };
        java.util.PriorityQueue<Integer> kept = new java.util.PriorityQueue<>(k + 1, worstFirst);
        for (int i = 0; i < c.boxes().size(); i++) {
            kept.add(i);
            if (kept.size() > k) kept.poll();
        }
        List<Integer> top = new java.util.ArrayList<>(kept);
        top.sort(worstFirst.reversed());
        return top;
    }

    /** The peak's column, drawn under the boxes or the curve so that it hides neither. */
    private void peakColumn(double top, double height, boolean withId) {
        ArenaChart.Peak p = c.peak();
        if (p == null) return;
        double x = xOf(p.time());
        double w = Math.max(2, xOf(p.time() + 1) - x);
        out.append("<rect ").append(withId ? "id=\"peak\" " : "").append("class=\"peak\" x=\"").append(num(x)).append("\" y=\"").append(num(top))
                .append("\" width=\"").append(num(w)).append("\" height=\"").append(num(height)).append("\"><title>")
                .append(Xml.escape(p.label() + ": the instant of the lower bound")).append("</title></rect>\n");
    }

    /** The outline of every box live at the peak, a marker at the reader that keeps each, and the peak's label. */
    private void peakMarks() {
        ArenaChart.Peak p = c.peak();
        if (p == null) return;
        double x = xOf(p.time());
        double w = Math.max(2, xOf(p.time() + 1) - x);
        out.append("<rect class=\"peak-edge\" x=\"").append(num(x)).append("\" y=\"").append(TOP).append("\" width=\"").append(num(w))
                .append("\" height=\"").append(PLOT_H).append("\"/>\n");   // the column's edges over the boxes
        for (int i : p.boxes().size() <= OUTLINED_AT_PEAK ? p.boxes() : java.util.Set.<Integer>of()) {
            ArenaChart.Box b = c.boxes().get(i);
            double bx = xOf(b.start());
            double yTop = yOf(TOP, PLOT_H, b.offset() + b.size());
            out.append("<rect class=\"at-peak\" x=\"").append(num(bx)).append("\" y=\"").append(num(yTop)).append("\" width=\"")
                    .append(num(Math.max(1, xOf(b.end()) - bx))).append("\" height=\"").append(num(Math.max(1, yOf(TOP, PLOT_H, b.offset()) - yTop)))
                    .append("\"/>\n");
            spill();
        }
        for (ArenaChart.Marker m : p.readers()) {
            double mx = (xOf(m.time()) + xOf(m.time() + 1)) / 2;
            double my = (yOf(TOP, PLOT_H, m.offset()) + yOf(TOP, PLOT_H, m.offset() + m.size())) / 2;
            out.append("<path class=\"reader\" d=\"M").append(num(mx)).append(' ').append(num(my - 6)).append(" L").append(num(mx + 5)).append(' ')
                    .append(num(my)).append(" L").append(num(mx)).append(' ').append(num(my + 6)).append(" L").append(num(mx - 5)).append(' ').append(num(my))
                    .append(" Z\"><title>").append(Xml.escape(m.tooltip())).append("</title></path>\n");
            spill();
        }
        double lx = Math.min(x + w + 4, LEFT + PLOT_W - 7 * p.label().length());
        out.append("<text class=\"peak-label\" x=\"").append(num(lx)).append("\" y=\"").append(TOP + 14).append("\">")
                .append(Xml.escape(p.label())).append("</text>\n");
    }

    /** One lane per stream; an arrow per event from after its recording op to before its waiting op. */
    private void eventsPanel() {
        if (c.events().isEmpty()) return;
        out.append("<g id=\"events\">\n");
        text(LEFT, eventsTop + 10, null, "events (" + c.events().size() + "): grey = data dependency, red = added for reuse");
        for (int k = 0; k < c.lanes().size(); k++) {
            double y = laneY(k);
            line("lane", LEFT, y, LEFT + PLOT_W, y, null);
            out.append("<text class=\"lane-label\" x=\"").append(LEFT - 6).append("\" y=\"").append(num(y + 3)).append("\">")
                    .append(Xml.escape(c.lanes().get(k))).append("</text>\n");
        }
        for (ArenaChart.Event e : c.events()) {
            double x1 = xOf(e.from() + 1), y1 = laneY(e.fromLane());
            double x2 = xOf(e.to()), y2 = laneY(e.toLane());
            out.append("<g><title>").append(Xml.escape(e.tooltip())).append("</title><path class=\"").append(e.reuse() ? "ev-reuse" : "ev-data")
                    .append("\" d=\"M").append(num(x1)).append(' ').append(num(y1)).append(" L").append(num(x2)).append(' ').append(num(y2))
                    .append("\"/><circle class=\"ev-dot\" cx=\"").append(num(x1)).append("\" cy=\"").append(num(y1)).append("\" r=\"2.5\"/>")
                    .append("<path class=\"ev-dot\" d=\"M").append(num(x2)).append(' ').append(num(y2)).append(" l-6 -3.5 v7 Z\"/></g>\n");
            spill();
        }
        out.append("</g>\n");
    }

    private double laneY(int lane) {
        return eventsTop + 24 + LANE_H * lane;
    }

    /** The live-bytes curve; above four points a pixel, each pixel column keeps its highest value (the peak survives). */
    private void livePanel() {
        out.append("<g id=\"live-bytes\">\n");
        yGrid(liveTop, LIVE_H);
        xTicks(liveTop + LIVE_H);
        long[] t = c.live().times();
        long[] v = c.live().bytes();
        if (t.length > 4 * PLOT_W) {
            long[][] tv = perPixel(t, v);
            t = tv[0];
            v = tv[1];
        }
        double base = liveTop + LIVE_H;
        peakColumn(liveTop, LIVE_H, false);
        StringBuilder d = new StringBuilder("M").append(num(xOf(t.length == 0 ? c.timeStart() : t[0]))).append(' ').append(num(base));
        for (int i = 0; i < t.length; i++) {
            double next = i + 1 < t.length ? xOf(t[i + 1]) : xOf(c.timeEnd());
            d.append(" V").append(num(yOf(liveTop, LIVE_H, v[i]))).append(" H").append(num(next));
        }
        d.append(" V").append(num(base)).append(" Z");
        out.append("<path class=\"curve\" d=\"").append(d).append("\"><title>bytes live at each time; peak ")
                .append(Xml.escape(ByteUnits.exact(c.live().max()))).append("</title></path>\n");
        levelLine("live-lower-bound", "lb", liveTop, LIVE_H, c.lowerBound(), null, false);
        levelLine("live-arena-top", "top", liveTop, LIVE_H, c.arena(), null, true);
        frame(liveTop, LIVE_H);
        out.append("</g>\n");
        out.append("<text class=\"axis-title\" transform=\"translate(18,").append(liveTop + LIVE_H / 2).append(") rotate(-90)\">live bytes</text>\n");
    }

    /** The step curve resampled to one point per pixel column, each the column's maximum. */
    private long[][] perPixel(long[] t, long[] v) {
        long[] times = new long[PLOT_W + 1];
        long[] bytes = new long[PLOT_W + 1];
        int k = 0;
        int col = -1;
        for (int i = 0; i < t.length; i++) {
            int cx = (int) Math.min(PLOT_W, Math.floor(xOf(t[i]) - LEFT));
            if (cx != col) {
                col = cx;
                times[k] = t[i];
                bytes[k++] = v[i];
            } else {
                bytes[k - 1] = Math.max(bytes[k - 1], v[i]);
            }
        }
        return new long[][]{java.util.Arrays.copyOf(times, k), java.util.Arrays.copyOf(bytes, k)};
    }

    /** A horizontal line across the panel at {@code bytes}, labelled at the left or right end. */
    private void levelLine(String id, String cls, double top, double height, long bytes, String label, boolean labelAbove) {
        double y = yOf(top, height, bytes);
        line(cls, LEFT, y, LEFT + PLOT_W, y, id);
        if (label == null) return;
        String s = label + " " + bytes(bytes);
        if (labelAbove) {
            out.append("<text class=\"line-label\" fill=\"#d62728\" x=\"").append(num(LEFT + 4)).append("\" y=\"").append(num(y - 5))
                    .append("\">").append(Xml.escape(s)).append("</text>\n");
        } else {
            out.append("<text class=\"line-label\" text-anchor=\"end\" x=\"").append(num(LEFT + PLOT_W - 4)).append("\" y=\"").append(num(y + 14))
                    .append("\">").append(Xml.escape(s)).append("</text>\n");
        }
    }

    private void boxLabel(String label, double x, double y, double w, double h) {
        if (label == null || w < 30 || h < 13) return;
        int fits = (int) ((w - 6) / 6);
        if (fits < 3) return;
        String s = label.length() <= fits ? label : label.substring(0, fits - 1) + "…";
        out.append("<text class=\"box-label\" x=\"").append(num(x + 3)).append("\" y=\"").append(num(y + Math.min(h, 24) / 2 + 4))
                .append("\">").append(Xml.escape(s)).append("</text>\n");
    }

    private void yGrid(double top, double height) {
        long step = Ticks.byteStep((long) Math.ceil(yMax), height >= 300 ? 8 : 3);
        long last = (long) yMax / step;   // counted, never stepped past the top: b += step wrapped past 2^63-1
        for (long k = 0; k <= last; k++) {
            long b = k * step;
            double y = yOf(top, height, b);
            line("grid", LEFT, y, LEFT + PLOT_W, y, null);
            out.append("<text class=\"ytick\" x=\"").append(LEFT - 6).append("\" y=\"").append(num(y + 4)).append("\">")
                    .append(ByteUnits.format(b)).append("</text>\n");
        }
    }

    private void xTicks(double axisY) {
        long step = Ticks.decimalStep((long) xSpan, 12);
        long first = Math.floorDiv(c.timeStart(), step) * step;   // the first multiple of step at or after the start
        boolean none = first < c.timeStart() && first > Long.MAX_VALUE - step;   // that multiple is past 2^63-1
        if (first < c.timeStart() && !none) first += step;
        long last = none || first > c.timeEnd() ? -1 : (c.timeEnd() - first) / step;   // counted, as in yGrid
        for (long k = 0; k <= last; k++) {
            long t = first + k * step;
            double x = xOf(t);
            line("grid", x, axisY, x, axisY + 5, null);
            out.append("<text class=\"tick\" text-anchor=\"middle\" x=\"").append(num(x)).append("\" y=\"").append(num(axisY + 17))
                    .append("\">").append(t).append("</text>\n");
        }
    }

    private void frame(double top, double height) {
        out.append("<rect class=\"frame\" x=\"").append(LEFT).append("\" y=\"").append(num(top)).append("\" width=\"").append(PLOT_W)
                .append("\" height=\"").append(num(height)).append("\"/>\n");
    }

    private void line(String cls, double x1, double y1, double x2, double y2, String id) {
        out.append("<line ");
        if (id != null) out.append("id=\"").append(id).append("\" ");
        out.append("class=\"").append(cls).append("\" x1=\"").append(num(x1)).append("\" y1=\"").append(num(y1))
                .append("\" x2=\"").append(num(x2)).append("\" y2=\"").append(num(y2)).append("\"/>\n");
    }

    private void text(double x, double y, String cls, String s) {
        out.append("<text ");
        if (cls != null) out.append("class=\"").append(cls).append("\" ");
        out.append("x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\">").append(Xml.escape(s)).append("</text>\n");
    }

    private double xOf(long t) {
        return LEFT + (double) (t - c.timeStart()) * PLOT_W / xSpan;
    }

    private double yOf(double top, double height, long bytes) {
        return top + height - bytes * height / yMax;
    }

    /** One decimal is finer than a pixel needs; integers print without one. */
    private static String num(double v) {
        long tenths = Math.round(Math.abs(v) * 10);
        String s = tenths % 10 == 0 ? Long.toString(tenths / 10) : (tenths / 10) + "." + (tenths % 10);
        return v < 0 && tenths != 0 ? "-" + s : s;
    }
}
