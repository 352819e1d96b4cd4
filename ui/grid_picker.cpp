#include "ui/grid_picker.h"

#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "pipeline/sampling/sampling_grids.h"

namespace noisescope::ui {

namespace {
constexpr int kAddedRole = Qt::UserRole + 1;  // true for specs the user typed
}

GridPicker::GridPicker(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  list_ = new QListWidget(this);
  list_->setAccessibleName(tr("Grids to race"));
  list_->setToolTip(
      tr("Checked grids are raced; each is a spec as noisescope-cli sample-race "
         "--grid takes it"));
  layout->addWidget(list_, 1);
  auto* row = new QHBoxLayout();
  field_ = new QLineEdit(this);
  field_->setPlaceholderText(tr("karras?rho=5, flow?shift=1.5, entropic?increment=sqrt-rate…"));
  field_->setAccessibleName(tr("Grid spec to add"));
  auto* add = new QPushButton(tr("Add &grid"), this);
  row->addWidget(field_, 1);
  row->addWidget(add);
  layout->addLayout(row);
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b00020"));
  error_->hide();
  layout->addWidget(error_);

  auto addTyped = [this] {
    if (addSpec(field_->text())) field_->clear();
  };
  connect(add, &QPushButton::clicked, this, addTyped);
  connect(field_, &QLineEdit::returnPressed, this, addTyped);
  connect(list_, &QListWidget::itemChanged, this, [this] { Q_EMIT selectionChanged(); });
}

void GridPicker::addItem(const QString& spec, bool checked, bool added) {
  auto* item = new QListWidgetItem(spec, list_);
  item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
  item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
  item->setData(kAddedRole, added);
}

void GridPicker::setDefaults(const QStringList& specs) {
  // Every listed spec's check, so a replan (an NFE edit, the same model again) keeps the user's.
  QHash<QString, bool> checked;
  std::vector<QString> added;
  for (int i = 0; i < list_->count(); ++i) {
    const QListWidgetItem* item = list_->item(i);
    checked.insert(item->text(), item->checkState() == Qt::Checked);
    if (item->data(kAddedRole).toBool()) added.push_back(item->text());
  }
  {
    const QSignalBlocker block(list_);
    list_->clear();
    for (const QString& s : specs) addItem(s, checked.value(s, true), false);
    for (const QString& spec : added)
      if (!specs.contains(spec)) addItem(spec, checked.value(spec), true);
  }
  Q_EMIT selectionChanged();
}

bool GridPicker::addSpec(const QString& typed) {
  const QString spec = typed.trimmed();
  if (spec.isEmpty()) return false;
  try {
    pipeline::canonicalSamplingGridSpec(spec.toStdString());  // InputError for a bad spec
  } catch (const std::exception& e) {
    error_->setText(QString::fromStdString(e.what()));
    error_->show();
    return false;
  }
  error_->hide();
  error_->clear();
  if (!allSpecs().contains(spec)) {
    const QSignalBlocker block(list_);
    addItem(spec, true, true);
  } else {
    setChecked(spec, true);
  }
  Q_EMIT selectionChanged();
  return true;
}

QStringList GridPicker::checkedSpecs() const {
  QStringList specs;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked) specs << list_->item(i)->text();
  return specs;
}

QStringList GridPicker::allSpecs() const {
  QStringList specs;
  for (int i = 0; i < list_->count(); ++i) specs << list_->item(i)->text();
  return specs;
}

void GridPicker::setChecked(const QString& spec, bool checked) {
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->text() == spec)
      list_->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QString GridPicker::errorText() const {
  return error_->isHidden() ? QString() : error_->text();
}

}  // namespace noisescope::ui
