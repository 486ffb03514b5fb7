"""Lets torchvision's models import and run where its compiled ops do not load (a torchvision wheel built for
another torch).

- Registering the fake kernel of an op that does not exist is skipped.
- The two ops the detection models call, torchvision::nms and torchvision::roi_align, are defined with
  Python CPU kernels (greedy NMS dropping IoU > iou_threshold, in decreasing score order, as torchvision's
  kernel does; roi_align by torchvision's own pure-Python transcription of its kernel). They stay ops, so the
  TorchScript exporter meets them as ops and writes torchvision's symbolics (NonMaxSuppression, RoiAlign), and
  torch.export meets them as ops with torchvision's fake kernels (an unbacked count for nms). Only these two:
  a model calling another torchvision op still fails as before.
Import it before torchvision.
"""
import glob
import importlib.util
import os

import torch
import torch.library

_register_fake = torch.library.register_fake


def _tolerant(op, *a, **k):
    if isinstance(op, str) and op.startswith("torchvision::"):
        try:
            getattr(torch.ops.torchvision, op.split("::", 1)[1])
        except (AttributeError, RuntimeError):
            return lambda f: f
    return _register_fake(op, *a, **k)


torch.library.register_fake = _tolerant


def _compiled_ops_load():
    spec = importlib.util.find_spec("torchvision")
    for lib in glob.glob(os.path.join(os.path.dirname(spec.origin), "_C*.so")) if spec else []:
        try:
            torch.ops.load_library(lib)
            return True
        except (OSError, RuntimeError):
            pass
    return False


def _nms(dets, scores, iou_threshold):
    """Indices of the boxes kept, in decreasing score order; a box is dropped where its IoU with a kept one
    exceeds iou_threshold (torchvision's nms_kernel.cpp)."""
    from torchvision.ops.boxes import box_iou
    order = torch.argsort(scores, descending=True, stable=True)
    boxes = dets[order]
    dropped = torch.zeros(len(order), dtype=torch.bool)
    keep = []
    for i in range(len(order)):
        if dropped[i]:
            continue
        keep.append(i)
        dropped |= box_iou(boxes[i:i + 1], boxes)[0] > iou_threshold
    return order[torch.tensor(keep, dtype=torch.long)]


def _has_ops():   # a def, not a lambda: torch.jit scripts it within batched_nms (@torch.jit._script_if_tracing)
    return True


def _roi_align(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned):
    r = importlib.import_module("torchvision.ops.roi_align")
    python = getattr(r._roi_align, "__wrapped__", r._roi_align)   # eager, not torch.compile
    return python(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned)


if not _compiled_ops_load():
    _lib = torch.library.Library("torchvision", "FRAGMENT")
    _lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    _lib.define("roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, "
                "SymInt pooled_width, int sampling_ratio, bool aligned) -> Tensor")
    _lib.impl("nms", _nms, "CPU")
    _lib.impl("roi_align", _roi_align, "CPU")
    for module in ("torchvision.extension", "torchvision.ops.roi_align"):   # the package's roi_align is the function
        importlib.import_module(module)._has_ops = _has_ops
