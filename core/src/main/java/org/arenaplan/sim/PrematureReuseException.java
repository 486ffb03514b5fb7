package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;

/**
 * A read saw other bytes than the write it depends on: another write overwrote them first
 * (premature reuse) or its producer had not written them yet (a missing dependency).
 * Names the tensor read, the reader and the writers, with their streams.
 */
public final class PrematureReuseException extends DeviceException {
    private final String tensor;
    private final String reader;
    private final String readerStream;
    private final WriteStamp expected;
    private final WriteStamp found;

    PrematureReuseException(String tensor, String owner, long from, long to, String reader, String readerStream,
                            WriteStamp expected, WriteStamp found) {
        this(message(tensor, owner, from, to, reader, readerStream, expected, found), tensor, reader, readerStream, expected, found);
    }

    private PrematureReuseException(String message, String tensor, String reader, String readerStream, WriteStamp expected, WriteStamp found) {
        super(message);
        this.tensor = tensor;
        this.reader = reader;
        this.readerStream = readerStream;
        this.expected = expected;
        this.found = found;
    }

    /** Two writes of the same bytes overlapped in time: the bytes hold a mix, whatever the versions say. */
    static PrematureReuseException writeRace(String owner, long from, long to, WriteStamp mine, WriteStamp other) {
        String m = "premature reuse: " + mine.describe() + " and " + other.describe() + " wrote bytes [" + from + ", " + to + ") of " + owner
                + " at the same time";
        return new PrematureReuseException(m, mine.tensor(), mine.label(), mine.stream(), mine, other);
    }

    private static String message(String tensor, String owner, long from, long to, String reader, String readerStream,
                                  WriteStamp expected, WriteStamp found) {
        String what = found == null ? "missing dependency" : "premature reuse";
        String saw = found == null ? "finds them not yet written" : "finds them overwritten by " + found.describe();
        String wanted = expected == null ? "no write issued before it" : "the write of " + expected.describe();
        return what + ": '" + reader + "' (stream " + readerStream + ") reads " + tensor + " at bytes [" + from + ", " + to
                + ") of " + owner + " expecting " + wanted + " but " + saw;
    }

    /** The tensor (and storage, when the executor named it) that was read. */
    public String tensor() { return tensor; }

    public String reader() { return reader; }

    public String readerStream() { return readerStream; }

    /** The write the reader depends on; null if none came before it in issue order. */
    public WriteStamp expected() { return expected; }

    /** The write found instead; null when the bytes were not yet written. */
    public WriteStamp found() { return found; }
}
