"""The models export.py can write: name -> build() returning (module in eval mode, example inputs, input names).

Weights are random (seeded); nothing is downloaded. Sizes are small so that the simulator runs each in
seconds: images 64x64 where the architecture allows, sequences of 16 tokens in batches of 2, 2 layers
of width 64 for the language models.
"""
import torch
import torch.nn as nn

V, S, B = 1000, 16, 2          # vocabulary, tokens per sequence, batch


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def ids(seed=0, b=B, s=S):
    return torch.randint(0, V, (b, s), generator=_gen(seed))


def mask(b=B, s=S, dtype=torch.int64):
    m = torch.ones(b, s, dtype=dtype)
    m[1, s - 4:] = 0           # the second sequence is padded
    return m


class Flat(nn.Module):
    """Calls a model with keyword inputs and returns its tensors as a flat tuple (HF models return nests)."""

    def __init__(self, m, names, key=None, **kw):
        super().__init__()
        self.m, self.names, self.key, self.kw = m, names, key, kw

    def forward(self, *a):
        out = self.m(**dict(zip(self.names, a)), **self.kw) if self.names else self.m(*a)
        if self.key is not None:
            out = out[self.key]
        flat = []

        def walk(o):
            if isinstance(o, torch.Tensor):
                flat.append(o)
            elif isinstance(o, (tuple, list)):
                for x in o:
                    walk(x)
            elif isinstance(o, dict):
                for x in o.values():
                    walk(x)
        walk(out)
        return tuple(flat)


# ---- torchvision (image size per model; 64x64 by default) ----

_VISION = {
    "resnet18": 64, "resnet50": 64, "resnext50_32x4d": 64, "densenet121": 64, "efficientnet_b0": 64,
    "efficientnet_v2_s": 64, "mobilenet_v3_small": 64, "mobilenet_v3_large": 64, "regnet_y_400mf": 64,
    "shufflenet_v2_x1_0": 64, "mnasnet1_0": 64, "squeezenet1_0": 64, "googlenet": 64, "inception_v3": 80,
    "convnext_tiny": 64, "swin_t": 112, "swin_v2_t": 112, "maxvit_t": 224, "vgg11_bn": 224, "alexnet": 224,
}


def _torchvision():
    import tvshim  # noqa: F401  (lets torchvision's models import where its C ops do not load)
    import torchvision
    return torchvision


def _vision(name):
    def build():
        tv = _torchvision()
        kw = {"aux_logits": False, "init_weights": True} if name in ("googlenet", "inception_v3") else {}
        m = getattr(tv.models, name)(weights=None, **kw)
        size = _VISION[name]
        return Flat(m, None), (torch.randn(1, 3, size, size, generator=_gen(0)),), ["input"]
    return build


def _vit_small():
    _torchvision()
    from torchvision.models.vision_transformer import VisionTransformer
    v = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32, mlp_dim=64,
                          num_classes=10)
    nn.init.normal_(v.heads.head.weight)   # torchvision zero-initialises the head: the output would be all 0
    return Flat(v, None), (torch.randn(1, 3, 32, 32, generator=_gen(0)),), ["input"]


def _segmentation(name):
    def build():
        tv = _torchvision()
        kw = dict(weights=None, weights_backbone=None, num_classes=5)
        if not name.startswith("lraspp"):
            kw["aux_loss"] = False
        m = getattr(tv.models.segmentation, name)(**kw)
        return Flat(m, None, key="out"), (torch.randn(1, 3, 64, 64, generator=_gen(0)),), ["input"]
    return build


def _video(name):
    def build():
        tv = _torchvision()
        m = getattr(tv.models.video, name)(weights=None, num_classes=10)
        return Flat(m, None), (torch.randn(1, 3, 4, 32, 32, generator=_gen(0)),), ["input"]
    return build


# ---- torchvision detection: one 3x320x320 image, as torchvision exports them to ONNX (its test_onnx.py) ----

class _Detector(nn.Module):
    """Calls a torchvision detector on one image [3, H, W] and returns its first (only) result's tensors in
    the order of its dict: boxes, labels, scores (retinanet, ssd: boxes, scores, labels), then masks or keypoints."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return tuple(self.m([x])[0].values())


# Random weights make near-uniform class scores (about 1/91), below the R-CNNs' default box_score_thresh 0.05: the
# thresholds below keep some detections on the seeded image (keypointrcnn's person scores are tiny, so 0 there).
# NAME_none keeps none: a threshold above every score, the same graph run where nothing survives it.
_DETECTION = {
    "ssdlite320_mobilenet_v3_large": ("ssdlite320_mobilenet_v3_large", {}),
    "fasterrcnn_mobilenet_v3_large_320_fpn": ("fasterrcnn_mobilenet_v3_large_320_fpn", dict(box_score_thresh=0.01)),
    "fasterrcnn_mobilenet_v3_large_320_fpn_none": ("fasterrcnn_mobilenet_v3_large_320_fpn", dict(box_score_thresh=0.5)),
    "retinanet_resnet50_fpn": ("retinanet_resnet50_fpn", dict(min_size=320, max_size=320)),
    "maskrcnn_resnet50_fpn": ("maskrcnn_resnet50_fpn", dict(min_size=320, max_size=320)),
    "keypointrcnn_resnet50_fpn": ("keypointrcnn_resnet50_fpn", dict(min_size=320, max_size=320, box_score_thresh=0.0)),
}


def _detection(name):
    def build():
        tv = _torchvision()
        torch.manual_seed(0)
        model, kw = _DETECTION[name]
        m = getattr(tv.models.detection, model)(weights=None, weights_backbone=None, **kw)
        return _Detector(m), (torch.randn(3, 320, 320, generator=_gen(0)),), ["image"]
    return build


# ---- transformers (tiny configs) ----

_H = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, vocab_size=V,
          max_position_embeddings=64)


def _hf(cls, cfg_cls, cfg, inputs, names, **kw):
    def build():
        import transformers
        torch.manual_seed(0)
        m = getattr(transformers, cls)(getattr(transformers, cfg_cls)(**cfg))
        return Flat(m, names, return_dict=False, **kw), inputs(), names
    return build


def _text(cls, cfg_cls, cfg, **kw):
    return _hf(cls, cfg_cls, cfg, lambda: (ids(), mask()), ["input_ids", "attention_mask"], **kw)


def _seq2seq(cls, cfg_cls, cfg):
    return _hf(cls, cfg_cls, cfg, lambda: (ids(), mask(), ids(1, s=8)),
               ["input_ids", "attention_mask", "decoder_input_ids"], use_cache=False)


_DEC = dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
            encoder_ffn_dim=128, decoder_ffn_dim=128, vocab_size=V, max_position_embeddings=64)


def _whisper_encoder():
    import transformers
    torch.manual_seed(0)
    cfg = dict(_DEC, num_mel_bins=16, max_source_positions=32, max_target_positions=32, pad_token_id=0,
               bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
    cfg.pop("max_position_embeddings")
    m = transformers.WhisperModel(transformers.WhisperConfig(**cfg)).get_encoder()
    return Flat(m, ["input_features"], return_dict=False), \
        (torch.randn(1, 16, 64, generator=_gen(2)),), ["input_features"]


def _bit():
    """Hugging Face's BiT: weight-standardised convolutions, GroupNorm, and 'SAME' padding computed at run time,
    exported as Pad (zeros) + MaxPool: the pattern ONNX Runtime's Pad_Fusion rewrite changes (export.py)."""
    import transformers
    torch.manual_seed(0)
    cfg = transformers.BitConfig(hidden_sizes=[128, 128, 128, 128], depths=[1, 1, 1, 1], embedding_size=32)
    return Flat(transformers.BitModel(cfg), ["pixel_values"], return_dict=False), \
        (torch.randn(1, 3, 64, 64, generator=_gen(0)),), ["pixel_values"]


# ---- torch.nn ----

class _Recurrent(nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.e = nn.Embedding(V, 32)
        self.r = cell(32, 48, num_layers=2, batch_first=True, bidirectional=True)
        self.o = nn.Linear(96, 10)

    def forward(self, x):
        y, h = self.r(self.e(x))
        return self.o(y), (h[0] if isinstance(h, tuple) else h)


class _Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.e = nn.Embedding(V, 64)
        layer = nn.TransformerEncoderLayer(64, 4, 128, batch_first=True, dropout=0.0)
        self.t = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x, m):
        causal = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        return self.t(self.e(x), mask=causal, src_key_padding_mask=m == 0)


# ---- bounded: values selected by a mask (x[m], its count known only in the run), then split or ranked ----

class _MaskedSplit(nn.Module):
    def forward(self, x, m):
        return tuple(p * 2 for p in x[m].split(2))    # TorchScript: a Split by the traced sizes [2, 2]


class _MaskedTopK(nn.Module):
    def forward(self, x, m):
        s = x[m]
        return torch.topk(s, k=min(3, s.shape[0]))    # dynamo: k = Min(3, Shape(s)) computed in the run


def _masked(make):
    return _module(make, lambda: (torch.tensor([3., -1., 4., 1., -5., 9.]), torch.tensor([1, 0, 1, 1, 0, 1], dtype=torch.bool)), ["x", "m"])


def _module(make, inputs, names):
    def build():
        torch.manual_seed(0)
        return Flat(make(), None), inputs(), names
    return build


MODELS = {}
MODELS.update({n: ("vision", _vision(n)) for n in _VISION})
MODELS["vit_small"] = ("vision", _vit_small)
MODELS.update({n: ("vision", _segmentation(n)) for n in ("fcn_resnet50", "deeplabv3_mobilenet_v3_large",
                                                         "lraspp_mobilenet_v3_large")})
MODELS.update({n: ("vision", _video(n)) for n in ("r3d_18", "mc3_18")})
MODELS["bit"] = ("vision", _bit)
MODELS.update({n: ("detection", _detection(n)) for n in _DETECTION})
MODELS.update({
    "bert": ("text", _text("BertModel", "BertConfig", _H)),
    "distilbert": ("text", _text("DistilBertModel", "DistilBertConfig",
                                 dict(dim=64, n_layers=2, n_heads=4, hidden_dim=128, vocab_size=V,
                                      max_position_embeddings=64))),
    "roberta": ("text", _text("RobertaModel", "RobertaConfig", dict(_H, max_position_embeddings=66))),
    "albert": ("text", _text("AlbertModel", "AlbertConfig", dict(_H, embedding_size=32))),
    "gpt2": ("text", _text("GPT2LMHeadModel", "GPT2Config",
                           dict(n_embd=64, n_layer=2, n_head=4, vocab_size=V, n_positions=64), use_cache=False)),
    "gpt_neox": ("text", _text("GPTNeoXForCausalLM", "GPTNeoXConfig", dict(_H, rotary_pct=0.5), use_cache=False)),
    "llama": ("text", _text("LlamaForCausalLM", "LlamaConfig", dict(_H, num_key_value_heads=2), use_cache=False)),
    "qwen2": ("text", _text("Qwen2ForCausalLM", "Qwen2Config", dict(_H, num_key_value_heads=2), use_cache=False)),
    "phi": ("text", _text("PhiForCausalLM", "PhiConfig", dict(_H, partial_rotary_factor=0.5), use_cache=False)),
    "t5": ("text", _seq2seq("T5Model", "T5Config",
                            dict(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, vocab_size=V))),
    "bart": ("text", _seq2seq("BartModel", "BartConfig", _DEC)),
    "whisper_encoder": ("text", _whisper_encoder),
    "lstm_bi": ("nn", _module(lambda: _Recurrent(nn.LSTM), lambda: (ids(),), ["input_ids"])),
    "gru_bi": ("nn", _module(lambda: _Recurrent(nn.GRU), lambda: (ids(),), ["input_ids"])),
    "transformer_encoder": ("nn", _module(_Encoder, lambda: (ids(), mask()), ["input_ids", "attention_mask"])),
    "masked_split": ("bounded", _masked(_MaskedSplit)),
    "masked_topk": ("bounded", _masked(_MaskedTopK)),
})
