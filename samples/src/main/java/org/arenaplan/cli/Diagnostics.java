package org.arenaplan.cli;

import picocli.CommandLine.Option;

/** The {@code --debug} flag every command shares: stack traces on errors. */
public final class Diagnostics {
    @Option(names = "--debug", description = "Print stack traces with error messages.")
    boolean debug;
}
