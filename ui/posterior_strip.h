#pragma once
// The optimal-denoiser strip: for one chosen sample, the noisy input and the empirical posterior
// mean E[x0 | y] at a row of σ values, with how peaked the posterior is under each (max weight,
// weight entropy, effective sample size).
#include <QWidget>

#include <memory>

class QGridLayout;
class QSpinBox;
class QPushButton;
class QLabel;

namespace noisescope {
struct PosteriorProbe;
}

namespace noisescope::ui {

class Workbench;

class PosteriorStrip : public QWidget {
  Q_OBJECT

 public:
  explicit PosteriorStrip(Workbench* workbench, QWidget* parent = nullptr);

  QSpinBox* sampleSpin() const { return sample_; }
  QPushButton* runButton() const { return run_; }
  int shownLevels() const;  // columns currently drawn (0 before the first probe)

  // Starts the probe for the current sample in the background (replacing a queued one).
  void probe();

 Q_SIGNALS:
  void probeFinished();

 private:
  void show(const PosteriorProbe& probe);
  void clearCells();

  Workbench* workbench_;
  QSpinBox* sample_;
  QSpinBox* columns_;
  QPushButton* random_;
  QPushButton* run_;
  QPushButton* export_;
  QWidget* cells_;
  QGridLayout* grid_;
  QLabel* note_;
  int shown_ = 0;
};

}  // namespace noisescope::ui
