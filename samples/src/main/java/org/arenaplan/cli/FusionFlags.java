package org.arenaplan.cli;

import org.arenaplan.ir.Graph;
import org.arenaplan.ops.EpilogueFusion;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;

/** The {@code --fuse} flag that {@code plan} and {@code run} share: which epilogues to fuse before planning ({@link EpilogueFusion}). */
final class FusionFlags {
    @Option(names = "--fuse", paramLabel = "MODE", defaultValue = "none",
            description = "none, or epilogues: fuse MatMul+Add(bias row) into Gemm and Conv/Gemm+Relu into FusedConv/FusedGemm before planning (outputs unchanged bit for bit; the intermediates leave the plan) (default: ${DEFAULT-VALUE}).")
    String fuse;

    /** What the last {@link #apply} fused (null before it, or with {@code --fuse none}). */
    private EpilogueFusion.Result last;

    /** True when {@code --fuse epilogues} was asked for; a usage error for any other word but none. */
    boolean given() {
        if (!fuse.equals("none") && !fuse.equals("epilogues")) throw new UsageException("--fuse " + fuse + ": expected none or epilogues");
        return fuse.equals("epilogues");
    }

    /** The graph to plan: {@code g} with its epilogues fused when asked for. */
    Graph apply(Graph g, boolean training) {
        if (!given()) return g;
        if (training) throw new UsageException("--fuse epilogues plans a forward graph; the backward pass of --train needs the unfused ops");
        last = EpilogueFusion.fuse(g);
        return last.graph();
    }

    /** The contract line {@code fused: N epilogue(s) ...} when fusion was asked for. */
    void print(PrintStream out) {
        if (last != null) out.println(line());
    }

    void print(PrintWriter out) {
        if (last != null) out.println(line());
    }

    private String line() {
        int n = last.fused().size();
        return "fused: " + n + " op(s) with their epilogues" + (n == 0 ? "" : " (" + String.join(", ", last.fused().subList(0, Math.min(n, 5)))
                + (n > 5 ? ", … " + (n - 5) + " more" : "") + ")");
    }
}
