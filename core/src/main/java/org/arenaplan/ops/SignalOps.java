package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * ONNX DFT (opsets 17, 20) and STFT (17) on {@link Kernels#DFT}: a direct O(L) sum per output
 * bin, in double, rounded once (no FFT: the node-test sizes are tens of samples). Signals are
 * real (last dim 1) or complex (last dim 2: real, imaginary); f32, f16, bf16 and f64.
 * <ul>
 * <li>DFT: {@code y[k] = sum_t x[t] e^(-2 pi i k t / L)} along {@code axis} (never the last dim),
 *     the signal zero-padded or cut to {@code dft_length} L (default: its length);
 *     {@code inverse}: {@code e^(+...)} and a factor 1/L; {@code onesided}: bins 0..L/2 only.
 *     {@code inverse} with {@code onesided} is numpy's irfft: the input holds bins 0..L/2 of a
 *     Hermitian spectrum (L defaults to 2 (bins - 1)) and the output is real (last dim 1).</li>
 * <li>STFT: frames {@code f = 0 .. 1 + (len - frame_length) / frame_step - 1} of the signal
 *     {@code [batch, len, 1|2]} or the real {@code [batch, len]} (read as {@code [batch, len, 1]}:
 *     the spec names only rank 3, but PyTorch's TorchScript exporter writes {@code torch.stft} so and
 *     ONNX Runtime's STFT kernel takes it), each multiplied by {@code window} (default: ones) and
 *     transformed with L = frame_length; {@code onesided} (default 1) keeps bins 0..L/2;
 *     output {@code [batch, frames, bins, 2]}.</li>
 * </ul>
 * Version differences (ONNX Changelog): DFT-17 takes {@code axis} as an attribute (default 1)
 * and {@code dft_length} as input 1; DFT-20 takes {@code axis} as input 2 (default -2) and no
 * attribute. {@code dft_length}, {@code axis}, {@code frame_step} and {@code frame_length} must be
 * constants known at import (the output shape depends on them). The irfft reading of
 * inverse + onesided follows the current ONNX reference (op_dft.py) at every opset.
 */
final class SignalOps implements OpFamily {
    static final String DFT = "DFT";
    static final String STFT = "STFT";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(DFT, 1, 1)
                        .attrs(AttrSpec.requiredInteger("axis", 0, AttrSpec.MAX_RANK - 2), AttrSpec.flag("inverse"), AttrSpec.flag("onesided"),
                                AttrSpec.requiredInteger("dft_length", 1, Integer.MAX_VALUE))
                        .shape(SignalOps::dftShape).kernels(Kernels.DFT)
                        .doc("discrete Fourier transform along axis of a real [..., 1] or complex [..., 2] signal, zero-padded or cut to dft_length; "
                                + "inverse, onesided (inverse + onesided: irfft, real output); f32, f16, bf16, f64")
                        .lower((op, l) -> List.of(lowerDft(op, l)))
                        .onnx(DFT, 17, SignalOps::importDft).build(),
                OpDefinition.op(STFT, 1, 2)
                        .attrs(AttrSpec.requiredInteger("frame_step", 1, Integer.MAX_VALUE), AttrSpec.requiredInteger("frame_length", 1, Integer.MAX_VALUE),
                                AttrSpec.integer("onesided", 1, 0, 1))
                        .shape(SignalOps::stftShape).kernels(Kernels.DFT)
                        .doc("short-time Fourier transform of [batch, len, 1|2] or real [batch, len] (input 1: the window, [frame_length]) into [batch, frames, bins, 2]; "
                                + "f32, f16, bf16, f64")
                        .lower((op, l) -> List.of(lowerStft(op, l)))
                        .onnx(STFT, 17, SignalOps::importStft).build());
    }

    // ---- shapes ----

    /** DFT's output: the axis becomes L (irfft) or the bins, the last dim 1 (irfft) or 2. */
    static long[] dftShape(OpAttrs a, long[][] in) {
        return dftShape(in[0], (int) a.integer("axis"), a.integer("dft_length"), a.integer("inverse") == 1, a.integer("onesided") == 1);
    }

    static long[] dftShape(long[] x, int axis, long length, boolean inverse, boolean onesided) {
        if (x.length < 2 || axis >= x.length - 1) throw new GraphException("DFT axis " + axis + " must be a signal dim of rank-" + x.length + " input (not the last)");
        if (x[x.length - 1] != 1 && x[x.length - 1] != 2) throw new GraphException("DFT input's last dim must be 1 (real) or 2 (complex), not " + x[x.length - 1]);
        boolean irfft = inverse && onesided;
        long[] y = x.clone();
        y[axis] = irfft ? length : onesided ? length / 2 + 1 : length;
        y[x.length - 1] = irfft ? 1 : 2;
        return y;
    }

    static long[] stftShape(OpAttrs a, long[][] in) {
        return stftShape(in, a.integer("frame_step"), a.integer("frame_length"), a.integer("onesided") == 1);
    }

    static long[] stftShape(long[][] in, long step, long length, boolean onesided) {
        long[] x = in[0];
        if (x.length != 2 && (x.length != 3 || (x[2] != 1 && x[2] != 2)))
            throw new GraphException("STFT signal must be [batch, length, 1|2] or real [batch, length], not " + java.util.Arrays.toString(x));
        if (length > x[1]) throw new GraphException("STFT frame_length " + length + " exceeds the signal's " + x[1] + " samples");
        if (in.length > 1 && (in[1].length != 1 || in[1][0] != length))
            throw new GraphException("STFT window " + java.util.Arrays.toString(in[1]) + " must be [frame_length] = [" + length + "]");
        long frames = 1 + (x[1] - length) / step;
        return new long[] {x[0], frames, onesided ? length / 2 + 1 : length, 2};
    }

    // ---- lowering ----

    /** ints [outer, n, inner, inC, L, bins, mode, frames, frameStep, frameLength, hasWindow, dtype] of {@link Kernels#DFT}. */
    private static KernelCall lowerDft(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = OpLowering.out(op);
        DType t = floating(op, l, x, y);
        long[] s = l.shape(op, x);
        int axis = (int) OpAttrs.of(op).integer("axis");
        long length = OpAttrs.of(op).integer("dft_length");
        boolean inverse = OpAttrs.of(op).integer("inverse") == 1, onesided = OpAttrs.of(op).integer("onesided") == 1;
        long outer = 1, inner = 1;
        for (int d = 0; d < axis; d++) outer *= s[d];
        for (int d = axis + 1; d < s.length - 1; d++) inner *= s[d];
        int mode = inverse && onesided ? Kernels.DFT_IRFFT : inverse ? Kernels.DFT_INVERSE : Kernels.DFT_FORWARD;
        long bins = mode == Kernels.DFT_IRFFT ? length : onesided ? length / 2 + 1 : length;
        long[] ints = {outer, s[axis], inner, s[s.length - 1], length, bins, mode, 1, 0, length, 0, t.onnxCode()};
        return l.call(op, Kernels.DFT, List.of(l.read(x), l.write(y)), ints);
    }

    private static KernelCall lowerStft(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = OpLowering.out(op);
        DType t = floating(op, l, x, y);
        boolean window = op.inputs().size() > 1;
        if (window) l.sameType(op, x, op.inputs().get(1));
        long[] s = l.shape(op, x), ys = l.shape(op, y);
        OpAttrs a = OpAttrs.of(op);
        long length = a.integer("frame_length");
        long components = s.length == 2 ? 1 : s[2];   // [batch, len] is real: the bytes of [batch, len, 1]
        long[] ints = {s[0], s[1], 1, components, length, ys[2], Kernels.DFT_FORWARD, ys[1], a.integer("frame_step"), length, window ? 1 : 0, t.onnxCode()};
        List<KernelArg> args = new ArrayList<>();
        args.add(l.read(x));
        if (window) args.add(l.read(op.inputs().get(1)));
        args.add(l.write(y));
        return l.call(op, Kernels.DFT, args, ints);
    }

    private static DType floating(Op op, OpLowering l, String x, String y) {
        DType t = l.sameType(op, x, y);
        if (!t.isFloat32Compute() && t != DType.F64) throw fail(op, "signal is " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16 or f64");
        return t;
    }

    // ---- ONNX import ----

    private static Lowered importDft(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 3);
        Value x = n.input(0);
        floating(n, x);
        n.require(!n.hasAttr("dft_length"), "dft_length is an input, not an attribute");
        long axis;
        if (n.opset() >= 20) {
            n.require(!n.hasAttr("axis"), "takes its axis as input #2 from opset 20, not as an attribute");
            axis = n.hasInput(2) ? single(n, n.constantInts(2, "axis"), "axis") : -2;
        } else {
            n.require(!n.hasInput(2), "takes its axis as an attribute before opset 20, not as input #2");
            axis = n.integer("axis", 1);
        }
        int rank = x.rank();
        n.require(rank >= 2 && (x.dim(rank - 1) == 1 || x.dim(rank - 1) == 2), "input " + x + " must end in a dim of 1 (real) or 2 (complex)");
        n.require(axis >= -rank && axis <= -2 || axis >= 0 && axis <= rank - 2, "axis " + axis + " must be in [-" + rank + ", -2] or [0, " + (rank - 2) + "] (never the last dim)");
        int a = (int) (axis < 0 ? axis + rank : axis);
        boolean inverse = n.flag("inverse", false), onesided = n.flag("onesided", false), irfft = inverse && onesided;
        long length = n.hasInput(1) ? single(n, n.constantInts(1, "dft_length"), "dft_length") : irfft ? 2 * (x.dim(a) - 1) : x.dim(a);
        n.require(length >= 1, "dft_length " + length + " must be at least 1");
        Map<String, Object> attrs = Map.of("axis", (long) a, "inverse", inverse ? 1L : 0L, "onesided", onesided ? 1L : 0L, "dft_length", length);
        return NodeLowering.op(n, DFT, List.of(x.name()), FamilyImports.shape(n, () -> dftShape(x.shape(), a, length, inverse, onesided)), attrs, x.dtype());
    }

    private static Lowered importStft(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 4);
        Value x = n.input(0);
        floating(n, x);
        n.require(!n.hasAttr("frame_step") && !n.hasAttr("frame_length"), "frame_step and frame_length are inputs, not attributes");
        long step = single(n, n.constantInts(1, "frame_step"), "frame_step");
        n.require(step >= 1, "frame_step " + step + " must be at least 1");
        boolean window = n.hasInput(2);
        long length = n.hasInput(3) ? single(n, n.constantInts(3, "frame_length"), "frame_length")
                : window ? n.input(2).elements() : x.rank() >= 2 ? x.dim(1) : 0;
        n.require(length >= 1, "frame_length " + length + " must be at least 1");
        List<String> ins = new ArrayList<>(List.of(x.name()));
        if (window) {
            n.require(n.input(2).dtype() == x.dtype(), "window " + n.input(2) + " must have the signal's type " + x.dtype().jsonName());
            ins.add(n.input(2).name());
        }
        boolean onesided = n.flag("onesided", true);
        Map<String, Object> attrs = Map.of("frame_step", step, "frame_length", length, "onesided", onesided ? 1L : 0L);
        long[][] shapes = window ? new long[][] {x.shape(), n.input(2).shape()} : new long[][] {x.shape()};
        return NodeLowering.op(n, STFT, ins, FamilyImports.shape(n, () -> stftShape(shapes, step, length, onesided)), attrs, x.dtype());
    }

    private static void floating(NodeContext n, Value x) {
        n.require(x.dtype().isFloat32Compute() || x.dtype() == DType.F64, "input " + x + " is " + x.dtype().jsonName() + "; " + n.opType() + " takes f32, f16, bf16 or f64");
    }

    private static long single(NodeContext n, long[] v, String what) {
        n.require(v.length == 1, what + " must be a scalar, not " + v.length + " values");
        return v[0];
    }
}
