#pragma once
// The one open dialog for TorchScript files (checkpoints, feature networks). Its title says what
// the docs say (docs/user-guide.md, "Checkpoints are programs"): loading a TorchScript file runs
// the code inside it, so open only files you trust. The workbench loads TorchScript only from a
// path the user picked here, typed, or named on the command line.
#include <QString>

class QWidget;

namespace noisescope::ui {

// The chosen path, or "" when the user cancelled. `what`: "TorchScript denoiser", …
QString chooseTorchScriptFile(QWidget* parent, const QString& what);

// The dialog's title for `what` (tests read it).
QString torchScriptDialogTitle(const QString& what);

}  // namespace noisescope::ui
