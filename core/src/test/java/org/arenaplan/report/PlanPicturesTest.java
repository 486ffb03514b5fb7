package org.arenaplan.report;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.GreedySizePlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.helpers.DefaultHandler;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PlanPicturesTest {
    private static final long KIB = 1024;

    /**
     * x (donated input) -> a = f(x) -> v = view(a) -> b = Relu(v) in place -> c = g(b, x) -> y (output),
     * plus a caller-owned input k whose in-place request is refused.
     */
    private static Graph sample() {
        return new GraphBuilder("sample<&>")
                .tensor("x", 64 * KIB).tensor("k", 16 * KIB).tensor("a", 64 * KIB).tensor("v", 64 * KIB)
                .tensor("b", 64 * KIB).tensor("kk", 16 * KIB).tensor("c", 32 * KIB).tensor("y", 32 * KIB)
                .input("x", true).input("k")
                .op("a", "Relu").in("x").out("a").add()
                .op("v", "Reshape").in("a").out("v").view().add()
                .op("b", "Relu").in("v").out("b").inPlace().add()
                .op("kk", "Relu").in("k").out("kk").inPlace().add()
                .op("c", "Add").in("b", "x").out("c").add()
                .op("y", "Add").in("c", "kk").out("y").add()
                .output("y")
                .build();
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> byClass(Document d, String tag, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = d.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (List.of(e.getAttribute("class").split(" ")).contains(cls)) out.add(e);
        }
        return out;
    }

    private static Element byId(Document d, String tag, String id) {
        NodeList nodes = d.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (e.getAttribute("id").equals(id)) return e;
        }
        throw new AssertionError("no <" + tag + " id=\"" + id + "\">");
    }

    @Test
    void svgIsWellFormedWithOneRectanglePerStorageAndTheTwoLines() throws Exception {
        Plan plan = ArenaPlanner.plan(sample());
        Document d = parse(PlanPictures.svg(plan));

        List<Element> rects = byClass(d, "rect", "buf");
        assertThat(rects).hasSize(plan.storages().size());
        double lb = Double.parseDouble(byId(d, "line", "lower-bound").getAttribute("y1"));
        double top = Double.parseDouble(byId(d, "line", "arena-top").getAttribute("y1"));
        assertThat(lb).as("y grows downwards: the lower bound is never above the arena top").isGreaterThanOrEqualTo(top);
        byId(d, "g", "live-bytes");
        String tooltips = d.getDocumentElement().getTextContent();
        assertThat(tooltips).contains("tensors: a v b", "64 KiB (65536 B)", "live [0, 6)");
    }

    @Test
    void rectanglesSitAtTheirOffsetsScaledToTheArena() throws Exception {
        Plan plan = ArenaPlanner.plan(sample());
        Document d = parse(PlanPictures.svg(plan));
        double top = Double.parseDouble(byId(d, "line", "arena-top").getAttribute("y1"));
        double highest = Double.MAX_VALUE;
        double lowest = 0;
        for (Element r : byClass(d, "rect", "buf")) {
            highest = Math.min(highest, Double.parseDouble(r.getAttribute("y")));
            lowest = Math.max(lowest, Double.parseDouble(r.getAttribute("y")) + Double.parseDouble(r.getAttribute("height")));
        }
        Element frame = byClass(d, "rect", "frame").get(0);
        double frameBottom = Double.parseDouble(frame.getAttribute("y")) + Double.parseDouble(frame.getAttribute("height"));
        assertThat(highest).as("the highest storage touches the arena top").isCloseTo(top, org.assertj.core.data.Offset.offset(0.11));
        assertThat(lowest).as("offset 0 is the panel's bottom").isCloseTo(frameBottom, org.assertj.core.data.Offset.offset(0.11));
    }

    @Test
    void oneStreamColoursByKindAndSeveralByStream() {
        Plan one = ArenaPlanner.plan(sample());
        assertThat(Charts.of(one).legend()).extracting(ArenaChart.Legend::name)
                .containsExactly("activation", "aliased", "output", "input", "donated-input");

        Plan two = ArenaPlanner.plan(sample().withStreams(p -> p % 2));
        assertThat(Charts.of(two).legend()).extracting(ArenaChart.Legend::name)
                .containsExactly("stream 0", "stream 1", "graph input");
        ArenaChart chart = Charts.of(two);
        int outputIndex = two.lifetimes().storageOf("y");
        assertThat(chart.legend().get(chart.boxes().get(outputIndex).colour()).name()).isEqualTo("stream 1");
    }

    @Test
    void liveCurvePeaksAtTheLowerBoundAndStepsDownWhereBuffersEnd() {
        Problem p = new Problem(new String[]{"a", "b", "c"}, new long[]{0, 1, 4}, new long[]{2, 3, 5}, new long[]{10, 20, 5}, 1);
        LiveCurve c = LiveCurve.of(p);
        assertThat(c.times()).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(c.bytes()).containsExactly(10, 30, 20, 0, 5, 0);
        assertThat(c.max()).isEqualTo(p.lowerBound());
    }

    @Test
    void tenThousandStoragesRenderCompactlyWithoutLabels() throws Exception {
        Problem p = randomProblem(10_000, 7);
        Placement placement = new GreedySizePlanner().place(p);
        String svg = PlanPictures.svg(p, placement);

        int[] rectsAndLabels = new int[2];
        SAXParserFactory.newInstance().newSAXParser().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)), new DefaultHandler() {
            @Override
            public void startElement(String uri, String local, String qName, Attributes atts) {
                String cls = atts.getValue("class");
                if (qName.equals("rect") && cls != null && cls.startsWith("buf ")) rectsAndLabels[0]++;
                if (qName.equals("text") && "box-label".equals(cls)) rectsAndLabels[1]++;
            }
        });
        assertThat(rectsAndLabels[0]).as("storage rectangles").isEqualTo(10_000);
        assertThat(rectsAndLabels[1]).as("box labels").isZero();
        assertThat(svg.length()).as("bytes of SVG").isLessThan(2_500_000);
        assertThat(LiveCurve.of(p).max()).isEqualTo(p.lowerBound());
    }

    @Test
    void emptyAndLateStartingProblemsRenderInsideThePanel() throws Exception {
        Problem empty = new Problem(new String[0], new long[0], new long[0], new long[0], 1);
        parse(PlanPictures.svg(empty, new GreedySizePlanner().place(empty)));

        Problem late = new Problem(new String[]{"a", "b"}, new long[]{1000, 1005}, new long[]{1010, 1020}, new long[]{8, 8}, 1);
        Document d = parse(PlanPictures.svg(late, new GreedySizePlanner().place(late)));
        Element frame = byClass(d, "rect", "frame").get(0);
        double left = Double.parseDouble(frame.getAttribute("x"));
        double right = left + Double.parseDouble(frame.getAttribute("width"));
        List<Element> rects = byClass(d, "rect", "buf");
        assertThat(Double.parseDouble(rects.get(0).getAttribute("x"))).isCloseTo(left, org.assertj.core.data.Offset.offset(0.11));
        Element b = rects.get(1);
        assertThat(Double.parseDouble(b.getAttribute("x")) + Double.parseDouble(b.getAttribute("width"))).isCloseTo(right, org.assertj.core.data.Offset.offset(0.11));
    }

    @Test
    void axisStepsAreRoundAndBytesReadable() {
        assertThat(Ticks.byteStep(192L << 20, 6)).isEqualTo(32L << 20);
        assertThat(Ticks.byteStep(200L << 20, 6)).isEqualTo(64L << 20);
        assertThat(Ticks.decimalStep(49, 12)).isEqualTo(5);
        assertThat(Ticks.decimalStep(10_000, 12)).isEqualTo(1000);
        assertThat(ByteUnits.format(1023)).isEqualTo("1023 B");
        assertThat(ByteUnits.format(64L << 20)).isEqualTo("64 MiB");
        assertThat(ByteUnits.format(1536)).isEqualTo("1.5 KiB");
        assertThat(ByteUnits.format(1024 + 51)).isEqualTo("1.05 KiB");
        assertThat(ByteUnits.format(2162688)).isEqualTo("2.06 MiB");
        assertThat(ByteUnits.exact(65536)).isEqualTo("64 KiB (65536 B)");
    }

    @Test
    void asciiMarksEachStoragesLiveIntervalOneColumnPerPosition() {
        Plan plan = ArenaPlanner.plan(sample());
        String[] lines = PlanPictures.ascii(plan).split("\n");

        assertThat(lines[0]).startsWith("sample<&>: arena ").contains("lower bound", "planner best");
        assertThat(lines).hasSize(2 + plan.storages().size());
        for (var st : plan.storages()) {
            String row = java.util.Arrays.stream(lines).filter(l -> l.startsWith(st.name() + " ")).findFirst().orElseThrow();
            String bar = row.substring(row.indexOf('|') + 1, row.lastIndexOf('|'));
            assertThat(bar).hasSize(plan.graph().opCount());
            assertThat(bar.indexOf('#')).as(st.name()).isEqualTo(st.start());
            assertThat(bar.lastIndexOf('#') + 1).as(st.name()).isEqualTo(st.end());
        }
    }

    @Test
    void asciiListsOnlyTheLargestStoragesOfABigPlan() {
        GraphBuilder b = new GraphBuilder("wide").tensor("x", 8).input("x");
        String prev = "x";
        for (int i = 0; i < 100; i++) {
            b.tensor("t" + i, 256L * (i + 1)).op("t" + i, "Relu").in(prev).out("t" + i).add();
            prev = "t" + i;
        }
        String text = PlanPictures.ascii(ArenaPlanner.plan(b.output(prev).build()));
        assertThat(text.split("\n")).hasSize(2 + AsciiTimeline.MAX_ROWS + 1);
        assertThat(text).contains("t99 ", "... 61 smaller storages not shown").doesNotContain("t0 ");
    }

    @Test
    void fewStoragesGetLabelsWhereTheyFit() throws Exception {
        Document d = parse(PlanPictures.svg(ArenaPlanner.plan(sample())));
        assertThat(byClass(d, "text", "box-label")).isNotEmpty();
    }

    @Test
    void htmlIsSelfContainedWithStatsRefusalsAndPicture() {
        Plan plan = ArenaPlanner.plan(sample());
        String html = PlanPictures.html(plan);

        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "</svg>", "arena / lower bound", "valid (no violations)",
                "allocator calls per run (naive → planned)", "sync events", "sample&lt;&amp;&gt;");
        assertThat(html).contains("in-place refused: op &#39;kk&#39;");
        assertThat(html).doesNotContain("<script", "src=", "href=", "@import");
    }

    @Test
    void htmlOfAProblemShowsItsValidatorVerdict() {
        Problem p = randomProblem(200, 3);
        Placement good = new GreedySizePlanner().place(p);
        assertThat(PlanPictures.html(p, good)).contains("valid (no violations)", "200 buffers");

        long[] clash = good.offsets();
        java.util.Arrays.fill(clash, 0);
        Placement bad = new Placement(clash, Placement.arenaOf(p, clash), "all-at-zero", false);
        assertThat(PlanPictures.html(p, bad)).contains("violation(s)", "OVERLAP");
    }

    @Test
    void thePeakIsMarkedWithItsStoragesAndTheReadersThatKeepThem() throws Exception {
        Plan plan = ArenaPlanner.plan(sample());
        var x = org.arenaplan.plan.PeakExplanation.of(plan);
        Document d = parse(PlanPictures.svg(plan));
        assertThat(d.getElementById("peak") == null ? byClass(d, "rect", "peak") : List.of(d.getElementById("peak"))).isNotEmpty();
        assertThat(byClass(d, "rect", "at-peak")).hasSize(x.live().size());
        long readers = x.live().stream().filter(l -> l.keeper() == org.arenaplan.plan.PeakExplanation.Keeper.LAST_READER).count();
        assertThat(byClass(d, "path", "reader")).hasSize((int) readers).isNotEmpty();
        String html = PlanPictures.html(plan);
        assertThat(html).contains("Why the peak is what it is", "◆", "arena " + String.format(java.util.Locale.ROOT, "%,d", plan.arenaBytes()) + " B = needed at the peak");
    }

    @Test
    void eventsOfSeveralStreamsAreDrawnOnTheirLanes() throws Exception {
        Graph g = new GraphBuilder("two")
                .tensor("x", 4 * KIB).tensor("a", 4 * KIB).tensor("b", 4 * KIB).tensor("y", 4 * KIB)
                .input("x")
                .op("a", "Relu").in("x").out("a").stream(0).add()
                .op("b", "Relu").in("x").out("b").stream(1).add()
                .op("y", "Add").in("a", "b").out("y").stream(0).add()
                .output("y").build();
        Plan plan = org.arenaplan.plan.StreamPlanner.plan(g, 0, org.arenaplan.hb.SyncMode.NONE, ArenaPlanner.Options.DEFAULT);
        assertThat(plan.sync().events()).isNotEmpty();
        Document d = parse(PlanPictures.svg(plan));
        assertThat(d.getElementById("events") == null ? byClass(d, "g", "x") : List.of()).isEmpty();
        assertThat(byClass(d, "path", "ev-data").size() + byClass(d, "path", "ev-reuse").size()).isEqualTo(plan.sync().events().size());
        assertThat(byClass(d, "text", "lane-label")).hasSize(2);
    }

    /** 30,000 buffers: the placement panel becomes one image, the file stays small, the largest boxes keep tooltips. */
    @Test
    void thirtyThousandBuffersSwitchToARasterAndStaySmall() throws Exception {
        Problem p = randomProblem(30_000, 11);
        String svg = PlanPictures.svg(p, new GreedySizePlanner().place(p));
        assertThat(svg.length()).as("bytes of SVG").isLessThan(1_500_000);
        Document d = parse(svg);
        assertThat(d.getElementsByTagName("image").getLength()).isEqualTo(1);
        assertThat(byClass(d, "rect", "buf")).isEmpty();
        assertThat(byClass(d, "rect", "hover")).hasSizeGreaterThanOrEqualTo(ArenaSvg.RASTER_TOOLTIPS);
        assertThat(byClass(d, "path", "curve")).hasSize(1);
    }

    @Test
    void theRasterIsAPaletteImageWithTransparentGaps() {
        Raster r = new Raster(10, 4, List.of(new ArenaChart.Legend("buffer", "#4e79a7")));
        r.fill(0, 0, 5, 2, 0, 0);
        r.fill(5, 0, 0.2, 2, 0, 1);   // thinner than a pixel: still one pixel
        assertThat(r.indexAt(4, 1)).isEqualTo(1);
        assertThat(r.indexAt(5, 1)).isEqualTo(2);
        assertThat(r.indexAt(6, 1)).isZero();
        assertThat(r.indexAt(0, 3)).isZero();
        byte[] png = r.png();
        assertThat(java.util.Arrays.copyOf(png, 8)).containsExactly(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        String text = new String(png, StandardCharsets.ISO_8859_1);
        assertThat(text).contains("IHDR", "PLTE", "tRNS", "IDAT", "IEND");
    }

    @Test
    void exactBytesWhereUnitsWouldHideTheGap() {
        assertThat(ByteUnits.hidesGap(1_498_635_932L, 1_498_950_000L)).isTrue();
        assertThat(ByteUnits.hidesGap(1L << 30, 1L << 30)).isFalse();
        Problem p = new Problem(new String[]{"a", "b"}, new long[]{0, 0}, new long[]{1, 1}, new long[]{749_317_966L, 749_317_966L}, 1);
        Placement off = new Placement(new long[]{0, 749_632_034L}, 1_498_950_000L, "by hand", false);
        String svg = PlanPictures.svg(p, off);
        assertThat(svg).contains("lower bound 1,498,635,932 B", "arena 1,498,950,000 B (+314,068 B)");
        assertThat(PlanPictures.html(p, off)).contains("1,498,635,932 B", "314,068 B", "arena − lower bound");
    }

    private static Problem randomProblem(int n, long seed) {
        Random r = new Random(seed);
        String[] ids = new String[n];
        long[] lo = new long[n];
        long[] hi = new long[n];
        long[] sz = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = "buf" + i;
            lo[i] = r.nextInt(n);
            hi[i] = lo[i] + 1 + r.nextInt(40);
            sz[i] = 1 + r.nextInt(1 << 20);
        }
        return new Problem(ids, lo, hi, sz, 256);
    }

    /**
     * The pictures go to a writer in pieces (never the whole document at once), and the text is the
     * String form's, byte for byte. (When this was introduced, 18 files drawn from 3 plans and 9
     * CSV problems of 0 to 40,000 buffers, vector and raster, were compared with the former
     * whole-string output: identical but for the HTML's planning time.)
     */
    @Test
    void picturesAreWrittenInPiecesAndAreTheStringFormByteForByte() throws Exception {
        Problem p = randomProblem(9_000, 5);
        Placement placement = new GreedySizePlanner().place(p);
        Plan plan = ArenaPlanner.plan(sample());
        java.util.Map<String, String> whole = new java.util.LinkedHashMap<>();
        whole.put("csv svg", PlanPictures.svg(p, placement));
        whole.put("csv html", PlanPictures.html(p, placement));
        whole.put("plan svg", PlanPictures.svg(plan));
        for (var e : whole.entrySet()) {
            PiecesWriter w = new PiecesWriter();
            switch (e.getKey()) {
                case "csv svg" -> PlanPictures.svg(p, placement, w);
                case "csv html" -> PlanPictures.html(p, placement, w);
                default -> PlanPictures.svg(plan, w);
            }
            assertThat(w.text.toString()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(w.largest).as(e.getKey() + ": the largest piece").isLessThan(ArenaSvg.SPILL + 16_384);
            if (e.getValue().length() > 2 * ArenaSvg.SPILL) assertThat(w.pieces).as(e.getKey() + ": pieces").isGreaterThan(e.getValue().length() / (ArenaSvg.SPILL + 16_384));
        }
        assertThat(whole.get("csv svg").length()).isGreaterThan(1_000_000);
    }

    /** Records what it is given and the largest single piece. */
    private static final class PiecesWriter extends java.io.Writer {
        final StringBuilder text = new StringBuilder();
        int largest;
        int pieces;

        @Override
        public void write(char[] buf, int off, int len) {
            text.append(buf, off, len);
            largest = Math.max(largest, len);
            pieces++;
        }

        @Override
        public void write(String s, int off, int len) {
            text.append(s, off, off + len);
            largest = Math.max(largest, len);
            pieces++;
        }

        @Override
        public void flush() { }

        @Override
        public void close() { }
    }

    /**
     * Times and sizes at the 64-bit edge: the axis loops stepped past Long.MAX_VALUE and wrapped
     * (a tick every time unit: {@code plan huge.csv --svg} filled a 6 GB heap), and x coordinates
     * overflowed a long before the division (breaker).
     */
    @Test
    void timesAndSizesAtTheLongEdgeDrawAFewTicksInsideThePicture() throws Exception {
        long max = Long.MAX_VALUE;
        Problem p = new Problem(new String[]{"a", "b"}, new long[]{0, max - 1}, new long[]{max, max},
                new long[]{max / 2, max / 2}, 1);
        String svg = PlanPictures.svg(p, new GreedySizePlanner().place(p));
        assertThat(count(svg, "class=\"tick\"")).isBetween(2, 40);
        assertThat(count(svg, "class=\"ytick\"")).isBetween(2, 40);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" x[12]?=\"(-?[0-9.]+)\"").matcher(svg);
        int xs = 0;
        while (m.find()) {
            xs++;
            assertThat(Double.parseDouble(m.group(1))).as(m.group()).isBetween(0.0, (double) ArenaSvg.WIDTH);
        }
        assertThat(xs).isPositive();
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
