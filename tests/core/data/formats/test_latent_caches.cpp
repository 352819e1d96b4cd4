// What trainers cache, read as datasets: musubi-tuner / sd-scripts latent caches in .safetensors
// and .npz, plain tensors, a folder of caches grouped by bucket shape, EDM image ZIPs and EDM2
// latent ZIPs (mean + std drawn). The files are written by /usr/bin/python3 with numpy, the
// safetensors ones byte by byte from the format's description (no safetensors package); broken
// files end with an error that names the file and the problem.
#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "data/load.h"
#include "fixtures.h"
#include "util/error.h"

using namespace noisescope;

namespace {
const char* kScript = R"PY(
import io, json, struct, sys, zipfile, zlib
import numpy as np
out = sys.argv[1]

def safetensors(path, tensors, metadata=None, tweak=None):
    header, blobs, at = {}, [], 0
    for name, (dtype, array) in tensors.items():
        raw = array.tobytes()
        header[name] = {'dtype': dtype, 'shape': list(array.shape), 'data_offsets': [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    if metadata is not None:
        header['__metadata__'] = metadata
    if tweak:
        tweak(header)
    text = json.dumps(header).encode()
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)) + text + b''.join(blobs))

def bf16(a):  # float32 -> bfloat16 bits (values here are exact in bfloat16)
    return (a.astype('<f4').view('<u4') >> 16).astype('<u2')

def f(n):  # element i of every latent: exact in float16 and bfloat16
    return (((np.arange(n) * 37) % 251) - 125).astype(np.float32) / 8

lat = f(4 * 1 * 4 * 6).reshape(4, 1, 4, 6)
safetensors(out + '/musubi.safetensors', {'latents_1x4x6_bf16': ('BF16', bf16(lat))},
            {'architecture': 'wan21', 'width': '48', 'height': '32'})
safetensors(out + '/plain.safetensors', {'images': ('F16', f(5 * 3).reshape(5, 3).astype('<f2'))})
safetensors(out + '/two.safetensors', {'a': ('F32', f(4)), 'b': ('F32', f(4))})
safetensors(out + '/offsets.safetensors', {'latents': ('F32', f(8))},
            tweak=lambda h: h['latents'].update(data_offsets=[0, 16]))
safetensors(out + '/dtype.safetensors', {'latents': ('F32', f(8))},
            tweak=lambda h: h['latents'].update(dtype='F64'))
good = open(out + '/musubi.safetensors', 'rb').read()
open(out + '/truncated.safetensors', 'wb').write(good[:-5])
open(out + '/musubi-cache', 'wb').write(good)  # no extension: found by its content
open(out + '/absurd.safetensors', 'wb').write(struct.pack('<Q', 1 << 40) + b'{}')
open(out + '/notjson.safetensors', 'wb').write(struct.pack('<Q', 5) + b'{oops')

import os
# ai-toolkit: one image per file in _latent_cache, the tensor 'latent' [C, H, W] and its
# latent_info metadata (toolkit/dataloader_mixins.py).
os.makedirs(out + '/_latent_cache', exist_ok=True)
for i in range(2):
    safetensors(out + '/_latent_cache/img%d_Q2hhc2g.safetensors' % i,
                {'latent': ('F32', f(4 * 3 * 5).reshape(4, 3, 5) + i)},
                {'filename': 'img%d.png' % i, 'latent_space_version': 'sdxl', 'latent_version': '1'})
safetensors(out + '/latent-plain.safetensors', {'latent': ('F32', f(3 * 2).reshape(3, 2))})
os.makedirs(out + '/cache', exist_ok=True)
np.savez(out + '/cache/a.npz', latents=f(4 * 8 * 8).reshape(4, 8, 8),
         original_size=np.array([64, 64]), crop_ltrb=np.array([0, 0, 64, 64]))
np.savez(out + '/cache/b.npz', latents=f(4 * 8 * 8).reshape(4, 8, 8) + 1)
np.savez_compressed(out + '/cache/c.npz', latents_4x6=f(4 * 4 * 6).reshape(4, 4, 6))
np.savez(out + '/plain.npz', x=f(6 * 2).reshape(6, 2))
raw = bytearray(open(out + '/cache/a.npz', 'rb').read())
raw[200] ^= 0xff  # inside the stored 'latents' member: its CRC no longer matches
open(out + '/corrupt.npz', 'wb').write(bytes(raw))
open(out + '/cut.npz', 'wb').write(open(out + '/cache/b.npz', 'rb').read()[:300])

def png(w, h, rgb):  # 8-bit RGB PNG, filter 0 on every row
    rows = b''.join(b'\0' + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))

with zipfile.ZipFile(out + '/edm.zip', 'w') as z:
    names = []
    for i in range(3):
        name = '00000/img%08d.png' % i
        z.writestr(name, png(4, 2, bytes((i * 40 + k * 10) % 256 for k in range(24))))
        names.append(name)
    z.writestr('dataset.json', json.dumps({'labels': [[n, i] for i, n in enumerate(names)]}))

mean = f(4 * 3 * 3).reshape(4, 3, 3)
with zipfile.ZipFile(out + '/edm2.zip', 'w') as z:
    for i, std in enumerate([0.0, 1.0]):
        buf = io.BytesIO()
        np.save(buf, np.concatenate([mean, np.full((4, 3, 3), std, np.float32)]).astype('<f4'))
        z.writestr('00000/img-mean-std-%08d.npy' % i, buf.getvalue())
)PY";

// EDM2's StabilityVAEEncoder: x·0.5/raw_std − raw_mean·0.5/raw_std.
constexpr double kRawMean[4] = {5.81, 3.25, 0.12, -2.15};
constexpr double kRawStd[4] = {4.17, 4.62, 3.71, 3.28};

float f(int64_t i) {
  return static_cast<float>(((i * 37) % 251) - 125) / 8.0f;
}
}  // namespace

class TestLatentCaches : public fixtures::ScratchTest {
  Q_OBJECT

  // Loading `name` fails with a message naming the file and containing `problem`.
  void expectError(const QString& name, const QString& problem) {
    try {
      loadDataset(path(name.toStdString()));
      QFAIL(qPrintable("no error for " + name));
    } catch (const InputError& e) {
      const QString message = QString::fromStdString(e.what());
      QVERIFY2(message.contains(name) && message.contains(problem), qPrintable(message));
    }
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QProcess python;
    python.start("/usr/bin/python3", {"-c", kScript, dir_.path()});
    if (!python.waitForStarted(10000)) QSKIP("/usr/bin/python3 is not available");
    QVERIFY(python.waitForFinished(60000));
    const QByteArray errors = python.readAllStandardError();
    if (errors.contains("ModuleNotFoundError")) QSKIP("numpy is not installed");
    QVERIFY2(python.exitCode() == 0, errors.constData());
  }

  void musubiSafetensorsCache() {
    QCOMPARE(detectFormat(path("musubi.safetensors")), FileFormat::Safetensors);
    const Dataset d = loadDataset(path("musubi.safetensors"));
    QCOMPARE(d.size(), int64_t{1});
    QCOMPARE(d.dim(), int64_t{4 * 4 * 6});
    QCOMPARE(d.sourceDtype, std::string("bfloat16"));
    QCOMPARE(d.scaling, std::string("raw"));
    for (int64_t i = 0; i < d.dim(); ++i) EXPECT_SAME_FLOAT(d.values[i], f(i));
    QVERIFY(QString::fromStdString(d.notes.front()).contains("4×1×4×6"));
    QCOMPARE(detectFormat(path("musubi-cache")), FileFormat::Safetensors);
    QCOMPARE(loadDataset(path("musubi-cache")).values, d.values);
  }

  void plainTensorsFollowTheArrayRules() {
    const Dataset st = loadDataset(path("plain.safetensors"));  // float16 [5, 3]: 5 points
    QCOMPARE(st.size(), int64_t{5});
    QCOMPARE(st.sampleShape, (std::vector<int64_t>{3}));
    for (int64_t i = 0; i < 15; ++i) EXPECT_SAME_FLOAT(st.values[i], f(i));
    const Dataset npz = loadDataset(path("plain.npz"));
    QCOMPARE(npz.size(), int64_t{6});
    for (int64_t i = 0; i < 12; ++i) EXPECT_SAME_FLOAT(npz.values[i], f(i));
  }

  void folderGroupsBucketsAndSaysWhatItLeftOut() {
    QCOMPARE(detectFormat(path("cache")), FileFormat::LatentFolder);
    const Dataset d = loadDataset(path("cache"));
    QCOMPARE(d.size(), int64_t{2});  // a.npz and b.npz (4×8×8); c.npz's 4×4×6 left out
    QCOMPARE(d.dim(), int64_t{4 * 8 * 8});
    for (int64_t i = 0; i < d.dim(); ++i) {
      EXPECT_SAME_FLOAT(d.sample(0)[i], f(i));
      EXPECT_SAME_FLOAT(d.sample(1)[i], f(i) + 1.0f);
    }
    bool said = false;
    for (const auto& note : d.notes)
      said = said || (QString::fromStdString(note).contains("left out 1 of 4×4×6") &&
                      QString::fromStdString(note).contains("c.npz:latents_4x6"));
    QVERIFY(said);
  }

  // ai-toolkit's _latent_cache: each file one image's "latent" [C, H, W], named so by its
  // latent_space_version metadata; the same key without that metadata is an ordinary array.
  void aiToolkitLatentCacheFolder() {
    QCOMPARE(detectFormat(path("_latent_cache")), FileFormat::LatentFolder);
    const Dataset d = loadDataset(path("_latent_cache"));
    QCOMPARE(d.size(), int64_t{2});
    QCOMPARE(d.dim(), int64_t{4 * 3 * 5});
    for (int64_t i = 0; i < d.dim(); ++i) {
      EXPECT_SAME_FLOAT(d.sample(0)[i], f(i));
      EXPECT_SAME_FLOAT(d.sample(1)[i], f(i) + 1.0f);
    }
    const Dataset plain = loadDataset(path("latent-plain.safetensors"));  // [3, 2]: 3 points
    QCOMPARE(plain.size(), int64_t{3});
  }

  void edmImageZipWithLabelsAndResize() {
    QCOMPARE(detectFormat(path("edm.zip")), FileFormat::EdmZip);
    const Dataset d = loadDataset(path("edm.zip"));
    QCOMPARE(d.size(), int64_t{3});
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{3, 2, 4}));
    QCOMPARE(d.labels, (std::vector<int32_t>{0, 1, 2}));
    // Pixel (y, x), channel c of image i is byte (i·40 + (3(4y + x) + c)·10) mod 256.
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 3; ++c)
        for (int p = 0; p < 8; ++p)
          EXPECT_SAME_FLOAT(d.sample(i)[c * 8 + p],
                            fixtures::symmetric((i * 40 + (3 * p + c) * 10) % 256));
    LoadOptions half;
    half.imageFolder.width = 2;
    const Dataset small = loadDataset(path("edm.zip"), half);
    QCOMPARE(small.sampleShape, (std::vector<int64_t>{3, 1, 2}));
  }

  void edm2LatentsAreDrawnFromMeanAndStd() {
    const Dataset d = loadDataset(path("edm2.zip"));
    QCOMPARE(d.size(), int64_t{2});
    QCOMPARE(d.dim(), int64_t{4 * 3 * 3});
    double spread = 0.0;
    for (int c = 0; c < 4; ++c)
      for (int p = 0; p < 9; ++p) {
        const double scale = 0.5 / kRawStd[c];
        const double mean = (f(c * 9 + p) - kRawMean[c]) * scale;
        QVERIFY(std::abs(d.sample(0)[c * 9 + p] - mean) < 1e-5);         // std 0: the mean itself
        spread += std::pow((d.sample(1)[c * 9 + p] - mean) / scale, 2);  // std 1: mean + ε
      }
    spread = std::sqrt(spread / 36.0);
    QVERIFY2(spread > 0.5 && spread < 1.6, qPrintable(QString::number(spread)));
    QVERIFY(QString::fromStdString(d.scaling).contains("EDM2"));
  }

  void brokenFilesNameTheFileAndTheProblem() {
    expectError("truncated.safetensors", "outside the");
    expectError("absurd.safetensors", "more than the 100 MB");
    expectError("notjson.safetensors", "not JSON");
    expectError("offsets.safetensors", "stored in");
    expectError("dtype.safetensors", "F64");
    expectError("two.safetensors", "exactly one array");
    expectError("corrupt.npz", "latents");
    expectError("cut.npz", "ZIP");
  }
};

QTEST_APPLESS_MAIN(TestLatentCaches)
#include "test_latent_caches.moc"
