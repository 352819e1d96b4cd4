// A trainer's latent cache put on the scale that trainer noises (data/formats/latent_spaces.h):
// raw caches get their VAE's normalisation (one factor, or one per channel), normalised caches are
// left as they are, and a wrong channel count, an unknown pair or a file that is not a latent
// cache is an InputError naming the problem. The table itself holds together.
#include <QTest>

#include <cmath>
#include <set>

#include "data/formats/latent_spaces.h"
#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "fixtures.h"

using namespace noisescope;

namespace {

// Value i of a latent: distinct, signed, exact in float.
std::vector<float> latentValues(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(int(i % 23) - 11) / 4.0f;
  return values;
}

bool contains(const std::vector<std::string>& lines, const std::string& needle) {
  for (const std::string& line : lines)
    if (line.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

class TestLatentSpaces : public fixtures::ScratchTest {
  Q_OBJECT

  // One cache file (sd-scripts / musubi-tuner key) holding one latent of `shape`.
  std::string writeCache(const std::string& name, const std::string& key,
                         const std::vector<int64_t>& shape) {
    size_t count = 1;
    for (int64_t s : shape) count *= static_cast<size_t>(s);
    fixtures::writeBytes(
        path(name),
        fixtures::safetensorsBytes({{key, "F32", shape, fixtures::rawBytes(latentValues(count))}}));
    return path(name);
  }

  // A musubi-tuner cache: its one latent, float32, and "architecture" in the metadata.
  std::string writeMusubiCache(const std::string& name, const std::string& architecture,
                               const std::vector<int64_t>& shape) {
    size_t count = 1;
    std::string dims;
    for (int64_t s : shape) {
      count *= static_cast<size_t>(s);
      dims += (dims.empty() ? "" : ",") + std::to_string(s);
    }
    const std::string key = "latents_1x2x2_float32";
    const std::string header = "{\"" + key + "\":{\"dtype\":\"F32\",\"shape\":[" + dims +
                               "],\"data_offsets\":[0," + std::to_string(count * 4) +
                               "]},\"__metadata__\":{\"architecture\":\"" + architecture +
                               "\",\"format_version\":\"1.0.1\"}}";
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    fixtures::writeBytes(path(name), bytes + header + fixtures::rawBytes(latentValues(count)));
    return path(name);
  }

  static Dataset load(const std::string& file, const std::string& latentsFor) {
    LoadOptions options;
    options.latentsFor = latentsFor;
    return loadDataset(file, options);
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void rawCacheGetsItsVaeFactor() {
    const std::string file = writeCache("sdxl.safetensors", "latents", {4, 2, 3});
    const Dataset asCached = load(file, "");
    QVERIFY(asCached.latentCache);
    QVERIFY(asCached.latentsFor.empty());
    const Dataset d = load(file, "sd-scripts:sdxl");
    QCOMPARE(d.latentsFor, std::string("sd-scripts:sdxl"));
    QCOMPARE(d.values.size(), asCached.values.size());
    for (size_t i = 0; i < d.values.size(); ++i)
      QCOMPARE(d.values[i], static_cast<float>(asCached.values[i] * 0.13025));
    QVERIFY(contains(d.notes, "0.13025"));
    QVERIFY(contains(d.transforms, "sd-scripts:sdxl"));
  }

  void shiftComesBeforeTheFactor() {
    const std::string file = writeCache("sd3.safetensors", "latents", {16, 1, 2});
    const Dataset asCached = load(file, "");
    const Dataset d = load(file, "onetrainer:sd3");
    for (size_t i = 0; i < d.values.size(); ++i)
      QCOMPARE(d.values[i], static_cast<float>((asCached.values[i] - 0.0609) * 1.5305));
  }

  // The Wan 2.1 VAE normalises each of its 16 channels by its own mean and standard deviation.
  void perChannelVae() {
    const std::string file = writeCache("qwen.safetensors", "latents_1x2x2_float32", {16, 1, 2, 2});
    const Dataset asCached = load(file, "");
    const Dataset d = load(file, "onetrainer:qwen");
    const LatentVae& wan = latentVae("wan2.1");
    QCOMPARE(int(wan.shift.size()), 16);
    const int64_t perChannel = d.dim() / 16;
    for (int64_t c = 0; c < 16; ++c)
      for (int64_t j = 0; j < perChannel; ++j) {
        const size_t i = static_cast<size_t>(c * perChannel + j);
        QCOMPARE(d.values[i],
                 static_cast<float>((asCached.values[i] - wan.shift[c]) * wan.factor[c]));
      }
    // The first channel's published mean and standard deviation, as a spot check of the table.
    QCOMPARE(wan.shift.front(), -0.7571);
    QCOMPARE(1.0 / wan.factor.front(), 2.8184);
  }

  void normalisedCacheIsLeftAsItIs() {
    const std::string file = writeCache("flux.safetensors", "latents", {16, 2, 2});
    const Dataset asCached = load(file, "");
    const Dataset d = load(file, "sd-scripts:flux");
    QCOMPARE(d.values, asCached.values);
    QCOMPARE(d.latentsFor, std::string("sd-scripts:flux"));
    QVERIFY(d.latentTransform.rfind("none", 0) == 0);
  }

  // musubi-tuner names its architecture in every cache: the pair is taken from it when none is
  // given, a raw cache (HunyuanVideo) is normalised, and a disagreement is only noted.
  void musubiMetadataNamesThePair() {
    const std::string wan = writeMusubiCache("wan.safetensors", "wan", {16, 1, 2, 2});
    const Dataset w = load(wan, "");
    QCOMPARE(w.latentsFor, std::string("musubi-tuner:wan"));
    QVERIFY(contains(w.notes, "architecture 'wan'"));
    QVERIFY(w.latentTransform.rfind("none", 0) == 0);  // musubi caches Wan normalised

    const std::string hv = writeMusubiCache("hv.safetensors", "hunyuan_video", {16, 1, 2, 2});
    const Dataset h = load(hv, "");
    QCOMPARE(h.latentsFor, std::string("musubi-tuner:hunyuan-video"));
    for (size_t i = 0; i < h.values.size(); ++i)
      QCOMPARE(h.values[i], static_cast<float>(w.values[i] * 0.476986));

    // Four channels cannot be Wan's: left as cached, and said.
    const std::string odd = writeMusubiCache("odd.safetensors", "wan", {4, 1, 2, 2});
    const Dataset o = load(odd, "");
    QVERIFY(o.latentsFor.empty());
    QVERIFY(contains(o.notes, "not 4"));
    // A pair given by the user wins over the metadata, which is noted.
    const Dataset given = load(hv, "musubi-tuner:framepack");
    QCOMPARE(given.latentsFor, std::string("musubi-tuner:framepack"));
    QVERIFY(contains(given.notes, "read as musubi-tuner:framepack latents, as asked"));
    QVERIFY(latentPairOfArchitecture("kandinsky5").empty());
  }

  void badRequestsNameTheProblem() {
    const std::string four = writeCache("four.safetensors", "latents", {4, 2, 2});
    EXPECT_INPUT_ERROR(load(four, "sd-scripts:flux"), "16-channel");
    EXPECT_INPUT_ERROR(load(four, "sd-scripts:flux"), "four.safetensors");
    EXPECT_INPUT_ERROR(load(four, "sd-scripts:nonsense"), "sd-scripts:sdxl");
    fixtures::writeBytes(path("x.npy"),
                         fixtures::npyBytes("<f4", {2, 4}, fixtures::rawBytes(latentValues(8))));
    EXPECT_INPUT_ERROR(load(path("x.npy"), "sd-scripts:sdxl"), "not a latent cache");
    LoadOptions options;
    options.latentsFor = "sd-scripts:sdxl";
    EXPECT_INPUT_ERROR(openStreamedPrior(path("x.npy"), options), "not a latent cache");
  }

  // Every cache names a VAE of the table; a VAE's constants are one or one per channel; a raw
  // cache's VAE has constants; each (tool, model) is listed once.
  void tableHoldsTogether() {
    std::set<std::string> pairs;
    for (const LatentCacheKind& k : latentCacheKinds()) {
      QVERIFY2(pairs.insert(k.tool + ":" + k.model).second, (k.tool + ":" + k.model).c_str());
      const LatentVae& vae = latentVae(k.vae);
      if (!k.cacheIsNormalised) QVERIFY2(!vae.factor.empty(), vae.name.c_str());
      QVERIFY(!k.where.empty());
    }
    for (const LatentVae& v : latentVaes()) {
      QCOMPARE(v.shift.size(), v.factor.size());
      QVERIFY(v.factor.empty() || v.factor.size() == 1 ||
              v.factor.size() == static_cast<size_t>(v.channels));
      for (double f : v.factor) QVERIFY(std::isfinite(f) && f > 0.0);
    }
  }

  void asCachedNoteListsRawAndNormalisedCaches() {
    const std::string note = latentsAsCachedNote("sd-scripts", "sdxl");
    QVERIFY2(note.find("raw (sd-scripts, onetrainer)") != std::string::npos, note.c_str());
    QVERIFY2(note.find("normalised (simpletuner, diffusers, ai-toolkit)") != std::string::npos,
             note.c_str());
    QVERIFY(latentsAsCachedNote("edm", "edm").empty());
  }
};

QTEST_APPLESS_MAIN(TestLatentSpaces)
#include "test_latent_spaces.moc"
