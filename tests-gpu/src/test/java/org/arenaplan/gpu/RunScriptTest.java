package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * tests-gpu/gpu-runner/run.sh, what the one device call runs: every command that starts a JVM or
 * nvidia-smi is under a limit, and the limits with their kill grace add up to under 4 minutes
 * (issue 14: a hang must leave device time for a rerun); a doctor step that hangs, ignoring TERM,
 * is killed with everything it started (the old script left that JVM running after the call),
 * the later steps are skipped saying why, and results.json is still written.
 */
class RunScriptTest {
    private static final Path RUN_SH = Path.of("gpu-runner", "run.sh");
    private static final Pattern STEP = Pattern.compile("^\\s*step ([\\w-]+) (\\d+) ");
    private static final Pattern TIMEOUT = Pattern.compile("timeout -k (\\d+) (\\d+) ");

    @TempDir
    Path dir;

    private long hungPid = -1;

    @AfterEach
    void killWhatTheScriptLeft() {
        if (hungPid > 0) ProcessHandle.of(hungPid).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** Whether process {@code pid} exists and is not a zombie (killed, not yet reaped by init: /proc/PID/stat's state Z). */
    private static boolean running(long pid) throws Exception {
        String s;
        try {
            s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
        return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    }

    /** The script's lines with backslash continuations joined. */
    private static List<String> logicalLines() throws Exception {
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String l : Files.readAllLines(RUN_SH, StandardCharsets.UTF_8)) {
            if (l.endsWith("\\")) {
                cur.append(l, 0, l.length() - 1);
                continue;
            }
            lines.add(cur.append(l).toString());
            cur.setLength(0);
        }
        return lines;
    }

    @Test
    void everyJvmAndNvidiaSmiRunsUnderALimitAndTheLimitsAddUpToUnderFourMinutes() throws Exception {
        String script = Files.readString(RUN_SH);
        Matcher grace = Pattern.compile("\\n\\s*timeout -k (\\d+) \"\\$limit\" \"\\$@\"").matcher(script);
        assertThat(grace.find()).as("step() runs its command under timeout -k GRACE $limit").isTrue();
        int stepGrace = Integer.parseInt(grace.group(1));
        java.util.Map<String, Integer> steps = new java.util.LinkedHashMap<>();
        int total = 0;
        for (String line : logicalLines()) {
            if (line.stripLeading().startsWith("#")) continue;
            Matcher s = STEP.matcher(line), t = TIMEOUT.matcher(line);
            if (s.find()) {
                steps.merge(s.group(1), Integer.parseInt(s.group(2)), Math::max);
            } else if (t.find()) {
                total += Integer.parseInt(t.group(1)) + Integer.parseInt(t.group(2));
            } else {
                assertThat(line).as("a JVM or nvidia-smi started outside step and timeout").doesNotContain("${java[@]}").doesNotContain("nvidia-smi --");
            }
        }
        assertThat(steps).containsKeys("doctor", "tests", "bench", "real-models");
        for (int limit : steps.values()) total += limit + stepGrace;
        assertThat(total).as("seconds at most, every step hanging: " + steps).isLessThan(240);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aHangingDoctorIsKilledWithWhatItStartedAndTheSummaryIsStillWritten() throws Exception {
        Path runner = runner();
        Path pidFile = dir.resolve("hung.pid");
        // The packed runtime's stand-in: the probe hangs and ignores TERM (a JVM stuck in cuInit);
        // summarize runs the real GpuRunner on this test's class path.
        standInJava(runner,
                "for a; do last=\"$a\"; done",
                "case \" $* \" in",
                "  *' probe '*) echo $$ > '" + pidFile + "'; trap '' TERM; while :; do sleep 1; done ;;",
                "  *' summarize '*) exec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                        + System.getProperty("java.class.path") + "' org.arenaplan.gpu.GpuRunner summarize \"$last\" ;;",
                "  *) echo \"unexpected: $*\"; exit 9 ;;",
                "esac");
        Path out = dir.resolve("out");
        Process p = new ProcessBuilder("bash", runner.resolve("run.sh").toString(), out.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("console.txt").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("run.sh ended (its limits: doctor 13 s + 3 s, summarize 10 s + 2 s)").isTrue();
        hungPid = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("console.txt"))).isEqualTo(1);
        assertThat(running(hungPid)).as("the hung probe is gone when run.sh returns").isFalse();
        JsonNode r = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertThat(r.get("steps").get(0).get("status").asText()).isEqualTo("timed out");
        assertThat(r.get("steps").findValuesAsText("step")).containsExactly("doctor", "tests", "bench", "real-models");
        for (int i = 1; i < 4; i++) assertThat(r.get("steps").get(i).get("reason").asText()).startsWith("the doctor step timed out");
        assertThat(r.get("outcome").asText()).startsWith("CUDA device unknown");
    }

    /**
     * pack.sh ships the runtime as runtime.tar.xz (the device call sends at most 64 MiB): run.sh
     * unpacks it, with Python's tarfile where the machine has no xz, runs its java, and removes the
     * unpacked folder and JCuda's natives at the end, so that a dry run leaves the carried folder as
     * packed.
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    void aPackedRuntimeIsUnpackedForTheRunAndRemovedAfterItEvenWithoutXz() throws Exception {
        Path runner = runner();
        Path staged = dir.resolve("staged");
        Path calls = dir.resolve("calls.txt");
        // The runtime's stand-in: the probe finds no CUDA (exit 3), the tests step passes, summarize exits 3.
        standInJava(staged,
                "echo \"$*\" >> '" + calls + "'",
                "case \" $* \" in *' probe '*) exit 3 ;; *' summarize '*) exit 3 ;; *) exit 0 ;; esac");
        Process tar = new ProcessBuilder("python3", "-c",
                "import sys, tarfile; t = tarfile.open(sys.argv[1], 'w:xz'); t.add(sys.argv[2], 'runtime'); t.close()",
                runner.resolve("runtime.tar.xz").toString(), staged.resolve("runtime").toString()).inheritIO().start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0).as("python3 packed the stand-in runtime").isTrue();
        // A PATH with the tools run.sh uses and python3 but no xz: run.sh falls back to Python's tarfile.
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : new String[] {"bash", "dirname", "mkdir", "tee", "date", "uname", "timeout", "tar", "gzip", "python3", "rm", "sleep", "cat", "env"}) {
            for (String d : new String[] {"/usr/bin", "/bin"}) {
                Path t = Path.of(d, tool);
                if (Files.exists(t) && !Files.exists(bin.resolve(tool), LinkOption.NOFOLLOW_LINKS)) Files.createSymbolicLink(bin.resolve(tool), t);
            }
        }
        Path out = dir.resolve("out");
        ProcessBuilder pb = new ProcessBuilder(bin.resolve("bash").toString(), runner.resolve("run.sh").toString(), out.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("console.txt").toFile());
        pb.environment().put("PATH", bin.toString());
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String console = Files.readString(dir.resolve("console.txt"));
        assertThat(p.exitValue()).as(console).isEqualTo(3);
        assertThat(console).contains("== unpacking runtime.tar.xz").doesNotContain("unpacking runtime.tar.xz failed");
        assertThat(Files.readString(calls)).as("the unpacked java ran the probe and the tests").contains(" probe ", "execute");
        assertThat(runner.resolve("runtime")).as("the unpacked runtime is removed at the end").doesNotExist();
        assertThat(runner.resolve("natives")).doesNotExist();
        assertThat(runner.resolve("runtime.tar.xz")).exists();
        try (var links = Files.list(bin)) {
            for (Path l : (Iterable<Path>) links::iterator) Files.delete(l);   // links out of the temp dir: JUnit warns on each
        }
    }

    /** A runner folder in the temp dir: run.sh and an empty lib/. */
    private Path runner() throws Exception {
        Path runner = Files.createDirectories(dir.resolve("runner"));
        Files.copy(RUN_SH, runner.resolve("run.sh"));
        Files.createDirectories(runner.resolve("lib"));
        return runner;
    }

    /** Writes {@code base}/runtime/bin/java, a bash script of {@code lines} standing in for the packed runtime's java. */
    private static void standInJava(Path base, String... lines) throws Exception {
        Path java = Files.createDirectories(base.resolve("runtime/bin")).resolve("java");
        Files.writeString(java, "#!/usr/bin/env bash\n" + String.join("\n", lines) + "\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
