package org.arenaplan.plan;


/**
 * What running on several streams costs in memory: the arena with N streams next to the arena of
 * the same graph on one stream, and the events the run records and waits on.
 *
 * @param streams          compute streams used (the copy stream not counted)
 * @param arenaOneStream   arena bytes when every op runs on one stream
 * @param arenaStreams     arena bytes with the streams
 * @param arenaSyncNone    arena bytes of the {@code --sync none} plan: the streams with the data
 *                         events alone (equals {@code arenaStreams} unless events were added)
 * @param dataEventsSyncNone events of the {@code --sync none} plan
 * @param dataEvents       events for cross-stream data dependencies in the plan, after
 *                         transitive reduction (added events can make some redundant)
 * @param reuseEvents      events added so that bytes can be reused ({@code --sync add})
 * @param bytesSaved       the added events' savings summed; each is what the arena grows by when
 *                         that event alone is dropped, so the sum may exceed
 *                         {@code arenaSyncNone - arenaStreams} when events share the credit
 * @param extraConflicts   storage pairs that do not overlap in schedule positions but may not
 *                         share bytes, because no event orders them
 * @param widened          true when those pairs exceeded the budget and intervals were widened instead
 * @param cut              true when a placement compared here was cut at its time limit
 *                         ({@link Placement#cut()}): its arena is then not what the planner finds,
 *                         so the ratio is not the price (the report says so)
 * @param roundsCut        true when the time limit cut {@code --sync add}'s search for reuse
 *                         events, or passed before it could start ({@link org.arenaplan.hb.SyncPlan#roundsCut()}):
 *                         more time, or with {@code search} {@code --planner best}, may add events the plan lacks
 * @param planner          the {@code --planner} name the plan was made with: the advice printed
 *                         when the rounds were cut depends on it ({@link #roundsCutLine()})
 */
public record ConcurrencyPrice(int streams, long arenaOneStream, long arenaStreams, long arenaSyncNone, int dataEventsSyncNone, int dataEvents, int reuseEvents,
                               long bytesSaved, long extraConflicts, boolean widened, boolean cut, boolean roundsCut, String planner) {
    /** What a cut placement makes of the comparison, in the report. */
    private static final String CUT_NOTE = " (a plan compared here was " + Placement.CUT + ": not the price)";
    /**
     * The report's line when the reuse-event search was cut with {@code --planner search} (printed
     * only then; a contract): the search may spend the whole limit on its first placement, and
     * {@code best} places within a fraction of it.
     */
    static final String ROUNDS_CUT = "  reuse-event search   : " + Placement.CUT + " (rounds cut or not started; more --time-limit, or --planner best, may add events)";
    /** The same line with any other planner, for which {@code --planner best} is no faster (the rounds already place with best or the greedy planner chosen). */
    static final String ROUNDS_CUT_MORE_TIME = "  reuse-event search   : " + Placement.CUT + " (rounds cut or not started; more --time-limit may add events)";

    /** A price planned with the default planner ({@code best}). */
    public ConcurrencyPrice(int streams, long arenaOneStream, long arenaStreams, long arenaSyncNone, int dataEventsSyncNone, int dataEvents, int reuseEvents,
                            long bytesSaved, long extraConflicts, boolean widened, boolean cut, boolean roundsCut) {
        this(streams, arenaOneStream, arenaStreams, arenaSyncNone, dataEventsSyncNone, dataEvents, reuseEvents, bytesSaved, extraConflicts, widened, cut, roundsCut,
                ArenaPlanner.Options.DEFAULT.planner());
    }

    /** A price whose reuse-event search (if any) was not cut. */
    public ConcurrencyPrice(int streams, long arenaOneStream, long arenaStreams, long arenaSyncNone, int dataEventsSyncNone, int dataEvents, int reuseEvents,
                            long bytesSaved, long extraConflicts, boolean widened, boolean cut) {
        this(streams, arenaOneStream, arenaStreams, arenaSyncNone, dataEventsSyncNone, dataEvents, reuseEvents, bytesSaved, extraConflicts, widened, cut, false);
    }

    /** A price whose placements were not cut. */
    public ConcurrencyPrice(int streams, long arenaOneStream, long arenaStreams, long arenaSyncNone, int dataEventsSyncNone, int dataEvents, int reuseEvents,
                            long bytesSaved, long extraConflicts, boolean widened) {
        this(streams, arenaOneStream, arenaStreams, arenaSyncNone, dataEventsSyncNone, dataEvents, reuseEvents, bytesSaved, extraConflicts, widened, false);
    }

    /** Arena with N streams over arena with one; 1.0 means concurrency is free. */
    public double ratio() {
        return arenaOneStream == 0 ? 1.0 : (double) arenaStreams / arenaOneStream;
    }

    /** Extra bytes that concurrency costs (negative when in-place folding or tie-breaking happen to favour it). */
    public long extraBytes() {
        return arenaStreams - arenaOneStream;
    }

    /** A few lines for the command line's report. */
    public String summary() {
        return String.format(java.util.Locale.ROOT, "price of concurrency: %d streams%s%n"
                        + "  arena, 1 stream      : %,d B%n"
                        + "  arena, %d streams     : %,d B (x%.3f, %+,d B)%n"
                        + "  events, data deps    : %d%n"
                        + "  events, for reuse    : %d (each one's saving, summed: %,d B)%n"
                        + "  without added events : %,d B with %d data events%n"
                        + "  unordered pairs      : %s",
                streams, cut ? CUT_NOTE : "", arenaOneStream, streams, arenaStreams, ratio(), extraBytes(), dataEvents, reuseEvents, bytesSaved,
                arenaSyncNone, dataEventsSyncNone, widened
                        ? "not counted (over the pair budget, by default " + String.format(java.util.Locale.ROOT, "%,d", org.arenaplan.hb.HbConflicts.DEFAULT_BUDGET) + ": intervals widened instead)"
                        : String.format(java.util.Locale.ROOT, "%,d", extraConflicts))
                + (roundsCut ? String.format("%n") + roundsCutLine() : "");
    }

    /** The summary's last line when the rounds were cut: {@link #ROUNDS_CUT} with {@code search}, else {@link #ROUNDS_CUT_MORE_TIME}. */
    String roundsCutLine() {
        return "search".equals(planner) ? ROUNDS_CUT : ROUNDS_CUT_MORE_TIME;
    }

    /** One line for {@code run}: the arena with N streams against one stream, and what the added events bought. */
    public String line() {
        String added = reuseEvents == 0
                ? "no events added for reuse"
                : String.format(java.util.Locale.ROOT, "%d event(s) added for reuse (without them, maximum concurrency: %,d B)", reuseEvents, arenaSyncNone);
        return String.format(java.util.Locale.ROOT, "price of concurrency: %d streams, arena %,d B vs %,d B on 1 stream (%+,d B); %s%s",
                streams, arenaStreams, arenaOneStream, extraBytes(), added, cut ? CUT_NOTE : "")
                + (roundsCut ? "; reuse-event search " + Placement.CUT : "");
    }
}
