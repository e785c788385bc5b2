import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { english } from "~/i18n/en";
import { cjkLiterals, placeholderShape } from "../../support/cjk-literals";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SCANNED = [
  "app/domain",
  "app/web",
  "app/relay",
  "app/routes",
  "app/components",
  "app/root.tsx",
  "app/utils",
  "app/messages.ts",
];

/**
 * Chinese literals that are not messages of this step, each with why. A file listed without
 * texts is left whole; with texts, only those. Everything else needs an English entry.
 */
const NOT_MESSAGES: { file: string; texts?: string[]; reason: string }[] = [
  {
    file: "app/components/shell/TopBar.tsx",
    texts: ["中文"],
    reason: "the switch to Chinese is named in Chinese, marked lang=zh-CN",
  },
  // Stored data: option keys and the default values an operator edits.
  {
    file: "app/domain/options/registry.ts",
    reason: "the product's option names, which are keys stored in the options table",
  },
  { file: "app/domain/options/defs.ts", reason: "default option values (group names, chat-link names) stored as data" },
  {
    file: "app/domain/groups/groups.server.ts",
    reason: "the reference's fixed description of the user group, returned as data",
  },
  { file: "app/domain/chats/chat-links.ts", reason: "the default chat-link name, data" },
  {
    file: "app/domain/channels/channels.server.ts",
    texts: ["_复制"],
    reason: "the suffix of a copied channel's name: data",
  },
  {
    file: "app/routes/api.channel.copy.$id.ts",
    texts: ["_复制"],
    reason: "the suffix of a copied channel's name: data",
  },
  // Checks of what an upstream said, not messages of ours.
  {
    file: "app/relay/adapters/openai-compatible/compatible-adapter.ts",
    texts: ["该"],
    reason: "a word matched in an upstream's reply",
  },
  // Text sent upstream or joined into a message, not a message itself.
  {
    file: "app/relay/adapters/zhipu/zhipu-v3-convert.ts",
    texts: ["好的"],
    reason: "the assistant's reply to a system prompt, sent upstream as a conversation turn",
  },
  {
    file: "app/relay/adapters/vertex/service-account.ts",
    texts: ["、"],
    reason: "the separator between missing field names, a value inside a message",
  },
];

function allowed(file: string, shape: string): boolean {
  return NOT_MESSAGES.some(
    (entry) =>
      (file === entry.file || file.startsWith(`${entry.file}/`)) &&
      (!entry.texts || entry.texts.map(placeholderShape).includes(shape)),
  );
}

const keyShapes = new Set(Object.keys(english).map(placeholderShape));

// Parsing the whole server tree takes seconds: once for every check.
const literals = cjkLiterals(ROOT, SCANNED);

describe("the English catalog", () => {
  it("has an entry for every Chinese text a page or the server can show", () => {
    const missing = literals
      .map((literal) => ({ ...literal, shape: placeholderShape(literal.text) }))
      .filter((literal) => !allowed(literal.file, literal.shape) && (literal.fixed || !keyShapes.has(literal.shape)))
      .map(
        (literal) =>
          `${literal.file}:${literal.line} ${literal.fixed ? "(written into the markup: use t()) " : ""}${JSON.stringify(literal.text)}`,
      );
    expect(missing).toEqual([]);
  });

  it("holds English only: no entry's translation contains Chinese", () => {
    const chinese = Object.entries(english).filter(([, text]) =>
      /[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]/.test(text),
    );
    expect(chinese).toEqual([]);
  });

  it("keeps every placeholder of a key in its translation", () => {
    const names = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    const mismatched = Object.entries(english).filter(
      ([key, text]) =>
        names(key).join() !== [...new Set(names(text))].sort().join() && names(key).join() !== names(text).join(),
    );
    expect(mismatched).toEqual([]);
  });

  it("lists only files that exist, so the allow-list cannot hide a renamed module", () => {
    const files = new Set(literals.map((literal) => literal.file));
    const stale = NOT_MESSAGES.filter(
      (entry) => ![...files].some((file) => file === entry.file || file.startsWith(`${entry.file}/`)),
    );
    expect(stale).toEqual([]);
  });
});
