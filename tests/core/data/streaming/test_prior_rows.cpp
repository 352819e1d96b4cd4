// The prior read row by row (data/streaming/prior_rows.h): every streamed format gives, tile by
// tile and in any order, exactly the rows the whole-file reader gives; shards renumber rows; σ_data
// measured over a stream equals the in-memory value to the last bit; bad input names the file.
#include <QString>
#include <QTest>

#include <cmath>
#include <random>

#include "data/load.h"
#include "data/statistics.h"
#include "data/streaming/prior_rows.h"
#include "fixtures.h"

using namespace noisescope;

namespace {

// Reads the whole prior in tiles of `tile` rows, last tile first (backwards reads must work too).
std::vector<float> readAllBackwards(PriorRows& prior, int64_t tile) {
  std::vector<float> out(static_cast<size_t>(prior.size() * prior.dim()));
  int64_t last = (prior.size() - 1) / tile * tile;
  for (int64_t first = last; first >= 0; first -= tile) {
    const int64_t rows = std::min(tile, prior.size() - first);
    prior.read(first, rows, out.data() + first * prior.dim());
  }
  return out;
}

std::vector<uint8_t> randomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng() & 0xff);
  return v;
}

// σ_data (per-coordinate means) of 0/1 values read as ±1, computed here independently.
double sigmaOfSigned(const std::vector<uint8_t>& zeroOne, int64_t n) {
  const int64_t d = static_cast<int64_t>(zeroOne.size()) / n;
  double squares = 0.0;
  for (int64_t j = 0; j < d; ++j) {
    double mean = 0.0;
    for (int64_t r = 0; r < n; ++r) mean += zeroOne[static_cast<size_t>(r * d + j)] ? 1.0 : -1.0;
    mean /= static_cast<double>(n);
    for (int64_t r = 0; r < n; ++r) {
      const double v = zeroOne[static_cast<size_t>(r * d + j)] ? 1.0 : -1.0;
      squares += (v - mean) * (v - mean);
    }
  }
  return std::sqrt(squares / static_cast<double>(n * d));
}

}  // namespace

class TestPriorRows : public fixtures::ScratchTest {
  Q_OBJECT

  void expectSameAsLoaded(const std::string& file, const std::string& access) {
    const Dataset whole = loadDataset(file);
    std::unique_ptr<PriorRows> prior = openStreamedPrior(file);
    QCOMPARE(prior->size(), whole.size());
    QCOMPARE(prior->dim(), whole.dim());
    QCOMPARE(prior->description().sampleShape, whole.sampleShape);
    QCOMPARE(prior->description().scaling, whole.scaling);
    QCOMPARE(std::string(toString(prior->description().kind)), std::string(toString(whole.kind)));
    QVERIFY(prior->resident() == nullptr);
    QCOMPARE(prior->access(), access);
    for (int64_t tile : {int64_t{1}, int64_t{3}, whole.size()}) {
      const std::vector<float> rows = readAllBackwards(*prior, tile);
      QVERIFY2(rows == whole.values, qPrintable(QString::fromStdString(file)));
    }
    // Forward again after the backward passes, and σ_data over the stream: bit-identical.
    QCOMPARE(measureSigmaData(*prior), measureSigmaData(whole));
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void npyChannelsLastFloatImagesMatchTheLoader() {
    // [N, H, W, C] float32 in [0, 255]: transposed and mapped affinely, as the loader does.
    std::vector<float> v(7 * 4 * 5 * 3);
    std::mt19937 rng(3);
    for (float& x : v) x = static_cast<float>(rng() % 2560) / 10.0f;
    fixtures::writeBytes(path("img.npy"),
                         fixtures::npyBytes("<f4", {7, 4, 5, 3}, fixtures::rawBytes(v)));
    expectSameAsLoaded(path("img.npy"), "memory-mapped .npy");
  }

  void npyUint8AndFloat64MatchTheLoader() {
    const std::vector<uint8_t> bytes = randomBytes(9 * 16, 5);
    fixtures::writeBytes(path("u8.npy"),
                         fixtures::npyBytes("|u1", {9, 16}, fixtures::rawBytes(bytes)));
    expectSameAsLoaded(path("u8.npy"), "memory-mapped .npy");
    std::vector<double> d(11 * 6);
    for (size_t i = 0; i < d.size(); ++i) d[i] = std::sin(0.37 * static_cast<double>(i)) * 3.0;
    fixtures::writeBytes(path("f8.npy"), fixtures::npyBytes("<f8", {11, 6}, fixtures::rawBytes(d)));
    expectSameAsLoaded(path("f8.npy"), "memory-mapped .npy");
  }

  void idxGzipStreamMatchesTheLoader() {
    const std::vector<uint8_t> pixels = randomBytes(13 * 6 * 5, 7);
    fixtures::writeGzip(path("train-images-idx3-ubyte.gz"), fixtures::idxBytes({13, 6, 5}, pixels));
    expectSameAsLoaded(path("train-images-idx3-ubyte.gz"), "IDX stream");
  }

  void cifarRecordsMatchTheLoader() {
    std::string bytes;
    const std::vector<uint8_t> pixels = randomBytes(5 * 3072, 11);
    for (int r = 0; r < 5; ++r) {
      bytes.push_back(static_cast<char>(r % 10));
      bytes.append(reinterpret_cast<const char*>(pixels.data()) + r * 3072, 3072);
    }
    fixtures::writeBytes(path("test_batch.bin"), bytes);
    expectSameAsLoaded(path("test_batch.bin"), "CIFAR records");
  }

#ifdef NOISESCOPE_WITH_HDF5
  void hdf5HyperslabsMatchTheLoader() {
    std::vector<double> v(10 * 3 * 4);
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.01 * static_cast<double>(i % 97);
    fixtures::writeHdf5(path("set.h5"), "/train/images", {10, 3, 4}, fixtures::hdf5Double(),
                        v.data());
    expectSameAsLoaded(path("set.h5"), "HDF5 hyperslabs");
  }
#endif

  void uint8OneHotReadsAsSignedOneHot() {
    // [N, L, 4] uint8 one-hot (np.eye(4, dtype=np.uint8)[bases]) is DNA, not pixel intensity:
    // ±1 whole and streamed, so σ_data is that of the ±1 values (the byte table gave 0.0034).
    const int64_t n = 6, length = 5;
    std::vector<uint8_t> oneHot(static_cast<size_t>(n * length * 4), 0);
    for (int64_t p = 0; p < n * length; ++p) oneHot[static_cast<size_t>(p * 4 + (p * 7) % 4)] = 1;
    std::vector<std::string> files = {path("dna-u8.npy")};
    fixtures::writeBytes(files[0],
                         fixtures::npyBytes("|u1", {n, length, 4}, fixtures::rawBytes(oneHot)));
#ifdef NOISESCOPE_WITH_HDF5
    files.push_back(path("dna-u8.h5"));
    fixtures::writeHdf5(files[1], "/onehot", {uint64_t(n), uint64_t(length), 4},
                        fixtures::hdf5Uint8(), oneHot.data());
#endif
    for (const std::string& file : files) {
      const Dataset whole = loadDataset(file);
      QCOMPARE(std::string(toString(whole.kind)), std::string(toString(SampleKind::Sequence)));
      QCOMPARE(whole.scaling, std::string("one-hot ±1"));
      for (size_t i = 0; i < oneHot.size(); ++i)
        EXPECT_SAME_FLOAT(whole.values[i], oneHot[i] ? 1.0f : -1.0f);
      QVERIFY(std::fabs(measureSigmaData(whole) - sigmaOfSigned(oneHot, n)) < 1e-9);
      expectSameAsLoaded(
          file, file.find(".npy") != std::string::npos ? "memory-mapped .npy" : "HDF5 hyperslabs");
    }
  }

  void residentPriorReadsInPlace() {
    const Dataset d = loadDataset("synthetic:gaussian?n=50&d=3&seed=2");
    std::unique_ptr<PriorRows> prior = residentPrior(d);
    QVERIFY(prior->resident() == d.values.data());
    QCOMPARE(prior->access(), std::string("memory"));
    QCOMPARE(measureSigmaData(*prior), measureSigmaData(d));
  }

  void shardsCoverTheSetOnceInOrder() {
    const Dataset d = loadDataset("synthetic:gaussian?n=10&d=2&seed=4");
    std::unique_ptr<PriorRows> whole = residentPrior(d);
    for (int world : {1, 2, 3, 4}) {
      int64_t next = 0;
      for (int rank = 0; rank < world; ++rank) {
        const auto [first, count] = shardRange(10, rank, world);
        QCOMPARE(first, next);
        QVERIFY(count == 10 / world || count == 10 / world + 1);
        std::unique_ptr<PriorRows> shard = priorShard(*whole, first, count);
        QCOMPARE(shard->size(), count);
        QVERIFY(shard->resident() == d.sample(first));
        std::vector<float> rows(static_cast<size_t>(count * 2));
        if (count > 0) shard->read(0, count, rows.data());
        QVERIFY(std::equal(rows.begin(), rows.end(), d.sample(first)));
        next += count;
      }
      QCOMPARE(next, int64_t{10});
    }
    QVERIFY_EXCEPTION_THROWN(priorShard(*whole, 8, 3), std::invalid_argument);
  }

  void badInputNamesTheFile() {
    EXPECT_INPUT_ERROR(openStreamedPrior(path("missing.npy")), "missing.npy");
    fixtures::writeBytes(path("seq.fa"), ">x\nACGTACGTACGT\n");
    EXPECT_INPUT_ERROR(openStreamedPrior(path("seq.fa")), "cannot be streamed");
    // A NaN anywhere in a float array is found by the summary pass, before any tile is used.
    std::vector<float> v(12, 0.5f);
    v[7] = NAN;
    fixtures::writeBytes(path("nan.npy"), fixtures::npyBytes("<f4", {3, 4}, fixtures::rawBytes(v)));
    EXPECT_INPUT_ERROR(openStreamedPrior(path("nan.npy")), "non-finite");
    fixtures::writeGzip(path("t-images-idx3-ubyte.gz"),
                        fixtures::idxBytes({13, 6, 5}, randomBytes(40, 1)));
    EXPECT_INPUT_ERROR(
        {
          auto p = openStreamedPrior(path("t-images-idx3-ubyte.gz"));
          std::vector<float> out(static_cast<size_t>(13 * 30));
          p->read(0, 13, out.data());
        },
        "t-images-idx3-ubyte.gz");
  }
};

QTEST_GUILESS_MAIN(TestPriorRows)
#include "test_prior_rows.moc"
