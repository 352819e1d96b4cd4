// The diagnostic over a prior streamed from disk (data/streaming/prior_rows.h): with N·D larger
// than the memory setting, the empirical and held-out profiles equal the in-memory ones on the same
// queries (to the fp32 rounding of the weight GEMM, which depends on how the work is tiled); the
// engine's plan, the streamed tile buffer included, stays within the setting.
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "diagnostic/empirical_diagnostic.h"
#include "profile/profile.h"
#include "test_paths.h"

using namespace noisescope;

namespace {

// A float32 .npy file of shape [n, d] (format 1.0, header padded to 64 bytes).
void writeNpy(const std::string& path, int64_t n, int64_t d, const std::vector<float>& v) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) +
                       ", " + std::to_string(d) + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::FILE* f = std::fopen(path.c_str(), "wb");
  const unsigned char preamble[10] = {0x93,
                                      'N',
                                      'U',
                                      'M',
                                      'P',
                                      'Y',
                                      1,
                                      0,
                                      static_cast<unsigned char>(header.size() & 0xff),
                                      static_cast<unsigned char>(header.size() >> 8)};
  std::fwrite(preamble, 1, 10, f);
  std::fwrite(header.data(), 1, header.size(), f);
  std::fwrite(v.data(), sizeof(float), v.size(), f);
  std::fclose(f);
}

std::vector<float> clusteredPoints(int64_t n, int64_t d, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 0.15f);
  std::vector<float> v(static_cast<size_t>(n * d));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < d; ++k)
      v[static_cast<size_t>(i * d + k)] = ((i % 5) == (k % 5) ? 0.7f : -0.2f) + normal(rng);
  return v;
}

void expectSame(const Profile& a, const Profile& b, double tolerance) {
  QCOMPARE(a.sigma.size(), b.sigma.size());
  QCOMPARE(a.estimates.size(), b.estimates.size());
  for (size_t e = 0; e < a.estimates.size(); ++e)
    for (size_t l = 0; l < a.sigma.size(); ++l) {
      const double x = a.estimates[e].mean[l], y = b.estimates[e].mean[l];
      QVERIFY2(std::fabs(x - y) <= tolerance * std::max(1.0, std::fabs(y)),
               qPrintable(QString("estimate %1 level %2: %3 vs %4")
                              .arg(e)
                              .arg(l)
                              .arg(x, 0, 'g', 17)
                              .arg(y, 0, 'g', 17)));
    }
  QCOMPARE(a.sigmaData, b.sigmaData);
  QCOMPARE(a.datasetSize, b.datasetSize);
}

}  // namespace

class TestOutOfCore : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::string npy_, heldOutNpy_;
  static constexpr int64_t kN = 900, kD = 40;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    npy_ = dir_.filePath("prior.npy").toStdString();
    heldOutNpy_ = dir_.filePath("held.npy").toStdString();
    writeNpy(npy_, kN, kD, clusteredPoints(kN, kD, 1));
    writeNpy(heldOutNpy_, 60, kD, clusteredPoints(60, kD, 2));
  }

  void streamedEmpiricalEqualsInMemory() {
    DiagnosticOptions options;
    options.levels = 12;
    options.queries = 40;
    options.seed = 3;
    options.memoryBytes = 96 << 10;  // 96 KiB: the prior alone is 141 KiB as float32
    QVERIFY(kN * kD * 4 > options.memoryBytes);
    const Dataset loaded = loadDataset(npy_);
    const Profile inMemory = computeEmpiricalProfile(loaded, options);
    QVERIFY(inMemory.provenance["execution"]["data_chunk"].get<int64_t>() < kN);  // really tiled

    std::unique_ptr<PriorRows> streamed = openStreamedPrior(npy_);
    PriorAccess access;
    access.whole = access.rows = streamed.get();
    const Profile fromDisk = computeEmpiricalProfile(access, options);
    // The streamed plan counts its tile buffer in the budget, so it tiles more finely; the fp32
    // weight GEMM then rounds differently, hence a rounding-level tolerance.
    expectSame(fromDisk, inMemory, 1e-6);
    QCOMPARE(fromDisk.provenance["execution"]["prior_access"].get<std::string>(),
             std::string("memory-mapped .npy"));
    QVERIFY(fromDisk.provenance["execution"]["estimated_peak_extra_bytes"].get<int64_t>() <=
            options.memoryBytes);

    DiagnosticOptions roomy = options;
    roomy.memoryBytes = int64_t{256} << 20;  // one tile covers the set: another plan
    expectSame(fromDisk, computeEmpiricalProfile(loaded, roomy), 1e-6);
  }

  void streamedHeldOutEqualsInMemory() {
    DiagnosticOptions options;
    options.levels = 10;
    options.queries = 30;
    options.memoryBytes = 96 << 10;
    const Dataset loaded = loadDataset(npy_);
    const Dataset heldOut = loadDataset(heldOutNpy_);
    std::unique_ptr<PriorRows> streamed = openStreamedPrior(npy_);
    PriorAccess access;
    access.whole = access.rows = streamed.get();
    expectSame(computeHeldOutProfile(access, heldOut, options),
               computeHeldOutProfile(loaded, heldOut, options), 1e-6);
  }

  void idxStreamReadBackwardsPerQueryChunk() {
    // A gzip IDX prior, tiled and with several query chunks: each chunk reopens the stream.
    const Dataset sample = loadDataset(noisescope::test::sourcePath() +
                                       "/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz");
    std::unique_ptr<PriorRows> streamed = openStreamedPrior(
        noisescope::test::sourcePath() + "/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz");
    DiagnosticOptions options;
    options.levels = 6;
    options.queries = 300;  // more than one query chunk (at most 256 rows each)
    options.memoryBytes = 4 << 20;
    PriorAccess access;
    access.whole = access.rows = streamed.get();
    const Profile fromDisk = computeEmpiricalProfile(access, options);
    QVERIFY(fromDisk.provenance["execution"]["query_chunk"].get<int64_t>() < 300);
    expectSame(fromDisk, computeEmpiricalProfile(sample, options), 1e-6);
  }
};

QTEST_GUILESS_MAIN(TestOutOfCore)
#include "test_out_of_core.moc"
