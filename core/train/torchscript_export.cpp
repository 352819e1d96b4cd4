#include "train/torchscript_export.h"

#include <torch/script.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <utility>

#include "schedule/preconditioning.h"
#include "tensor/torchscript_model.h"
#include "train/networks.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope::train {
namespace {

std::string attr(const std::string& moduleName) {
  std::string out = moduleName;
  for (char& c : out)
    if (c == '.') c = '_';
  return "self." + out;
}

std::string num(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  std::string s = buffer;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

// A TorchScript expression under construction. The export instantiates the templates of
// schedule/preconditioning.h with it, so the exported module's c_skip, c_out, c_in, c_noise and
// D = c_skip·x + c_out·F(c_in·x, c_noise) are written by the very lines that compute them in the
// networks: the formula exists once. Every operation is parenthesised; numbers round-trip.
// Only the operations the templates use are defined (a new one fails to compile, not to export).
struct Script {
  std::string text;
};
Script binary(const std::string& a, const char* op, const std::string& b) {
  return {"(" + a + " " + op + " " + b + ")"};
}
Script operator+(const Script& a, const Script& b) {
  return binary(a.text, "+", b.text);
}
Script operator+(const Script& a, double b) {
  return binary(a.text, "+", num(b));
}
Script operator*(const Script& a, const Script& b) {
  return binary(a.text, "*", b.text);
}
Script operator*(const Script& a, double b) {
  return binary(a.text, "*", num(b));
}
Script operator*(double a, const Script& b) {
  return binary(num(a), "*", b.text);
}
Script operator/(const Script& a, const Script& b) {
  return binary(a.text, "/", b.text);
}
Script operator/(double a, const Script& b) {
  return binary(num(a), "/", b.text);
}
// Found by argument-dependent lookup from the templates' unqualified sqrt and log.
Script sqrt(const Script& a) {
  return {"torch.sqrt(" + a.text + ")"};
}
Script log(const Script& a) {
  return {"torch.log(" + a.text + ")"};
}

// Writes straight-line TorchScript mirroring networks.cpp, one statement per line.
class ScriptWriter {
 public:
  std::ostringstream out;

  void line(const std::string& s) { out << "        " << s << "\n"; }

  std::string linear(const std::string& x, const std::string& name) {
    return "torch.linear(" + x + ", " + attr(name + ".weight") + ", " + attr(name + ".bias") + ")";
  }
  std::string conv(int dims, const std::string& x, const std::string& name, int64_t pad,
                   int64_t dilation) {
    const std::string p = std::to_string(pad), d = std::to_string(dilation);
    const std::string pads = dims == 2 ? "[" + p + ", " + p + "]" : "[" + p + "]";
    const std::string dils = dims == 2 ? "[" + d + ", " + d + "]" : "[" + d + "]";
    const std::string ones = dims == 2 ? "[1, 1]" : "[1]";
    return std::string(dims == 2 ? "torch.conv2d(" : "torch.conv1d(") + x + ", " +
           attr(name + ".weight") + ", " + attr(name + ".bias") + ", " + ones + ", " + pads + ", " +
           dils + ", 1)";
  }
  std::string norm(const std::string& x, const std::string& name, int64_t channels) {
    return "torch.group_norm(" + x + ", " + std::to_string(groupNormGroups(channels)) + ", " +
           attr(name + ".weight") + ", " + attr(name + ".bias") + ", 1.0000000000000001e-05, " +
           "False)";
  }

  void embedding(int64_t size) {
    line("angles = c_noise.unsqueeze(1) * self.net_embed_frequencies.unsqueeze(0)");
    line("e = torch.cat([torch.cos(angles), torch.sin(angles)], 1)");
    line("e = " + linear("torch.silu(" + linear("e", "net.embed.fc1") + ")", "net.embed.fc2"));
  }

  // ResBlock: result in `out`, input `in`.
  void resBlock(int dims, const std::string& out, const std::string& in, const std::string& name,
                int64_t inCh, int64_t outCh, int64_t kernel, int64_t dilation) {
    line("r = " + conv(dims, "torch.silu(" + norm(in, name + ".norm1", inCh) + ")", name + ".conv1",
                       dilation * (kernel / 2), dilation));
    line("b = " + linear("e", name + ".emb"));
    line(dims == 2 ? "b = b.unsqueeze(-1).unsqueeze(-1)" : "b = b.unsqueeze(-1)");
    line("r = " + conv(dims, "torch.silu(" + norm("r + b", name + ".norm2", outCh) + ")",
                       name + ".conv2", kernel / 2, 1));
    const std::string skip = inCh != outCh ? conv(dims, in, name + ".skip", 0, 1) : in;
    line(out + " = r + " + skip);
  }
};

std::string rawNetwork(const NetworkSpec& s) {
  ScriptWriter w;
  w.out << "    def raw(self, x: Tensor, c_noise: Tensor) -> Tensor:\n";
  w.embedding(s.embedding);
  if (s.kind == "mlp") {
    w.line("h = torch.silu(" + w.linear("torch.cat([x.flatten(1), e], 1)", "net.input") + ")");
    for (int64_t i = 0; i < s.depth; ++i) {
      const std::string k = std::to_string(i);
      w.line("h = h + torch.silu(" + w.linear("h", "net.hidden" + k) + " + " +
             w.linear("e", "net.inject" + k) + ")");
    }
    w.line("return " + w.linear("h", "net.output") + ".view(x.size())");
  } else if (s.kind == "unet") {
    const int64_t c = s.channels;
    auto pool = [](const std::string& v) {
      return v + ".view([" + v + ".size(0), " + v + ".size(1), " + v + ".size(2) // 2, 2, " + v +
             ".size(3) // 2, 2]).mean([3, 5])";
    };
    auto up = [](const std::string& v) {
      return v + ".repeat_interleave(2, 2).repeat_interleave(2, 3)";
    };
    w.line("h = " + w.conv(2, "x", "net.stem", 1, 1));
    w.resBlock(2, "h0", "h", "net.down0", c, c, 3, 1);
    w.line("p = " + pool("h0"));
    w.resBlock(2, "h1", "p", "net.down1", c, 2 * c, 3, 1);
    w.line("p = " + pool("h1"));
    w.resBlock(2, "h", "p", "net.mid", 2 * c, 2 * c, 3, 1);
    w.line("p = torch.cat([" + up("h") + ", h1], 1)");
    w.resBlock(2, "h", "p", "net.up1", 4 * c, 2 * c, 3, 1);
    w.line("p = torch.cat([" + up("h") + ", h0], 1)");
    w.resBlock(2, "h", "p", "net.up0", 3 * c, c, 3, 1);
    w.line("return " +
           w.conv(2, "torch.silu(" + w.norm("h", "net.out_norm", c) + ")", "net.out", 1, 1));
  } else {
    const int64_t c = s.channels;
    w.line("h = " + w.conv(1, "x.transpose(1, 2)", "net.stem", 2, 1));
    for (int64_t i = 0; i < s.blocks; ++i)
      w.resBlock(1, "h", "h", "net.block" + std::to_string(i), c, c, 5, int64_t(1) << (i % 4));
    w.line("return " +
           w.conv(1, "torch.silu(" + w.norm("h", "net.out_norm", c) + ")", "net.out", 0, 1) +
           ".transpose(1, 2)");
  }
  return w.out.str();
}

}  // namespace

std::string torchScriptSource(const Denoiser& denoiser) {
  const schedule::EdmPreconditioning& pre = denoiser.preconditioning();
  const Script s{"s"};
  std::ostringstream src;
  src << rawNetwork(denoiser.spec());
  // The coefficients, one method each (callable on the exported module, e.g. m.c_skip(sigma)),
  // and forward, all written by instantiating the preconditioning's templates with Script.
  const std::pair<const char*, Script> coefficients[] = {{"c_skip", pre.cSkip(s)},
                                                         {"c_out", pre.cOut(s)},
                                                         {"c_in", pre.cIn(s)},
                                                         {"c_noise", pre.cNoise(s)}};
  for (const auto& [name, expression] : coefficients)
    src << "    def " << name << "(self, s: Tensor) -> Tensor:\n"
        << "        return " << expression.text << "\n";
  const Script denoised = pre.denoise(
      Script{"x"}, s,
      [](const Script& input, const Script& cNoise) {
        return Script{"self.raw(" + input.text + ", " + cNoise.text + ")"};
      },
      [](const Script& c) { return Script{c.text + ".view(shape)"}; });
  src << "    def forward(self, x: Tensor, sigma: Tensor) -> Tensor:\n"
      << "        s = sigma.to(x.dtype)\n"
      << "        shape: List[int] = [x.size(0)]\n"
      << "        for _ in range(x.dim() - 1):\n"
      << "            shape.append(1)\n"
      << "        return " << denoised.text << "\n";
  // define() wants the methods without the class indentation.
  std::string text = src.str(), dedented;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);)
    dedented += (l.rfind("    ", 0) == 0 ? l.substr(4) : l) + "\n";
  return dedented;
}

void exportTorchScriptDenoiser(const Denoiser& denoiser, const std::string& path) {
  torch::jit::Module module("NoiseScopeDenoiser");
  try {
    for (const auto& [name, tensor] : denoiser.namedParameters()) {
      std::string key = name;
      for (char& c : key)
        if (c == '.') c = '_';
      module.register_parameter(key, tensor.detach().to(torch::kCPU).clone(), false);
    }
    const NetworkSpec& s = denoiser.spec();
    // The embedding's fixed frequencies, computed as NoiseEmbedding computes them.
    module.register_buffer(
        "net_embed_frequencies",
        torch::exp(torch::linspace(0.0, std::log(100.0), s.embedding / 2, torch::kFloat32)));
    module.register_attribute("sigma_data", c10::FloatType::get(), s.sigmaData);
    // What it was trained on, so that a mismatched dataset is refused with both shapes named.
    module.register_attribute("sample_shape", c10::ListType::ofInts(), c10::IValue(s.sampleShape));
    module.define(torchScriptSource(denoiser));
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, std::string("cannot build the TorchScript denoiser: ") + e.what());
  }
  saveTorchScriptAtomically(module, path, "the TorchScript denoiser");
}

}  // namespace noisescope::train
