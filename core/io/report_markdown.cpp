#include "io/report_markdown.h"

#include <cmath>
#include <cstdio>

#include "io/provenance.h"

namespace noisescope::io {

std::string reportNumber(double v) {
  char buffer[32];
  if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
  if (std::isnan(v)) return "–";
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

void writeReportIntroduction(std::ostream& md, const std::string& producer) {
  md << "# NoiseScope report\n\n"
     << "Per dataset: samples across noise levels, the diagnostic bracket (the sample's own\n"
     << "optimal-denoiser profile and the population bound), the schedules built from the bound\n"
     << "beside two fixed heuristics, compared on the effective allocation φ ∝ π·w, and one\n"
     << "exported schedule. Made by `" << producer << "`, NoiseScope " << NOISESCOPE_VERSION << ", "
     << utcTimestamp() << ".\n\n"
     << "**What the curves mean.** The *empirical* profile is the exact posterior of the finite\n"
     << "dataset used as its own prior: below the memorisation scale named per dataset it sits on\n"
     << "one training point and its MMSE drops towards 0, which is about memorising the sample.\n"
     << "The *bound* is the error of denoisers fitted on part of the data and scored on held-out\n"
     << "points, an upper bound on the population MMSE (docs/profiles.md); the schedules follow\n"
     << "it. A dataset too small to hold out points is profiled empirically, with a caveat.\n\n";
}

void writeReportDatasetSection(std::ostream& md, const ReportDatasetFacts& f) {
  const auto number = reportNumber;
  md << "## " << f.data.name << "\n\n"
     << "| | |\n|---|---|\n"
     << "| source | `" << f.data.source << "` |\n"
     << "| N, shape | " << f.data.size << ", " << f.data.shape << " (" << f.data.kind << ") |\n"
     << "| values | " << f.data.scaling << ", range [" << number(f.values.min) << ", "
     << number(f.values.max) << "], mean " << number(f.values.mean) << " |\n"
     << "| σ_data (measured) | " << number(f.values.sigmaData) << " |\n"
     << "| nearest-neighbour distance (median) | " << number(f.values.nearestNeighbourMedian)
     << " |\n"
     << "| memorisation scale (posterior max weight ≥ ½ up to) | σ ≈ "
     << number(f.values.memorisationSigma) << " |\n"
     << "| profile | " << f.profile.kind << " (" << f.profile.estimate << "), " << f.profile.levels
     << " levels × " << f.profile.queries << " queries, seed " << f.profile.seed << " |\n";
  if (f.profile.bracketed) md << "| held-out points | " << f.profile.heldOutPoints << " |\n";
  md << "\n"
     << "![samples](" << f.stem << "-samples.png)\n\n"
     << "Same samples with noise x + σ·ε, σ = ";
  for (size_t k = 0; k < f.ladderSigmas.size(); ++k) md << (k ? ", " : "") << f.ladderSigmas[k];
  md << " (top to bottom; left to right for point sets).\n\n"
     << "![MMSE](" << f.stem << "-mmse.png) ![rate](" << f.stem << "-rate.png)\n\n"
     << (f.profile.bracketed
             ? "The bound's band is a Student-t 95 % interval over the held-out points; "
               "the empirical curve's is mean ± 1.96·se over the Monte Carlo queries "
               "(clipped at 0).\n\n"
             : "The shaded band is a 95 % interval over the Monte Carlo queries (mean "
               "± 1.96·se, clipped at 0).\n\n")
     << "![allocation](" << f.stem << "-allocation.png)\n\n"
     << "Effective allocation φ ∝ π·w per log σ; the shaded range is the profile's informative "
        "band (central 90 % of the gated rate).\n\n"
     << "| schedule | KL(φ‖EDM) | TV to EDM | mass in band | σ 5 % | σ median | σ 95 % |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& m : f.comparison)
    md << "| " << m.label << " | " << number(m.klToReference) << " | " << number(m.totalVariation)
       << " | " << number(m.massInBand) << " | " << number(m.sigmaQ05) << " | "
       << number(m.sigmaMedian) << " | " << number(m.sigmaQ95) << " |\n";
  md << "\nExported: `" << f.stem << "-infonoise.schedule.json` and " << f.steps.count
     << " inference σ-steps `" << f.stem << "-infonoise.sigma-steps.json` on the default sampling "
     << "grid, " << f.steps.label << " (largest step ×" << number(f.steps.largestRatio)
     << ", limit ×" << number(f.steps.ratioLimit) << ").\n\n";
  for (const auto& caveat : f.caveats) md << "> **Caveat.** " << caveat << "\n\n";
}

void writeReportTrainerSection(std::ostream& md, const std::string& source,
                               const std::vector<ToolFit>& fits,
                               const std::vector<ReportTrainerCharts>& charts, int width,
                               int height) {
  const auto number = reportNumber;
  md << "### Use it in your trainer\n\n"
     << "The φ of `" << source << "` fitted with each trainer's own sampling families, in the "
     << "trainer's own coordinate and under its own loss weight, at " << width << "×" << height
     << " px for the resolution-dependent shifts "
     << "(`noisescope-cli fit " << source << " --for TOOL` prints every family; "
     << "docs/trainers.md says where each knob goes). Best family per trainer, ranked by "
     << "KL(target‖fit); TV is the share of training effort that lands where the target does "
     << "not put it.\n\n"
     << "Each trainer is fitted for the model family it is most often used with (the "
     << "`model` column; `--model` in `noisescope-cli fit` chooses another).\n\n"
     << "| trainer | model assumed | coordinate | best family | knobs | KL(target‖fit) | "
        "KL(fit‖target) | TV | target φ it can reach |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& f : fits) {
    if (f.fits.empty()) continue;
    const auto& best = f.fits.front();
    const std::string knobs = knobText(best);
    md << "| " << f.tool << " | `" << f.model << "` | `" << f.coordinate << "` | `" << best.family
       << "` | " << (knobs.empty() ? "(no knob)" : knobs) << " | " << number(best.kl) << " | "
       << number(best.klReverse) << " | " << number(best.tv) << " | "
       << number(100.0 * f.targetMassReachable) << " % |\n";
  }
  md << "\n";
  for (const auto& chart : charts)
    md << "![trainers, " << chart.coordinate << "](" << chart.picture << ")\n";
  md << "\nTrainers whose best families are the same shape under other names (a normal in log σ, "
        "say) draw one curve over another.\n";
  md << "\nThe snippets, ready to paste (the best family of each trainer):\n\n";
  for (const auto& f : fits) {
    if (f.fits.empty()) continue;
    md << "**" << f.tool << "** (`" << f.fits.front().family << "`; " << f.knob << "):\n\n```\n"
       << f.fits.front().snippet << "\n```\n\n";
  }
}

}  // namespace noisescope::io
