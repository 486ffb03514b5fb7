package org.arenaplan.io;

import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** A spreadsheet's quoted id holding a comma read as one field too many, and the line did not say why (newcomer). */
    @Test
    void aQuotedFieldIsRefusedSayingQuotesAreNotRead() throws Exception {
        Path quoted = dir.resolve("q.csv");
        Files.writeString(quoted, "id,lower,upper,size\n\"a,b\",0,1,4\n");
        assertThatThrownBy(() -> ProblemCsv.read(quoted, 1)).isInstanceOf(InputException.class)
                .hasMessage(quoted + ":2: expected 4 fields (id,lower,upper,size), found 5; quotes are not read (the minimalloc CSV has none): "
                        + "every comma separates two fields, so an id may not hold one");
    }

    @Test
    void aProblemIsNotASolution() throws Exception {
        Path f = dir.resolve("p.csv");
        Files.writeString(f, "id,lower,upper,size\na,0,1,4\n");
        assertThatThrownBy(() -> ProblemCsv.readSolution(f, 1)).isInstanceOf(InputException.class)
                .hasMessage(f + ":1: missing column 'offset' in header 'id,lower,upper,size'");
    }
}
