package org.arenaplan.cli;

import org.arenaplan.cuda.Doctor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** {@code arenaplan doctor}: what this machine offers (Java, JCuda, driver, device, cuBLAS) and what {@code auto} picks. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Prints Java, JCuda natives, CUDA driver and device, cuBLAS, and the device 'auto' would pick.",
                "Exit code 0 always: an absent GPU is reported, not an error."})
final class DoctorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintStream out = Streams.stdout(spec);
        Doctor.report(out);
        out.flush();
        return ExitCodes.OK;
    }
}
