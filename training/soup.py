"""Average the weights of classifiers fine-tuned from one start: a uniform "model soup"
(Wortsman et al., "Model soups", ICML 2022). Two fine-tunes of one network that each learned
something (one a new way of drawing tiles, the other what it knew before) can be averaged into
one network of the same shape and cost that keeps much of both; the averaged network is not
retrained.

    python -m training.soup --out W/soup/classifier.pt W/pins/classifier.pt W/bars/classifier.pt

Floating-point tensors (weights, batch-norm statistics) are averaged with equal weights; integer
ones (batch-norm step counters) are taken from the first file. The files must hold the same
tensors, of the same shapes. Deterministic: the same files give the same bytes.
"""
from __future__ import annotations

import argparse

import torch


def average(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The uniform average of state dicts of one network (see the module's docstring)."""
    if not states:
        raise ValueError("no weights to average")
    first = states[0]
    for i, state in enumerate(states[1:], 2):
        if state.keys() != first.keys():
            missing = sorted(set(first) ^ set(state))
            raise ValueError(f"weights {i} hold other tensors than weights 1: {', '.join(missing[:5])}")
        for key, tensor in state.items():
            if tensor.shape != first[key].shape:
                raise ValueError(f"weights {i}: {key} is {tuple(tensor.shape)}, not {tuple(first[key].shape)}")
    share = 1.0 / len(states)
    out: dict[str, torch.Tensor] = {}
    for key, tensor in first.items():
        if tensor.is_floating_point():
            total = share * tensor
            for state in states[1:]:
                total = total + share * state[key]
            out[key] = total
        else:
            out[key] = tensor.clone()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="where to write the averaged weights")
    ap.add_argument("weights", nargs="+", help="classifier.pt files fine-tuned from one start")
    args = ap.parse_args()
    if len(args.weights) < 2:
        raise SystemExit("a soup needs two weights files or more")
    states = [torch.load(path, weights_only=True) for path in args.weights]
    try:
        soup = average(states)
    except ValueError as err:
        raise SystemExit(str(err)) from None
    torch.save(soup, args.out)
    print(f"{args.out}: the average of {len(states)} ({', '.join(args.weights)})")


if __name__ == "__main__":
    main()
