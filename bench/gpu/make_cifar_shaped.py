#!/usr/bin/env python3
"""A CIFAR-shaped data set (3 x 32 x 32 uint8, CIFAR-10 binary batches) made from Fashion-MNIST, for
timing the diagnostic at CIFAR's size where no CIFAR files are at hand: each 28 x 28 image is padded
with 2 black pixels on every side and becomes three channels, each the image times a per-image tint
in [0.35, 1] (the brightest channel of every image keeps full contrast), drawn from a fixed seed.

    make_cifar_shaped.py TRAIN-IMAGES.idx3-ubyte.gz OUT_FOLDER [--count 50000] [--labels LABELS.gz]

Writes OUT_FOLDER/data_batch_1.bin ... (10 000 records each: label byte, then R, G, B planes), which
NoiseScope reads as one CIFAR-10 training set. Needs torch only (numpy is optional in PyTorch wheels).
"""
import argparse
import ctypes
import gzip
import os
import struct

import torch

RECORDS_PER_BATCH = 10000


def read_idx(path, magic_expected):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        magic = struct.unpack(">I", f.read(4))[0]
        if magic != magic_expected:
            raise SystemExit(f"{path}: not an IDX file of the expected kind (magic {magic:#x})")
        dims = struct.unpack(">" + "I" * (magic & 0xFF), f.read(4 * (magic & 0xFF)))
        data = torch.frombuffer(bytearray(f.read()), dtype=torch.uint8)
    expected = 1
    for d in dims:
        expected *= d
    if data.numel() != expected:
        raise SystemExit(f"{path}: {data.numel()} bytes of data, the header says {expected}")
    return data.reshape(dims)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("images")
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=50000)
    parser.add_argument("--labels", default="")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    images = read_idx(args.images, 0x00000803)
    if images.shape[1:] != (28, 28):
        raise SystemExit(f"{args.images}: images are {images.shape[1:]}, expected 28 x 28")
    if args.count > images.shape[0]:
        raise SystemExit(f"{args.images}: has {images.shape[0]} images, {args.count} asked for")
    labels = torch.zeros(images.shape[0], dtype=torch.uint8)
    if args.labels:
        labels = read_idx(args.labels, 0x00000801)
    generator = torch.Generator().manual_seed(args.seed)
    tint = 0.35 + 0.65 * torch.rand(args.count, 3, generator=generator, dtype=torch.float64)
    tint /= tint.max(dim=1, keepdim=True).values

    os.makedirs(args.out, exist_ok=True)
    for batch, first in enumerate(range(0, args.count, RECORDS_PER_BATCH), start=1):
        last = min(first + RECORDS_PER_BATCH, args.count)
        padded = torch.zeros((last - first, 32, 32), dtype=torch.float32)
        padded[:, 2:30, 2:30] = images[first:last].float()
        rgb = torch.round(padded[:, None, :, :] * tint[first:last, :, None, None].float())
        records = torch.empty((last - first, 1 + 3 * 32 * 32), dtype=torch.uint8)
        records[:, 0] = labels[first:last]
        records[:, 1:] = rgb.reshape(last - first, -1).clamp(0, 255).to(torch.uint8)
        records = records.contiguous()
        with open(os.path.join(args.out, f"data_batch_{batch}.bin"), "wb") as f:
            f.write(ctypes.string_at(records.data_ptr(), records.numel()))  # raw bytes, no numpy
    print(f"{args.out}: {args.count} images of 3 x 32 x 32 in {batch} CIFAR-10 batches")


if __name__ == "__main__":
    main()
