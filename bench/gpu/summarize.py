#!/usr/bin/env python3
"""Writes OUT_DIR/RESULTS.md from what bench/gpu/run.sh left in OUT_DIR (stages.tsv, json/): the
stages and their times, the GEMM rates, the diagnostic's timings (dense-equivalent and actual
TFLOP/s), the plain-PyTorch reference on the same device, the agreement with the CPU, and the
training steps/s. Whatever a failed stage did not produce is reported as missing, not guessed.

    summarize.py OUT_DIR DEVICE QUICK
"""
import glob
import json
import os
import sys


def load_json(path):
    try:
        with open(path) as f:
            text = f.read().strip()
        return json.loads(text.splitlines()[0]) if text else None
    except (OSError, ValueError, IndexError):
        return None


def fmt(value, digits=3):
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if value == 0:
        return "0"
    if abs(value) >= 1000 or abs(value) < 1e-3:
        return "%.2e" % value
    return "%.*g" % (digits, value)


def actual_tflop(report):
    """GEMM flops the engine did, from its counters: the distance GEMMs once (2·(2M)·N·D) and each
    dense (query chunk, data chunk, level) step's W·X (≤ 2·rows·cols·D; rows can be fewer when some
    queries of the chunk are certified one-hot). An upper bound; the sparse gathers are left out."""
    ex = report.get("execution") or {}
    m, n, d = report["queries"], report["N"], report["D"]
    rows = min(ex.get("query_chunk", m), m)
    cols = min(ex.get("data_chunk", n), n)
    distance = 4.0 * m * n * d
    dense = 2.0 * rows * cols * d * ex.get("dense_steps", 0)
    return (distance + dense) / 1e12, distance / 1e12, dense / 1e12


def main():
    out, device, quick = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    j = lambda name: os.path.join(out, "json", name)  # noqa: E731
    lines = []
    gemm = load_json(j("gemm.json")) or {}
    title = gemm.get("gpu") or device
    lines.append(f"# NoiseScope on {title}: diagnostic and trainer (bench/gpu/run.sh)")
    lines.append("")
    if quick:
        lines.append("**QUICK=1: small sizes, a check of the script, not a measurement.**")
        lines.append("")
    lines.append(f"Device `{device}`; torch {gemm.get('torch', '?')}, CUDA {gemm.get('cuda', '—')}, "
                 f"GPU memory {gemm.get('gpu_memory_gib', '—')} GiB. Raw outputs: `json/`, logs: `logs/`, "
                 "stage times: `stages.tsv`.")
    lines.append("")

    lines.append("## Stages")
    lines.append("")
    lines.append("| stage | status | seconds | limit | note |")
    lines.append("|---|---|---|---|---|")
    try:
        for row in open(os.path.join(out, "stages.tsv")):
            cells = row.rstrip("\n").split("\t")
            lines.append("| " + " | ".join(cells + [""] * (5 - len(cells))) + " |")
    except OSError:
        lines.append("| (no stages.tsv) | | | | |")
    lines.append("")

    lines.append("## GEMM rates measured in this run (torch.matmul, TFLOP/s)")
    lines.append("")
    if gemm:
        sq = gemm.get("square_tflops", {})
        size = gemm.get("square_size")
        lines.append(f"Square {size}³: " + ", ".join(f"{k} **{fmt(v)}**" for k, v in sq.items())
                     + " (fp32 with TF32 off; tf32 = allow_tf32 on).")
        for shape, r in gemm.get("diagnostic_shapes_tflops", {}).items():
            lines.append(f"Diagnostic shape M,D,N = {shape}: fp32 {fmt(r['fp32'])}, fp64 {fmt(r['fp64'])}.")
    else:
        lines.append("missing (stage gemm failed)")
    lines.append("")

    lines.append("## (a) Offline diagnostic")
    lines.append("")
    lines.append("Dense-equivalent TFLOP/s count 4·M·N·D per level (what a dense implementation does); "
                 "actual TFLOP/s count the GEMM flops the engine did, from its counters (distance GEMMs "
                 "once, W·X on dense steps; an upper bound). `sgemm`/`dgemm`: LibTorch's rate at "
                 "min(M,256)×D·D×N inside bench_diagnostic.")
    lines.append("")
    lines.append("| case | distances | N × D | M × levels | wall s | dense-equiv. TFLOP/s | actual TFLOP/s (≤) "
                 "| sgemm / dgemm TFLOP/s | steps dense / sparse / one-hot | peak RSS MiB | ∫ / log N |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in ("fmnist", "cifar"):
        for precision in ("f64", "f32"):
            tag = f"{name}_{device}_{precision}"
            r = load_json(j(tag + ".json"))
            if not r:
                lines.append(f"| {tag} | missing | | | | | | | | | |")
                continue
            total, _, _ = actual_tflop(r)
            ex = r.get("execution") or {}
            lines.append(
                f"| {name} on {r['device']} | {r['precision']} | {r['N']} × {r['D']} | {r['queries']} × {r['levels']} "
                f"| **{fmt(r['wall_seconds'])}** | {fmt(r['effective_gflops'] / 1e3)} | {fmt(total / r['wall_seconds'])} "
                f"| {fmt(r['sgemm_gflops'] / 1e3)} / {fmt(r['dgemm_gflops'] / 1e3)} "
                f"| {ex.get('dense_steps')} / {ex.get('sparse_steps')} / {ex.get('one_hot_skips')} "
                f"| {fmt(r['peak_rss_mib'], 4)} | {fmt(r['integral_rate_d_log_sigma'], 4)} / {fmt(r['log_N'], 4)} |")
    lines.append("")
    ref = load_json(j(f"ref_fmnist_{device}.json"))
    ours = load_json(j(f"fmnist_{device}_f64.json"))
    if ref:
        speed = ""
        if ours:
            speed = f"; NoiseScope (fp64 distances) is **{fmt(ref['wall_seconds_all_levels'] / ours['wall_seconds'])}×** faster"
        lines.append(f"Plain PyTorch reference (`bench/diagnostic/reference_diagnostic.py`, fp32 cdist → softmax → "
                     f"matmul) on the same device, Fashion-MNIST {ref['queries']} × {ref['levels']}: "
                     f"{fmt(ref['wall_seconds_all_levels'])} s, {fmt(ref['effective_gflops'] / 1e3)} TFLOP/s{speed}.")
        agree = load_json(j("agreement_ref_fmnist.txt"))
        if agree:
            w = agree["worst"]
            lines.append(f"Agreement with it (its fp32 arithmetic): RB MMSE worst relative "
                         f"{fmt(w.get('rao_blackwell_rel'))}, direct {fmt(w.get('direct_rel'))}.")
    else:
        lines.append("Plain PyTorch reference: missing (stage reference_fmnist failed or was skipped).")
    lines.append("")

    lines.append("### Agreement with the CPU on the same queries")
    lines.append("")
    lines.append("| case | levels | RB MMSE rel. | RB in s.e. | direct rel. | MMSE≈0 abs. | max weight abs. "
                 "| entropy abs. (nats) | ESS rel. |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for tag, case in (("fmnist", "Fashion-MNIST check size"), ("cifar", "CIFAR-shaped check size"),
                      ("fmnist_full", "Fashion-MNIST timed case")):
        a = load_json(j(f"agreement_{tag}.txt"))
        if not a or "worst" not in a:
            if tag != "fmnist_full" or device != "cpu":
                lines.append(f"| {case} | missing | | | | | | | |")
            continue
        w = a["worst"]
        small = max(w.get("rao_blackwell_abs_small", 0.0), w.get("direct_abs_small", 0.0))
        lines.append(f"| {case} ({' vs '.join(a['devices'])}) | {a['levels_compared']} | {fmt(w.get('rao_blackwell_rel'))} "
                     f"| {fmt(w.get('rao_blackwell_in_se'))} | {fmt(w.get('direct_rel'))} | {fmt(small)} "
                     f"| {fmt(w.get('max_weight_abs'))} | {fmt(w.get('weight_entropy_nats_abs'))} "
                     f"| {fmt(w.get('effective_sample_size_rel'))} |")
    lines.append("")

    lines.append("## (b) Training steps/s: C++ trainer against the same eager PyTorch loop, same device")
    lines.append("")
    lines.append("| network | batch | parameters (C++ / PyTorch) | C++ steps/s | PyTorch steps/s | C++ / PyTorch |")
    lines.append("|---|---|---|---|---|---|")
    tags = {os.path.basename(p)[len("train_"):-len("_events.jsonl")] for p in glob.glob(j("train_*_events.jsonl"))}
    tags |= {os.path.basename(p)[len("train_"):-len("_pytorch.json")] for p in glob.glob(j("train_*_pytorch.json"))}
    if not tags:
        lines.append("| missing | | | | | |")
    for tag in sorted(tags):
        events = j(f"train_{tag}_events.jsonl")
        kind, batch = tag.rsplit("_b", 1)
        cpp_params, cpp_rate = None, None
        try:
            ev = [json.loads(x) for x in open(events) if x.strip()]
            train = [e for e in ev if e["event"] == "train"][1:]  # the first interval is warm-up
            cpp_params = [e for e in ev if e["event"] == "start"][0]["parameters"]
            if train:
                cpp_rate = len(train) / sum(1.0 / e["steps_per_s"] for e in train)
        except (OSError, ValueError, KeyError, IndexError, ZeroDivisionError):
            pass
        py = load_json(j(f"train_{tag}_pytorch.json")) or {}
        py_rate = py.get("steps_per_s")
        ratio = cpp_rate / py_rate if cpp_rate and py_rate else None
        lines.append(f"| {kind} | {batch} | {cpp_params} / {py.get('parameters')} | {fmt(cpp_rate, 4)} "
                     f"| {fmt(py_rate, 4)} | {fmt(ratio)} |")
    lines.append("")
    with open(os.path.join(out, "RESULTS.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
