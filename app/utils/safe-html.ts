/**
 * The footer is operator HTML (the reference's `footer_html`: links, ICP numbers, a badge), shown
 * on every page to every visitor. It is rebuilt from an allowlist rather than trusted: only the
 * tags and attributes below survive, every attribute value and all text are re-escaped, and links
 * and images must be http(s), mailto or site-relative. So a stolen root session cannot plant
 * script in everyone's console through it.
 */
const ALLOWED_TAGS = new Set(["a", "b", "br", "div", "em", "i", "img", "p", "small", "span", "strong", "u"]);
const VOID_TAGS = new Set(["br", "img"]);
const ALLOWED_ATTRS: Record<string, readonly string[]> = {
  a: ["href", "title", "target"],
  img: ["src", "alt", "title", "width", "height"],
};
const SAFE_URL = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)[^\s"'<>`\\]*$/i;
const TAG =
  /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTR = /([a-zA-Z][a-zA-Z0-9-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Text keeps the operator's entities (&copy;, &nbsp;): decoded inside text they are only text. */
function escapeBetweenTags(text: string): string {
  return text
    .replace(/&(?!#?[a-zA-Z0-9]{1,32};)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function safeAttributes(tag: string, source: string): string {
  const allowed = ALLOWED_ATTRS[tag] ?? [];
  let out = "";
  for (const match of source.matchAll(ATTR)) {
    const name = match[1]!.toLowerCase();
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    if (!allowed.includes(name)) continue;
    if ((name === "href" || name === "src") && !SAFE_URL.test(value)) continue;
    if ((name === "width" || name === "height") && !/^\d{1,4}$/.test(value)) continue;
    if (name === "target") {
      if (value !== "_blank") continue;
      out += ' target="_blank" rel="noopener noreferrer"';
      continue;
    }
    out += ` ${name}="${escapeText(value)}"`;
  }
  return out;
}

export function sanitizeFooterHtml(html: string): string {
  let out = "";
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    out += escapeBetweenTags(html.slice(last, match.index));
    last = match.index + match[0].length;
    const closing = match[1] === "/";
    const tag = match[2]!.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) continue;
    if (closing) out += VOID_TAGS.has(tag) ? "" : `</${tag}>`;
    else out += `<${tag}${safeAttributes(tag, match[3] ?? "")}>`;
  }
  return out + escapeBetweenTags(html.slice(last));
}
