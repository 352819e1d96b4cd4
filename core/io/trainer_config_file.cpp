#include "io/trainer_config_file.h"

#include <yaml-cpp/yaml.h>

#include <toml++/toml.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/error.h"

namespace noisescope::io {
namespace {

constexpr std::size_t kMaxBytes = 16u << 20;  // settings files are kilobytes
constexpr int kMaxDepth = 64;

std::string withoutDashes(std::string key) {
  const auto start = key.find_first_not_of('-');
  return start == std::string::npos ? std::string() : key.substr(start);
}

void put(TrainerConfigFile& out, const std::string& key, std::string value) {
  const std::string k = withoutDashes(key);
  if (!k.empty()) out.values[k] = std::move(value);
}

std::string joined(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? withoutDashes(key) : prefix + "." + withoutDashes(key);
}

void flattenJson(const nlohmann::json& j, const std::string& prefix, int depth,
                 TrainerConfigFile& out) {
  if (depth > kMaxDepth) throw InputError(out.path, "nested more than 64 levels deep");
  if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      flattenJson(value, joined(prefix, key), depth + 1, out);
  } else if (j.is_array() && !j.empty() && j.front().is_object()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      flattenJson(j[i], joined(prefix, std::to_string(i)), depth + 1, out);
  } else if (!prefix.empty()) {
    put(out, prefix, j.is_string() ? j.get<std::string>() : j.dump());
  }
}

nlohmann::json yamlToJson(const YAML::Node& node, int depth, const std::string& source) {
  if (depth > kMaxDepth) throw InputError(source, "nested more than 64 levels deep");
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json j = nlohmann::json::object();
      for (const auto& entry : node)
        j[entry.first.as<std::string>()] = yamlToJson(entry.second, depth + 1, source);
      return j;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& entry : node) j.push_back(yamlToJson(entry, depth + 1, source));
      return j;
    }
    case YAML::NodeType::Scalar:
      return node.Scalar();
    default:
      return nullptr;
  }
}

nlohmann::json tomlToJson(const toml::node& node, int depth, const std::string& source) {
  if (depth > kMaxDepth) throw InputError(source, "nested more than 64 levels deep");
  if (const auto* table = node.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [key, value] : *table)
      j[std::string(key.str())] = tomlToJson(value, depth + 1, source);
    return j;
  }
  if (const auto* array = node.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& value : *array) j.push_back(tomlToJson(value, depth + 1, source));
    return j;
  }
  if (const auto* v = node.as_string()) return v->get();
  if (const auto* v = node.as_integer()) return v->get();
  if (const auto* v = node.as_floating_point()) return v->get();
  if (const auto* v = node.as_boolean()) return v->get();
  std::ostringstream text;  // dates and times: as TOML writes them
  if (const auto* v = node.as_date())
    text << v->get();
  else if (const auto* v = node.as_time())
    text << v->get();
  else if (const auto* v = node.as_date_time())
    text << v->get();
  return text.str();
}

// Shell words: whitespace splits, '…' and "…" group, a backslash escapes the next character (a
// backslash-newline continues the line), # starts a comment at a word's start.
std::vector<std::string> shellWords(const std::string& text, const std::string& source) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] != '\n') word += text[i + 1], inWord = true;
      ++i;
    } else if (c == '\'' || c == '"') {
      const auto end = text.find(c, i + 1);
      if (end == std::string::npos)
        throw InputError(source, "a quote opened at byte " + std::to_string(i) + " is not closed");
      word += text.substr(i + 1, end - i - 1);
      inWord = true;
      i = end;
    } else if (c == '#' && !inWord) {
      const auto end = text.find('\n', i);
      i = end == std::string::npos ? text.size() : end;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord) words.push_back(word), word.clear(), inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(word);
  return words;
}

void parseCommandLine(const std::string& text, TrainerConfigFile& out) {
  const auto words = shellWords(text, out.path);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0 || w.size() < 3) continue;  // the program and positional arguments
    const auto equals = w.find('=');
    if (equals != std::string::npos) {
      put(out, w.substr(0, equals), w.substr(equals + 1));
    } else if (i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0) {
      put(out, w, words[i + 1]);
      ++i;
    } else {
      put(out, w, "true");
    }
  }
}

std::string lowerExtension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string e = path.substr(dot + 1);
  for (auto& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

}  // namespace

TrainerConfigFile parseTrainerConfig(const std::string& text, const std::string& format,
                                     const std::string& source) {
  TrainerConfigFile out;
  out.path = source;
  out.format = format;
  try {
    if (format == "json") {
      flattenJson(nlohmann::json::parse(text), "", 0, out);
    } else if (format == "yaml") {
      flattenJson(yamlToJson(YAML::Load(text), 0, source), "", 0, out);
    } else if (format == "toml") {
      flattenJson(tomlToJson(toml::parse(text, source), 0, source), "", 0, out);
    } else if (format == "command-line") {
      parseCommandLine(text, out);
    } else {
      throw InputError(source, "unknown settings format '" + format + "'");
    }
  } catch (const InputError&) {
    throw;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, std::string("not valid JSON: ") + e.what());
  } catch (const YAML::Exception& e) {
    throw InputError(source, std::string("not valid YAML: ") + e.what());
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e.source().begin;
    throw InputError(source,
                     "not valid TOML at " + where.str() + ": " + std::string(e.description()));
  }
  if (out.values.empty())
    throw InputError(source, "sets no option (an empty " + format + " settings file)");
  return out;
}

TrainerConfigFile readTrainerConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError(path, "cannot open the settings file");
  const std::streamoff size = in.tellg();
  if (size < 0) throw InputError(path, "cannot read the settings file");
  if (static_cast<std::size_t>(size) > kMaxBytes)
    throw InputError(path, "is larger than 16 MiB; a trainer's settings file is kilobytes");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  in.read(text.data(), size);
  if (in.gcount() != size) throw InputError(path, "cannot read the settings file");
  const std::string e = lowerExtension(path);
  const std::string format = e == "json"                 ? "json"
                             : e == "yaml" || e == "yml" ? "yaml"
                             : e == "toml"               ? "toml"
                                                         : "command-line";
  return parseTrainerConfig(text, format, path);
}

}  // namespace noisescope::io
