package org.arenaplan.report;

import java.util.List;

/**
 * What a plan picture shows, independent of how it is drawn: one box per buffer in
 * (time, byte offset) space, a legend for the box colours, and the lines and live-bytes curve
 * to compare the arena against.
 *
 * @param timeLabel  what the x axis counts ("schedule position" for graphs)
 * @param timeStart  the start of the x axis: no box starts before it
 * @param timeEnd    the end of the x axis: every box ends at or before it
 * @param legend     the colour classes used by the boxes, in legend order
 * @param peak       the instant of the lower bound and what keeps its bytes, or null
 * @param lanes      the streams' names, one lane each in the events strip; empty when there are no events
 * @param events     the sync events, drawn between the lanes
 * @param tooltips   the full description of box i, shown on hover; built only for the boxes drawn with one
 *                   (a million buffers would otherwise hold a million strings)
 */
record ArenaChart(String title, String timeLabel, long timeStart, long timeEnd, List<Box> boxes, java.util.function.IntFunction<String> tooltips, List<Legend> legend,
                  long lowerBound, long arena, LiveCurve live, Peak peak, List<String> lanes, List<Event> events) {

    /**
     * The peak: a column at {@code [time, time + 1)}, the boxes live there outlined, and a marker
     * on each at the reader that keeps it (the reader that prevents release).
     */
    record Peak(long time, String label, java.util.Set<Integer> boxes, List<Marker> readers) { }

    /** A marker inside a box at {@code time}, over the box's bytes. */
    record Marker(long time, long offset, long size, String tooltip) { }

    /** An event: recorded after the op at {@code from} on lane {@code fromLane}, waited on before {@code to} on {@code toLane}. */
    record Event(long from, int fromLane, long to, int toLane, boolean reuse, String tooltip) { }

    /**
     * One buffer: live over {@code [start, end)}, occupying {@code [offset, offset + size)}.
     *
     * @param colour  index into the chart's legend
     * @param label   a short name drawn inside the box when there is room
     */
    record Box(long start, long end, long offset, long size, int colour, String label) { }

    record Legend(String name, String colour) { }
}
