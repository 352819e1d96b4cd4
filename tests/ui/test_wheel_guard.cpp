// Scrolling a form with the mouse wheel leaves its combo boxes and spin boxes alone
// (ui/wheel_guard): an unfocused field under the pointer keeps its value and passes the wheel on
// (ignored, so Qt offers it to the scroll area); a field the user clicked or tabbed to still takes
// it. The wheel an unfocused field passes on scrolls the form. Checked on a plain form and on every
// such field of the Training and Sampling tabs.
#include <QtTest/qtestspontaneevent.h>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QObject>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>
#include <QWidget>

#include "ui/sampling_panel.h"
#include "ui/training_panel.h"
#include "ui/wheel_guard.h"
#include "ui/workbench.h"

using namespace noisescope::ui;

namespace {

// One notch of the wheel, turned towards the user (down: a combo box would move to its next item).
bool wheel(QWidget* field) {
  const QPointF centre = QRectF(field->rect()).center();
  QWheelEvent event(centre, field->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(field, &event);
  return event.isAccepted();
}

// The same notch as the window system delivers it (spontaneous): only such an event, once ignored,
// is offered by QApplication to the parents, up to the scroll area.
void wheelFromTheWindowSystem(QWidget* field) {
  const QPointF centre = QRectF(field->rect()).center();
  QWheelEvent event(centre, field->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QSpontaneKeyEvent::setSpontaneous(&event);
  QApplication::instance()->notify(field, &event);
}

// A field's value as text: what the wheel would change.
QString value(QWidget* field) {
  if (auto* combo = qobject_cast<QComboBox*>(field)) return QString::number(combo->currentIndex());
  return qobject_cast<QAbstractSpinBox*>(field)->text();
}

// Every guarded kind of field in `root`: none changes under an unfocused wheel, each passes it on.
void checkGuarded(QWidget* root) {
  QList<QWidget*> fields;
  for (QComboBox* box : root->findChildren<QComboBox*>()) fields << box;
  for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) fields << box;
  QVERIFY(fields.size() >= 3);
  for (QWidget* field : fields) {
    if (!field->isEnabled()) continue;
    const QString name = field->metaObject()->className() + (" " + field->toolTip().left(40));
    QVERIFY2(field->focusPolicy() == Qt::StrongFocus, qPrintable(name));
    QVERIFY(!field->hasFocus());
    const QString before = value(field);
    QVERIFY2(!wheel(field), qPrintable(name));
    QVERIFY2(value(field) == before, qPrintable(name + ": " + before + " → " + value(field)));
  }
}

}  // namespace

class TestWheelGuard : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void unfocusedFieldsIgnoreTheWheel() {
    QScrollArea area;
    auto* form = new QWidget;
    auto* layout = new QFormLayout(form);
    auto* combo = new QComboBox(form);
    combo->addItems({"edm", "uniform", "epsilon"});
    auto* spin = new QSpinBox(form);
    spin->setRange(0, 100);
    spin->setValue(50);
    auto* other = new QSpinBox(form);  // somewhere to put the focus
    layout->addRow("Loss weight:", combo);
    layout->addRow("Bins:", spin);
    layout->addRow("Other:", other);
    guardWheel(form);
    area.setWidget(form);
    area.resize(300, 200);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    other->setFocus();
    QTRY_VERIFY(other->hasFocus());

    QVERIFY(!wheel(combo));
    QVERIFY(!wheel(spin));
    QCOMPARE(combo->currentIndex(), 0);
    QCOMPARE(spin->value(), 50);
    QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);  // the wheel does not give it focus

    // Clicked or tabbed to, a field takes the wheel as before.
    combo->setFocus();
    QTRY_VERIFY(combo->hasFocus());
    QVERIFY(wheel(combo));
    QCOMPARE(combo->currentIndex(), 1);
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());
    wheel(spin);
    QCOMPARE(spin->value(), 49);
  }

  // The wheel the field passes on scrolls the form: the user's scroll goes on under the pointer.
  void theWheelScrollsTheForm() {
    QScrollArea area;
    auto* form = new QWidget;
    auto* layout = new QFormLayout(form);
    QList<QSpinBox*> spins;
    for (int i = 0; i < 30; ++i) {
      auto* spin = new QSpinBox(form);
      spin->setRange(0, 100);
      spin->setValue(50);
      layout->addRow(QString("Field %1:").arg(i), spin);
      spins << spin;
    }
    guardWheel(form);
    area.setWidget(form);
    area.resize(300, 200);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    area.setFocus();
    QScrollBar* bar = area.verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), 0);
    QSpinBox* underPointer = spins[1];
    QVERIFY(!underPointer->hasFocus());
    wheelFromTheWindowSystem(underPointer);
    QVERIFY2(bar->value() > 0, "the wheel did not reach the scroll area");
    QCOMPARE(underPointer->value(), 50);
    // Focused, the field keeps the wheel: the form stays where it is.
    QSpinBox* visible = spins[3];
    area.ensureWidgetVisible(visible);
    const int before = bar->value();
    visible->setFocus();
    QTRY_VERIFY(visible->hasFocus());
    wheelFromTheWindowSystem(visible);
    QCOMPARE(visible->value(), 49);
    QCOMPARE(bar->value(), before);
  }

  void trainingFormIsGuarded() {
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.resize(1400, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setFocus();
    checkGuarded(&panel);
  }

  void samplingTabIsGuarded() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    panel.resize(1400, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setFocus();
    checkGuarded(&panel);
  }
};

QTEST_MAIN(TestWheelGuard)
#include "test_wheel_guard.moc"
