#include "ui/session_profile_files.h"

#include <QDir>
#include <QRegularExpression>
#include <QStringList>

#include <stdexcept>

#include "io/profile_io.h"
#include "ui/workbench.h"

namespace noisescope::ui {
namespace {

// A file name a user recognises: the text, with what paths cannot hold replaced.
QString fileStem(QString text) {
  text.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
  text.remove(QRegularExpression(QStringLiteral("^[-.]+|[-.]+$")));
  return text.isEmpty() ? QStringLiteral("profile") : text;
}

// A profile's name without what its file name adds again. A profile loaded from "X.bound.json"
// is named "X.bound · bound" (the Diagnostic tab) or "X.bound" (the Schedules tab); written as
// "<name>.bound.json" it came back as "X.bound-bound.bound.json", longer on every round. So the
// kind is dropped from the end however often it was appended (" · bound", ".bound", "-bound"),
// and the workbench's " (2)" of a second copy is kept, as "-2": "X.bound · bound (2)" → "X-2".
QString baseStem(const QString& name, const QString& kind) {
  QString base = name.trimmed();
  QString copy;
  static const QRegularExpression copyMark(QStringLiteral(" \\((\\d+)\\)$"));
  if (const auto m = copyMark.match(base); m.hasMatch()) {
    copy = QLatin1Char('-') + m.captured(1);
    base.chop(m.capturedLength());
  }
  if (!kind.isEmpty()) {
    const QRegularExpression kindTail(QStringLiteral("(\\s*·\\s*|[.\\s-])") +
                                      QRegularExpression::escape(kind) + QStringLiteral("$"));
    for (auto m = kindTail.match(base); m.hasMatch(); m = kindTail.match(base))
      base.chop(m.capturedLength());
  }
  return fileStem(base) + copy;
}

// What the names of one bracket share: the part after the kind ("population bound ·
// fashion-mnist" → "fashion-mnist"; the workbench's " (2)" of a second bracket stays). A profile
// added on its own keeps its name, less the kind its file name adds (baseStem).
QString sharedStem(const QStringList& group, const QString& name, const QString& kind) {
  if (group.size() < 2) return baseStem(name, kind);
  const QString separator = QStringLiteral(" · ");
  QString shared;
  for (const QString& member : group) {
    const int at = member.indexOf(separator);
    const QString rest = at < 0 ? member : member.mid(at + separator.size());
    if (!shared.isEmpty() && rest != shared) return baseStem(name, kind);
    shared = rest;
  }
  return fileStem(shared);
}

}  // namespace

QString writeSessionProfile(const Workbench& workbench, const QString& name,
                            const QString& folder) {
  const QStringList group = workbench.addedWith(name);
  if (group.isEmpty()) throw std::runtime_error(name.toStdString() + ": no such profile");
  const QDir dir(folder);
  if (!dir.mkpath(QStringLiteral(".")))
    throw std::runtime_error(folder.toStdString() + ": cannot create the folder");
  const QString stem =
      sharedStem(group, name, QString::fromStdString(workbench.profile(name)->kind));
  QString chosen;
  for (const QString& member : group) {
    const auto profile = workbench.profile(member);
    const QString path = dir.filePath(
        stem + QLatin1Char('.') + QString::fromStdString(profile->kind) + QStringLiteral(".json"));
    writeProfile(path.toStdString(), *profile);  // atomically
    if (member == name) chosen = path;
  }
  return chosen;
}

}  // namespace noisescope::ui
