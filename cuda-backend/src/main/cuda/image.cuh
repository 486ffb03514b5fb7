// conv2d and pool2d over NCHW images, one thread per output element.
#pragma once
#include "common.cuh"

// ints: N, C, H, W, M, OH, OW, KH, KW, strideH, strideW, padTop, padLeft, dilationH, dilationW, group, hasBias.
// The sum runs over input channel, then kh, then kw, from 0 in f32; the bias is added last.
extern "C" __global__ void conv2d(const float* x, const float* w, const float* b, float* y, Ints ints, Floats) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], M = ints.v[4];
    long long OH = ints.v[5], OW = ints.v[6], KH = ints.v[7], KW = ints.v[8];
    long long sh = ints.v[9], sw = ints.v[10], pt = ints.v[11], pl = ints.v[12], dh = ints.v[13], dw = ints.v[14];
    long long group = ints.v[15];
    int hasBias = (int) ints.v[16];
    long long cPerGroup = C / group, mPerGroup = M / group;
    FOR_EACH_ITEM(i, N * M * OH * OW) {
        long long ow = i % OW, oh = (i / OW) % OH, m = (i / (OW * OH)) % M, n = i / (OW * OH * M);
        long long c0 = (m / mPerGroup) * cPerGroup;
        float acc = 0.0f;
        for (long long c = 0; c < cPerGroup; c++) {
            for (long long kh = 0; kh < KH; kh++) {
                long long ih = oh * sh - pt + kh * dh;
                if (ih < 0 || ih >= H) continue;
                for (long long kw = 0; kw < KW; kw++) {
                    long long iw = ow * sw - pl + kw * dw;
                    if (iw < 0 || iw >= W) continue;
                    acc = acc + x[((n * C + c0 + c) * H + ih) * W + iw] * w[((m * cPerGroup + c) * KH + kh) * KW + kw];
                }
            }
        }
        if (hasBias) acc = acc + b[m];
        y[i] = acc;
    }
}

// ints: N, C, H, W, OH, OW, KH, KW, strideH, strideW, padTop, padLeft, padBottom, padRight, mode, countIncludePad.
extern "C" __global__ void pool2d(const float* x, float* y, Ints ints, Floats) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], OH = ints.v[4], OW = ints.v[5];
    long long KH = ints.v[6], KW = ints.v[7], sh = ints.v[8], sw = ints.v[9];
    long long pt = ints.v[10], pl = ints.v[11], pb = ints.v[12], pr = ints.v[13];
    int mode = (int) ints.v[14];
    int countIncludePad = (int) ints.v[15];
    FOR_EACH_ITEM(i, N * C * OH * OW) {
        long long ow = i % OW, oh = (i / OW) % OH, nc = i / (OW * OH);
        long long h0 = oh * sh - pt, w0 = ow * sw - pl;
        long long h1 = h0 + KH, w1 = w0 + KW;
        // The window clipped to the padded image (countIncludePad) and to the image itself.
        long long ph0 = h0 < -pt ? -pt : h0, pw0 = w0 < -pl ? -pl : w0;
        long long ph1 = h1 > H + pb ? H + pb : h1, pw1 = w1 > W + pr ? W + pr : w1;
        long long ih0 = h0 < 0 ? 0 : h0, iw0 = w0 < 0 ? 0 : w0;
        long long ih1 = h1 > H ? H : h1, iw1 = w1 > W ? W : w1;
        const float* xc = x + nc * H * W;
        if (mode == 0) {
            float m = -INFINITY;
            for (long long h = ih0; h < ih1; h++)
                for (long long w = iw0; w < iw1; w++) m = xc[h * W + w] > m ? xc[h * W + w] : m;
            y[i] = m;
        } else {
            float sum = 0.0f;
            for (long long h = ih0; h < ih1; h++)
                for (long long w = iw0; w < iw1; w++) sum = sum + xc[h * W + w];
            long long count = countIncludePad ? (ph1 - ph0) * (pw1 - pw0) : (ih1 - ih0) * (iw1 - iw0);
            y[i] = sum / (float) count;
        }
    }
}
