#pragma once
// The one set of file-name helpers: extensions are compared case-insensitively everywhere, so
// "MODEL.JSON" and "model.json" are read and written alike.
#include <initializer_list>
#include <string>

namespace noisescope {

// "/a/b/train-images.gz" → "train-images.gz".
std::string fileName(const std::string& path);
std::string toLower(std::string text);
bool endsWith(const std::string& text, const std::string& suffix);  // case-sensitive
// True when the path's name ends in `extension` (".json"), ignoring case; a bare ".json" is not a
// file name with that extension.
bool hasExtension(const std::string& path, const std::string& extension);
bool hasAnyExtension(const std::string& path, std::initializer_list<const char*> extensions);

}  // namespace noisescope
