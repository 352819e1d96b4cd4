// The workbench at the two screen sizes of issue 35 (1366×768 and 1600×1000), with a dataset
// loaded, on each tab: every visible label, button, field and table lies inside its parent and
// the window, every label and button shows its whole text (a wrapped label its every line), and no
// two widgets a user can reach with Alt share a mnemonic (the tab's own widgets, the tab bar and
// the menu bar). The Training tab again on the Fashion-MNIST sample, whose feature network beside
// it adds a long note to the form. NOISESCOPE_SCREENSHOT_DIR keeps a picture of each tab at each
// size.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QObject>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStringList>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <map>

#include "screenshot.h"
#include "test_paths.h"
#include "ui/main_window.h"
#include "ui/schedule_list_view.h"
#include "ui/schedule_panel.h"

using namespace noisescope::ui;

namespace {

const QString kGaussian = QStringLiteral("synthetic:gaussian?n=300&d=4&seed=3");
const QString kFashion = QString::fromStdString(
    noisescope::test::sourcePath("sample_data/fashion-mnist/train-images-idx3-ubyte.gz"));

// The letter after a single "&" ("&&" is a literal ampersand), lower case; 0 for none.
QChar mnemonic(const QString& text) {
  for (int i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != QLatin1Char('&')) continue;
    if (text[i + 1] == QLatin1Char('&')) {
      ++i;
      continue;
    }
    return text[i + 1].toLower();
  }
  return {};
}

// Parts of composite widgets (a line edit's clear button, a tab bar's scroll arrows, a spin box's
// line edit, a table's viewport), which their owner lays out itself.
bool insideComposite(const QWidget* widget) {
  for (const QWidget* p = widget->parentWidget(); p; p = p->parentWidget()) {
    if (qobject_cast<const QLineEdit*>(p) || qobject_cast<const QTabBar*>(p) ||
        qobject_cast<const QAbstractSpinBox*>(p) || qobject_cast<const QComboBox*>(p) ||
        qobject_cast<const QScrollBar*>(p) || qobject_cast<const QAbstractItemView*>(p))
      return true;
  }
  return false;
}

// The scroll area whose contents hold `widget`, if any: its contents may be taller than the
// viewport (scrolled), but none may reach past the viewport's right edge.
const QScrollArea* scrollAreaOf(const QWidget* widget) {
  for (const QWidget* p = widget->parentWidget(); p; p = p->parentWidget())
    if (const auto* area = qobject_cast<const QScrollArea*>(p)) return area;
  return nullptr;
}

QString describe(const QWidget* w) {
  QString text;
  if (const auto* label = qobject_cast<const QLabel*>(w)) text = label->text();
  if (const auto* button = qobject_cast<const QAbstractButton*>(w)) text = button->text();
  return QStringLiteral("%1 \"%2\" (%3) at %4,%5 %6×%7")
      .arg(QString::fromLatin1(w->metaObject()->className()), text.left(60), w->objectName())
      .arg(w->x())
      .arg(w->y())
      .arg(w->width())
      .arg(w->height());
}

// What is wrong with one widget's place and text; empty when nothing is.
QStringList problemsOf(const QWidget* w, const QWidget* window) {
  QStringList problems;
  const QRect inWindow(w->mapTo(window, QPoint(0, 0)), w->size());
  const QRect inParent = w->geometry();
  if (const QScrollArea* area = scrollAreaOf(w)) {
    const QWidget* viewport = area->viewport();
    const int right = w->mapTo(viewport, QPoint(w->width(), 0)).x();
    if (right > viewport->width())
      problems << QStringLiteral("reaches %1 px past the right of its scroll area")
                      .arg(right - viewport->width());
  } else {
    if (!window->rect().contains(inWindow))
      problems << QStringLiteral("outside the window (%1,%2 %3×%4 in %5×%6)")
                      .arg(inWindow.x())
                      .arg(inWindow.y())
                      .arg(inWindow.width())
                      .arg(inWindow.height())
                      .arg(window->width())
                      .arg(window->height());
    if (w->parentWidget() && !w->parentWidget()->rect().contains(inParent))
      problems << QStringLiteral("outside its parent %1 (%2×%3)")
                      .arg(QString::fromLatin1(w->parentWidget()->metaObject()->className()))
                      .arg(w->parentWidget()->width())
                      .arg(w->parentWidget()->height());
  }
  if (const auto* label = qobject_cast<const QLabel*>(w)) {
    if (!label->text().isEmpty()) {
      if (label->wordWrap()) {
        if (label->heightForWidth(label->width()) > label->height())
          problems << QStringLiteral("wrapped text needs %1 px of height, has %2")
                          .arg(label->heightForWidth(label->width()))
                          .arg(label->height());
      } else if (label->sizeHint().width() > label->width()) {
        problems << QStringLiteral("text needs %1 px, has %2")
                        .arg(label->sizeHint().width())
                        .arg(label->width());
      }
    }
  } else if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
    if (!button->text().isEmpty() && button->sizeHint().width() > button->width())
      problems << QStringLiteral("text needs %1 px, has %2")
                      .arg(button->sizeHint().width())
                      .arg(button->width());
  } else if (const auto* table = qobject_cast<const QTableView*>(w)) {
    // Every column in view, without scrolling sideways.
    const int columns = table->horizontalHeader()->length();
    if (table->horizontalHeader()->isVisible() && columns > table->viewport()->width())
      problems << QStringLiteral("columns need %1 px, the view shows %2")
                      .arg(columns)
                      .arg(table->viewport()->width());
  }
  return problems;
}

// The mnemonics a user can press with Alt while `page` is shown, letter → the texts that carry it.
std::map<QChar, QStringList> mnemonicsOf(const QWidget* page, const MainWindow& window) {
  std::map<QChar, QStringList> letters;
  auto add = [&letters](const QString& text) {
    const QChar letter = mnemonic(text);
    if (!letter.isNull()) letters[letter] << text;
  };
  for (QAction* menu : window.menuBar()->actions()) add(menu->text());
  const QTabBar* bar = window.tabs()->tabBar();
  for (int i = 0; i < bar->count(); ++i) add(bar->tabText(i));
  for (const QWidget* w : page->findChildren<QWidget*>()) {
    if (!w->isVisible() || insideComposite(w)) continue;
    if (const auto* button = qobject_cast<const QAbstractButton*>(w)) add(button->text());
    if (const auto* label = qobject_cast<const QLabel*>(w); label && label->buddy())
      add(label->text());
    if (const auto* box = qobject_cast<const QGroupBox*>(w); box && box->isCheckable())
      add(box->title());
    if (const auto* tabs = qobject_cast<const QTabWidget*>(w))
      for (int i = 0; i < tabs->count(); ++i) add(tabs->tabText(i));
  }
  return letters;
}

}  // namespace

class TestWindowLayout : public QObject {
  Q_OBJECT

 private:
  // `only`: the one tab to check (its text without "&"), or every tab when empty.
  void checkAt(const QSize& size, const QString& dataset = kGaussian, const QString& only = {}) {
    MainWindow window;
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), size);  // the window's minimum fits the screen
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(dataset, false);
    QVERIFY(loaded.count() == 1 || loaded.wait(30000));
    QTabWidget* tabs = window.tabs();
    for (int t = 0; t < tabs->count(); ++t) {
      tabs->setCurrentIndex(t);
      QWidget* page = tabs->currentWidget();
      if (auto* schedules = qobject_cast<SchedulePanel*>(page))  // its editor shown
        schedules->list()->setCurrentRow(0);
      QTest::qWait(300);  // layouts, hidden redraws and charts settle
      const QString tab = tabs->tabText(t).remove(QLatin1Char('&'));
      if (!only.isEmpty() && tab != only) continue;
      QStringList problems;
      for (const QWidget* w : page->findChildren<QWidget*>()) {
        if (!w->isVisible() || insideComposite(w)) continue;
        // Fields too: a form's combo or spin box cut by the scroll bar is as clipped as a label.
        if (!qobject_cast<const QLabel*>(w) && !qobject_cast<const QAbstractButton*>(w) &&
            !qobject_cast<const QAbstractItemView*>(w) && !qobject_cast<const QLineEdit*>(w) &&
            !qobject_cast<const QComboBox*>(w) && !qobject_cast<const QAbstractSpinBox*>(w))
          continue;
        for (const QString& p : problemsOf(w, &window))
          problems << QStringLiteral("%1: %2: %3").arg(tab, describe(w), p);
      }
      for (const auto& [letter, texts] : mnemonicsOf(page, window))
        if (texts.size() > 1)
          problems << QStringLiteral("%1: Alt+%2 is shared by %3")
                          .arg(tab, letter, texts.join(QStringLiteral(" | ")));
      saveScreenshot(&window, QStringLiteral("layout-%1%2x%3-%4")
                                  .arg(dataset == kGaussian ? QString() : QStringLiteral("sample-"))
                                  .arg(size.width())
                                  .arg(size.height())
                                  .arg(t));
      for (const QString& p : problems) qWarning("%s", qPrintable(p));  // all, untruncated
      QVERIFY2(problems.isEmpty(),
               qPrintable(QStringLiteral("%1: %2 problems").arg(tab).arg(problems.size())));
    }
  }

 private Q_SLOTS:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void nothingClippedAt1366x768() { checkAt(QSize(1366, 768)); }
  void nothingClippedAt1600x1000() { checkAt(QSize(1600, 1000)); }
  // The bundled Fashion-MNIST sample has a feature network beside it: the Training form then shows
  // its note (three lines and more) beside a "Use it" button, which used to be cut.
  void trainingFormWithFeatureNoteAt1366x768() {
    checkAt(QSize(1366, 768), kFashion, QStringLiteral("Training"));
  }
  void trainingFormWithFeatureNoteAt1600x1000() {
    checkAt(QSize(1600, 1000), kFashion, QStringLiteral("Training"));
  }
};

QTEST_MAIN(TestWindowLayout)
#include "test_window_layout.moc"
