#pragma once
// The Schedules panel's list view: a QListView over ScheduleListModel that also speaks in rows,
// as the panel and its tests pick schedules by row.
#include <QListView>

namespace noisescope::ui {

class ScheduleListView : public QListView {
 public:
  using QListView::QListView;

  int currentRow() const { return currentIndex().row(); }  // -1 when none
  void setCurrentRow(int row) { setCurrentIndex(model() ? model()->index(row, 0) : QModelIndex()); }
};

}  // namespace noisescope::ui
