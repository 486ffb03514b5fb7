package org.arenaplan.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the table of contents of an NVIDIA fatbin (the container {@code nvcc -fatbin} writes) so
 * that the build can show which machine code it ships without {@code cuobjdump}.
 *
 * <p>Layout (little endian): a 16-byte header (magic {@code 0xBA55ED50}, version, header size,
 * size of the entries), then entries, each a header (kind 1 = PTX, 2 = ELF/SASS; its own header
 * size; payload size; the SM number at byte 28) followed by its payload. Payloads are not decoded;
 * PTX payloads are usually compressed.
 */
public final class Fatbin {
    static final int MAGIC = 0xBA55ED50;

    /** One image inside the fatbin: PTX text or an ELF with SASS for one SM. */
    public record Entry(Kind kind, int sm, long payloadOffset, long payloadBytes) {
        /** How {@code cuobjdump} names it: {@code sm_90} for SASS, {@code compute_90} for PTX. */
        public String archName() {
            return (kind == Kind.ELF ? "sm_" : "compute_") + sm;
        }
    }

    public enum Kind { PTX, ELF }

    private Fatbin() { }

    /** The entries of {@code image}; throws {@link IllegalArgumentException} naming the byte offset of a malformed part. */
    public static List<Entry> entries(byte[] image) {
        ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        if (image.length < 16 || b.getInt(0) != MAGIC) {
            throw new IllegalArgumentException("not a fatbin: no magic 0xBA55ED50 at byte 0");
        }
        int headerSize = Short.toUnsignedInt(b.getShort(6));
        long end = headerSize + b.getLong(8);
        if (end > image.length) throw new IllegalArgumentException("fatbin truncated: header announces " + end + " bytes, file has " + image.length);
        List<Entry> entries = new ArrayList<>();
        long p = headerSize;
        while (p < end) {
            int at = Math.toIntExact(p);
            if (at + 32 > end) throw new IllegalArgumentException("fatbin entry at byte " + at + " is truncated");
            int kind = Short.toUnsignedInt(b.getShort(at));
            long entryHeader = Integer.toUnsignedLong(b.getInt(at + 4));
            long payload = b.getLong(at + 8);
            int sm = b.getInt(at + 28);
            if (entryHeader < 32 || payload < 0 || p + entryHeader + payload > end) {
                throw new IllegalArgumentException("fatbin entry at byte " + at + " has sizes outside the file");
            }
            Kind k = switch (kind) {
                case 1 -> Kind.PTX;
                case 2 -> Kind.ELF;
                default -> throw new IllegalArgumentException("fatbin entry at byte " + at + " has unknown kind " + kind);
            };
            entries.add(new Entry(k, sm, p + entryHeader, payload));
            p += entryHeader + payload;
        }
        return entries;
    }
}
