package org.arenaplan.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ArenaplanCliTest {
    @Test
    void helpListsTheCommands() {
        Cli r = Cli.run("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("plan").contains("validate");
        assertThat(Cli.run("plan", "--help").out()).contains("--capacity").contains("--time-limit").contains("Exit codes");
        assertThat(Cli.run("validate", "--help").out()).contains("PROBLEM.csv").contains("SOLUTION.csv");
    }

    @Test
    void noCommandIsAUsageError() {
        Cli r = Cli.run();
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("missing command: plan, validate, run, stress, doctor or bench");
    }

    @Test
    void versionIsPrinted() {
        Cli r = Cli.run("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("arenaplan ");
    }
}
