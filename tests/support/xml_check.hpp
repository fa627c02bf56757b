#pragma once
// A small strict XML 1.0 well-formedness checker for the SVG charts the reports write
// (docs/evaluation.md): one root element, properly nested and matching tags, quoted attributes
// without duplicates or a raw `<`, only the five predefined entities and numeric character
// references, no text outside the root, valid UTF-8. Comments, processing instructions and an XML
// declaration are accepted; DOCTYPE and CDATA are not (the writer never emits them). Returns ""
// when well-formed, else "offset N: what is wrong".
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace qaplan::test {

inline std::string xml_error(std::string_view x) {
  std::size_t i = 0;
  std::vector<std::string> open;
  bool root_seen = false;
  auto err = [&](const std::string& m) { return "offset " + std::to_string(i) + ": " + m; };
  auto name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == ':' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
  };
  auto read_name = [&]() {
    const std::size_t b = i;
    while (i < x.size() && name_char(x[i])) ++i;
    return std::string(x.substr(b, i - b));
  };
  auto check_text = [&](std::string_view t, std::size_t at) -> std::string {
    for (std::size_t k = 0; k < t.size(); ++k) {
      const char c = t[k];
      if (c == '<') return "offset " + std::to_string(at + k) + ": raw '<' in text";
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
        return "offset " + std::to_string(at + k) + ": control character";
      if (c == '&') {
        const std::size_t semi = t.find(';', k);
        if (semi == std::string_view::npos) return "offset " + std::to_string(at + k) + ": bare '&'";
        const std::string_view ent = t.substr(k + 1, semi - k - 1);
        static const std::set<std::string_view> kNamed = {"amp", "lt", "gt", "quot", "apos"};
        bool ok = kNamed.count(ent) > 0;
        if (!ok && ent.size() > 1 && ent[0] == '#') {
          ok = true;
          const bool hex = ent[1] == 'x';
          for (std::size_t j = hex ? 2 : 1; j < ent.size(); ++j)
            ok = ok && (hex ? std::isxdigit(static_cast<unsigned char>(ent[j]))
                            : std::isdigit(static_cast<unsigned char>(ent[j])));
          ok = ok && ent.size() > (hex ? 2u : 1u);
        }
        if (!ok) return "offset " + std::to_string(at + k) + ": unknown entity &" + std::string(ent) + ";";
        k = semi;
      }
    }
    return "";
  };
  // UTF-8 validity.
  for (std::size_t k = 0; k < x.size();) {
    const auto b = static_cast<unsigned char>(x[k]);
    std::size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || k + len > x.size()) return "offset " + std::to_string(k) + ": invalid UTF-8";
    for (std::size_t j = 1; j < len; ++j)
      if ((static_cast<unsigned char>(x[k + j]) & 0xC0) != 0x80)
        return "offset " + std::to_string(k) + ": invalid UTF-8";
    k += len;
  }
  while (i < x.size()) {
    if (x[i] != '<') {
      const std::size_t next = x.find('<', i);
      const std::string_view text = x.substr(i, next == std::string_view::npos ? x.size() - i : next - i);
      if (open.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos)
        return err("text outside the root element");
      if (auto e = check_text(text, i); !e.empty()) return e;
      i += text.size();
      continue;
    }
    if (x.substr(i, 4) == "<!--") {
      const std::size_t end = x.find("-->", i + 4);
      if (end == std::string_view::npos) return err("unterminated comment");
      i = end + 3;
      continue;
    }
    if (x.substr(i, 2) == "<?") {
      if (root_seen || !open.empty()) return err("processing instruction after the root started");
      const std::size_t end = x.find("?>", i + 2);
      if (end == std::string_view::npos) return err("unterminated processing instruction");
      i = end + 2;
      continue;
    }
    if (x.substr(i, 2) == "<!") return err("DOCTYPE/CDATA not expected");
    if (x.substr(i, 2) == "</") {
      i += 2;
      const std::string name = read_name();
      while (i < x.size() && (x[i] == ' ' || x[i] == '\n' || x[i] == '\t')) ++i;
      if (i >= x.size() || x[i] != '>') return err("malformed end tag");
      ++i;
      if (open.empty() || open.back() != name) return err("end tag </" + name + "> does not match");
      open.pop_back();
      continue;
    }
    ++i;
    const std::string name = read_name();
    if (name.empty()) return err("empty element name");
    if (open.empty() && root_seen) return err("second root element <" + name + ">");
    root_seen = true;
    std::set<std::string> attrs;
    while (true) {
      while (i < x.size() && (x[i] == ' ' || x[i] == '\n' || x[i] == '\t' || x[i] == '\r')) ++i;
      if (i >= x.size()) return err("unterminated start tag <" + name + ">");
      if (x[i] == '>') {
        ++i;
        open.push_back(name);
        break;
      }
      if (x.substr(i, 2) == "/>") {
        i += 2;
        break;
      }
      const std::string attr = read_name();
      if (attr.empty()) return err("bad attribute in <" + name + ">");
      if (!attrs.insert(attr).second) return err("duplicate attribute " + attr);
      if (i >= x.size() || x[i] != '=') return err("attribute " + attr + " without '='");
      ++i;
      if (i >= x.size() || (x[i] != '"' && x[i] != '\'')) return err("unquoted attribute " + attr);
      const char q = x[i++];
      const std::size_t end = x.find(q, i);
      if (end == std::string_view::npos) return err("unterminated attribute " + attr);
      if (auto e = check_text(x.substr(i, end - i), i); !e.empty()) return e;
      i = end + 1;
    }
  }
  if (!open.empty()) return "unclosed element <" + open.back() + ">";
  if (!root_seen) return "no root element";
  return "";
}

}  // namespace qaplan::test
