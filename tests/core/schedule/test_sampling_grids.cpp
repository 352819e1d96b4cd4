// The sampling-grid families (schedule/sampling_grid.h): ends, order, the published DDPM spacings,
// equal entropic increments on profiles with closed-form integrals, the step-ratio guard.
#include <QObject>
#include <QTest>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "schedule/entropic.h"
#include "schedule/sampling_grid.h"
#include "util/error.h"
#include "util/log_grid.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {

std::string text(const std::vector<double>& v) {
  std::string out;
  for (double x : v) out += std::to_string(x) + " ";
  return out;
}

bool strictlyDescendingToZero(const std::vector<double>& s) {
  if (s.size() < 3 || s.back() != 0.0) return false;
  for (size_t i = 0; i + 1 < s.size(); ++i)
    if (!(s[i] > s[i + 1])) return false;
  return true;
}

}  // namespace

class TestSamplingGrids : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void everyFamilyEndsAndOrder();
  void karrasFormula();
  void ddpmSpacingsMatchDiffusers();
  void ddpmSigmaTable();
  void flowShift();
  void entropicEqualIncrements();
  void quantilesOfPi();
  void ratioLimitAndCap();
  void specParsing();
  void exports();
};

void TestSamplingGrids::everyFamilyEndsAndOrder() {
  const RateProfile profile = gaussianProfile(0.5, 8, logSpacedGrid(0.002, 80.0, 200));
  const Schedule pi = infoNoiseSchedule(profile, LogSigmaGrid::uniform(0.002, 80.0, 128));
  SamplingGridInputs inputs{&profile, &pi};
  const std::vector<double> table =
      noisescope::schedule::ddpmSigmaTable(BetaSchedule::ScaledLinear, 1000, 0.00085, 0.012);
  for (const GridFamilyInfo& info : samplingGridFamilies()) {
    for (const std::string& extra : {std::string(), std::string("?sigma_min=0.01&sigma_max=40")}) {
      const bool ranged = info.name != "ddpm" && info.name != "quantiles";
      if (!extra.empty() && !ranged) continue;
      const SamplingGridSpec spec = parseSamplingGridSpec(info.name + extra);
      for (int n : {2, 5, 18, 64}) {
        const std::vector<double> s = buildSamplingGrid(spec, n, inputs);
        const std::string what = info.name + extra + " N=" + std::to_string(n) + ": " + text(s);
        QVERIFY2(s.size() == size_t(n) + 1, what.c_str());
        QVERIFY2(strictlyDescendingToZero(s), what.c_str());
        double first = spec.sigmaMax, last = spec.sigmaMin;
        if (info.name == "ddpm") {
          const std::vector<int> t = ddpmTimesteps(spec, n);
          first = table[t.front()];
          last = table[t.back()];
          QCOMPARE(t.front(), 999);  // trailing, the default spacing
        } else if (info.name == "quantiles") {
          first = pi.sigmaMax();
          last = pi.sigmaMin();
        }
        QVERIFY2(std::abs(s.front() / first - 1.0) < 1e-9, what.c_str());
        QVERIFY2(std::abs(s[n - 1] / last - 1.0) < 1e-9, what.c_str());
      }
    }
  }
  // The data-driven families say what they miss; N < 2 is refused everywhere.
  QVERIFY_THROWS_EXCEPTION(InputError, buildSamplingGrid(parseSamplingGridSpec("entropic"), 8));
  QVERIFY_THROWS_EXCEPTION(InputError, buildSamplingGrid(parseSamplingGridSpec("quantiles"), 8));
  QVERIFY_THROWS_EXCEPTION(InputError, buildSamplingGrid(parseSamplingGridSpec("karras"), 1));
}

void TestSamplingGrids::karrasFormula() {
  // EDM eq. 5 by hand at i = 1 and i = 16 of 18; ρ = 1 is uniform σ; larger ρ puts more steps low.
  const std::vector<double> s = buildSamplingGrid(parseSamplingGridSpec("karras?rho=7"), 18);
  const double a = std::pow(80.0, 1.0 / 7), b = std::pow(0.002, 1.0 / 7);
  QVERIFY(std::abs(s[1] - std::pow(a + (b - a) / 17.0, 7)) < 1e-12 * s[1]);
  QVERIFY(std::abs(s[16] - std::pow(a + 16.0 * (b - a) / 17.0, 7)) < 1e-12 * s[16]);
  const std::vector<double> one = buildSamplingGrid(parseSamplingGridSpec("karras?rho=1"), 9);
  const std::vector<double> uniform = buildSamplingGrid(parseSamplingGridSpec("uniform-sigma"), 9);
  for (int i = 0; i < 9; ++i) QVERIFY(std::abs(one[i] - uniform[i]) < 1e-9);
  const std::vector<double> three = buildSamplingGrid(parseSamplingGridSpec("karras?rho=3"), 18);
  QVERIFY(s[9] < three[9]);
  // Uniform log σ: every step the same ratio.
  const std::vector<double> logs = buildSamplingGrid(parseSamplingGridSpec("log-sigma"), 18);
  for (int i = 0; i + 2 < 18; ++i)
    QVERIFY(std::abs(logs[i] / logs[i + 1] - logs[i + 1] / logs[i + 2]) < 1e-9);
}

void TestSamplingGrids::ddpmSpacingsMatchDiffusers() {
  // Table 2 of Lin et al. 2023 ("Common diffusion noise schedules and sample steps are flawed"),
  // which diffusers' timestep_spacing names: T = 1000, 10 inference steps.
  auto t = [](const std::string& spec, int n) {
    return ddpmTimesteps(parseSamplingGridSpec(spec), n);
  };
  QCOMPARE(t("ddpm?spacing=trailing", 10),
           (std::vector<int>{999, 899, 799, 699, 599, 499, 399, 299, 199, 99}));
  QCOMPARE(t("ddpm?spacing=leading", 10),
           (std::vector<int>{900, 800, 700, 600, 500, 400, 300, 200, 100, 0}));
  QCOMPARE(t("ddpm?spacing=leading&steps_offset=1", 10),
           (std::vector<int>{901, 801, 701, 601, 501, 401, 301, 201, 101, 1}));
  QCOMPARE(t("ddpm?spacing=linspace", 10),
           (std::vector<int>{999, 888, 777, 666, 555, 444, 333, 222, 111, 0}));
  // np.round rounds half to even: trailing over 16 steps meets x.5 at every other step.
  QCOMPARE(t("ddpm?spacing=trailing", 16),
           (std::vector<int>{999, 937, 874, 811, 749, 687, 624, 561, 499, 437, 374, 311, 249, 187,
                             124, 61}));
  // Leading with a ratio that does not divide T: T // N = 333.
  QCOMPARE(t("ddpm?spacing=leading&steps_offset=1", 3), (std::vector<int>{667, 334, 1}));
  QVERIFY_THROWS_EXCEPTION(InputError, t("ddpm?train_timesteps=10", 11));
  QVERIFY_THROWS_EXCEPTION(InputError,
                           t("ddpm?spacing=leading&steps_offset=200&train_timesteps=100", 2));
}

void TestSamplingGrids::ddpmSigmaTable() {
  // Stable Diffusion's scaled-linear table: its σ range is the published [0.0292, 14.6146].
  const std::vector<double> sd =
      noisescope::schedule::ddpmSigmaTable(BetaSchedule::ScaledLinear, 1000, 0.00085, 0.012);
  QVERIFY(std::abs(sd.front() - 0.029168) < 1e-5);
  QVERIFY(std::abs(sd.back() - 14.6146) < 1e-3);
  // DDPM's linear betas, the defaults beta_schedule=linear switches to.
  const SamplingGridSpec linear = parseSamplingGridSpec("ddpm?beta_schedule=linear");
  QCOMPARE(linear.betaStart, 0.0001);
  QCOMPARE(linear.betaEnd, 0.02);
  const std::vector<double> ddpm =
      noisescope::schedule::ddpmSigmaTable(BetaSchedule::Linear, 1000, 0.0001, 0.02);
  QVERIFY(std::abs(ddpm.front() - std::sqrt(0.0001 / 0.9999)) < 1e-9);
  QVERIFY(ddpm.back() > 150.0 && ddpm.back() < 160.0);
  // The timestep of a table σ is its index; in between, linear in log σ.
  for (int k : {0, 1, 250, 998, 999}) QVERIFY(std::abs(ddpmTimestepOfSigma(sd, sd[k]) - k) < 1e-9);
  const double mid = std::sqrt(sd[10] * sd[11]);
  QVERIFY(std::abs(ddpmTimestepOfSigma(sd, mid) - 10.5) < 1e-9);
  QCOMPARE(ddpmTimestepOfSigma(sd, 80.0), 999.0);
  QCOMPARE(ddpmTimestepOfSigma(sd, 0.002), 0.0);
}

void TestSamplingGrids::flowShift() {
  // Shift 1: σ/(1 + σ) is linear in i. Shift k: the unshifted t = s/(k − (k − 1)s) is.
  for (double k : {1.0, 3.0, 0.5}) {
    const SamplingGridSpec spec = parseSamplingGridSpec("flow?shift=" + std::to_string(k));
    const std::vector<double> s = buildSamplingGrid(spec, 12);
    std::vector<double> t;
    for (int i = 0; i < 12; ++i) {
      const double f = s[i] / (1.0 + s[i]);
      t.push_back(f / (k - (k - 1.0) * f));
    }
    for (int i = 0; i + 2 < 12; ++i)
      QVERIFY2(std::abs((t[i] - t[i + 1]) - (t[i + 1] - t[i + 2])) < 1e-12, text(t).c_str());
  }
  // A larger shift spends more of the steps at high σ (SD3's point).
  const std::vector<double> one = buildSamplingGrid(parseSamplingGridSpec("flow?shift=1"), 12);
  const std::vector<double> three = buildSamplingGrid(parseSamplingGridSpec("flow?shift=3"), 12);
  QVERIFY(three[6] > one[6]);
}

void TestSamplingGrids::entropicEqualIncrements() {
  // Gaussian data N(0, s²I_D): r = D s²/(s² + σ²). ∫ r dℓ = D (ℓ − ½ log(s² + σ²)) and
  // ∫ √r dℓ = −√D asinh(s/σ), so equal increments can be checked against closed forms.
  const double s = 0.5;
  const int dim = 16;
  const RateProfile profile = gaussianProfile(s, dim, logSpacedGrid(0.002, 80.0, 400));
  SamplingGridInputs inputs{&profile, nullptr};
  auto rate = [&](double sigma) {
    return dim * (std::log(sigma) - 0.5 * std::log(s * s + sigma * sigma));
  };
  auto root = [&](double sigma) { return -std::sqrt(double(dim)) * std::asinh(s / sigma); };
  for (const auto& [spec, integral] :
       {std::pair{std::string("entropic?increment=rate"), std::function<double(double)>(rate)},
        std::pair{std::string("entropic?increment=sqrt-rate"),
                  std::function<double(double)>(root)}}) {
    const int n = 14;
    const std::vector<double> g = buildSamplingGrid(parseSamplingGridSpec(spec), n, inputs);
    const double total = integral(80.0) - integral(0.002);
    for (int i = 0; i + 1 < n; ++i) {
      const double step = integral(g[i]) - integral(g[i + 1]);
      QVERIFY2(std::abs(step / (total / (n - 1)) - 1.0) < 2e-3,
               (spec + " step " + std::to_string(i) + ": " + text(g)).c_str());
    }
  }
  // The gate moves steps away from the smallest σ.
  const std::vector<double> plain =
      buildSamplingGrid(parseSamplingGridSpec("entropic"), 10, inputs);
  const std::vector<double> gated =
      buildSamplingGrid(parseSamplingGridSpec("entropic?gate_c=0.15"), 10, inputs);
  QVERIFY(gated[8] > plain[8]);
}

void TestSamplingGrids::quantilesOfPi() {
  const RateProfile profile = twoPointProfile(1.0, logSpacedGrid(0.002, 80.0, 64));
  const Schedule pi = infoNoiseSchedule(profile, LogSigmaGrid::uniform(0.002, 80.0, 128));
  const std::vector<double> g =
      buildSamplingGrid(parseSamplingGridSpec("quantiles"), 11, SamplingGridInputs{nullptr, &pi});
  for (int i = 0; i < 11; ++i)
    QVERIFY2(std::abs(pi.cdfSigma(g[i]) - (1.0 - i / 10.0)) < 1e-9, text(g).c_str());
  // An atomic π repeats σ: refused, not written as a grid.
  const Schedule atoms = Schedule::fromAtoms({{0.1, 0.5}, {1.0, 0.5}}, 0.1, 1.0);
  QVERIFY_THROWS_EXCEPTION(InputError, buildSamplingGrid(parseSamplingGridSpec("quantiles"), 6,
                                                         SamplingGridInputs{nullptr, &atoms}));
}

void TestSamplingGrids::ratioLimitAndCap() {
  // The limit is margin × Karras ρ = 7's largest step, so Karras ρ = 7 passes at every N.
  for (int n : {2, 4, 8, 18, 32}) {
    const std::vector<double> k = buildSamplingGrid(parseSamplingGridSpec("karras"), n);
    const double limit = ratioLimit(n, 0.002, 80.0, 2.0);
    QVERIFY(std::abs(largestStepRatio(k) * 2.0 / limit - 1.0) < 1e-9);
    QVERIFY(stepsOverRatio(k, limit).empty());
  }
  // Uniform σ has one enormous last step; the cap keeps N and the ends and brings every step to
  // the limit or under, and the steps that were already short stay in the same proportions.
  const std::vector<double> u = buildSamplingGrid(parseSamplingGridSpec("uniform-sigma"), 18);
  const double limit = ratioLimit(18, 0.002, 80.0, 2.0);
  QVERIFY(!stepsOverRatio(u, limit).empty());
  const std::vector<double> capped = capRatios(u, limit);
  QCOMPARE(capped.size(), u.size());
  QVERIFY(strictlyDescendingToZero(capped));
  QCOMPARE(capped.front(), 80.0);
  QVERIFY(std::abs(capped[17] - 0.002) < 1e-15);
  QVERIFY2(largestStepRatio(capped) <= limit * (1 + 1e-9), text(capped).c_str());
  QVERIFY(std::abs(std::log(capped[0] / capped[1]) / std::log(capped[1] / capped[2]) -
                   std::log(u[0] / u[1]) / std::log(u[1] / u[2])) < 1e-9);
  // guard=cap applies it inside buildSamplingGrid; a safe grid is left as it was.
  QCOMPARE(buildSamplingGrid(parseSamplingGridSpec("uniform-sigma?guard=cap"), 18), capped);
  const std::vector<double> k = buildSamplingGrid(parseSamplingGridSpec("karras"), 18);
  QCOMPARE(capRatios(k, limit), k);
  // Too few steps to span the range under the limit.
  QVERIFY_THROWS_EXCEPTION(InputError, capRatios(u, 1.5));
}

void TestSamplingGrids::specParsing() {
  for (const std::string& text :
       {std::string("karras"), std::string("karras?rho=5&sigma_max=14.6"),
        std::string("ddpm?spacing=leading&steps_offset=1&beta_schedule=linear"),
        std::string("flow?shift=3.16&train_timesteps=1000"),
        std::string("entropic?increment=sqrt-rate&gate_c=0.2&profile=p.json&guard=cap"),
        std::string("quantiles?of=phi&run=runs/first&margin=3"), std::string("auto"),
        std::string("auto?sigma_min=0.01&profile=p.json"), std::string("gated"),
        std::string("rescaled"), std::string("balanced"), std::string("karras-profile"),
        std::string("entropic?increment=rescaled&rate=sampling&balance=log-sigma&gate_c=auto"),
        std::string("log-sigma?sigma_min=profile")}) {
    const SamplingGridSpec spec = parseSamplingGridSpec(text);
    const std::string canonical = canonicalSpec(spec);
    QCOMPARE(canonicalSpec(parseSamplingGridSpec(canonical)), canonical);
    QVERIFY(!gridLabel(spec).empty());
    QVERIFY(gridRule(spec).find("then 0") != std::string::npos);
  }
  for (const std::string& bad :
       {std::string("euler"), std::string("karras?rho=0"), std::string("karras?shift=3"),
        std::string("ddpm?spacing=middle"), std::string("ddpm?sigma_max=80"),
        std::string("karras?sigma_min=10&sigma_max=1"), std::string("flow?shift=-1"),
        std::string("entropic?increment=log"), std::string("quantiles?run=a&schedule=b"),
        std::string("karras?guard=clip"), std::string("karras?margin=0.5"),
        std::string("karras?rho"), std::string("ddpm?train_timesteps=1.5"),
        std::string("flow?sigma_min=profile"), std::string("entropic?balance=sqrt"),
        std::string("entropic?rate=model"), std::string("auto?rho=7")})
    QVERIFY_THROWS_EXCEPTION(InputError, parseSamplingGridSpec(bad));
  QCOMPARE(samplingGridFamilies().size(), size_t(8));
  // A named spec is its expansion; spec.text keeps the name.
  for (const auto& [name, full] : namedGridSpecs()) {
    const SamplingGridSpec named = parseSamplingGridSpec(name);
    QCOMPARE(named.text, name);
    QCOMPARE(canonicalSpec(named), canonicalSpec(parseSamplingGridSpec(full)));
  }
  QVERIFY(parseSamplingGridSpec("karras-profile").sigmaMinFromRate);
  QVERIFY(parseSamplingGridSpec("gated").gateAuto);
  // Specs that read the sampling rate say so when there is none; auto falls back to Karras.
  QVERIFY_THROWS_EXCEPTION(InputError, buildSamplingGrid(parseSamplingGridSpec("gated"), 8));
  QVERIFY_THROWS_EXCEPTION(InputError,
                           buildSamplingGrid(parseSamplingGridSpec("karras-profile"), 8));
  QCOMPARE(buildSamplingGrid(parseSamplingGridSpec("auto?sigma_min=0.01"), 8),
           buildSamplingGrid(parseSamplingGridSpec("karras?rho=7&sigma_min=0.01"), 8));
}

void TestSamplingGrids::exports() {
  const SamplingGridSpec ddpm = parseSamplingGridSpec("ddpm?spacing=trailing");
  const std::vector<double> s = buildSamplingGrid(ddpm, 10);
  const GridExports e = gridExports(ddpm, s);
  QCOMPARE(e.kdiffusionSigmas, s);
  QCOMPARE(e.diffusersSigmas, s);
  QCOMPARE(e.diffusersTimesteps.size(), size_t(10));
  QCOMPARE(e.diffusersTimesteps.front(), 999.0);
  QCOMPARE(e.diffusersTimesteps.back(), 99.0);
  // Karras on SD's range: timesteps by log-σ interpolation in the same table, ends at 999 and 0.
  const SamplingGridSpec karras =
      parseSamplingGridSpec("karras?sigma_min=0.0291675&sigma_max=14.6146");
  const GridExports k = gridExports(karras, buildSamplingGrid(karras, 8));
  QVERIFY(std::abs(k.diffusersTimesteps.front() - 999.0) < 0.01);
  QVERIFY(k.diffusersTimesteps.back() < 0.01);
  for (size_t i = 0; i + 1 < k.diffusersTimesteps.size(); ++i)
    QVERIFY(k.diffusersTimesteps[i] > k.diffusersTimesteps[i + 1]);
  // Flow: s = σ/(1 + σ), no final 0, timesteps s·T.
  const SamplingGridSpec flow = parseSamplingGridSpec("flow?shift=3");
  const std::vector<double> f = buildSamplingGrid(flow, 6);
  const GridExports fe = gridExports(flow, f);
  QCOMPARE(fe.flowSigmas.size(), size_t(6));
  for (int i = 0; i < 6; ++i) {
    QVERIFY(std::abs(fe.flowSigmas[i] - f[i] / (1 + f[i])) < 1e-15);
    QVERIFY(std::abs(fe.flowTimesteps[i] - 1000.0 * fe.flowSigmas[i]) < 1e-9);
  }
}

QTEST_APPLESS_MAIN(TestSamplingGrids)
#include "test_sampling_grids.moc"
