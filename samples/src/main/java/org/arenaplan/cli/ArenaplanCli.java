package org.arenaplan.cli;

import org.arenaplan.io.Printable;
import org.arenaplan.ir.OpKindSpelling;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code arenaplan} command: {@code plan}, {@code validate}, {@code run}, {@code stress}, {@code doctor}, {@code bench}. Every failure is one line on
 * stderr and an exit code ({@link ExitCodes#of}: 2 bad input or usage, 3 no placement within the
 * capacity or device unavailable, 1 an internal error; a Java heap too small for the input is exit 2 too, one line);
 * {@code --debug} adds the stack trace.
 */
@Command(name = "arenaplan", mixinStandardHelpOptions = true, versionProvider = ArenaplanCli.Version.class,
        description = "GPU device-memory planner: one arena, a fixed offset per storage.",
        subcommands = {PlanCommand.class, ValidateCommand.class, RunCommand.class, StressCli.class, DoctorCommand.class, BenchCommand.class,
                CommandLine.HelpCommand.class, AutoComplete.GenerateCompletion.class})
public final class ArenaplanCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: plan, validate, run, stress, doctor or bench");
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line; tests call {@code execute} on it with their own out/err. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new ArenaplanCli());
        cl.setParameterExceptionHandler(ArenaplanCli::usageError);
        cl.setExecutionExceptionHandler(ArenaplanCli::failure);
        cl.setExecutionStrategy(ArenaplanCli::execute);
        // picocli marks generate-completion a help command, whose parse ignores what follows it ('generate-completion extra' printed the script)
        cl.getSubcommands().get("generate-completion").getCommandSpec().helpCommand(false);
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(new Version());   // --version on every subcommand
            if (sub.getCommandSpec().findOption("--model") != null) sub.getCommandSpec().usageMessage().footer(ModelHelp.footer(sub.getCommandName()));
        }
        return cl;
    }

    /** picocli's usual strategy, except that {@code plan|run --model NAME --help} describes that model. */
    private static int execute(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult sub = parsed.subcommand();
        if (sub != null && sub.isUsageHelpRequested() && sub.hasMatchedOption("--model")) {
            CommandLine cmd = sub.commandSpec().commandLine();
            String name = sub.matchedOptionValue("--model", "");
            try {
                cmd.getOut().print(ModelHelp.of(sub.commandSpec().name(), name));
            } catch (IllegalArgumentException e) {
                cmd.getErr().println("arenaplan: " + Printable.of("--model " + name + ": " + e.getMessage()));
                cmd.getErr().flush();
                return ExitCodes.BAD_INPUT;
            }
            cmd.getOut().flush();
            return ExitCodes.OK;
        }
        try {
            return new CommandLine.RunLast().execute(parsed);
        } catch (OutOfMemoryError e) {
            // What reaches here was released on the way up (try-with-resources, finally), so one line can still be printed.
            CommandLine cmd = sub != null ? sub.commandSpec().commandLine() : parsed.commandSpec().commandLine();
            cmd.getErr().println("arenaplan: " + outOfMemory(cmd.getCommandSpec().name(), Runtime.getRuntime().maxMemory()));
            cmd.getErr().flush();
            return ExitCodes.BAD_INPUT;
        }
    }

    /**
     * The line for a Java heap exhausted by an input too large for it (exit 2: the input, not a
     * bug; the built-in models refuse their too-large options up front, see {@code Model.limits}).
     */
    static String outOfMemory(String command, long maxHeapBytes) {
        return String.format(java.util.Locale.ROOT, "%s: the input needs more than the %,d MiB of Java heap this JVM may use;"
                + " give it more (java -Xmx16g -jar arenaplan.jar ...) or a smaller input", command, maxHeapBytes >> 20);
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        // one line, as every other bad-input message: picocli's text, then where the usage is
        err.println("arenaplan: " + Printable.of(String.join(" ", message(e).strip().split("\\s*\\R\\s*"))) + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return ExitCodes.BAD_INPUT;
    }

    /**
     * picocli's message, except for an unmatched word: an unknown option reads as {@code plan}'s
     * own ({@code unknown option '--bogus'}, was picocli's {@code Unknown option: '--bogus'} in
     * the other commands), and an unknown command is named so, with the commands (was
     * {@code Unmatched argument at index 0: 'paln'}); both with the names it nearly spells, by
     * the one near-miss rule ({@link OpKindSpelling}: {@code paln} is {@code plan}, where
     * picocli suggested {@code validate}).
     */
    private static String message(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) return withNumberRange(e.getMessage());
        String word = u.getUnmatched().get(0);
        CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
        if (u.isUnknownOption()) return unknownOption(word, spec);
        if (e.getCommandLine().getParent() == null) {
            Set<String> commands = e.getCommandLine().getSubcommands().keySet();
            return "unknown command '" + word + "'; commands: " + String.join(", ", commands) + OpKindSpelling.suggestion(word, commands);
        }
        return e.getMessage();
    }

    /** picocli's Java type names, and what they mean to a user. */
    private static final Map<String, String> NUMBER_TYPES = Map.of(
            "is not a long", " (a whole number from -9223372036854775808 to 9223372036854775807)",
            "is not an int", " (a whole number from -2147483648 to 2147483647)",
            "is not a double", " (a number such as 2 or 0.5)");

    /**
     * picocli's {@code Invalid value for option '--capacity': 'abc' is not a long}, extended with
     * what a long is ({@code 99999999999999999999} is a whole number, only too large for one).
     */
    private static String withNumberRange(String message) {
        for (Map.Entry<String, String> t : NUMBER_TYPES.entrySet()) {
            if (message.startsWith("Invalid value for option ") && message.endsWith(t.getKey())) return message + t.getValue();
        }
        return message;
    }

    /** {@code unknown option '--planer'; did you mean '--planner'?}: every command's line for a word that is none of its options. */
    static String unknownOption(String word, CommandLine.Model.CommandSpec spec) {
        List<String> names = spec.options().stream().flatMap(o -> java.util.Arrays.stream(o.names())).toList();
        return "unknown option '" + word + "'" + OpKindSpelling.suggestion(word.split("=", 2)[0], names);
    }

    /**
     * Refuses the first word of {@code plan}'s or {@code run}'s free words that looks like an
     * option ({@link #unknownOption}); after {@code --model} they are the model's options, checked by the model.
     */
    static void refuseUnknownOptions(List<String> words, String model, CommandLine.Model.CommandSpec spec) {
        if (model != null) return;
        for (String w : words) if (w.startsWith("-")) throw new UsageException(unknownOption(w, spec));
    }

    private static int failure(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        ExitCodes.Failure f = ExitCodes.of(e, cmd.getCommandSpec().qualifiedName());
        err.println("arenaplan: " + Printable.of(f.message()) + (f.internal() && !debug(cmd) ? " (run with --debug for the stack trace)" : ""));
        if (debug(cmd)) e.printStackTrace(err);
        err.flush();
        return f.code();
    }

    /** The version the jar's manifest carries (set by the build). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = ArenaplanCli.class.getPackage().getImplementationVersion();
            return new String[]{"arenaplan " + (v == null ? "(not built as a jar)" : v)};
        }
    }

    private static boolean debug(CommandLine cmd) {
        for (Object mixin : cmd.getMixins().values()) {
            if (mixin instanceof Diagnostics d) return d.debug;
        }
        return false;
    }
}
