package org.arenaplan.io;

import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProblemCsvRoundTripTest {
    @TempDir
    Path dir;

    private final Problem problem = new Problem(new String[]{"a", "b", "c", "d"}, new long[]{0, 1, 2, 0},
            new long[]{2, 3, 4, 1}, new long[]{10, 20, 10, 0}, 1);

    @Test
    void problemRoundTrips() throws Exception {
        Path f = dir.resolve("p.csv");
        try (Writer w = Files.newBufferedWriter(f)) {
            ProblemCsv.writeProblem(problem, w);
        }
        Problem back = ProblemCsv.read(f, 1);
        assertThat(back.size()).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            assertThat(back.id(i)).isEqualTo(problem.id(i));
            assertThat(back.lower(i)).isEqualTo(problem.lower(i));
            assertThat(back.upper(i)).isEqualTo(problem.upper(i));
            assertThat(back.bytes(i)).isEqualTo(problem.bytes(i));
        }
    }

    @Test
    void solutionRoundTrips() throws Exception {
        Placement s = Planners.byName("best").place(problem);
        Path f = dir.resolve("s.csv");
        try (Writer w = Files.newBufferedWriter(f)) {
            ProblemCsv.writeSolution(problem, s, w);
        }
        ProblemCsv.Parsed back = ProblemCsv.readSolution(f, 1);
        assertThat(back.offsets()).containsExactly(s.offsets());
        assertThat(back.problem().lowerBound()).isEqualTo(problem.lowerBound());
        assertThat(Files.readAllLines(f).get(0)).isEqualTo("id,lower,upper,size,offset");
    }

    @Test
    void capacityComesFromTheName() {
        assertThat(ProblemCsv.capacityFromName(Path.of("A.1048576.csv"))).isEqualTo(1048576L);
        assertThat(ProblemCsv.capacityFromName(Path.of("resnet50.csv"))).isNull();
    }

    /** A sign is read as the fields' numbers read it: '+' is the number, '-' an error naming the file; never ignored. */
    @Test
    void aSignedCapacityInTheNameIsReadOrRefusedNeverIgnored() {
        assertThat(ProblemCsv.capacityFromName(Path.of("n.+1536.csv"))).isEqualTo(1536L);
        assertThat(ProblemCsv.capacityFromName(Path.of("n.-0.csv"))).isZero();
        assertThatThrownBy(() -> ProblemCsv.capacityFromName(Path.of("dir", "n.-5.csv"))).isInstanceOf(InputException.class)
                .hasMessage(Path.of("dir", "n.-5.csv") + ": the capacity -5 in the file name (NAME.NUMBER.csv) is negative; rename the file or give --capacity BYTES");
        assertThat(ProblemCsv.capacityFromName(Path.of("n.1-5.csv"))).as("not a number: part of the name").isNull();
    }

    /** breaker15: String.trim drops NUL and every control character, so {@code 4\0} read as 4; spaces and tabs still may pad a field. */
    @Test
    void aNulAfterANumberIsRefusedAndPrintedEscapedWhileSpacesAndTabsStillPad() throws Exception {
        Path nul = dir.resolve("nul.csv");
        Files.writeString(nul, "id,lower,upper,size\na,0,1,4\0\n");
        assertThatThrownBy(() -> ProblemCsv.read(nul, 1)).isInstanceOf(InputException.class)
                .hasMessage(nul + ":2: field 'size' is not a whole number: '4\\u0000' (digits 0-9, an optional sign)");
        Path padded = dir.resolve("padded.csv");
        Files.writeString(padded, " id ,\tlower, upper ,size\n a ,0,\t1 , 4\t\n");
        Problem p = ProblemCsv.read(padded, 1);
        assertThat(p.id(0)).isEqualTo("a");
        assertThat(p.bytes(0)).isEqualTo(4);
        assertThat(p.upper(0)).isEqualTo(1);
    }

    /**
     * Fields in double quotes (RFC 4180 quoting, as a spreadsheet may save them) were "missing
     * column 'id'" for a quoted header, an id with its quotes in it, or a count of fields: each is
     * now refused saying the quotes are the cause. Quotes in an extra column stay as written.
     */
    @Test
    void quotedFieldsAreRefusedSayingSo() throws Exception {
        String why = "arenaplan's CSV reader splits fields at every comma and reads no double quotes (RFC 4180 quoting)";
        refused("h.csv", "\"id\",\"lower\",\"upper\",\"size\"\na,0,1,4\n", ":1: column 'id' is in double quotes (\"id\"); " + why + ": write it without quotes");
        refused("i.csv", "id,lower,upper,size\n\"a\",0,1,4\n", ":2: field 'id' is in double quotes (\"a\"); " + why + ": write it without quotes");
        refused("s.csv", "id,lower,upper,size\na,0,1, \"4\"\n", ":2: field 'size' is in double quotes (\"4\"); " + why + ": write it without quotes");
        refused("c.csv", "id,lower,upper,size,note\na,0,1,4,\"x, y\"\n",
                ":2: expected 5 fields (id,lower,upper,size,note), found 6; " + why + ", so a comma in quotes splits its field too");
        refused("q.csv", "id,lower,upper,size\n\"a,b\",0,1,4\n",
                ":2: expected 4 fields (id,lower,upper,size), found 5; " + why + ", so a comma in quotes splits its field too");
        Path note = dir.resolve("n.csv");
        Files.writeString(note, "id,lower,upper,size,note\na,0,1,4,\"x\"\n");
        assertThat(ProblemCsv.readWithColumns(note, 1).extra().rows()).containsExactly(List.of("\"x\""));
    }

    /** A problem file {@code name} holding {@code text} is refused with the message FILE + {@code message}. */
    private void refused(String name, String text, String message) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        assertThatThrownBy(() -> ProblemCsv.read(f, 1)).isInstanceOf(InputException.class).hasMessage(f + message);
    }

    @Test
    void aProblemIsNotASolution() throws Exception {
        Path f = dir.resolve("p.csv");
        Files.writeString(f, "id,lower,upper,size\na,0,1,4\n");
        assertThatThrownBy(() -> ProblemCsv.readSolution(f, 1)).isInstanceOf(InputException.class)
                .hasMessage(f + ":1: missing column 'offset' in header 'id,lower,upper,size'");
    }
}
