#include "util/file_names.h"

#include <algorithm>
#include <cctype>

namespace noisescope {

std::string fileName(const std::string& path) {
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const size_t slash = trimmed.find_last_of('/');
  return slash == std::string::npos ? trimmed : trimmed.substr(slash + 1);
}

std::string toLower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool hasExtension(const std::string& path, const std::string& extension) {
  const std::string name = toLower(fileName(path));
  const std::string ext = toLower(extension);
  return name.size() > ext.size() && endsWith(name, ext);
}

bool hasAnyExtension(const std::string& path, std::initializer_list<const char*> extensions) {
  for (const char* e : extensions)
    if (hasExtension(path, e)) return true;
  return false;
}

}  // namespace noisescope
