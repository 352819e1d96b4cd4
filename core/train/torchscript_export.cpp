#include "train/torchscript_export.h"

#include <torch/script.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "util/atomic_file.h"
#include "train/networks.h"
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

int64_t groupsFor(int64_t channels) {
  return std::gcd<int64_t>(8, channels);
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
    return "torch.group_norm(" + x + ", " + std::to_string(groupsFor(channels)) + ", " +
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
  const NetworkSpec& s = denoiser.spec();
  const double sd = s.sigmaData;
  std::ostringstream src;
  src << rawNetwork(s);
  src << "    def forward(self, x: Tensor, sigma: Tensor) -> Tensor:\n"
      << "        s = sigma.to(x.dtype)\n"
      << "        s2 = s * s + " << num(sd * sd) << "\n"
      << "        shape: List[int] = [x.size(0)]\n"
      << "        for _ in range(x.dim() - 1):\n"
      << "            shape.append(1)\n"
      << "        c_skip = (" << num(sd * sd) << " / s2).view(shape)\n"
      << "        c_out = (s * " << num(sd) << " / torch.sqrt(s2)).view(shape)\n"
      << "        c_in = torch.rsqrt(s2).view(shape)\n"
      << "        c_noise = 0.25 * torch.log(s)\n"
      << "        return c_skip * x + c_out * self.raw(c_in * x, c_noise)\n";
  // define() wants the methods without the class indentation.
  std::string text = src.str(), dedented;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);)
    dedented += (l.rfind("    ", 0) == 0 ? l.substr(4) : l) + "\n";
  return dedented;
}

void exportTorchScriptDenoiser(const Denoiser& denoiser, const std::string& path) {
  try {
    torch::jit::Module module("NoiseScopeDenoiser");
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
    module.define(torchScriptSource(denoiser));
    std::ostringstream bytes;
    module.save(bytes);
    writeFileAtomically(path, bytes.str());
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, std::string("cannot export the TorchScript denoiser: ") + e.what());
  }
}

}  // namespace noisescope::train
