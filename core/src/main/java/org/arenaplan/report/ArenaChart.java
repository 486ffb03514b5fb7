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
 */
record ArenaChart(String title, String timeLabel, long timeStart, long timeEnd, List<Box> boxes, List<Legend> legend,
                  long lowerBound, long arena, LiveCurve live) {

    /**
     * One buffer: live over {@code [start, end)}, occupying {@code [offset, offset + size)}.
     *
     * @param colour  index into the chart's legend
     * @param tooltip the full description shown on hover
     * @param label   a short name drawn inside the box when there is room
     */
    record Box(long start, long end, long offset, long size, int colour, String tooltip, String label) { }

    record Legend(String name, String colour) { }
}
