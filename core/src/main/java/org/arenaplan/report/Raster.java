package org.arenaplan.report;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;

/**
 * A placement panel as pixels, for charts with too many boxes for one SVG element each: an
 * indexed-colour image (index 0 transparent, then each legend colour and a lighter shade of it),
 * written as a PNG. A box covers every pixel its rectangle touches, at least one, as in the
 * vector form; neighbouring boxes alternate shades so that their edges stay visible.
 *
 * <p>The PNG is written here (PNG specification, ISO/IEC 15948: signature, IHDR with colour
 * type 3, PLTE, tRNS, one zlib IDAT of filter-0 scanlines, IEND), not with {@code javax.imageio}:
 * that is in {@code java.desktop}, which the GPU runner's runtime leaves out.
 */
final class Raster {
    private final int width;
    private final int height;
    private final byte[] pixels;   // palette indices, row by row
    private final byte[] palette;  // r, g, b per index

    Raster(int width, int height, List<ArenaChart.Legend> legend) {
        this.width = width;
        this.height = height;
        this.pixels = new byte[width * height];
        int n = 2 * legend.size() + 1;
        if (n > 256) throw new IllegalArgumentException("a palette image holds 256 colours, the legend needs " + n);
        palette = new byte[3 * n];
        palette[0] = palette[1] = palette[2] = (byte) 0xff;   // transparent (tRNS); white where that is ignored
        for (int i = 0; i < legend.size(); i++) {
            int rgb = Integer.parseInt(legend.get(i).colour().substring(1), 16);
            for (int shade = 0; shade < 2; shade++) {
                int k = 3 * (2 * i + 1 + shade);
                palette[k] = (byte) lighten(rgb >> 16 & 0xff, shade);
                palette[k + 1] = (byte) lighten(rgb >> 8 & 0xff, shade);
                palette[k + 2] = (byte) lighten(rgb & 0xff, shade);
            }
        }
    }

    private static int lighten(int channel, int shade) {
        return shade == 0 ? channel : channel + (255 - channel) * 35 / 100;
    }

    /** Fills the pixels of {@code [x, x + w) x [y, y + h)} (panel coordinates) with legend colour {@code colour}, shade 0 or 1. */
    void fill(double x, double y, double w, double h, int colour, int shade) {
        int x0 = clamp((int) Math.floor(x), width), x1 = clamp((int) Math.ceil(x + w), width);
        int y0 = clamp((int) Math.floor(y), height), y1 = clamp((int) Math.ceil(y + h), height);
        if (x1 == x0) x1 = Math.min(width, x0 + 1);
        if (y1 == y0) y1 = Math.min(height, y0 + 1);
        byte index = (byte) (2 * colour + 1 + shade);
        for (int yy = y0; yy < y1; yy++) java.util.Arrays.fill(pixels, yy * width + x0, yy * width + x1, index);
    }

    private static int clamp(int v, int max) {
        return Math.max(0, Math.min(max, v));
    }

    /** The pixel at (x, y) as its palette index (for tests). */
    int indexAt(int x, int y) {
        return pixels[y * width + x] & 0xff;
    }

    String pngBase64() {
        return Base64.getEncoder().encodeToString(png());
    }

    byte[] png() {
        try {
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            file.write(new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
            ByteArrayOutputStream ihdr = new ByteArrayOutputStream();
            DataOutputStream h = new DataOutputStream(ihdr);
            h.writeInt(width);
            h.writeInt(height);
            h.write(new byte[]{8, 3, 0, 0, 0});   // bit depth 8, colour type 3 (palette), deflate, filter 0, no interlace
            chunk(file, "IHDR", ihdr.toByteArray());
            chunk(file, "PLTE", palette);
            chunk(file, "tRNS", new byte[]{0});   // index 0 (no box) transparent, so what lies under the image shows
            ByteArrayOutputStream idat = new ByteArrayOutputStream();
            try (DeflaterOutputStream z = new DeflaterOutputStream(idat)) {
                for (int y = 0; y < height; y++) {
                    z.write(0);                      // filter type 0 for every scanline
                    z.write(pixels, y * width, width);
                }
            }
            chunk(file, "IDAT", idat.toByteArray());
            chunk(file, "IEND", new byte[0]);
            return file.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // in-memory streams do not fail
        }
    }

    private static void chunk(ByteArrayOutputStream file, String type, byte[] data) throws IOException {
        DataOutputStream out = new DataOutputStream(file);
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        out.writeInt(data.length);
        out.write(t);
        out.write(data);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data);
        out.writeInt((int) crc.getValue());
    }
}
