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

// What the names of one bracket share: the part after the kind ("population bound ·
// fashion-mnist" → "fashion-mnist"; the workbench's " (2)" of a second bracket stays). A profile
// added on its own keeps its whole name.
QString sharedStem(const QStringList& group, const QString& name) {
  if (group.size() < 2) return fileStem(name);
  const QString separator = QStringLiteral(" · ");
  QString shared;
  for (const QString& member : group) {
    const int at = member.indexOf(separator);
    const QString rest = at < 0 ? member : member.mid(at + separator.size());
    if (!shared.isEmpty() && rest != shared) return fileStem(name);
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
  const QString stem = sharedStem(group, name);
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
