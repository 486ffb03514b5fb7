package org.arenaplan.cli;

import org.arenaplan.io.PlanJson;
import org.arenaplan.models.BuiltinModels;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Discoverability: model options never collide with a command's flags, help lists the models, --version everywhere, completion, --out -. */
class HelpAndOptionsTest {
    @Test
    void theChainsOwnDimReachesTheChain() {
        Cli r = Cli.run("plan", "--model", "chain", "--dim", "4096", "--donate", "true");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("plan of model chain {dim=4096, donate=true}").contains("134,217,728 B (128.0 MiB)");
        Cli eq = Cli.run("plan", "--model", "chain", "--dim=512");
        assertThat(eq.code()).as(eq.toString()).isZero();
        assertThat(eq.out()).contains("{dim=512}");
    }

    @Test
    void anOnnxDimWithAModelIsRefusedInTheUsersTerms() {
        Cli r = Cli.run("plan", "--model", "chain", "--dim", "batch=2");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--dim batch=2").contains("built-in models take --OPTION VALUE").doesNotContain("Exception");
    }

    /** A model option named like a command flag would be swallowed by the command; only --dim is routed to the model. */
    @Test
    void noModelOptionCollidesWithACommandFlag() {
        CommandLine cl = ArenaplanCli.commandLine();
        for (String command : new String[]{"plan", "run"}) {
            Set<String> flags = new HashSet<>();
            for (CommandLine.Model.OptionSpec o : cl.getSubcommands().get(command).getCommandSpec().options()) flags.addAll(Set.of(o.names()));
            for (String m : BuiltinModels.names()) {
                for (String option : BuiltinModels.defaults(m).keySet()) {
                    if (option.equals("dim")) continue;   // routed to the model by Dims.routeToModel
                    assertThat(flags).as(command + " --model " + m + " --" + option).doesNotContain("--" + option);
                }
            }
        }
    }

    @Test
    void helpListsTheModelsAndOneModelsOptions() {
        Cli all = Cli.run("plan", "--help");
        assertThat(all.out()).contains("Built-in models");
        for (String m : BuiltinModels.names()) assertThat(all.out()).contains("  " + m + "\n").contains(ModelHelp.options(m));
        Cli mlp = Cli.run("plan", "--model", "mlp", "--help");
        assertThat(mlp.code()).isZero();
        assertThat(mlp.out()).startsWith("Usage: arenaplan plan --model mlp").contains("--layers     3").contains("--width      256")
                .doesNotContain("--capacity");
        assertThat(Cli.run("run", "--model", "chain", "--help").out()).contains("arenaplan run --model chain").contains("--dim        256");
        Cli unknown = Cli.run("plan", "--model", "nope", "--help");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown model 'nope'").contains("chain, mlp");
    }

    @Test
    void everySubcommandPrintsTheVersion() {
        for (String c : new String[]{"plan", "validate", "run", "stress", "doctor", "bench"}) {
            Cli r = Cli.run(c, "--version");
            assertThat(r.code()).as(c).isZero();
            assertThat(r.out()).as(c).startsWith("arenaplan ");
        }
    }

    /** The synopsis is what a reader scans first: it names every option the command takes. */
    @Test
    void everyOptionIsInItsCommandsSynopsis() {
        CommandLine cl = ArenaplanCli.commandLine();
        for (String c : new String[]{"plan", "validate", "run", "stress", "bench"}) {
            CommandLine.Model.CommandSpec spec = cl.getSubcommands().get(c).getCommandSpec();
            String synopsis = cl.getSubcommands().get(c).getHelp().synopsis(0);
            for (CommandLine.Model.OptionSpec o : spec.options()) {
                if (o.usageHelp() || o.versionHelp()) continue;
                assertThat(synopsis).as(c + "'s synopsis names " + o.longestName()).contains(o.longestName());
            }
        }
    }

    /**
     * breaker15, breaker17: picocli wraps a synopsis line longer than the usage width (80 columns)
     * wherever it runs out, so {@code plan --help} printed {@code [--fuse} at the end of one line
     * and {@code none|epilogues]} at the start of the next; every synopsis line, the first with its
     * {@code Usage: } prefix, fits.
     */
    @Test
    void everySynopsisLineFitsTheHelpWidthUnwrapped() {
        CommandLine cl = ArenaplanCli.commandLine();
        for (String c : new String[]{"plan", "validate", "run", "stress", "bench", "doctor"}) {
            CommandLine.Model.CommandSpec spec = cl.getSubcommands().get(c).getCommandSpec();
            String synopsis = cl.getSubcommands().get(c).getHelp().synopsis(0);
            String[] ours = spec.usageMessage().customSynopsis();
            for (int i = 0; i < ours.length; i++) {
                String shown = (i == 0 ? "Usage: " : "") + ours[i];
                assertThat(shown.length()).as(c + "'s synopsis line '" + shown + "'").isLessThanOrEqualTo(spec.usageMessage().width());
                assertThat(synopsis).as(c).contains(ours[i]);
            }
        }
    }

    /**
     * README.md's synopsis of {@code plan} names every option of {@code plan} (those {@code plan --help} lists) (breaker15:
     * it lacked {@code --input NAME=FILE.pb}, which the help and docs/cli.md give), but the options
     * every command takes ({@code --help}, {@code --version}, told below the synopsis) and
     * {@code --debug} (docs/cli.md).
     */
    @Test
    void readmesPlanSynopsisNamesEveryOptionOfPlanHelp() throws Exception {
        java.nio.file.Path readme = java.nio.file.Path.of("..", "README.md");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(readme), "README.md is not beside this module");
        String text = java.nio.file.Files.readString(readme);
        int from = text.indexOf("./arenaplan plan (");
        String synopsis = text.substring(from, text.indexOf("./arenaplan ", from + 1));
        java.util.Set<String> missing = new java.util.TreeSet<>();
        for (picocli.CommandLine.Model.OptionSpec o : new picocli.CommandLine(new PlanCommand()).getCommandSpec().options()) {
            String name = o.longestName();
            if (!java.util.Set.of("--help", "--version", "--debug").contains(name) && !synopsis.matches("(?s).*[\\[| ]" + name + "[\\] =].*")) missing.add(name);
        }
        assertThat(missing).as("options of plan --help absent from README's plan synopsis").isEmpty();
    }

    /** The exit codes README.md gives per command are the ones its --help gives. */
    @Test
    void helpGivesEveryExitCodeOfItsCommand() {
        java.util.Map<String, String> codes = java.util.Map.of("plan", "023", "validate", "012", "run", "0123",
                "stress", "012", "bench", "0123");
        codes.forEach((c, expected) -> {
            String help = Cli.run(c, "--help").out().replaceAll("\\s+", " ");
            String exits = help.substring(help.indexOf("Exit codes: "));
            for (char code : expected.toCharArray())
                assertThat(exits).as(c + " --help gives exit code " + code).containsPattern("[:,] " + code + " ");
        });
    }

    @Test
    void completionScriptIsGenerated() {
        Cli r = Cli.run("generate-completion");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("complete -F").contains("arenaplan").contains("--planner");
        // an argument it does not take was ignored and the script printed (frontdoor helper)
        Cli extra = Cli.run("generate-completion", "extra");
        assertThat(extra.code()).as(extra.toString()).isEqualTo(2);
        assertThat(extra.out()).isEmpty();
        assertThat(extra.err().strip()).isEqualTo("arenaplan: Unmatched argument at index 1: 'extra' (see 'arenaplan generate-completion --help')");
    }

    @Test
    void outDashWritesThePlanToStdoutAndTheReportToStderr() throws Exception {
        Cli r = Cli.run("plan", "--model", "mlp", "--out", "-");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(PlanJson.parse(r.out(), "stdout").arenaBytes()).isEqualTo(98304);
        assertThat(r.err()).contains("plan of model mlp").doesNotContain("wrote");
    }

    /**
     * An unknown option or command reads the same in every command, with the name it nearly
     * spells by the one near-miss rule: was picocli's "Unknown option: '--bogus'" outside plan and
     * run, "Unmatched argument at index 0: 'paln'" for a command (picocli's suggestion there was 'validate').
     */
    @Test
    void unknownOptionsAndCommandsReadTheSameEverywhereWithTheNameTheyNearlySpell() {
        String[][] cases = {
                {"unknown option '--bogus' (see 'arenaplan validate --help')", "validate", "p.csv", "s.csv", "--bogus"},
                {"unknown option '--capacit'; did you mean '--capacity'? (see 'arenaplan validate --help')", "validate", "p.csv", "s.csv", "--capacit", "3"},
                {"unknown option '--graph'; did you mean '--graphs'? (see 'arenaplan stress --help')", "stress", "--graph", "3"},
                {"unknown option '--bogus' (see 'arenaplan doctor --help')", "doctor", "--bogus"},
                {"unknown option '--planer'; did you mean '--planner'? (see 'arenaplan plan --help')", "plan", "p.csv", "--planer", "best"},
                {"unknown option '--devce'; did you mean '--device'? (see 'arenaplan run --help')", "run", "g.json", "--devce", "sim"},
                {"unknown command 'paln'; commands: plan, validate, run, stress, doctor, bench, help, generate-completion; did you mean 'plan'? (see 'arenaplan --help')", "paln"},
                {"unknown command 'nope'; commands: plan, validate, run, stress, doctor, bench, help, generate-completion (see 'arenaplan --help')", "nope"}};
        for (String[] c : cases) {
            Cli r = Cli.run(java.util.Arrays.copyOfRange(c, 1, c.length));
            assertThat(r.code()).as(r.toString()).isEqualTo(2);
            assertThat(r.err().strip()).as(r.toString()).isEqualTo("arenaplan: " + c[0]);
        }
    }
}
