#pragma once
// The session's profiles as files, for a job that reads a profile by its path (the sampling race's
// entropic and auto grids). A profile is written into a folder as "<stem>.<kind>.json" together
// with the profiles added with it (a bracket's curves), so that a reader which finds a bracket's
// files from one of them (pipeline::bracketProfileFiles, the auto grid) finds them all.
#include <QString>

namespace noisescope::ui {

class Workbench;

// Writes the workbench's profile `name` and its siblings into `folder` (created if missing);
// returns the path of `name`'s file. Throws (std::exception, naming the file) when one cannot be
// written or `name` is not a profile of the session.
QString writeSessionProfile(const Workbench& workbench, const QString& name, const QString& folder);

}  // namespace noisescope::ui
