#!/usr/bin/env python3
"""Regenerates the sample outputs of docs/trainers.md from the CLI.

    bench/schedule/trainer_doc_outputs.py build/app/noisescope-cli [docs/trainers.md]

Builds the InfoNoise schedule of the bundled Fashion-MNIST sample from a quick bound profile (the
commands the page shows), then replaces, in place, the block after each
"**For the sample data** (`noisescope-cli fit S.json --for TOOL`):" line with that command's
output, and the two summary tables (by default model, and per model) with fresh ones.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TOOLS = ["diffusers", "sd-scripts", "musubi-tuner", "onetrainer", "simpletuner", "ai-toolkit",
         "edm", "edm2", "k-diffusion"]


def run(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def models(cli, tool, target):
    # The tool's models, from the error a wrong name gets (the list the CLI owns).
    r = subprocess.run([cli, "fit", target, "--for", tool, "--model", "?"], capture_output=True,
                       text=True)
    m = re.search(r"is modelled for (.*), not '\?'", r.stderr)
    return [s.strip() for s in m.group(1).split(",")] if m else []


def main():
    cli = sys.argv[1]
    page = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..",
                                                             "docs", "trainers.md")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    work = tempfile.mkdtemp()
    data = os.path.join(root, "sample_data", "fashion-mnist", "train-images-idx3-ubyte.gz")
    run(cli, "diagnose", data, "--kind", "bracket", "--levels", "8", "--queries", "32",
        "--sigma-min", "0.01", "--sigma-max", "80", "--out", os.path.join(work, "P.json"))
    target = os.path.join(work, "S.json")
    run(cli, "schedule", "--profile", os.path.join(work, "P.bound.json"), "--method", "infonoise",
        "--output", target)
    text = open(page).read()
    summary = ["| tool | model (default) | coordinate | best family | KL(target‖fit) | "
               "KL(fit‖target) | TV |", "|---|---|---|---|---|---|---|"]
    per_model = ["| tool | model | coordinate | best family | KL(target‖fit) | TV |",
                 "|---|---|---|---|---|---|"]
    for tool in TOOLS:
        out = run(cli, "fit", target, "--for", tool).replace(target, "S.json")
        marker = "**For the sample data** (`noisescope-cli fit S.json --for %s`):" % tool
        start = text.find(marker)
        if start >= 0:
            a = text.index("```", start)
            b = text.index("```", a + 3)
            text = text[:a] + "```\n" + out + "```" + text[b + 3:]
        r = json.loads(run(cli, "fit", target, "--for", tool, "--json"))
        best = r["fits"][0]
        worst = max(r["fits"], key=lambda f: f["tv"])
        reach = re.search(r"^reachable sigma: (.*)$", out, re.M).group(1)
        sentence = ("On this φ the best family, `%s`, leaves KL(target‖fit) = %.3f nats, "
                    "KL(fit‖target) = %.3f nats and TV = %.3f on φ: %.1f%% of the training effort "
                    "would go to noise levels where the target does not put it. The worst, `%s`, "
                    "costs TV = %.3f. (reachable sigma: %s.)" % (
                        best["family"], best["kl"], best["kl_reverse"], best["tv"],
                        100 * best["tv"], worst["family"], worst["tv"], reach))
        if start >= 0:
            cost = text.find("**What it cannot express", start)
            end = text.find("\n## ", start)
            if 0 <= cost < (end if end >= 0 else len(text)):
                line_end = text.find("\n", cost)
                line = text[cost:line_end]
                line = re.sub(r"On this φ the best family.*$", sentence, line)
                text = text[:cost] + line + text[line_end:]
        summary.append("| %s | `%s` | `%s` | `%s` | %.3f | %.3f | %.3f |" % (
            tool, r["model"], r["coordinate"], best["family"], best["kl"], best["kl_reverse"],
            best["tv"]))
        for model in models(cli, tool, target):
            r = json.loads(run(cli, "fit", target, "--for", tool, "--model", model, "--json"))
            best = r["fits"][0]
            per_model.append("| %s | `%s` | `%s` | `%s` | %.3f | %.3f |" % (
                tool, model, r["coordinate"], best["family"], best["kl"], best["tv"]))

    def replace_table(text, header, rows):
        start = text.index(header)
        end = start
        while end < len(text):
            line_end = text.find("\n", end)
            if line_end < 0 or not text[end:line_end].startswith("|"):
                break
            end = line_end + 1
        return text[:start] + "\n".join(rows) + "\n" + text[end:]

    text = replace_table(text, summary[0], summary)
    text = replace_table(text, per_model[0], per_model)
    open(page, "w").write(text)


if __name__ == "__main__":
    main()
