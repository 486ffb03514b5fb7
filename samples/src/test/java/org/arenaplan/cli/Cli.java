package org.arenaplan.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in-process through picocli's API, capturing what it prints. */
record Cli(int code, String out, String err) {
    static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = ArenaplanCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Cli(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
}
