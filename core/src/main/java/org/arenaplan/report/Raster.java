package org.arenaplan.report;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;

/**
 * A placement panel as pixels, for charts with too many boxes for one SVG element each: an
 * indexed-colour image (index 0 white, then each legend colour and a lighter shade of it),
 * written as a PNG. A box covers every pixel its rectangle touches, at least one, as in the
 * vector form; neighbouring boxes alternate shades so that their edges stay visible.
 */
final class Raster {
    private final BufferedImage image;

    Raster(int width, int height, List<ArenaChart.Legend> legend) {
        int n = 2 * legend.size() + 1;
        byte[] r = new byte[n], g = new byte[n], b = new byte[n];
        r[0] = g[0] = b[0] = (byte) 0xff;
        for (int i = 0; i < legend.size(); i++) {
            int rgb = Integer.parseInt(legend.get(i).colour().substring(1), 16);
            for (int shade = 0; shade < 2; shade++) {
                int k = 2 * i + 1 + shade;
                r[k] = (byte) lighten(rgb >> 16 & 0xff, shade);
                g[k] = (byte) lighten(rgb >> 8 & 0xff, shade);
                b[k] = (byte) lighten(rgb & 0xff, shade);
            }
        }
        image = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_INDEXED, new IndexColorModel(8, n, r, g, b));
    }

    private static int lighten(int channel, int shade) {
        return shade == 0 ? channel : channel + (255 - channel) * 35 / 100;
    }

    /** Fills the pixels of {@code [x, x + w) x [y, y + h)} (panel coordinates) with legend colour {@code colour}, shade 0 or 1. */
    void fill(double x, double y, double w, double h, int colour, int shade) {
        int x0 = clamp((int) Math.floor(x), image.getWidth()), x1 = clamp((int) Math.ceil(x + w), image.getWidth());
        int y0 = clamp((int) Math.floor(y), image.getHeight()), y1 = clamp((int) Math.ceil(y + h), image.getHeight());
        if (x1 == x0) x1 = Math.min(image.getWidth(), x0 + 1);
        if (y1 == y0) y1 = Math.min(image.getHeight(), y0 + 1);
        var raster = image.getRaster();
        for (int yy = y0; yy < y1; yy++) for (int xx = x0; xx < x1; xx++) raster.setSample(xx, yy, 0, 2 * colour + 1 + shade);
    }

    private static int clamp(int v, int max) {
        return Math.max(0, Math.min(max, v));
    }

    String pngBase64() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }
}
