// Every input the fuzzers found a defect with, fed through the same entry point as the harness
// (targets.h), in the normal build. tests/fuzz/regressions/<harness>/<file>: the reader must
// return or throw InputError; a file named "rejected-…" must be rejected with InputError and one
// named "accepted-…" must be read. The seed corpora go through the same check.
#include <QObject>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "targets.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using namespace noisescope;

namespace {

using Entry = fuzz::Outcome (*)(const uint8_t*, size_t);

const std::map<std::string, Entry>& entries() {
  static const std::map<std::string, Entry> table = {
      {"idx", fuzz::idx},
      {"idx_gz", fuzz::idxGz},
      {"cifar", fuzz::cifar},
      {"npy", fuzz::npy},
      {"streamed_prior", fuzz::streamedPrior},
#ifdef NOISESCOPE_WITH_HDF5
      {"hdf5", fuzz::hdf5},
#endif
      {"fasta", fuzz::fasta},
      {"image", fuzz::image},
      {"safetensors", fuzz::safetensors},
#ifdef NOISESCOPE_WITH_ZIP
      {"npz", fuzz::npz},
      {"edm_zip", fuzz::edmZip},
#endif
      {"synthetic", fuzz::synthetic},
      {"profile", fuzz::profile},
      {"schedule_json", fuzz::scheduleJson},
      {"schedule_csv", fuzz::scheduleCsv},
      {"schedule_spec", fuzz::scheduleSpec},
      {"train_config", fuzz::trainConfig},
      {"run_event", fuzz::runEvent},
      {"trainer_settings", fuzz::trainerSettings},
  };
  return table;
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs every file under `folder`/<harness>/ through its harness; returns how many ran.
int runFolder(const fs::path& folder, bool checkNames) {
  int ran = 0;
  if (!fs::is_directory(folder)) return 0;
  for (const auto& harness : fs::directory_iterator(folder)) {
    if (!harness.is_directory()) continue;
    const std::string name = harness.path().filename().string();
    const auto entry = entries().find(name);
    if (entry == entries().end()) {
      QTest::qFail(("no harness named " + name).c_str(), __FILE__, __LINE__);
      return ran;
    }
    for (const auto& file : fs::directory_iterator(harness.path())) {
      if (!file.is_regular_file()) continue;
      const std::string bytes = readAll(file.path());
      const std::string label = name + "/" + file.path().filename().string();
      fuzz::Outcome outcome{};
      try {
        outcome = entry->second(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      } catch (const std::exception& e) {
        QTest::qFail((label + ": " + typeid(e).name() + " escaped: " + e.what()).c_str(), __FILE__,
                     __LINE__);
        return ran;
      }
      ++ran;
      if (!checkNames) continue;
      const std::string base = file.path().filename().string();
      if (base.rfind("rejected-", 0) == 0 && outcome != fuzz::Outcome::Rejected) {
        QTest::qFail((label + ": accepted, expected InputError").c_str(), __FILE__, __LINE__);
        return ran;
      }
      if (base.rfind("accepted-", 0) == 0 && outcome != fuzz::Outcome::Accepted) {
        QTest::qFail((label + ": rejected, expected it to be read").c_str(), __FILE__, __LINE__);
        return ran;
      }
    }
  }
  return ran;
}

}  // namespace

class FuzzRegressionTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void regressionInputs() {
    const int ran = runFolder(noisescope::test::sourcePath("tests/fuzz/regressions"), true);
    QVERIFY2(ran > 0, "no regression inputs found");
  }
  void seedCorpora() {
    const int ran = runFolder(noisescope::test::sourcePath("tests/fuzz/corpus"), false);
    QVERIFY2(ran >= static_cast<int>(entries().size()), "a harness has no seeds");
  }
};

QTEST_GUILESS_MAIN(FuzzRegressionTest)
#include "test_fuzz_regressions.moc"
