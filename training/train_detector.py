"""Train the CenterNet-style tile detector on the rendered scenes.

    python -m training.train_detector --data training/work/data --out training/work/detector.pt

Each step takes random crops (random scale, flips, quarter turns) of the rendered images. Targets:
a Gaussian bump at each readable tile's box centre, its box size (log of cells) and the centre's
offset inside its cell; tiles that are half hidden or cut by the crop are "ignore" (no loss).
"""
from __future__ import annotations

import argparse
import json
import math

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from training import distractors
from training.common import Log, cosine_lr, make_deterministic
from training.nets import Detector

S = Detector.STRIDE


def make_targets(boxes: np.ndarray, size: int) -> tuple[np.ndarray, ...]:
    """boxes (k, 5): x1, y1, x2, y2, positive flag in crop pixels -> heat (g, g), weight (g, g),
    reg (4, g, g) [log w, log h, dx, dy], reg mask (g, g)."""
    g = size // S
    heat = np.zeros((g, g), np.float32)
    weight = np.ones((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for x1, y1, x2, y2, pos in boxes:
        cx, cy = (x1 + x2) / 2 / S, (y1 + y2) / 2 / S
        w, h = (x2 - x1) / S, (y2 - y1) / S
        if not pos:
            a, b = int(max(x1 / S, 0)), int(max(y1 / S, 0))
            c, d = int(min(np.ceil(x2 / S), g)), int(min(np.ceil(y2 / S), g))
            weight[b:d, a:c] = 0
            continue
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < g and 0 <= iy < g):
            continue
        sx, sy = max(0.6, 0.15 * w), max(0.6, 0.15 * h)
        bump = np.exp(-((xs - cx + 0.5) ** 2 / (2 * sx * sx) + (ys - cy + 0.5) ** 2 / (2 * sy * sy)))
        np.maximum(heat, bump, out=heat)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (np.log(max(w, 0.25)), np.log(max(h, 0.25)), cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return heat, weight, reg, mask


def sample(img: np.ndarray, boxes: list, size: int, rng: np.random.Generator,
           aspect: float = 0.0, rotate: float = 0.0, rotate_max: float = 35.0) -> tuple[np.ndarray, np.ndarray]:
    """A random crop of `size` x `size` at a random scale, with flips and a quarter turn.
    `aspect` > 0 also stretches one axis by up to exp(+-aspect) (real photos in the data were
    stretched to a square by their export; this undoes the bias). `rotate` > 0: that share of
    crops is also turned by up to `rotate_max` degrees either way (`turn_crop`), as a photo taken
    with the phone turned, or a pile of tiles lying every way, shows them."""
    scale = float(np.exp(rng.uniform(np.log(0.7), np.log(1.4))))
    stretch = float(np.exp(rng.uniform(-aspect, aspect))) if aspect > 0 else 1.0
    angle = float(rng.uniform(-rotate_max, rotate_max)) if rotate > 0 and rng.random() < rotate else 0.0
    r = math.radians(angle)
    side = size if angle == 0 else int(math.ceil(size * (abs(math.cos(r)) + abs(math.sin(r))))) + 2
    h, w = img.shape[:2]
    sw, sh = max(side, int(w * scale * stretch)), max(side, int(h * scale / stretch))
    sx, sy = sw / w, sh / h
    im = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    x0, y0 = int(rng.integers(0, sw - side + 1)), int(rng.integers(0, sh - side + 1))
    im = im[y0:y0 + side, x0:x0 + side]
    b = np.array(boxes, np.float32).reshape(-1, 5)
    b[:, [0, 2]] = b[:, [0, 2]] * sx - x0
    b[:, [1, 3]] = b[:, [1, 3]] * sy - y0
    if angle:
        im, b = turn_crop(im, b, angle, size)
    # a box that the crop cuts loses its "positive" status
    inside = (np.clip(b[:, 2], 0, size) - np.clip(b[:, 0], 0, size)) * (np.clip(b[:, 3], 0, size) - np.clip(b[:, 1], 0, size))
    area = np.maximum((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 1e-3)
    frac = inside / area
    b = b[frac > 0.05]
    b[frac[frac > 0.05] < 0.7, 4] = 0
    if rng.random() < 0.5:
        im = im[:, ::-1]
        b[:, [0, 2]] = size - b[:, [2, 0]]
    if rng.random() < 0.5:
        im = im[::-1]
        b[:, [1, 3]] = size - b[:, [3, 1]]
    if rng.random() < 0.5:  # transpose (with the flips: any quarter turn)
        im = im.transpose(1, 0, 2)
        b = b[:, [1, 0, 3, 2, 4]]
    return np.ascontiguousarray(im), b


def turn_crop(im: np.ndarray, b: np.ndarray, angle: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The middle `size` x `size` of `im` (a square large enough to hold it turned) turned by
    `angle` degrees about its centre (OpenCV's sign), and the boxes `b` (k, 5) with it: each the
    upright box around its four corners turned, as the labelled photos box a tile lying aslant
    (a tile boxed level is a rectangle filling its box, so its box turned is as tight)."""
    side = im.shape[0]
    m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    m[:, 2] += size / 2 - side / 2
    out = cv2.warpAffine(im, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if not len(b):
        return out, b
    corners = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [0, 3]], b[:, [2, 3]]], 1)  # (k, 4, 2)
    moved = corners @ m[:, :2].T.astype(np.float32) + m[:, 2].astype(np.float32)
    turned = b.copy()
    turned[:, 0], turned[:, 1] = moved[..., 0].min(1), moved[..., 1].min(1)
    turned[:, 2], turned[:, 3] = moved[..., 0].max(1), moved[..., 1].max(1)
    return out, turned


def photometric(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same crop in worse light: darker with a colour cast and sensor noise, and/or out of
    focus (a Gaussian blur of up to 2 pixels at the detector's scale)."""
    out = im.astype(np.float32)
    if rng.random() < 0.6:
        out *= rng.uniform(0.25, 0.9) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
        out += rng.normal(0, rng.uniform(1, 6), out.shape).astype(np.float32)
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.6, 2.0)))
    return np.clip(out, 0, 255).astype(np.uint8)


def veil(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp reflected on glossy tiles, or a smudged lens: a soft spot of light laid over the crop
    (im (1 - a) + a w, w the lamp's white), up to 0.2 to 0.65 at its middle, anywhere in the crop
    and a fifth to four fifths of it wide, so the tiles under it lose their contrast. The
    classifier learns the same (training.train_classifier.veil)."""
    h, w = im.shape[:2]
    cy, cx = rng.uniform(-0.1, 1.1, 2) * (h, w)
    r = rng.uniform(0.2, 0.8) * max(h, w) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = rng.uniform(0.2, 0.65) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[..., None]
    white = 255 * (1 - 0.08 * rng.random(3)).astype(np.float32)
    return np.clip(im.astype(np.float32) * (1 - spot) + white * spot, 0, 255).astype(np.uint8)


def overexposed(im: np.ndarray, rng: np.random.Generator, most: float = 1.8) -> np.ndarray:
    """The photo overexposed: every channel times 1.2 to `most`, clipped at white, so that a face's
    ivory runs into the white of the tile's body and of its neighbours (training.perturb's bright
    and flash; the classifier's is training.train_classifier.overexpose). Under `bright` the shipped
    detector boxes faces by their ink, and a row falls apart into lone boxes (models/HISTORY.md,
    "Where an overexposed photo's tiles are lost")."""
    gain = float(rng.uniform(1.2, most))
    return np.clip(im.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def focal_loss(logit: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos) * weight
    n = pos.sum().clamp(min=1)
    return (pos_loss.sum() + neg_loss.sum()) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="training/work/data", help="synthetic data (build_data)")
    ap.add_argument("--real", action="append", default=[],
                    help="real data folders (training.real_data); may be given several times")
    ap.add_argument("--real-share", type=float, default=0.5, help="share of each batch drawn from --real")
    ap.add_argument("--init", help="start from these weights (fine-tuning)")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--photometric", type=float, default=0.0,
                    help="share of crops taken as in a dim room or out of focus (darker, noisier, blurred)")
    ap.add_argument("--veil", type=float, default=0.0,
                    help="share of crops under a lamp's reflection: a soft spot of light laid over them (veil)")
    ap.add_argument("--overexpose", type=float, default=0.0,
                    help="share of crops overexposed: times 1.2 to --overexpose-most, clipped at white (overexposed)")
    ap.add_argument("--overexpose-most", type=float, default=1.8)
    ap.add_argument("--distractors", type=float, default=0.0,
                    help="share of crops given 1-3 drawn non-tiles (dice, sticks, paper, phones, hands, edges)")
    ap.add_argument("--clutter", choices=("basic", "wide"), default="basic",
                    help="which drawn non-tiles: wide adds keys, dominoes, playing cards, text, screens")
    ap.add_argument("--rotate", type=float, default=0.0,
                    help="share of crops also turned by up to --rotate-max degrees either way (sample)")
    ap.add_argument("--rotate-max", type=float, default=35.0)
    ap.add_argument("--anchor", help="a detector whose boxes to keep while fine-tuning: where its heat is at "
                    "least ANCHOR_HEAT, its heat, box sizes and offsets are taught beside the labels (anchor_loss)")
    ap.add_argument("--anchor-weight", type=float, default=1.0)
    ap.add_argument("--freeze-bn", action="store_true",
                    help="keep the batch norms' running statistics as --init left them (fine-tuning)")
    ap.add_argument("--out", default="training/work/detector.pt")
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    kinds = distractors.KINDS_WIDE if args.clutter == "wide" else distractors.KINDS
    make_deterministic(args.seed, args.threads)
    cv2.setNumThreads(1)
    log = Log(args.out + ".log")

    images = np.load(f"{args.data}/det_images.npy", mmap_mode="r")
    with open(f"{args.data}/det_boxes.json") as f:
        all_boxes = json.load(f)
    n = len(all_boxes) if not args.limit else args.limit
    n_val = max(8, n // 25)
    train_n = n - n_val
    if train_n <= 0:
        raise SystemExit(f"{n} images, all of them kept for validation ({n_val}): render more scenes")
    log(f"{n} images, {train_n} train, {n_val} val")

    real = []  # (images, boxes) per real folder; every image of every folder is a candidate
    for folder in args.real:
        r_images = np.load(f"{folder}/det_images.npy", mmap_mode="r")
        with open(f"{folder}/det_boxes.json") as f:
            real.append((r_images, json.load(f)))
    real_index = [(k, j) for k, (_, bx) in enumerate(real) for j in range(len(bx))]
    if real_index:
        log(f"{len(real_index)} real images in {len(real)} folders, {args.real_share:.0%} of each batch")

    net = Detector()
    if args.init:
        net.load_state_dict(torch.load(args.init, weights_only=True))
    anchor = None
    if args.anchor:
        anchor = Detector()
        anchor.load_state_dict(torch.load(args.anchor, weights_only=True))
        anchor.eval()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    rng = np.random.default_rng(args.seed)
    run = np.zeros(3)
    for step in range(args.steps):
        train_mode(net, args.freeze_bn)
        idx = rng.integers(0, train_n, args.batch)
        xs, heats, weights, regs, masks = [], [], [], [], []
        n_real = int(round(args.batch * args.real_share)) if real_index else 0
        picks = [(images, all_boxes, int(i), 0.0) for i in idx[: args.batch - n_real]]
        for r in rng.integers(0, len(real_index), n_real) if n_real else []:
            k, j = real_index[int(r)]
            picks.append((real[k][0], real[k][1], j, 0.25))
        for src, src_boxes, i, aspect in picks:
            im, b = sample(np.asarray(src[i]), src_boxes[i], args.size, rng, aspect, args.rotate, args.rotate_max)
            if args.distractors and rng.random() < args.distractors:
                im = distractors.paste(im, b, rng, int(rng.integers(1, 4)), kinds)
            if args.photometric and rng.random() < args.photometric:
                im = photometric(im, rng)
            if args.veil and rng.random() < args.veil:
                im = veil(im, rng)
            if args.overexpose and rng.random() < args.overexpose:
                im = overexposed(im, rng, args.overexpose_most)
            h, wt, r, m = make_targets(b, args.size)
            xs.append(im)
            heats.append(h)
            weights.append(wt)
            regs.append(r)
            masks.append(m)
        x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float() / 255.0
        heat, weight = torch.from_numpy(np.stack(heats)), torch.from_numpy(np.stack(weights))
        reg, mask = torch.from_numpy(np.stack(regs)), torch.from_numpy(np.stack(masks))
        for pg in opt.param_groups:
            pg["lr"] = cosine_lr(step, args.steps, args.lr, args.warmup)
        out = net(x)
        lh = focal_loss(out[:, 0], heat, weight)
        npos = mask.sum().clamp(min=1)
        lsize = (F.l1_loss(out[:, 1:3], reg[:, 0:2], reduction="none") * mask[:, None]).sum() / npos
        loff = (F.l1_loss(out[:, 3:5], reg[:, 2:4], reduction="none") * mask[:, None]).sum() / npos
        loss = lh + lsize + loff
        if anchor is not None:
            with torch.no_grad():
                kept = anchor(x)
            loss = loss + args.anchor_weight * anchor_loss(out, kept)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        run += [lh.item(), lsize.item(), loff.item()]
        if (step + 1) % 100 == 0:
            log(f"step {step + 1}/{args.steps} heat {run[0] / 100:.3f} size {run[1] / 100:.3f} offset {run[2] / 100:.3f}")
            run[:] = 0
        if (step + 1) % 1000 == 0 or step + 1 == args.steps:
            torch.save(net.state_dict(), args.out)
            log(f"val: {validate(net, images, all_boxes, range(train_n, n))}")
    log("done")


def train_mode(net: torch.nn.Module, freeze_bn: bool = False) -> None:
    """`net` in training mode; with `freeze_bn`, its batch norms normalise by the running statistics
    it came with and leave them as they are (a fine-tune's batches, veiled or dimmed, would
    otherwise move them for every photo)."""
    net.train()
    if freeze_bn:
        for mod in net.modules():
            if isinstance(mod, torch.nn.BatchNorm2d):
                mod.eval()


ANCHOR_HEAT = 0.25  # the anchor's cells kept: where it finds a tile, or nearly (its faint peaks are 0.2)


def anchor_loss(out: torch.Tensor, kept: torch.Tensor) -> torch.Tensor:
    """How far `out` has moved from the anchor detector's map `kept` (both (n, 5, g, g) logits and
    box terms) where the anchor's heat is at least ANCHOR_HEAT: its heat as a soft target, its box
    sizes and offsets (L1). Elsewhere `out` learns from the labels alone. The reader's rules for
    close-ups were set on the shipped detector's boxes of large tiles (models/HISTORY.md, "Tiles
    under a lamp's reflection"), which a fine-tune left free moves."""
    p = torch.sigmoid(kept[:, 0])
    where = (p >= ANCHOR_HEAT).float()
    per_cell = (F.binary_cross_entropy_with_logits(out[:, 0], p, reduction="none")
                + F.l1_loss(out[:, 1:5], kept[:, 1:5], reduction="none").sum(1))
    return (per_cell * where).sum() / where.sum().clamp(min=1)


@torch.no_grad()
def validate(net: Detector, images, all_boxes, idx) -> str:
    """Recall and precision of positive boxes (centre within a box, greedy) on whole images."""
    from recognition.detect import decode

    net.eval()
    tp = fp = fn = 0
    for i in idx:
        x = torch.from_numpy(np.array(images[i])).permute(2, 0, 1)[None].float() / 255.0
        dets = decode(net(x).numpy()[0], threshold=0.35)
        gt = [b for b in all_boxes[i] if b[4] == 1]
        ign = [b for b in all_boxes[i] if b[4] == 0]
        used = set()
        for d in dets:
            cx, cy = (d[0] + d[2]) / 2, (d[1] + d[3]) / 2
            hit = [k for k, b in enumerate(gt) if b[0] <= cx <= b[2] and b[1] <= cy <= b[3] and k not in used]
            if hit:
                used.add(hit[0])
                tp += 1
            elif not any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in ign):
                fp += 1
        fn += len(gt) - len(used)
    return f"recall {tp / max(1, tp + fn):.4f} precision {tp / max(1, tp + fp):.4f} (tp {tp} fp {fp} fn {fn})"


if __name__ == "__main__":
    main()
