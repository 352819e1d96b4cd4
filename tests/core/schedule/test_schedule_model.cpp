// The schedule model: families integrate to 1 and match their closed-form quantiles, coordinates
// round-trip with the right Jacobians, sampling passes a KS test, truncation reports lost mass.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "schedule/allocation.h"
#include "schedule/families.h"
#include "schedule/schedule.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {
constexpr double kPi = 3.14159265358979323846;
double normalCdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// Inverse of a monotone CDF by bisection (used only for the normal; the others are closed form).
template <class F>
double invert(F cdf, double u, double lo, double hi) {
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (cdf(mid) < u ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Kolmogorov–Smirnov statistic of samples against a CDF.
template <class F>
double ksStatistic(std::vector<double> x, F cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - i / n, (i + 1) / n - f});
  }
  return d;
}

std::vector<double> uniforms(std::size_t n, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> out(n);
  for (double& v : out) v = u(engine);
  return out;
}
}  // namespace

class TestScheduleModel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void everyFamilyIntegratesToOne();
  void closedFormQuantiles();
  void edmTruncatedMass();
  void coordinateRoundTrips();
  void samplingPassesKs();
  void atomicSampling();
  void allocationRoundTrip();
  void tableMatchesFamily();
  void rejectsBadInput();
};

void TestScheduleModel::everyFamilyIntegratesToOne() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 400);
  for (const Preset& p : presets()) {
    const Schedule s = makePresetSchedule(p.name, grid);
    double total = 0.0;
    for (double m : s.binMasses()) total += m;
    QVERIFY2(std::abs(total - 1.0) < 1e-12, p.name.c_str());
    // The untruncated density integrates to 1 over the whole line and is the CDF's derivative.
    const ParameterValues values = completeParameters(family(p.family), p.parameters);
    double integral = 0.0;
    const double lo = -25.0, hi = 25.0, h = 1e-3;
    for (double ell = lo; ell < hi; ell += h)
      integral += familyDensityLogSigma(p.family, values, ell + 0.5 * h) * h;
    QVERIFY2(std::abs(integral - 1.0) < 2e-3,
             (p.name + " ∫p = " + std::to_string(integral)).c_str());
    const double ell = 0.3, d = 1e-5;
    const double derivative = (familyCdfLogSigma(p.family, values, ell + d) -
                               familyCdfLogSigma(p.family, values, ell - d)) /
                              (2 * d);
    QVERIFY(std::abs(derivative - familyDensityLogSigma(p.family, values, ell)) < 1e-6);
    // Inside the grid the binned density is the bin average of the family's density.
    QVERIFY(std::abs(s.densityLogSigma(ell) * (1.0 - s.info.truncatedMass) /
                         familyDensityLogSigma(p.family, values, ell) -
                     1.0) < 0.05);
  }
}

void TestScheduleModel::closedFormQuantiles() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 2000);
  const double a = std::log(0.002), b = std::log(80.0);
  for (double u : {0.05, 0.25, 0.5, 0.75, 0.95}) {
    // EDM: ℓ = m + s Φ⁻¹(F(a) + u (F(b) − F(a))).
    const Schedule edm = makePresetSchedule("edm", grid);
    const double fa = normalCdf((a + 1.2) / 1.2), fb = normalCdf((b + 1.2) / 1.2);
    const double target = fa + u * (fb - fa);
    const double expectedEdm =
        invert([](double x) { return normalCdf((x + 1.2) / 1.2); }, target, -20, 20);
    QVERIFY(std::abs(edm.quantileLogSigma(u) - expectedEdm) < 1e-4);
    // Log-uniform: ℓ = a + u (b − a).
    const Schedule lu = makePresetSchedule("log-uniform", grid);
    QVERIFY(std::abs(lu.quantileLogSigma(u) - (a + u * (b - a))) < 1e-12);
    // Cosine, shift 2: σ = 2 tan(π t/2) with t uniform between the truncation points.
    const Schedule cosine = makePresetSchedule("cosine", grid, {{"shift", 2.0}});
    const double ta = 2 / kPi * std::atan(0.002 / 2), tb = 2 / kPi * std::atan(80.0 / 2);
    const double expectedCos = 2.0 * std::tan(kPi / 2 * (ta + u * (tb - ta)));
    QVERIFY(std::abs(cosine.quantileSigma(u) / expectedCos - 1.0) < 1e-4);
    // VP: t uniform on [ε_t, 1] restricted to the σ range; σ(t) closed form.
    const Schedule vp = makePresetSchedule("vp", grid);
    auto sigmaOfT = [](double t) { return std::sqrt(std::expm1(0.5 * 19.9 * t * t + 0.1 * t)); };
    const double t0 = std::max(1e-5, fromLogSigma(a, Coordinate::VpTime));
    const double t1 = std::min(1.0, fromLogSigma(b, Coordinate::VpTime));
    QVERIFY(std::abs(vp.quantileSigma(u) / sigmaOfT(t0 + u * (t1 - t0)) - 1.0) < 1e-4);
    // SD3 with shift 3: ℓ ~ N(log 3, 1).
    const Schedule sd3 = makePresetSchedule("sd3", grid);
    const double m = std::log(3.0);
    const double ga = normalCdf(a - m), gb = normalCdf(b - m);
    const double expectedSd3 =
        invert([&](double x) { return normalCdf(x - m); }, ga + u * (gb - ga), -20, 20);
    QVERIFY(std::abs(sd3.quantileLogSigma(u) - expectedSd3) < 1e-4);
    // Laplace in λ, μ = 0: the median of λ is 0, so the median σ is 1 (the grid is not symmetric,
    // so compare with the truncated closed form).
    const Schedule laplace = makePresetSchedule("laplace", grid);
    auto lapCdf = [](double ell) {
      const double z = (-2.0 * ell) / 0.5;
      return z < 0 ? 1.0 - 0.5 * std::exp(z) : 0.5 * std::exp(-z);
    };
    const double la = lapCdf(a), lb = lapCdf(b);
    QVERIFY(std::abs(laplace.quantileLogSigma(u) - invert(lapCdf, la + u * (lb - la), -20, 20)) <
            1e-4);
  }
}

void TestScheduleModel::edmTruncatedMass() {
  const Schedule edm = makePresetSchedule("edm", LogSigmaGrid::uniform(0.002, 80.0, 64));
  const double expected =
      normalCdf((std::log(0.002) + 1.2) / 1.2) + 1.0 - normalCdf((std::log(80.0) + 1.2) / 1.2);
  QVERIFY(std::abs(edm.info.truncatedMass - expected) < 1e-12);
  QVERIFY(expected > 1e-5);
  // Truncating again to [0.01, 10] loses exactly the CDF mass outside it.
  double lost = 0.0;
  const Schedule narrow = edm.truncated(0.01, 10.0, &lost);
  QVERIFY(std::abs(lost - (edm.cdfSigma(0.01) + 1.0 - edm.cdfSigma(10.0))) < 1e-12);
  QVERIFY(std::abs(narrow.cdfSigma(10.0) - 1.0) < 1e-12);
  QVERIFY(std::abs(narrow.sigmaMin() - 0.01) < 1e-12);
}

void TestScheduleModel::coordinateRoundTrips() {
  for (Coordinate c : {Coordinate::Sigma, Coordinate::LogSigma, Coordinate::Lambda,
                       Coordinate::VpTime, Coordinate::FlowTime}) {
    for (double ell : {-6.0, -2.0, 0.0, 1.5, 4.3}) {
      const double u = fromLogSigma(ell, c);
      QVERIFY2(std::abs(toLogSigma(u, c) - ell) < 1e-9, toString(c));
      // |dℓ/du| against a central difference.
      const double h = 1e-6 * std::max(1e-3, std::abs(u));
      const double numeric = std::abs(toLogSigma(u + h, c) - toLogSigma(u - h, c)) / (2 * h);
      QVERIFY2(std::abs(numeric / logSigmaPerUnit(ell, c) - 1.0) < 1e-5, toString(c));
    }
    QCOMPARE(coordinateFromString(toString(c)), c);
  }
  // THEORY §1: p_σ = p_ℓ/σ, p_λ = p_ℓ/2, λ = −2 log σ, flow σ = t/(1−t), VP α² = 1/(1+σ²).
  QVERIFY(std::abs(densityIn(Coordinate::Sigma, 0.3, std::log(2.0)) - 0.15) < 1e-15);
  QVERIFY(std::abs(densityIn(Coordinate::Lambda, 0.3, 1.0) - 0.15) < 1e-15);
  QVERIFY(std::abs(fromLogSigma(std::log(3.0), Coordinate::FlowTime) - 0.75) < 1e-15);
  const double t = 0.4, sigma = std::exp(toLogSigma(t, Coordinate::VpTime));
  QVERIFY(std::abs(1.0 / (1.0 + sigma * sigma) - std::exp(-(0.5 * 19.9 * t * t + 0.1 * t))) <
          1e-12);
  // A density integrates to 1 in every coordinate.
  const Schedule edm = makePresetSchedule("edm", LogSigmaGrid::uniform(0.002, 80.0, 256));
  for (Coordinate c :
       {Coordinate::Sigma, Coordinate::Lambda, Coordinate::FlowTime, Coordinate::VpTime}) {
    double total = 0.0;
    const int n = 200000;
    const double a = std::log(0.002), b = std::log(80.0);
    for (int i = 0; i < n; ++i) {
      const double ell0 = a + (b - a) * i / n, ell1 = a + (b - a) * (i + 1) / n;
      const double mid = 0.5 * (ell0 + ell1);
      total +=
          edm.density(std::exp(mid), c) * std::abs(fromLogSigma(ell1, c) - fromLogSigma(ell0, c));
    }
    QVERIFY2(std::abs(total - 1.0) < 1e-3, toString(c));
  }
}

void TestScheduleModel::samplingPassesKs() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 128);
  const std::size_t n = 20000;
  const double critical = 1.63 / std::sqrt(static_cast<double>(n));  // 1 % level
  for (const char* name : {"edm", "edm2-img512", "cosine", "vp", "sd3", "laplace"}) {
    const Schedule s = makePresetSchedule(name, grid);
    const std::vector<double> sigmas = s.sampleSigmas(uniforms(n, 17));
    for (double x : sigmas) QVERIFY(x >= 0.002 * (1 - 1e-12) && x <= 80.0 * (1 + 1e-12));
    // Against the schedule's own CDF, and against the family's exact truncated CDF (the binned
    // density differs from it only inside bins).
    QVERIFY2(ksStatistic(sigmas, [&](double x) { return s.cdfSigma(x); }) < critical, name);
    const Preset& p = preset(name);
    const ParameterValues v = completeParameters(family(p.family), p.parameters);
    const double fa = familyCdfLogSigma(p.family, v, grid.logSigmaMin());
    const double fb = familyCdfLogSigma(p.family, v, grid.logSigmaMax());
    QVERIFY2(ksStatistic(sigmas,
                         [&](double x) {
                           return (familyCdfLogSigma(p.family, v, std::log(x)) - fa) / (fb - fa);
                         }) < critical + 0.01,
             name);
  }
  // Inverse CDF inverts the CDF exactly, also across zero-mass bins.
  std::vector<double> masses(10, 1.0);
  masses[3] = masses[4] = 0.0;
  const Schedule gappy = Schedule::fromBinMasses(LogSigmaGrid::uniform(0.01, 10.0, 10), masses);
  for (double u : {0.0, 0.1, 0.3749, 0.375, 0.5, 0.99, 1.0})
    QVERIFY(std::abs(gappy.cdfLogSigma(gappy.quantileLogSigma(u)) - u) < 1e-12);
}

void TestScheduleModel::atomicSampling() {
  const Schedule s = Schedule::fromAtoms({{1.0, 0.5}, {0.1, 0.25}, {10.0, 0.25}}, 0.002, 80.0);
  QVERIFY(s.isAtomic());
  QCOMPARE(s.atoms().front().sigma, 0.1);
  const std::vector<double> draws = s.sampleSigmas(uniforms(40000, 3));
  double ones = 0, tenths = 0;
  for (double x : draws) {
    ones += x == 1.0;
    tenths += x == 0.1;
  }
  QVERIFY(std::abs(ones / draws.size() - 0.5) < 0.01);
  QVERIFY(std::abs(tenths / draws.size() - 0.25) < 0.01);
  QCOMPARE(s.cdfSigma(0.999), 0.25);
  QCOMPARE(s.cdfSigma(1.0), 0.75);
}

void TestScheduleModel::allocationRoundTrip() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 64);
  const Schedule edm = makePresetSchedule("edm", grid);
  const Schedule phi = effectiveAllocation(edm);
  // φ/π is proportional to the bin average of w.
  const LossWeight& w = edm.lossWeight;
  const double r0 = phi.binMasses()[10] / edm.binMasses()[10] /
                    (w.integralOverLogSigma(grid.edges[10], grid.edges[11]) / grid.width(10));
  const double r1 = phi.binMasses()[50] / edm.binMasses()[50] /
                    (w.integralOverLogSigma(grid.edges[50], grid.edges[51]) / grid.width(50));
  QVERIFY(std::abs(r0 / r1 - 1.0) < 1e-10);
  const Schedule back = samplingForAllocation(phi, edm.lossWeight);
  for (int b = 0; b < grid.bins(); ++b)
    QVERIFY(std::abs(back.binMasses()[b] - edm.binMasses()[b]) < 1e-12);
  // ELBO: φ ∝ 1/σ² whatever π.
  Schedule elbo = edm;
  elbo.lossWeight.kind = LossWeight::Kind::Elbo;
  const Schedule elboPhi = effectiveAllocation(elbo);
  QVERIFY(
      std::abs(elboPhi.densityLogSigma(grid.center(5)) / elboPhi.densityLogSigma(grid.center(6)) -
               std::exp(2 * grid.width(5))) < 1e-3);
  QVERIFY_THROWS_EXCEPTION(InputError, samplingForAllocation(phi, elbo.lossWeight));
  // Min-SNR's closed-form integral against a fine Riemann sum.
  LossWeight minSnr{LossWeight::Kind::MinSnr, 0.5, 5.0};
  double riemann = 0.0;
  for (int i = 0; i < 100000; ++i)
    riemann += minSnr.at(std::exp(-3.0 + 5.0 * (i + 0.5) / 100000)) * 5e-5;
  QVERIFY(std::abs(minSnr.integralOverLogSigma(-3.0, 2.0) / riemann - 1.0) < 1e-6);
}

void TestScheduleModel::tableMatchesFamily() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 128);
  const Schedule edm = makePresetSchedule("edm", grid);
  const ParameterValues v = completeParameters(family("edm"), {});
  std::vector<double> sigma, density;
  for (int i = 0; i <= 2000; ++i) {
    const double ell = -9.0 + 15.0 * i / 2000;
    sigma.push_back(std::exp(ell));
    density.push_back(familyDensityLogSigma("edm", v, ell) / std::exp(ell));  // in σ
  }
  const Schedule table = makeTableSchedule(sigma, density, Coordinate::Sigma, grid, "edm.csv");
  for (int b = 0; b < grid.bins(); ++b)
    QVERIFY(std::abs(table.binMasses()[b] - edm.binMasses()[b]) < 1e-5);
  QVERIFY(std::abs(table.info.truncatedMass - edm.info.truncatedMass) < 1e-4);
}

void TestScheduleModel::rejectsBadInput() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform();
  QVERIFY_THROWS_EXCEPTION(InputError, makePresetSchedule("nope", grid));
  QVERIFY_THROWS_EXCEPTION(InputError, makeFamilySchedule("edm", {{"p_std", -1.0}}, grid));
  QVERIFY_THROWS_EXCEPTION(InputError, makeFamilySchedule("edm", {{"typo", 1.0}}, grid));
  QVERIFY_THROWS_EXCEPTION(InputError, Schedule::fromBinMasses(grid, {1.0, 2.0}));
  QVERIFY_THROWS_EXCEPTION(InputError, Schedule::fromAtoms({{100.0, 1.0}}, 0.002, 80.0));
  QVERIFY_THROWS_EXCEPTION(InputError,
                           makeTableSchedule({1.0, 0.5}, {1.0, 1.0}, Coordinate::Sigma, grid));
  QVERIFY_THROWS_EXCEPTION(InputError, LogSigmaGrid::uniform(1.0, 0.5, 10));
}

QTEST_APPLESS_MAIN(TestScheduleModel)
#include "test_schedule_model.moc"
