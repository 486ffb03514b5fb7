package org.arenaplan.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ValidateCommandTest {
    @TempDir
    Path dir;

    private static final String PROBLEM = "id,lower,upper,size\na,0,2,4\nb,1,3,4\nc,2,4,4\n";

    private Path file(String name, String body) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, body);
        return f;
    }

    @Test
    void acceptsWhatPlanWrote() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Path s = dir.resolve("s.csv");
        assertThat(Cli.run("plan", p.toString(), "--out", s.toString()).code()).isZero();
        Cli r = Cli.run("validate", p.toString(), s.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("OK: 3 buffers, arena 8 B, lower bound 8 B");
    }

    /** The plan JSON of a CSV problem is a solution too: its storages are the rows. */
    @Test
    void acceptsThePlanJsonPlanWroteAndJudgesItLikeItsCsv() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Path json = dir.resolve("s.json");
        Path csv = dir.resolve("s.csv");
        assertThat(Cli.run("plan", p.toString(), "--out", json.toString()).code()).isZero();
        assertThat(Cli.run("plan", p.toString(), "--out", csv.toString()).code()).isZero();
        Cli r = Cli.run("validate", p.toString(), json.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(Cli.run("validate", p.toString(), csv.toString()).out()).startsWith("OK: 3 buffers, arena 8 B, lower bound 8 B");
        assertThat(Cli.run("validate", p.toString(), json.toString(), "--capacity", "7").code()).isEqualTo(1);

        // b moved onto a's bytes, its tensor's address with it: a well-formed plan file, an invalid placement.
        String plan = Files.readString(json);
        long aOffset = Long.parseLong(plan.replaceAll("(?s).*?\"name\" : \"a\",\\s*\"offset\" : (\\d+).*", "$1"));
        String moved = plan.replaceFirst("(\"name\" : \"b\",\\s*\"offset\" : )\\d+", "$1" + aOffset)
                .replaceFirst("(\"b\" : \\{\\s*\"storage\" : 1,\\s*\"offset_in_storage\" : 0,\\s*\"address\" : )\\d+", "$1" + aOffset);
        assertThat(moved).isNotEqualTo(plan);
        Cli overlap = Cli.run("validate", p.toString(), file("overlap.json", moved).toString());
        assertThat(overlap.code()).as(overlap.toString()).isEqualTo(1);
        assertThat(overlap.out()).startsWith("INVALID").contains("OVERLAP: buffers 'a' [0, 2) and 'b' [1, 3)");

        Cli bad = Cli.run("validate", p.toString(), file("bad.json", plan.replaceFirst("\"start\" : 0", "\"start\" : -1")).toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("arenaplan: " + dir.resolve("bad.json") + ": $.storages[0].start: negative position -1\n");
    }

    /**
     * A plan JSON whose storages name one buffer twice: the copy of b (same bytes, same time, so
     * overlapping b) was dropped unseen and validate said OK; a CSV solution naming a row twice
     * was already exit 2 (newcomer finding 1).
     */
    @Test
    void aPlanJsonNamingABufferTwiceIsExitTwo() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Path json = dir.resolve("s.json");
        assertThat(Cli.run("plan", p.toString(), "--out", json.toString()).code()).isZero();
        var root = (ObjectNode) new ObjectMapper().readTree(json.toFile());
        root.remove("peak");
        var storages = (ArrayNode) root.get("storages");
        ObjectNode copy = storages.get(1).deepCopy();
        copy.put("id", 3);
        copy.putObject("members").put("b2", 0);
        storages.add(copy);
        ((ObjectNode) root.get("tensors")).putObject("b2")
                .put("storage", 3).put("offset_in_storage", 0).put("address", copy.get("offset").asLong());
        Path twice = file("twice.json", root.toString());
        Cli r = Cli.run("validate", p.toString(), twice.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("arenaplan: " + twice + ": $.storages[3].name: 'b' names $.storages[1] too "
                + "(a storage is named by its base tensor, or by its buffer's id in a CSV problem's plan: one storage per name)\n");
    }

    /**
     * The plan of a CSV problem holds one storage and one tensor per buffer. A storage listing
     * another member as well (an alias the problem lacks), no member, or its own buffer away from
     * offset 0 is not the problem's plan; validate said OK to the first (breaker finding b).
     */
    @Test
    void aCsvPlanWhoseStorageListsAMemberTheProblemLacksIsExitTwo() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Path json = dir.resolve("s.json");
        assertThat(Cli.run("plan", p.toString(), "--out", json.toString()).code()).isZero();
        ObjectMapper mapper = new ObjectMapper();

        var extra = (ObjectNode) mapper.readTree(json.toFile());
        long aOffset = extra.get("storages").get(0).get("offset").asLong();
        ((ObjectNode) extra.get("storages").get(0).get("members")).put("z", 0);
        ((ObjectNode) extra.get("tensors")).putObject("z").put("storage", 0).put("offset_in_storage", 0).put("address", aOffset);
        Path alias = file("alias.json", extra.toString());
        Cli r = Cli.run("validate", p.toString(), alias.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("arenaplan: " + alias + ": $.storages[0].members.z: storage 'a' lists member 'z', which " + p
                + " has no buffer of; the plan of a CSV problem (no \"graph\") has one storage and one tensor per buffer: its buffer, at offset 0\n");

        var moved = (ObjectNode) mapper.readTree(json.toFile());
        ((ObjectNode) moved.get("storages").get(0).get("members")).put("a", 1);
        ((ObjectNode) moved.get("tensors").get("a")).put("offset_in_storage", 1).put("address", aOffset + 1);
        Path inside = file("inside.json", moved.toString());
        Cli m = Cli.run("validate", p.toString(), inside.toString());
        assertThat(m.code()).as(m.toString()).isEqualTo(2);
        assertThat(m.err()).isEqualTo("arenaplan: " + inside + ": $.storages[0].members.a: buffer 'a' lies at offset 1 inside its storage; "
                + "the plan of a CSV problem (no \"graph\") has one storage and one tensor per buffer: its buffer, at offset 0\n");

        var other = (ObjectNode) mapper.readTree(json.toFile());   // c's tensor moved into a's storage, c's storage left empty
        ((ObjectNode) other.get("storages").get(0).get("members")).put("c", 0);
        ((ObjectNode) other.get("storages").get(2).get("members")).removeAll();
        ((ObjectNode) other.get("tensors").get("c")).put("storage", 0).put("address", aOffset);
        Path moved2 = file("other.json", other.toString());
        Cli o = Cli.run("validate", p.toString(), moved2.toString());
        assertThat(o.code()).as(o.toString()).isEqualTo(2);
        assertThat(o.err()).startsWith("arenaplan: " + moved2 + ": $.storages[0].members.c: storage 'a' lists member 'c', another buffer of " + p + "; ");
    }

    @Test
    void catchesACorruptedSolution() throws Exception {
        Path p = file("p.csv", PROBLEM);
        // a and b are live together at time 1 but share bytes [0, 4).
        Path s = file("s.csv", "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,0\nc,2,4,4,0\n");
        Cli r = Cli.run("validate", p.toString(), s.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).startsWith("INVALID").contains("OVERLAP: buffers 'a' [0, 2) and 'b' [1, 3)");
    }

    @Test
    void rowsMustMatchTheProblem() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Cli missing = Cli.run("validate", p.toString(), file("m.csv", "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,4\n").toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.out()).contains("MISSING_BUFFER: buffer 'c' of the problem has no row in the solution");
        Cli changed = Cli.run("validate", p.toString(), file("c.csv", "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,4\nc,2,4,2,0\nz,0,1,1,0\n").toString());
        assertThat(changed.code()).isEqualTo(1);
        assertThat(changed.out()).contains("ROW_MISMATCH: buffer 'c' is [2, 4) 2 B in the solution but [2, 4) 4 B in the problem")
                .contains("MISSING_BUFFER: the solution names buffer 'z'");
    }

    @Test
    void checksCapacityAndAlignment() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Path s = file("s.csv", "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,4\nc,2,4,4,0\n");
        assertThat(Cli.run("validate", p.toString(), s.toString(), "--capacity", "8").code()).isZero();
        Cli over = Cli.run("validate", p.toString(), s.toString(), "--capacity", "7");
        assertThat(over.code()).isEqualTo(1);
        assertThat(over.out()).contains("OVER_CAPACITY");
        assertThat(Cli.run("validate", file("p.7.csv", PROBLEM).toString(), s.toString()).code()).isEqualTo(1);
        Cli misaligned = Cli.run("validate", p.toString(), s.toString(), "--align", "8");
        assertThat(misaligned.code()).isEqualTo(1);
        assertThat(misaligned.out()).contains("MISALIGNED");
    }

    @Test
    void anOffsetWhoseEndPasses2To63IsNeverCertified() throws Exception {
        // Two 4 B buffers live together need 8 B; b's end 2^63+2 used to wrap to a negative number,
        // dropping b out of every check ("OK ... arena 4 B, lower bound 8 B, arena/LB 0.5000").
        Path p = file("p.csv", "id,lower,upper,size\na,0,1,4\nb,0,1,4\n");
        for (long offset : new long[]{Long.MAX_VALUE - 1, Long.MAX_VALUE - 3, Long.MAX_VALUE}) {
            Path s = file("s.csv", "id,lower,upper,size,offset\na,0,1,4,0\nb,0,1,4," + offset + "\n");
            Cli r = Cli.run("validate", p.toString(), s.toString());
            assertThat(r.code()).as(r.toString()).isEqualTo(1);
            assertThat(r.out()).as(r.toString()).startsWith("INVALID").contains("OUT_OF_ARENA: buffer 'b' at offset " + offset).contains("ends past 2^63-1");
        }
        Path last = file("last.csv", "id,lower,upper,size,offset\na,0,1,4,0\nb,0,1,4," + (Long.MAX_VALUE - 4) + "\n");
        Cli fits = Cli.run("validate", p.toString(), last.toString());
        assertThat(fits.code()).as("b ends exactly at 2^63-1: representable, and valid without a capacity").isZero();
        assertThat(fits.out()).contains("arena " + Long.MAX_VALUE + " B");
        assertThat(Cli.run("validate", p.toString(), last.toString(), "--capacity", "8").code()).isEqualTo(1);
    }

    @Test
    void aPlanJsonWithAnUnknownStorageKindIsExitTwoNamingTheFileAndPath() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Path json = dir.resolve("plan.json");
        assertThat(Cli.run("plan", p.toString(), "--out", json.toString()).code()).isZero();
        Path bad = file("bad.json", Files.readString(json).replaceFirst("\"kind\" : \"buffer\"", "\"kind\" : \"bufer\""));
        Cli r = Cli.run("validate", p.toString(), bad.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("arenaplan: " + bad + ": $.storages[0].kind: expected activation, aliased, output, input, donated-input, buffer, found 'bufer'");
        assertThat(Cli.run("validate", p.toString(), json.toString()).code()).isZero();
    }

    @Test
    void badInputIsExitTwo() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Cli r = Cli.run("validate", p.toString(), file("bad.csv", "id,lower,upper,size,offset\na,0,2,4,zero\n").toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("bad.csv:2: field 'offset' is not a whole number: 'zero'");
        Path dotFile = file("dot.csv", "id,lower,upper,size,offset\na,0,2,4,0.0\n");
        Cli dot = Cli.run("validate", p.toString(), dotFile.toString());
        assertThat(dot.code()).as(dot.toString()).isEqualTo(2);
        assertThat(dot.err().strip()).isEqualTo("arenaplan: " + dotFile + ":2: field 'offset' is not a whole number: '0.0' (digits 0-9, an optional sign)");
        Cli noSolution = Cli.run("validate", p.toString(), p.toString());
        assertThat(noSolution.code()).isEqualTo(2);
        assertThat(noSolution.err()).contains("missing column 'offset'");
        assertThat(Cli.run("validate", p.toString()).code()).isEqualTo(2);
    }

    @Test
    void aPlanJsonIsCheckedAtTheAlignmentItRecordsUnlessAlignIsGiven() throws Exception {
        // Planned at 64 B: two 64 B slots, arena 128 B = LB; checked at 1 B (the default before)
        // it read arena 68 B against a lower bound of 8 B, arena/LB 8.5.
        Path p = file("p.csv", PROBLEM);
        Path plan = dir.resolve("x.json");
        Cli planned = Cli.run("plan", p.toString(), "--align", "64", "--out", plan.toString());
        assertThat(planned.code()).as(planned.toString()).isZero();
        Cli v = Cli.run("validate", p.toString(), plan.toString());
        assertThat(v.code()).as(v.toString()).isZero();
        assertThat(v.out()).contains("arena 128 B, lower bound 128 B, arena/LB 1.0000");
        Cli strict = Cli.run("validate", p.toString(), plan.toString(), "--align", "128");
        assertThat(strict.code()).as(strict.toString()).isEqualTo(1);
        assertThat(strict.out()).contains("MISALIGNED");
    }

    /** A plan JSON of several streams is checked for its placement only; the OK says its events were not checked (review, breaker8). */
    @Test
    void aMultiStreamPlanSaysItsEventsAreNotChecked() throws Exception {
        Path json = dir.resolve("t4.json");
        assertThat(Cli.run("plan", "--model", "transformer", "--streams", "4", "--out", json.toString()).code()).isEqualTo(0);
        // the plan's own problem as a CSV (plan --out FILE.csv refuses a plan on several streams)
        java.io.StringWriter problem = new java.io.StringWriter();
        org.arenaplan.io.ProblemCsv.writeProblem(org.arenaplan.io.PlanJson.read(json).problem(), problem);
        Path p = file("t4.problem.csv", problem.toString());
        Cli r = Cli.run("validate", p.toString(), json.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(0);
        assertThat(r.out()).startsWith("OK: ").containsPattern("note: the plan's [1-9][0-9]* sync event\\(s\\) are not checked here");
        Path csv = dir.resolve("t1.csv");   // one stream: a CSV solution, no events, no note
        assertThat(Cli.run("plan", "--model", "transformer", "--out", csv.toString()).code()).isEqualTo(0);
        StringBuilder oneProblem = new StringBuilder();
        for (String line : Files.readAllLines(csv)) oneProblem.append(line, 0, line.lastIndexOf(',')).append('\n');
        Cli one = Cli.run("validate", file("t1.problem.csv", oneProblem.toString()).toString(), csv.toString());
        assertThat(one.code()).as(one.toString()).isZero();
        assertThat(one.out()).doesNotContain("note:");
        Cli graphFirst = Cli.run("validate", json.toString(), json.toString());
        assertThat(graphFirst.code()).isEqualTo(2);
        assertThat(graphFirst.err()).contains("is a JSON file; validate checks a placement against a problem CSV");
    }
}
