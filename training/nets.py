"""The two networks: a CenterNet-style tile detector and a crop classifier. Small enough for two
CPU cores at inference and for a CPU training run of about an hour each."""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from training.labels import CLASSES, ORIENTATIONS


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Residual(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.a = conv_bn(c, c)
        self.b = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.b(self.a(x)))


class Normalise(nn.Module):
    """Inputs are RGB in [0, 1]; the network works on roughly zero-mean values."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x - 0.5) * 4.0


class Detector(nn.Module):
    """Image (n, 3, H, W), H and W multiples of 32 -> (n, 5, H/4, W/4):
    channel 0 the centre heat-map logit, 1-2 the box size as log(pixels / 4), 3-4 the centre's
    sub-cell offset in cells."""

    STRIDE = 4

    def __init__(self) -> None:
        super().__init__()
        self.norm = Normalise()
        self.c4 = nn.Sequential(conv_bn(3, 16, 2), conv_bn(16, 32, 2))  # /4
        self.c8 = nn.Sequential(conv_bn(32, 64, 2), conv_bn(64, 64))  # /8
        self.c16 = nn.Sequential(conv_bn(64, 96, 2), Residual(96))  # /16
        self.c32 = nn.Sequential(conv_bn(96, 128, 2), Residual(128))  # /32
        self.t32 = conv_bn(128, 48, k=1)
        self.l16 = conv_bn(96, 48, k=1)
        self.m16 = conv_bn(48, 48)
        self.l8 = conv_bn(64, 48, k=1)
        self.m8 = conv_bn(48, 48)
        self.t8 = conv_bn(48, 32, k=1)
        self.l4 = conv_bn(32, 32, k=1)
        self.m4 = conv_bn(32, 32)
        self.head = nn.Conv2d(32, 5, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0  # start with "no tile anywhere"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.norm(x)
        c4 = self.c4(x)
        c8 = self.c8(c4)
        c16 = self.c16(c8)
        c32 = self.c32(c16)
        p = F.interpolate(self.t32(c32), scale_factor=2.0, mode="nearest")
        p = self.m16(p + self.l16(c16))
        p = self.m8(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.l8(c8))
        p = self.m4(F.interpolate(self.t8(p), scale_factor=2.0, mode="nearest") + self.l4(c4))
        return self.head(p)


WIDTHS = (24, 32, 48, 48, 96, 96, 160, 160)  # the classifier's convolutions' output channels, in order
SMALL_WIDTHS = (16, 24, 32, 40, 64, 80, 128, 160)  # stage 2g's, distilled (models/HISTORY.md, "A smaller classifier")


class Classifier(nn.Module):
    """Square crop (n, 3, 64, 64) -> (n, len(CLASSES) + 4): tile class logits, then the four
    orientation logits (where the top of the tile points). Eight 3x3 convolutions of `widths`
    output channels, every other one halving the crop."""

    def __init__(self, widths: tuple[int, ...] = WIDTHS) -> None:
        super().__init__()
        if len(widths) != 8:
            raise ValueError(f"a classifier has 8 convolutions, not {len(widths)}")
        self.widths = tuple(int(w) for w in widths)
        ins = (3,) + self.widths[:-1]
        self.norm = Normalise()
        self.body = nn.Sequential(*(conv_bn(i, o, 2 if k % 2 == 0 else 1) for k, (i, o) in enumerate(zip(ins, self.widths))))
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(self.widths[-1], len(CLASSES) + len(ORIENTATIONS))

    @classmethod
    def from_state(cls, state: dict[str, torch.Tensor]) -> Classifier:
        """A classifier of the widths `state` (a state dict) holds, its weights loaded."""
        net = cls(tuple(int(state[f"body.{k}.0.weight"].shape[0]) for k in range(8)))
        net.load_state_dict(state)
        return net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.body(self.norm(x))
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return self.fc(self.drop(x))


@torch.no_grad()
def prune(net: Classifier, widths: tuple[int, ...], crops: torch.Tensor) -> Classifier:
    """A narrower classifier (`widths`) that starts as much like `net` as its channels allow: each
    convolution keeps the output channels that carry most, judged on `crops` (n, 3, 64, 64) in
    [0, 1] as a channel's mean activation (after its ReLU) times the summed weight the next layer
    (the next convolution, or the last layer) gives it; the next layer keeps only those inputs.
    A start for distillation (training.train_classifier --teacher), not a network to ship as is."""
    if any(w > v for w, v in zip(widths, net.widths)):
        raise ValueError(f"widths {widths} are not within {net.widths}")
    net.eval()
    acts = []
    x = net.norm(crops)
    for block in net.body:
        x = block(x)
        acts.append(x.mean(dim=(0, 2, 3)))
    nexts = [net.body[k + 1][0].weight.abs().sum(dim=(0, 2, 3)) for k in range(7)] + [net.fc.weight.abs().sum(0)]
    keep = [torch.sort(torch.argsort(a * w, descending=True)[:n]).values for a, w, n in zip(acts, nexts, widths)]
    small = Classifier(widths)
    into = torch.arange(3)
    for k, (big, little) in enumerate(zip(net.body, small.body)):
        conv, bn = big[0], big[1]
        little[0].weight.copy_(conv.weight[keep[k]][:, into])
        for name in ("weight", "bias", "running_mean", "running_var"):
            getattr(little[1], name).copy_(getattr(bn, name)[keep[k]])
        little[1].num_batches_tracked.copy_(bn.num_batches_tracked)
        into = keep[k]
    small.fc.weight.copy_(net.fc.weight[:, into])
    small.fc.bias.copy_(net.fc.bias)
    return small


# `sharpness`'s weight on how evenly sharp a crop is (its weakest direction's second differences over
# its strongest's): 0.6 puts a photo whose tiles' weakest direction has under a tenth of their
# strongest's under reading.Settings.soft_below (0.06). The least sharp photo of the real photos'
# train split as taken then measures 0.062 (a soft hand row), the next 0.083; at 0.5 that hand row
# was told (models/HISTORY.md, "A shaken photo, said")
EVEN_WEIGHT = 0.6


def sharpness(x: torch.Tensor) -> torch.Tensor:
    """(n, 3, s, s) crops in [0, 1] -> (n,): how sharp each looks every way. The lesser of two shares:
    - the variance of its grey image's Laplacian (4-neighbour, inside the crop) over the variance
      of the grey image itself, so the amount of ink and the contrast cancel out: a crisp glyph
      scores several times what the same glyph out of focus does, a plain face 0;
    - EVEN_WEIGHT times the variance of its second differences along the direction where they are
      weakest (across, down, and the two diagonals) over that along the direction where they are
      strongest. A photo shaken while the shutter was open is blurred along one line only: its
      strokes stay sharp across the motion and the Laplacian's share hardly falls (validation
      photos shaken by 0.8% of their long side: 6 of 150 were said to be out of focus), while the
      direction of the motion loses its second differences (models/HISTORY.md, "A shaken photo,
      said").
    The crops are the classifier's, one size whatever the photo's resolution, so tiles of any photo
    compare (recognition.reading.out_of_focus)."""
    g = 0.299 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2]
    mid = g[:, 1:-1, 1:-1]
    lap = g[:, :-2, 1:-1] + g[:, 2:, 1:-1] + g[:, 1:-1, :-2] + g[:, 1:-1, 2:] - 4 * mid
    spread = g.flatten(1).var(1, unbiased=False)
    focus = lap.flatten(1).var(1, unbiased=False) / spread.clamp(min=1e-10)
    ways = torch.stack([(a + b - 2 * mid).flatten(1).var(1, unbiased=False) for a, b in (
        (g[:, 1:-1, :-2], g[:, 1:-1, 2:]),  # across
        (g[:, :-2, 1:-1], g[:, 2:, 1:-1]),  # down
        (g[:, :-2, :-2], g[:, 2:, 2:]),  # down the diagonal
        (g[:, :-2, 2:], g[:, 2:, :-2]))], 1)  # up the diagonal
    even = ways.amin(1) / ways.amax(1).clamp(min=1e-10)
    return torch.minimum(focus, EVEN_WEIGHT * even)


class ClassifierWithSharpness(nn.Module):
    """The classifier as exported: its logits, and each crop's `sharpness` beside them, so the
    server and the phone measure a photo's focus with the one graph that reads its tiles."""

    def __init__(self, classifier: Classifier) -> None:
        super().__init__()
        self.classifier = classifier

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.classifier(x), sharpness(x)
