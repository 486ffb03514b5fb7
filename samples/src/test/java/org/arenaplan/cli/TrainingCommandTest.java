package org.arenaplan.cli;

import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --train}, {@code --recompute} and {@code --memory-budget} on {@code plan} and {@code run}. */
class TrainingCommandTest {
    private static final String[] TINY = {"--model", "transformer", "--layers", "2", "--hidden", "16", "--seq", "64", "--heads", "2"};

    private static String[] args(String command, String... more) {
        String[] a = new String[1 + TINY.length + more.length];
        a[0] = command;
        System.arraycopy(TINY, 0, a, 1, TINY.length);
        System.arraycopy(more, 0, a, 1 + TINY.length, more.length);
        return a;
    }

    private static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex + " in\n" + text).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void aBudgetIsMetAndReportedWithTheRecomputedTensors() {
        Cli plain = Cli.run(args("plan", "--train"));
        assertThat(plain.code()).as(plain.toString()).isZero();
        long without = number(plain.out(), "lower bound ([0-9,]+) B without recomputation");
        Cli r = Cli.run(args("plan", "--train", "--recompute", "auto", "--memory-budget", Long.toString(without * 3 / 4)));
        assertThat(r.code()).as(r.toString()).isZero();
        long peak = number(r.out(), "recompute: auto, \\d+ tensors, [0-9,]+ extra FLOPs \\([0-9.]+ % of the step\\), lower bound [0-9,]+ B -> ([0-9,]+) B");
        assertThat(peak).isLessThanOrEqualTo(without * 3 / 4);
        assertThat(r.out()).containsPattern("recomputed: \\S+");
    }

    @Test
    void aBudgetNothingFitsExitsThreeNamingTheSmallestThatFits() {
        Cli r = Cli.run(args("plan", "--train", "--recompute", "auto", "--memory-budget", "1000"));
        assertThat(r.code()).as(r.toString()).isEqualTo(3);
        long smallest = number(r.err(), "the smallest budget that fits is ([0-9,]+) B");
        assertThat(Cli.run(args("plan", "--train", "--recompute", "auto", "--memory-budget", Long.toString(smallest))).code()).isZero();
    }

    @Test
    void aRecomputedTrainingRunGivesTheSameOutputsInEveryMode() {
        Cli r = Cli.run(args("run", "--device", "sim", "--iterations", "1", "--train", "--recompute", "sqrt", "--schedule", "memory", "--schedule-time-limit", "1"));
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("outputs equal across modes: yes").contains("recompute: sqrt").contains("schedule: memory");
    }

    @Test
    void recomputeFlagsWithoutTrainOrBudgetAreUsageErrors() {
        assertThat(Cli.run(args("plan", "--recompute", "sqrt")).code()).isEqualTo(2);
        assertThat(Cli.run(args("plan", "--train", "--recompute", "auto")).code()).isEqualTo(2);
        assertThat(Cli.run(args("plan", "--train", "--memory-budget", "100")).code()).isEqualTo(2);
        assertThat(Cli.run(args("plan", "--train", "--recompute", "most")).code()).isEqualTo(2);
        // the training kernels are in the CUDA fatbin: --device cuda is no usage error (exit 3 where CUDA is unavailable)
        Cli cuda = Cli.run(args("run", "--train", "--device", "cuda", "--iterations", "1"));
        assertThat(cuda.code()).as(cuda.toString()).isIn(0, 3);
        assertThat(cuda.err()).doesNotContain("--train needs");
        Cli noRule = Cli.run("plan", "--model", "inception", "--train");   // MaxPool and Concat have no gradient rule
        assertThat(noRule.code()).as(noRule.toString()).isEqualTo(2);
        assertThat(noRule.err()).contains("no gradient rule");
    }
}
