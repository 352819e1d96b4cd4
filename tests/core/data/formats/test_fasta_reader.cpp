// FASTA / sequence text: one-hot windows with exact values, records never joined, the unknown-
// letter policies, gzip input, and bad files answered with an InputError naming the file.
#include <QTemporaryDir>
#include <QTest>

#include "data/formats/fasta_reader.h"
#include "fixtures.h"

using namespace noisescope;

namespace {
// The expected one-hot row for a window of bases ('N' = all −1).
std::vector<float> oneHot(const std::string& bases) {
  std::vector<float> row(bases.size() * 4, -1.0f);
  for (size_t i = 0; i < bases.size(); ++i) {
    const size_t k = std::string("ACGT").find(static_cast<char>(std::toupper(bases[i])));
    if (k != std::string::npos) row[i * 4 + k] = 1.0f;
  }
  return row;
}
std::vector<float> sampleValues(const Dataset& d, int64_t i) {
  return std::vector<float>(d.sample(i), d.sample(i) + d.dim());
}
}  // namespace

class TestFastaReader : public fixtures::ScratchTest {
  Q_OBJECT

  static FastaOptions windows(int64_t window, int64_t stride) {
    FastaOptions options;
    options.window = window;
    options.stride = stride;
    return options;
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void multiRecordWrappedLowercase() {
    // Record 1: ACGTAC GTTG (10 bases over two lines); record 2: ggcca (5 bases).
    fixtures::writeBytes(path("two.fa"),
                         ">one first record\nACGTAC\r\nGTtg\n; a comment\n>two\nggcca\n");
    const Dataset d = readFasta(path("two.fa"), windows(4, 3));
    QCOMPARE(std::string(toString(d.kind)), std::string("sequence"));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{4, 4}));
    QCOMPARE(d.scaling, std::string("one-hot ±1"));
    QCOMPARE(d.sourceDtype, std::string("dna"));
    // Starts 0, 3, 6 in record 1 and 0 in record 2; none crosses the boundary.
    QCOMPARE(d.size(), int64_t{4});
    QCOMPARE(sampleValues(d, 0), oneHot("ACGT"));
    QCOMPARE(sampleValues(d, 1), oneHot("TACG"));
    QCOMPARE(sampleValues(d, 2), oneHot("GTTG"));
    QCOMPARE(sampleValues(d, 3), oneHot("GGCC"));
    QCOMPARE(d.name, std::string("two"));
  }

  void unknownLetterPolicies() {
    fixtures::writeBytes(path("n.fasta"), ">r\nACGTNNACGTAC\n");
    const Dataset skip = readFasta(path("n.fasta"), windows(4, 4));
    QCOMPARE(skip.size(), int64_t{2});  // "NNAC" is dropped
    QCOMPARE(sampleValues(skip, 1), oneHot("GTAC"));
    FastaOptions keep = windows(4, 4);
    keep.unknownBases = FastaOptions::UnknownBases::AllNegative;
    const Dataset all = readFasta(path("n.fasta"), keep);
    QCOMPARE(all.size(), int64_t{3});
    QCOMPARE(sampleValues(all, 1), oneHot("NNAC"));
  }

  void plainSequenceTextAndGzip() {
    fixtures::writeBytes(path("plain.seq"), "acgtacgt\nacgt\n");
    const Dataset d = readFasta(path("plain.seq"), windows(6, 6));
    QCOMPARE(d.size(), int64_t{2});
    QCOMPARE(sampleValues(d, 1), oneHot("GTACGT"));
    fixtures::writeGzip(path("seq.fa.gz"), ">x\nTTTTGGGG\n");
    const Dataset g = readFasta(path("seq.fa.gz"), windows(2, 2));
    QCOMPARE(g.size(), int64_t{4});
    QCOMPARE(sampleValues(g, 3), oneHot("GG"));
    QCOMPARE(g.name, std::string("seq"));
  }

  void noValidWindow() {
    fixtures::writeBytes(path("short.fa"), ">a\nACG\n>b\nAC\n");
    const auto tooShort =
        fixtures::expectInputError([&] { readFasta(path("short.fa"), windows(4, 1)); }, "short.fa");
    QVERIFY2(tooShort.ok, tooShort.message.c_str());
    QVERIFY(tooShort.message.find("longest record has 3") != std::string::npos);
    fixtures::writeBytes(path("allN.fa"), ">a\nNNNNNNNN\n");
    EXPECT_INPUT_ERROR(readFasta(path("allN.fa"), windows(4, 4)), "allN.fa");
    fixtures::writeBytes(path("headers.fa"), ">a\n>b\n");
    EXPECT_INPUT_ERROR(readFasta(path("headers.fa"), windows(4, 4)), "headers.fa");
  }

  void badOptions() {
    fixtures::writeBytes(path("ok.fa"), ">a\nACGT\n");
    EXPECT_INPUT_ERROR(readFasta(path("ok.fa"), windows(0, 1)), "window: ");
    EXPECT_INPUT_ERROR(readFasta(path("ok.fa"), windows(2, 0)), "stride: ");
  }

  void binaryFileIsNotSequence() {
    fixtures::writeBytes(path("binary.fa"), std::string("ACGT\x00\x01\x02", 7));
    EXPECT_INPUT_ERROR(readFasta(path("binary.fa")), "binary.fa");
    fixtures::writeBytes(path("numbers.fa"), ">a\nACGT 1234\n");
    EXPECT_INPUT_ERROR(readFasta(path("numbers.fa")), "numbers.fa");
  }

  void truncatedOrCorruptGzip() {
    std::string sequence = ">r\n";
    for (int i = 0; i < 20000; ++i) sequence += "ACGGTCAT"[(i * 7) % 8];
    fixtures::writeGzip(path("cut.fa.gz"), sequence);
    const std::string bytes = fixtures::readBytes(path("cut.fa.gz"));
    fixtures::writeBytes(path("cut.fa.gz"), bytes.substr(0, bytes.size() / 2));
    EXPECT_INPUT_ERROR(readFasta(path("cut.fa.gz")), "cut.fa.gz");
  }

  void emptyMissingDirectory() {
    fixtures::writeBytes(path("empty.fa"), "");
    EXPECT_INPUT_ERROR(readFasta(path("empty.fa")), "empty.fa");
    EXPECT_INPUT_ERROR(readFasta(path("missing.fa")), "missing.fa");
    EXPECT_INPUT_ERROR(readFasta(dir_.path().toStdString()), dir_.path().toStdString());
  }
};

QTEST_APPLESS_MAIN(TestFastaReader)
#include "test_fasta_reader.moc"
