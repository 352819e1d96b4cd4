// Files written by NumPy and h5py themselves (not by our fixture writers) read back exactly:
// .npy versions 1, 2 and 3 and a chunked, gzip-compressed HDF5 dataset. Skipped when
// /usr/bin/python3 with numpy and h5py is not available.
#include <QByteArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "data/load.h"
#include "fixtures.h"

using namespace noisescope;

namespace {
// Element i of every array below is f(i) = (i * 37) % 251, so both sides know the values.
const char* kScript = R"(
import sys
import numpy as np
import h5py
out = sys.argv[1]
def f(n):
    return (np.arange(n, dtype=np.int64) * 37) % 251
np.lib.format.write_array(open(out + '/v1.npy', 'wb'), f(12).astype('<f4').reshape(6, 2), version=(1, 0))
np.lib.format.write_array(open(out + '/v2.npy', 'wb'), f(3 * 5 * 7).astype(np.uint8).reshape(3, 5, 7), version=(2, 0))
np.lib.format.write_array(open(out + '/v3.npy', 'wb'), f(4 * 9).astype('<f8').reshape(4, 9), version=(3, 0))
np.save(out + '/nhwc.npy', f(2 * 4 * 4 * 3).astype(np.uint8).reshape(2, 4, 4, 3))
with h5py.File(out + '/data.h5', 'w') as h:
    h.create_dataset('group/images', data=f(10 * 8 * 8).astype(np.uint8).reshape(10, 1, 8, 8),
                     chunks=(2, 1, 8, 8), compression='gzip', compression_opts=9)
    h.create_dataset('points', data=f(20).astype(np.float64).reshape(10, 2))
)";

float f(int64_t i) {
  return static_cast<float>((i * 37) % 251);
}
float pixel(int64_t i) {
  return fixtures::symmetric(f(i));
}
}  // namespace

class TestNumpyH5pyFiles : public fixtures::ScratchTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QProcess python;
    python.start("/usr/bin/python3", {"-c", kScript, dir_.path()});
    if (!python.waitForStarted(10000)) QSKIP("/usr/bin/python3 is not available");
    QVERIFY(python.waitForFinished(60000));
    const QByteArray errors = python.readAllStandardError();
    if (errors.contains("ModuleNotFoundError")) QSKIP("numpy or h5py is not installed");
    QVERIFY2(python.exitCode() == 0, errors.constData());
  }

  void npyVersion1Float32() {
    const Dataset d = loadDataset(path("v1.npy"));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{2}));
    QCOMPARE(d.size(), int64_t{6});
    for (int64_t i = 0; i < 12; ++i) EXPECT_SAME_FLOAT(d.values[i], f(i));
  }

  void npyVersion2Uint8Images() {
    const Dataset d = loadDataset(path("v2.npy"));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, 5, 7}));
    for (int64_t i = 0; i < 3 * 5 * 7; ++i) EXPECT_SAME_FLOAT(d.values[i], pixel(i));
  }

  void npyVersion3Float64() {
    const Dataset d = loadDataset(path("v3.npy"));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{9}));
    QCOMPARE(d.sourceDtype, std::string("float64"));
    for (int64_t i = 0; i < 36; ++i) EXPECT_SAME_FLOAT(d.values[i], f(i));
  }

  void npyChannelsLast() {
    const Dataset d = loadDataset(path("nhwc.npy"));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{3, 4, 4}));
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t c = 0; c < 3; ++c)
        for (int64_t p = 0; p < 16; ++p)
          EXPECT_SAME_FLOAT(d.sample(n)[c * 16 + p], pixel((n * 16 + p) * 3 + c));
  }

  void compressedHdf5() {
    const auto list = listHdf5Datasets(path("data.h5"));
    QCOMPARE(list.size(), size_t{2});
    LoadOptions options;
    options.hdf5Dataset = "/group/images";
    const Dataset d = loadDataset(path("data.h5"), options);
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, 8, 8}));
    QCOMPARE(d.size(), int64_t{10});
    for (int64_t i = 0; i < 640; ++i) EXPECT_SAME_FLOAT(d.values[i], pixel(i));
    options.hdf5Dataset = "points";
    const Dataset p = loadDataset(path("data.h5"), options);
    for (int64_t i = 0; i < 20; ++i) EXPECT_SAME_FLOAT(p.values[i], f(i));
  }
};

QTEST_APPLESS_MAIN(TestNumpyH5pyFiles)
#include "test_numpy_h5py_files.moc"
