package org.arenaplan.cli;

import picocli.CommandLine.Model.CommandSpec;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** A PrintStream over a command's picocli stdout or stderr, for library code that prints to a stream. */
final class Streams {
    private Streams() { }

    static PrintStream stdout(CommandSpec spec) {
        return over(spec.commandLine().getOut());
    }

    /** The same over the command's stderr (progress, notes). */
    static PrintStream stderr(CommandSpec spec) {
        return over(spec.commandLine().getErr());
    }

    private static PrintStream over(PrintWriter w) {
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                w.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                w.write(new String(b, off, len, StandardCharsets.UTF_8));
            }

            @Override
            public void flush() {
                w.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }
}
