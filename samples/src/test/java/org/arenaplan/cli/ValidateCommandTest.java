package org.arenaplan.cli;

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
        assertThat(changed.out()).contains("buffer 'c' is [2, 4) 2 B in the solution but [2, 4) 4 B in the problem")
                .contains("the solution names buffer 'z'");
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
    void badInputIsExitTwo() throws Exception {
        Path p = file("p.csv", PROBLEM);
        Cli r = Cli.run("validate", p.toString(), file("bad.csv", "id,lower,upper,size,offset\na,0,2,4,zero\n").toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("bad.csv:2: field 'offset' is not a whole number: 'zero'");
        Cli noSolution = Cli.run("validate", p.toString(), p.toString());
        assertThat(noSolution.code()).isEqualTo(2);
        assertThat(noSolution.err()).contains("missing column 'offset'");
        assertThat(Cli.run("validate", p.toString()).code()).isEqualTo(2);
    }
}
