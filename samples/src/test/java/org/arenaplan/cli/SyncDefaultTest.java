package org.arenaplan.cli;

import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Several streams: the default never ends above the per-tensor peak; --sync none is maximum concurrency, with its own lower bound. */
class SyncDefaultTest {
    private static long peak(String out, String mode) {
        Matcher m = Pattern.compile("(?m)^" + mode + "\\s+(\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void byDefaultThePlannedPeakIsNotAboveThePerTensorPeak() {
        Cli r = Cli.run("run", "--model", "transformer", "--streams", "4", "--device", "sim", "--iterations", "1");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(peak(r.out(), "planned")).isLessThanOrEqualTo(peak(r.out(), "per-tensor"));
        assertThat(r.out()).contains("price of concurrency: 4 streams, arena 57,344 B vs 57,344 B on 1 stream (+0 B); 3 event(s) added for reuse");
    }

    @Test
    void syncNoneStillWorksAndShowsWhatConcurrencyCosts() {
        Cli r = Cli.run("run", "--model", "transformer", "--streams", "4", "--sync", "none", "--device", "sim", "--iterations", "1");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(peak(r.out(), "planned")).isGreaterThan(peak(r.out(), "per-tensor"));
        assertThat(r.out()).contains("arena 65,536 B vs 57,344 B on 1 stream (+8,192 B); no events added for reuse");
    }

    /** The one-stream bound (57,344 B) is not a bound of the --sync none plan: its branches may not share bytes. */
    @Test
    void theLowerBoundOnSeveralStreamsIsThatPlansBound() {
        Cli none = Cli.run("plan", "--model", "transformer", "--streams", "4", "--sync", "none");
        assertThat(none.out()).contains("lower bound        65,536 B").contains("arena              65,536 B");
        Cli add = Cli.run("plan", "--model", "transformer", "--streams", "4");
        assertThat(add.out()).contains("lower bound        57,344 B").contains("arena              57,344 B");
    }
}
