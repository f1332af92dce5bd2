"""Train the crop classifier (tile class + orientation) on the rendered crops.

    python -m training.train_classifier --data training/work/data --out training/work/classifier.pt

Batches are drawn by a seeded numpy Generator and augmented in torch with a seeded generator, with
deterministic algorithms and a fixed thread count: the same command gives the same weights.
"""
from __future__ import annotations

import argparse

import numpy as np
import torch
import torch.nn.functional as F

from training import distractors
from training.common import Log, cosine_lr, make_deterministic
from training.labels import CLASSES, NONE
from training.nets import WIDTHS, Classifier, prune

N_CLS = len(CLASSES)


def augment(x: torch.Tensor, orient: torch.Tensor, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """x float (n, 3, 64, 64) in [0, 1]. Quarter turns (orientation follows), light and colour."""
    n = x.shape[0]
    k = torch.randint(0, 4, (n,), generator=g)
    out = torch.empty_like(x)
    for r in range(4):
        idx = (k == r).nonzero().flatten()
        if len(idx):
            # rot90 with dims (2, 3) turns a quarter counter-clockwise: the top goes to the left
            out[idx] = torch.rot90(x[idx], r, dims=(2, 3))
    new_orient = torch.where(orient >= 0, (orient - k) % 4, orient)
    bright = 1 + (torch.rand(n, 1, 1, 1, generator=g) - 0.5) * 0.4
    contrast = 1 + (torch.rand(n, 1, 1, 1, generator=g) - 0.5) * 0.4
    gain = 1 + (torch.rand(n, 3, 1, 1, generator=g) - 0.5) * 0.12
    mean = out.mean(dim=(1, 2, 3), keepdim=True)
    out = ((out - mean) * contrast + mean) * bright * gain
    return out.clamp(0, 1), new_orient


def _share(x: torch.Tensor, g: torch.Generator, p: float) -> torch.Tensor | None:
    """Which crops of `x` an augmentation applied to a share `p` of them takes (each with chance
    `p`), or None when it takes none; with `p` 0 nothing is drawn from `g`."""
    if p <= 0:
        return None
    pick = torch.rand(x.shape[0], generator=g) < p
    return pick if bool(pick.any()) else None


def photometric(x: torch.Tensor, g: torch.Generator, p: float) -> torch.Tensor:
    """On a share `p` of the crops: darker with sensor noise, and/or out of focus (shrunk to
    35-80% and enlarged again)."""
    pick = _share(x, g, p)
    if pick is None:
        return x
    y = x[pick]
    k = y.shape[0]
    dark = (torch.rand(k, 1, 1, 1, generator=g) < 0.6).float()
    gain = 0.25 + 0.65 * torch.rand(k, 1, 1, 1, generator=g)
    y = y * (1 - dark + dark * gain) + dark * torch.randn(y.shape, generator=g) * 0.02
    s = float(0.35 + 0.45 * torch.rand(1, generator=g))
    if float(torch.rand(1, generator=g)) < 0.6:
        size = max(8, int(64 * s))
        y = F.interpolate(F.interpolate(y, size=(size, size), mode="area"), size=(64, 64), mode="bilinear",
                          align_corners=False)
    out = x.clone()
    out[pick] = y.clamp(0, 1)
    return out


def defocus(x: torch.Tensor, g: torch.Generator, p: float, max_sigma: float,
            spare: torch.Tensor | None = None) -> torch.Tensor:
    """On a share `p` of the crops: a photo out of focus, a Gaussian blur of 1 to `max_sigma`
    crop pixels (one sigma per batch). A photo out of focus by 0.4% of its long side
    (training.perturb.blur) blurs a tile a twentieth to a thirtieth of the photo high by 4-6 crop
    pixels, where `photometric`'s shrink and enlarge blurs by about 1. Crops where `spare` is
    true stay sharp: blank haku, since a soft blob taught as haku is what a hand looks like.
    Sparing them did not by itself stop a skin-coloured blob being read as haku; palms among the
    drawn non-tiles did (models/HISTORY.md, "A photo out of focus")."""
    if p <= 0 or max_sigma <= 1:
        return x
    pick = torch.rand(x.shape[0], generator=g) < p
    if spare is not None:
        pick &= ~spare
    if not pick.any():
        return x
    sigma = 1.0 + (max_sigma - 1.0) * float(torch.rand(1, generator=g))
    r = int(np.ceil(3 * sigma))
    t = torch.arange(-r, r + 1, dtype=x.dtype)
    k = torch.exp(-(t * t) / (2 * sigma * sigma))
    k = k / k.sum()
    y = F.pad(x[pick], (r, r, r, r), mode="replicate")
    y = F.conv2d(y, k.view(1, 1, 1, -1).repeat(3, 1, 1, 1), groups=3)
    y = F.conv2d(y, k.view(1, 1, -1, 1).repeat(3, 1, 1, 1), groups=3)
    out = x.clone()
    out[pick] = y
    return out


def shake(x: torch.Tensor, g: torch.Generator, p: float, max_length: float,
          spare: torch.Tensor | None = None) -> torch.Tensor:
    """On a share `p` of the crops: a phone moved while the shutter was open, a blur along a line
    of 3 to `max_length` crop pixels at one angle (one length and angle per batch). A photo shaken
    by 0.8% of its long side (training.perturb's "shake") smears a tile a twentieth of the photo
    wide by about a sixth of its width, 5-6 crop pixels. `defocus` blurs every way at once; a
    shaken photo keeps its strokes sharp across the motion and loses them along it. Crops where
    `spare` is true stay sharp, as `defocus` spares blank haku."""
    pick = _share(x, g, p)
    if pick is None or max_length < 3:
        return x
    if spare is not None:
        pick &= ~spare
        if not pick.any():
            return x
    length = 3.0 + (max_length - 3.0) * float(torch.rand(1, generator=g))
    angle = float(np.pi * torch.rand(1, generator=g))
    r = int(np.ceil(length / 2))
    t = torch.arange(-r, r + 1, dtype=x.dtype)
    yy, xx = torch.meshgrid(t, t, indexing="ij")
    along = xx * np.cos(angle) + yy * np.sin(angle)
    across = -xx * np.sin(angle) + yy * np.cos(angle)
    k = ((along.abs() <= length / 2) & (across.abs() <= 0.5)).to(x.dtype)
    k = k / k.sum()
    y = F.pad(x[pick], (r, r, r, r), mode="replicate")
    y = F.conv2d(y, k.view(1, 1, 2 * r + 1, 2 * r + 1).repeat(3, 1, 1, 1), groups=3)
    out = x.clone()
    out[pick] = y
    return out


def veil(x: torch.Tensor, g: torch.Generator, p: float) -> torch.Tensor:
    """On a share `p` of the crops: a lamp reflected on glossy tiles, or a smudged lens, lays light
    over them. Each picked crop becomes x (1 - a) + a w: its darks lift towards the lamp's white w
    (each channel 0.92 to 1), so ink turns grey and a dark back pale, while the face stays light. The
    veil a is 0.15 to 0.65; on half the crops it fades across the crop in a random direction (the
    edge of the reflection), to as little as none. training.perturb's glare is such a veil over a
    quarter of a photo (models/HISTORY.md, "Tiles under a lamp's reflection")."""
    pick = _share(x, g, p)
    if pick is None:
        return x
    y = x[pick]
    k, _, h, w = y.shape
    a = 0.15 + 0.5 * torch.rand(k, 1, 1, 1, generator=g)
    angle = 2 * np.pi * torch.rand(k, generator=g)
    fade = (torch.rand(k, generator=g) < 0.5).float() * torch.rand(k, generator=g)
    white = 1 - 0.08 * torch.rand(k, 3, 1, 1, generator=g)
    ys = (torch.arange(h, dtype=x.dtype) + 0.5) / h - 0.5
    xs = (torch.arange(w, dtype=x.dtype) + 0.5) / w - 0.5
    along = (torch.cos(angle)[:, None, None] * xs[None, None, :] + torch.sin(angle)[:, None, None] * ys[None, :, None])
    t = (along + 0.5).clamp(0, 1)[:, None]  # 0 on one side of the crop, 1 on the other
    field = a * (1 - fade[:, None, None, None] * (1 - t))
    out = x.clone()
    out[pick] = (y * (1 - field) + field * white).clamp(0, 1)
    return out


def overexpose(x: torch.Tensor, g: torch.Generator, p: float, most: float = 1.8) -> torch.Tensor:
    """On a share `p` of the crops: the photo overexposed, every channel times 1.2 to `most` and
    clipped at white, so that a face's ivory is flat white and its ink lighter. `augment` brightens
    by at most 1.2; a camera metering a dark mat, the sun or a flash give more (training.perturb's
    bright and flash; models/HISTORY.md, "An overexposed photo")."""
    pick = _share(x, g, p)
    if pick is None:
        return x
    k = int(pick.sum())
    gain = 1.2 + (most - 1.2) * torch.rand(k, 1, 1, 1, generator=g)
    out = x.clone()
    out[pick] = (x[pick] * gain).clamp(0, 1)
    return out


def ink_style(x: torch.Tensor, g: torch.Generator, p: float, strokes: float = 0.5) -> torch.Tensor:
    """Sets differ in how their ink is drawn: on a share `p` of the crops, the dark ink swaps its
    green and blue half the time (green sticks drawn blue, blue pins green: red stays red, so no
    tile turns into a red five), and on a share `strokes` of them its strokes grow or shrink by a
    pixel, three to two (a 3x3 min or max filter; shrinking is half blended with the crop, so thin
    rings thin and do not vanish)."""
    pick = _share(x, g, p)
    if pick is None:
        return x
    y = x[pick]
    k = y.shape[0]
    swap = (torch.rand(k, 1, 1, 1, generator=g) < 0.5).float()
    lum = (0.3 * y[:, 0] + 0.59 * y[:, 1] + 0.11 * y[:, 2])[:, None]
    ink = ((0.6 - lum) / 0.2).clamp(0, 1) * swap
    y = y * (1 - ink) + y[:, [0, 2, 1]] * ink
    stroke = torch.rand(k, generator=g)
    grow = stroke < 0.6 * strokes  # dark strokes wider: the minimum over each pixel's 3x3 neighbourhood
    thin = (stroke >= 0.6 * strokes) & (stroke < strokes)
    if grow.any():
        y[grow] = -F.max_pool2d(-y[grow], 3, stride=1, padding=1)
    if thin.any():
        y[thin] = 0.5 * (y[thin] + F.max_pool2d(y[thin], 3, stride=1, padding=1))
    out = x.clone()
    out[pick] = y
    return out


HAKU = CLASSES.index("5z")
RED_FIVE_IDS = torch.tensor([CLASSES.index(c) for c in ("0m", "0p", "0s")])


def unredden(x: torch.Tensor, cls: torch.Tensor, g: torch.Generator, p: float) -> torch.Tensor:
    """Sets differ in which parts are red (a red 9p middle row, a red 1m, a red centre circle):
    on a share `p` of the tiles that are not red fives, red ink becomes dark ink of the same
    lightness, so a tile is told by its shapes. Red fives keep their red: it is what they are."""
    if p <= 0:
        return x
    n = x.shape[0]
    pick = (torch.rand(n, generator=g) < p) & ~torch.isin(cls, RED_FIVE_IDS)
    if not pick.any():
        return x
    r, gr, b = x[:, 0], x[:, 1], x[:, 2]
    red = ((r - torch.maximum(gr, b)) > 0.15).float()[:, None]
    lum = (0.3 * r + 0.59 * gr + 0.11 * b)[:, None]
    ink = torch.rand(n, 3, 1, 1, generator=g) * 0.25
    dark = (ink + lum * 0.5).clamp(0, 1)
    out = x * (1 - red) + dark * red
    return torch.where(pick[:, None, None, None], out, x)


# the tiles whose ink may turn red and stay what they are: not a five (a five inked red is a red
# five), not a red five, haku (no ink), a back or no tile
REDDENABLE = torch.tensor([CLASSES.index(c) for c in CLASSES
                           if len(c) == 2 and c[1] in "mpsz" and c[0] not in "05"])


def redden(x: torch.Tensor, cls: torch.Tensor, g: torch.Generator, p: float) -> torch.Tensor:
    """Red ink is not what makes a red five; its being a five and red is: on a share `p` of the
    tiles that are neither fives nor red fives (nor haku, a back, no tile), the dark ink on the
    light face (a dark pixel with a light one within three) turns red, so that a red 2m of some
    set is still read as 2m, and a red five is told by its five."""
    if p <= 0:
        return x
    n = x.shape[0]
    pick = (torch.rand(n, generator=g) < p) & torch.isin(cls, REDDENABLE)
    if not pick.any():
        return x
    r, gr, b = x[:, 0], x[:, 1], x[:, 2]
    lum = (0.3 * r + 0.59 * gr + 0.11 * b)[:, None]
    # dark strokes, whatever their colour, on a light face: a dark table beside the tile stays
    face = F.max_pool2d(lum, 7, stride=1, padding=3)
    ink = ((0.55 - lum) / 0.25).clamp(0, 1) * ((face - 0.6) / 0.15).clamp(0, 1)
    tone = torch.rand(n, 3, 1, 1, generator=g)
    red = torch.cat([0.45 + 0.4 * tone[:, :1], 0.05 + 0.15 * tone[:, 1:2], 0.05 + 0.15 * tone[:, 2:]], dim=1)
    out = x * (1 - ink) + (red * (0.6 + lum)).clamp(0, 1) * ink
    return torch.where(pick[:, None, None, None], out, x)


def losses(logits: torch.Tensor, cls: torch.Tensor, orient: torch.Tensor, half: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    cls_loss = F.cross_entropy(logits[:, :N_CLS], cls, label_smoothing=0.05)
    o_logits = logits[:, N_CLS:]
    known = orient >= 0
    if not known.any():
        return cls_loss, torch.zeros(())
    logp = F.log_softmax(o_logits[known], dim=1)
    target = F.one_hot(orient[known].long(), 4).float()
    h = half[known].bool()
    if h.any():  # a back looks the same turned half round: either of the two is right
        target[h] = 0.5 * (target[h] + target[h].roll(2, dims=1))
    return cls_loss, -(target * logp).sum(1).mean()


def distillation(logits: torch.Tensor, teacher: torch.Tensor, temperature: float) -> torch.Tensor:
    """How far the student's softened class and orientation distributions are from the teacher's
    (Hinton et al., "Distilling the knowledge in a neural network", 2015): the KL divergence at
    `temperature`, times its square so that its gradients keep their size as it changes."""
    total = torch.zeros(())
    for part in (slice(0, N_CLS), slice(N_CLS, None)):
        t = F.softmax(teacher[:, part] / temperature, dim=1)
        s = F.log_softmax(logits[:, part] / temperature, dim=1)
        total = total + F.kl_div(s, t, reduction="batchmean")
    return total * temperature * temperature


def clutter_and_teacher(logits: torch.Tensor, teacher: torch.Tensor, drawn: torch.Tensor,
                        temperature: float) -> torch.Tensor:
    """`--teach-clutter`'s loss: the `drawn` crops (the drawn non-tiles) taught "none" (their class
    alone: a thing has no orientation), every other crop the teacher's reading alone
    (`distillation`), each part weighted by its share of the batch. A fine-tune so taught learns the
    clutter and is held to the teacher on every tile, red fives among them, which fine-tunes taught
    labels beside the teacher moved (models/HISTORY.md, "A shaken photo taught from a sharp teacher")."""
    n = len(logits)
    total = torch.zeros(())
    if drawn.any():
        none = torch.full((int(drawn.sum()),), CLASSES.index(NONE), dtype=torch.long)
        total = total + F.cross_entropy(logits[drawn, :N_CLS], none) * drawn.sum() / n
    if (~drawn).any():
        total = total + distillation(logits[~drawn], teacher[~drawn], temperature) * (~drawn).sum() / n
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append",
                    help="a build_data folder; given again, the folders' crops are joined in order (the "
                         "validation crops are the last 4%% of the joined crops). Default: training/work/data")
    ap.add_argument("--out", default="training/work/classifier.pt")
    ap.add_argument("--epochs", type=float, default=5.0)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--limit", type=int, default=0, help="use only the first N crops (smoke tests)")
    ap.add_argument("--init", help="start from these weights (a fine-tuning phase)")
    ap.add_argument("--unredden", type=float, default=0.0, help="share of non-red-five crops whose red ink turns dark")
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--real", action="append", default=[],
                    help="real crops (training.real_data folders), added to every epoch; may repeat")
    ap.add_argument("--real-repeat", type=int, default=2, help="times each real crop is drawn per epoch")
    ap.add_argument("--photometric", type=float, default=0.0,
                    help="share of crops taken as in a dim room or out of focus (darker, noisier, blurred)")
    ap.add_argument("--defocus", type=float, default=0.0,
                    help="share of crops blurred as a photo out of focus (Gaussian, 1 to --defocus-max px)")
    ap.add_argument("--defocus-max", type=float, default=5.0)
    ap.add_argument("--shake", type=float, default=0.0,
                    help="share of crops blurred as a photo shaken (along a line of 3 to --shake-max px)")
    ap.add_argument("--shake-max", type=float, default=9.0)
    ap.add_argument("--veil", type=float, default=0.0,
                    help="share of crops under a lamp's reflection: light laid over them, their darks lifted (veil)")
    ap.add_argument("--overexpose", type=float, default=0.0,
                    help="share of crops overexposed: times 1.2 to --overexpose-most, clipped at white (overexpose)")
    ap.add_argument("--overexpose-most", type=float, default=1.8)
    ap.add_argument("--redden", type=float, default=0.0,
                    help="share of crops of tiles other than fives whose dark ink turns red (redden)")
    ap.add_argument("--ink", type=float, default=0.0,
                    help="share of crops whose ink swaps green and blue and/or grows or shrinks by a pixel")
    ap.add_argument("--ink-strokes", type=float, default=0.5,
                    help="of the --ink crops, the share whose strokes grow or shrink (0: the ink's colour only)")
    ap.add_argument("--distractors", type=float, default=0.0,
                    help="share of each batch replaced by drawn non-tiles (class none)")
    ap.add_argument("--clutter", choices=("basic", "wide", "focus", "games"), default="basic",
                    help="which drawn non-tiles: wide adds keys, dominoes, playing cards, text, screens; "
                         "focus adds palms and more paper; games adds a domino's half and a number card, "
                         "each as a box frames it")
    ap.add_argument("--widths", help="the convolutions' widths, 8 comma-separated numbers (default: --init's, "
                                     "or training.nets.WIDTHS); narrower than --init's, that network is pruned "
                                     "to them first")
    ap.add_argument("--teacher", help="a classifier's weights to distil from: its readings of each augmented batch "
                                      "are taught beside the labels")
    ap.add_argument("--kd", type=float, default=0.7, help="with --teacher, the distillation loss's share")
    ap.add_argument("--temperature", type=float, default=2.0, help="with --teacher, the softening of both readings")
    ap.add_argument("--blend", type=float, default=0.0,
                    help="with --teacher, share of crops blended with another crop of the batch, taught the teacher's reading only")
    ap.add_argument("--teach-clutter", action="store_true",
                    help="with --teacher and --distractors, the drawn non-tiles are taught 'none' alone and every "
                         "other crop the teacher's reading alone (no label, and no --kd share): the clutter is learnt, "
                         "the rest held to the teacher")
    ap.add_argument("--teach-sharp", action="store_true",
                    help="with --teacher and --shake, the teacher reads each crop before it is shaken (shake then "
                         "comes after every other augmentation): a shaken crop is taught what the teacher reads sharp")
    args = ap.parse_args()
    if not 0 <= args.blend < 1 or (args.blend and not args.teacher):
        ap.error("--blend is a share from 0 to under 1, and needs --teacher (blends are taught the teacher's reading)")
    if args.teach_clutter and (not (args.teacher and args.distractors > 0) or args.blend):
        ap.error("--teach-clutter needs --teacher and --distractors (it is the drawn non-tiles it teaches), "
                 "and no --blend (a blend of a drawn crop and a tile is neither)")
    if args.teach_sharp and not (args.teacher and args.shake > 0):
        ap.error("--teach-sharp needs --teacher and --shake (it is the shaken crops it teaches)")
    kinds = {"basic": distractors.KINDS, "wide": distractors.KINDS_WIDE, "focus": distractors.KINDS_FOCUS,
             "games": distractors.KINDS_GAMES}[args.clutter]
    make_deterministic(args.seed, args.threads)
    log = Log(args.out + ".log")

    folders = args.data or ["training/work/data"]
    parts = [np.load(f"{d}/cls_crops.npy", mmap_mode="r") for d in folders]
    # one folder stays mapped until --limit has cut it (a smoke test reads only what it uses)
    crops = parts[0] if len(parts) == 1 else np.concatenate(parts)
    meta = np.concatenate([np.load(f"{d}/cls_meta.npy") for d in folders])
    if args.limit:
        crops, meta = crops[: args.limit], meta[: args.limit]
    crops = np.ascontiguousarray(crops)
    n = len(meta)
    n_val = max(256, n // 25)
    train_idx = np.arange(0, n - n_val)
    val_idx = np.arange(n - n_val, n)  # the last scenes' crops: never trained on
    real_idx = np.zeros(0, np.int64)
    if args.real:  # real crops go after the synthetic ones, all of them in training
        parts_c, parts_m = [crops], [meta]
        for folder in args.real:
            parts_c.append(np.load(f"{folder}/cls_crops.npy"))
            parts_m.append(np.load(f"{folder}/cls_meta.npy"))
        crops, meta = np.concatenate(parts_c), np.concatenate(parts_m)
        real_idx = np.arange(n, len(meta))
        log(f"{len(real_idx)} real crops, drawn {args.real_repeat}x per epoch")
    counts = np.bincount(meta[train_idx, 0], minlength=N_CLS)
    log(f"{n} crops, {len(train_idx)} train, {n_val} val; per class min {counts.min()} max {counts.max()}")

    widths = tuple(int(w) for w in args.widths.split(",")) if args.widths else None
    # one network built (dropout draws from torch's global generator: a second one built would
    # change every later draw, and the stages trained before would no longer come out the same)
    if args.init:  # a fine-tune keeps its start's widths unless told others
        net = Classifier.from_state(torch.load(args.init, weights_only=True))
        if widths is not None and net.widths != widths:  # pruned on the first crops of the training set, as they are (no augmentation)
            sample = torch.from_numpy(np.ascontiguousarray(crops[train_idx[:2048]])).permute(0, 3, 1, 2).float() / 255.0
            start, net = net, prune(net, widths, sample)
            log(f"pruned {start.widths} -> {widths}")
    else:
        net = Classifier(widths or WIDTHS)
    teacher = None
    if args.teacher:
        teacher = Classifier.from_state(torch.load(args.teacher, weights_only=True)).eval()
        for p in teacher.parameters():
            p.requires_grad_(False)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    rng = np.random.default_rng(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    # rare classes (the red fives) are drawn again until each has at least 70% of the median count
    target = 0.7 * np.median(counts[counts > 0])
    extra = []
    for c in range(N_CLS):
        members = train_idx[meta[train_idx, 0] == c]
        if 0 < len(members) < target:
            extra.append(rng.choice(members, int(target - len(members)), replace=True))
    epoch_idx = np.concatenate([train_idx] + extra + [real_idx] * args.real_repeat)
    log(f"{len(epoch_idx) - len(train_idx)} extra draws of rare classes per epoch")
    steps_per_epoch = len(epoch_idx) // args.batch
    total = int(steps_per_epoch * args.epochs)
    if total == 0:  # nothing would be trained or saved: say so rather than leave no weights behind
        raise SystemExit(f"{len(epoch_idx)} crops to train on, fewer than one batch of {args.batch}")
    step = 0
    while step < total:
        order = rng.permutation(epoch_idx)
        net.train()
        run = np.zeros(3)
        for b in range(steps_per_epoch):
            if step >= total:
                break
            idx = np.sort(order[b * args.batch:(b + 1) * args.batch])
            batch, bmeta = crops[idx], meta[idx]
            drawn = torch.zeros(len(idx), dtype=torch.bool)  # the crops replaced by drawn non-tiles
            if args.distractors:
                k = int(rng.binomial(len(idx), args.distractors))
                if k:
                    batch, bmeta = batch.copy(), bmeta.copy()
                    for j in rng.choice(len(idx), k, replace=False):
                        batch[j] = distractors.crop(rng, kinds=kinds)
                        bmeta[j] = (CLASSES.index(NONE), -1, 0)
                        drawn[j] = True
            x = torch.from_numpy(batch).permute(0, 3, 1, 2).float() / 255.0
            m = torch.from_numpy(bmeta.astype(np.int64))
            x, orient = augment(x, m[:, 1], g)
            x = photometric(x, g, args.photometric)
            x = defocus(x, g, args.defocus, args.defocus_max, m[:, 0] == HAKU)
            if not args.teach_sharp:
                x = shake(x, g, args.shake, args.shake_max, m[:, 0] == HAKU)
            x = unredden(x, m[:, 0], g, args.unredden)
            x = ink_style(x, g, args.ink, args.ink_strokes)
            x = redden(x, m[:, 0], g, args.redden)
            x = veil(x, g, args.veil)
            x = overexpose(x, g, args.overexpose, args.overexpose_most)
            for pg in opt.param_groups:
                pg["lr"] = cosine_lr(step, total, args.lr, args.warmup)
            plain = torch.ones(len(x), dtype=torch.bool)
            if teacher is not None and args.blend > 0:  # some crops blended with others: the teacher's reading alone is taught
                plain = torch.rand(len(x), generator=g) >= args.blend
                share = 0.2 + 0.6 * torch.rand(len(x), 1, 1, 1, generator=g)
                other = x[torch.randperm(len(x), generator=g)]
                x = torch.where(plain[:, None, None, None], x, share * x + (1 - share) * other)
            x, sharp = sharp_and_shaken(x, g, args, m[:, 0] == HAKU)
            logits = net(x)
            lc, lo = losses(logits[plain], m[plain, 0], orient[plain], m[plain, 2])
            loss = lc + 0.3 * lo
            if teacher is not None:
                with torch.no_grad():
                    taught = teacher(sharp)
                if args.teach_clutter:  # the labels are not taught: the clutter's "none" and the teacher's readings are
                    loss = clutter_and_teacher(logits, taught, drawn, args.temperature)
                else:
                    loss = (1 - args.kd) * loss + args.kd * distillation(logits, taught, args.temperature)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            run += [lc.item(), lo.item(), (logits[plain, :N_CLS].argmax(1) == m[plain, 0]).float().mean().item()]
            step += 1
            if step % 200 == 0:
                log(f"step {step}/{total} cls {run[0] / 200:.3f} orient {run[1] / 200:.3f} acc {run[2] / 200:.3f}")
                run[:] = 0
        acc, oacc = evaluate(net, crops, meta, val_idx)
        log(f"epoch end at step {step}: val class acc {acc:.4f}, orientation acc {oacc:.4f}")
        torch.save(net.state_dict(), args.out)
    log("done")


def sharp_and_shaken(x: torch.Tensor, g: torch.Generator, args: argparse.Namespace,
                     spare: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(what the network reads, what the teacher reads). With `--teach-sharp` the crops are shaken
    last, after every other augmentation, and the teacher reads them as they were before: the
    network learns to read a shaken crop as the teacher reads it sharp, and is held to the teacher's
    reading elsewhere (tried with the shipped classifier as teacher, it still lost red fives:
    models/HISTORY.md, "A shaken photo taught from a sharp teacher"). Otherwise both read `x`
    (shake, if asked for, came earlier)."""
    if not args.teach_sharp:
        return x, x
    return shake(x, g, args.shake, args.shake_max, spare), x


@torch.no_grad()
def evaluate(net: Classifier, crops: np.ndarray, meta: np.ndarray, idx: np.ndarray) -> tuple[float, float]:
    net.eval()
    right = oright = oknown = 0
    for b in range(0, len(idx), 512):
        j = idx[b:b + 512]
        x = torch.from_numpy(crops[j]).permute(0, 3, 1, 2).float() / 255.0
        out = net(x)
        m = meta[j]
        right += int((out[:, :N_CLS].argmax(1).numpy() == m[:, 0]).sum())
        known = (m[:, 1] >= 0) & (m[:, 2] == 0)
        oright += int((out[:, N_CLS:].argmax(1).numpy()[known] == m[known, 1]).sum())
        oknown += int(known.sum())
    return right / len(idx), oright / max(1, oknown)


if __name__ == "__main__":
    main()
