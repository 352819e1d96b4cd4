// Damaged files: every reader, fed seeded random byte flips and truncations of a valid file,
// either returns a valid dataset or throws InputError naming the file. Nothing else: no crash,
// no other exception, no hang.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <random>

#include "data/load.h"
#include "fixtures.h"

using namespace noisescope;

class TestCorruptInputs : public fixtures::ScratchTest {
  Q_OBJECT

  // Writes `trials` damaged versions of `original` under `name` and loads each one.
  void damage(const std::string& name, const std::string& original, bool allowFlips = true,
              int trials = 150) {
    std::mt19937_64 random(std::hash<std::string>{}(name));
    LoadOptions options;
    options.fasta.window = 8;
    options.fasta.stride = 8;
    int rejected = 0;
    for (int trial = 0; trial < trials; ++trial) {
      std::string bytes = original;
      if (trial % 2 == 0 || !allowFlips) {
        bytes.resize(random() % bytes.size());
      } else {
        const int flips = 1 + static_cast<int>(random() % 8);
        for (int f = 0; f < flips; ++f)
          bytes[random() % bytes.size()] = static_cast<char>(random());
      }
      fixtures::writeBytes(path(name), bytes);
      try {
        const Dataset d = loadDataset(path(name), options);
        d.validate();
      } catch (const InputError& error) {
        ++rejected;
        const std::string message = error.what();
        QVERIFY2(message.find(name) != std::string::npos, message.c_str());
      }
    }
    QVERIFY(rejected > 0);
  }

  static std::vector<uint8_t> pattern(size_t n) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i * 131) % 256);
    return v;
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void idxRawAndGzip() {
    const std::string idx = fixtures::idxBytes({20, 8, 8}, pattern(20 * 64));
    damage("raw-images-idx3-ubyte", idx);
    fixtures::writeGzip(path("tmp.gz"), idx);
    damage("gz-images-idx3-ubyte.gz", fixtures::readBytes(path("tmp.gz")));
  }

  void npy() {
    damage("a.npy", fixtures::npyBytes("<f4", {10, 3}, std::string(120, '\x01')));
    damage("b.npy", fixtures::npyBytes("|u1", {4, 3, 5, 5}, fixtures::rawBytes(pattern(300)), 2));
  }

  void cifar() {
    std::string batch;
    for (int r = 0; r < 3; ++r) {
      batch.push_back(static_cast<char>(r));
      batch.append(3072, static_cast<char>(r * 50));
    }
    damage("data_batch_1.bin", batch);
  }

  void fasta() {
    std::string text = ">r1 a record\n";
    for (int i = 0; i < 400; ++i) text += "ACGTTGCAN"[i % 9];
    text += "\n>r2\nacgtacgtacgtacgt\n";
    damage("seq.fa", text);
    fixtures::writeGzip(path("tmp2.gz"), text);
    damage("seq.fa.gz", fixtures::readBytes(path("tmp2.gz")));
  }

  void images() {
    QDir(dir_.path()).mkdir("png");
    QDir(dir_.path()).mkdir("jpg");
    fixtures::writePng(path("tmp.png"), 16, 12, 3, pattern(16 * 12 * 3));
    fixtures::writeJpeg(path("tmp.jpg"), 16, 12, 3, pattern(16 * 12 * 3), 85);
    damage("png/x.png", fixtures::readBytes(path("tmp.png")));
    damage("jpg/x.jpg", fixtures::readBytes(path("tmp.jpg")));
  }

#ifdef NOISESCOPE_WITH_HDF5
  void hdf5Truncated() {
    // The HDF5 library itself is not hardened against arbitrary byte flips, so only truncation
    // (the common real-world damage: an interrupted copy) is exercised here.
    const std::vector<float> values(40 * 6, 0.5f);
    fixtures::writeHdf5(path("tmp.h5"), "/x", {40, 6}, fixtures::hdf5Float(), values.data());
    damage("cut.h5", fixtures::readBytes(path("tmp.h5")), false, 60);
  }
#endif
};

QTEST_APPLESS_MAIN(TestCorruptInputs)
#include "test_corrupt_inputs.moc"
