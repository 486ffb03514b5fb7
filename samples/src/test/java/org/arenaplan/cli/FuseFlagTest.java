package org.arenaplan.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --fuse}: the contract line, equal outputs across modes, the smaller plan, and one-line usage errors. */
class FuseFlagTest {
    @Test
    void runFusesTheMlpsEpiloguesAndItsModesAgree() {
        Cli r = Cli.run("run", "--model", "mlp", "--device", "sim", "--iterations", "1", "--fuse", "epilogues");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("fused: ").contains("l1.mm+l1.bias+l1.relu").contains("outputs equal across modes: yes");
    }

    @Test
    void planShowsTheFusedOpsAndNoneIsTheDefault() {
        Cli fused = Cli.run("plan", "--model", "unet", "--fuse", "epilogues");
        assertThat(fused.code()).as(fused.toString()).isZero();
        assertThat(fused.out()).containsPattern("fused: [1-9][0-9]* op\\(s\\) with their epilogues \\(");
        Cli plain = Cli.run("plan", "--model", "unet");
        assertThat(plain.code()).isZero();
        assertThat(plain.out()).doesNotContain("fused:");
    }

    @Test
    void tf32IsSaidToBeIgnoredOnTheSimulator() {
        Cli r = Cli.run("run", "--model", "mlp", "--device", "sim", "--iterations", "1", "--tf32");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("--tf32: ignored on the simulator, which computes in FP32");
    }

    @Test
    void badUsesAreOneLineUsageErrors() {
        Cli bad = Cli.run("plan", "--model", "mlp", "--fuse", "everything");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--fuse everything: expected none or epilogues");
        Cli train = Cli.run("run", "--model", "mlp", "--device", "sim", "--train", "--fuse", "epilogues");
        assertThat(train.code()).isEqualTo(2);
        assertThat(train.err()).contains("--fuse epilogues plans a forward graph");
    }
}
