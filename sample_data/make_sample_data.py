#!/usr/bin/python3
"""Rebuilds the bundled sample data from Debian packages.

  fashion-mnist/  first 2000 training and first 500 test images and labels of Fashion-MNIST,
                  from the package dataset-fashion-mnist (/usr/share/datasets/fashion-mnist/),
                  written as gzip-compressed IDX files with the original names.
  dna/            the lambda phage genome (NCBI RefSeq NC_001416.1) as FASTA, from the package
                  bowtie2-examples (/usr/share/doc/bowtie2/examples/reference/lambda_virus.fa.gz).

Run from anywhere: /usr/bin/python3 sample_data/make_sample_data.py
Output is deterministic (gzip header time stamps are fixed at 0).
"""
import gzip
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FASHION = "/usr/share/datasets/fashion-mnist"
LAMBDA = "/usr/share/doc/bowtie2/examples/reference/lambda_virus.fa.gz"


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    zero, dtype, rank = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype != 0x08:
        sys.exit(f"{path}: not an unsigned-byte IDX file")
    dims = list(struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank]))
    return dims, data[4 + 4 * rank:]


def write_idx_gz(path, dims, payload):
    header = struct.pack(">HBB", 0, 0x08, len(dims)) + struct.pack(">" + "I" * len(dims), *dims)
    with open(path, "wb") as raw:
        # mtime=0 and no file name in the header, so the bytes depend only on the data.
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
            f.write(header + payload)


def subset(prefix, count, out_dir):
    for kind in ("images-idx3-ubyte", "labels-idx1-ubyte"):
        dims, payload = read_idx(os.path.join(FASHION, f"{prefix}-{kind}.gz"))
        per_item = 1
        for d in dims[1:]:
            per_item *= d
        write_idx_gz(os.path.join(out_dir, f"{prefix}-{kind}.gz"), [count] + dims[1:],
                     payload[:count * per_item])


def main():
    for needed in (FASHION, LAMBDA):
        if not os.path.exists(needed):
            sys.exit(f"missing {needed}: apt-get install dataset-fashion-mnist bowtie2-examples")
    fashion_dir = os.path.join(HERE, "fashion-mnist")
    os.makedirs(fashion_dir, exist_ok=True)
    subset("train", 2000, fashion_dir)
    subset("t10k", 500, fashion_dir)

    dna_dir = os.path.join(HERE, "dna")
    os.makedirs(dna_dir, exist_ok=True)
    with gzip.open(LAMBDA, "rb") as f:
        fasta = f.read()
    with open(os.path.join(dna_dir, "lambda_phage.fa"), "wb") as f:
        f.write(fasta)


if __name__ == "__main__":
    main()
