package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Host/device transfers on their own stream (the copy engine), one past the highest compute
 * stream. How an executor runs it:
 * <ol>
 *   <li>Before issuing any op: for each {@link Upload}, copy the input host to device on
 *       {@link #copyStream}, record one event after it, and make the stream of each of its
 *       {@code waiters} wait on that event right before that op is issued (the first op on each
 *       stream that touches the input's storage; later ones follow by stream order).</li>
 *   <li>For each {@link Download}: once every op in {@code after} is issued, record an event after
 *       each on its stream, make the copy stream wait on them, then copy device to host on the copy
 *       stream. An output that is a graph input passed through needs no wait: its upload came
 *       first on the same stream.</li>
 *   <li>Before the run returns, synchronize every compute stream and the copy stream: events
 *       order one run's ops only, so a next run on the same arena must not start earlier.</li>
 * </ol>
 * An input nothing touches and that is no output is not uploaded: no op could observe it, and
 * its bytes (when donated) may be reused from the start. The arena plan treats every uploaded
 * input as written before the first op (inputs live from position 0), which the waits above make
 * true for every op that touches it. Downloads read outputs, which live to the end of the run.
 */
public record CopyPlan(int copyStream, List<Upload> uploads, List<Download> downloads) {

    /** Input {@code tensor} is uploaded; each op position in {@code waiters} waits for it. */
    public record Upload(String tensor, int[] waiters) {
        public Upload { waiters = waiters.clone(); }
        @Override public int[] waiters() { return waiters.clone(); }
    }

    /** Output {@code tensor} is downloaded after the ops at positions {@code after}. */
    public record Download(String tensor, int[] after) {
        public Download { after = after.clone(); }
        @Override public int[] after() { return after.clone(); }
    }

    public CopyPlan {
        uploads = List.copyOf(uploads);
        downloads = List.copyOf(downloads);
    }

    public static CopyPlan of(Lifetimes l) {
        Graph g = l.graph();
        int copyStream = g.streams().isEmpty() ? 0 : g.streams().get(g.streams().size() - 1) + 1;
        int[] lane = HappensBefore.lanes(g)[0];
        int lanes = g.streams().size();
        List<Upload> uploads = new ArrayList<>();
        for (String in : g.inputs()) {
            if (!l.inArena(in)) continue;
            Storage s = l.storages().get(l.storageOf(in));
            int[] first = new int[lanes];
            Arrays.fill(first, Integer.MAX_VALUE);
            for (int[] accesses : new int[][]{s.writers(), s.readers()}) {
                for (int p : accesses) {
                    if (!g.ops().get(p).isStorageOnly()) first[lane[p]] = Math.min(first[lane[p]], p);
                }
            }
            int[] waiters = Arrays.stream(first).filter(p -> p != Integer.MAX_VALUE).sorted().toArray();
            if (waiters.length > 0 || s.graphOutput()) uploads.add(new Upload(in, waiters));
        }
        DataWriters writers = DataWriters.of(g);
        List<Download> downloads = new ArrayList<>();
        for (String out : g.outputs()) {
            if (!l.inArena(out)) continue;
            int[] after = new int[lanes];
            for (int k = 0; k < lanes; k++) after[k] = writers.latest(out, k);
            downloads.add(new Download(out, Arrays.stream(after).filter(p -> p >= 0).sorted().toArray()));
        }
        return new CopyPlan(copyStream, uploads, downloads);
    }

    /** Whether input {@code input} is uploaded. */
    public boolean uploads(String input) {
        for (Upload u : uploads) if (u.tensor().equals(input)) return true;
        return false;
    }
}
