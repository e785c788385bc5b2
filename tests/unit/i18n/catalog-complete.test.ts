import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { english } from "~/i18n/en";
import { cjkLiterals, placeholderShape } from "../../support/cjk-literals";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SCANNED = ["app/domain", "app/web", "app/relay", "app/routes", "app/components", "app/root.tsx", "app/utils", "app/messages.ts"];

/**
 * Chinese literals that are not messages of this step, each with why. A file listed without
 * texts is left whole; with texts, only those. Everything else needs an English entry.
 */
const NOT_MESSAGES: { file: string; texts?: string[]; reason: string }[] = [
  { file: "app/components/shell/TopBar.tsx", texts: ["中文"], reason: "the switch to Chinese is named in Chinese, marked lang=zh-CN" },
  // Pages whose markup is still Chinese only, by area: each entry goes when its area is translated.
  // -- pending: channels
  { file: "app/components/channels", reason: "pending: channel pages" },
  { file: "app/routes/channel._index.tsx", reason: "pending: channel pages" },
  { file: "app/routes/channel.add.tsx", reason: "pending: channel pages" },
  { file: "app/routes/channel.edit.$id.tsx", reason: "pending: channel pages" },
  // -- pending: settings
  { file: "app/components/settings", reason: "pending: settings pages" },
  { file: "app/routes/setting.tsx", reason: "pending: settings pages" },
  { file: "app/routes/user.edit._index.tsx", reason: "pending: settings pages" },
  // -- pending: logs, tasks, dashboard, pricing, wallet, playground, home
  { file: "app/components/logs", reason: "pending: usage pages" },
  { file: "app/components/tasks", reason: "pending: usage pages" },
  { file: "app/components/charts", reason: "pending: usage pages" },
  { file: "app/components/pricing", reason: "pending: usage pages" },
  { file: "app/components/wallet", reason: "pending: usage pages" },
  { file: "app/components/playground", reason: "pending: usage pages" },
  { file: "app/components/chat", reason: "pending: usage pages" },
  { file: "app/routes/log.tsx", reason: "pending: usage pages" },
  { file: "app/routes/midjourney.tsx", reason: "pending: usage pages" },
  { file: "app/routes/task.tsx", reason: "pending: usage pages" },
  { file: "app/routes/detail.tsx", reason: "pending: usage pages" },
  { file: "app/routes/topup.tsx", reason: "pending: usage pages" },
  { file: "app/routes/_index.tsx", reason: "pending: usage pages" },
  { file: "app/routes/about.tsx", reason: "pending: usage pages" },
  // Labels shown inside page markup: translated with the pages, a later step (docs/decisions/045).
  { file: "app/web/settings/option-cards.server.ts", reason: "settings-page field labels and hints (page markup)" },
  { file: "app/web/settings/other.server.ts", reason: "settings-page field labels and hints (page markup)" },
  { file: "app/web/settings/tabs.ts", reason: "settings-page tab names (page markup)" },
  { file: "app/domain/options/registry.ts", reason: "the product's option names, which are keys stored in the options table" },
  { file: "app/domain/options/defs.ts", reason: "default option values (group names, chat-link names) stored as data" },
  { file: "app/domain/channels/catalog-data.ts", reason: "channel type names shown in page markup" },
  { file: "app/domain/channels/channel-display.ts", reason: "status labels shown in page markup" },
  { file: "app/web/channels/channel-form.server.ts", texts: ["必填，该渠道类型没有默认地址", "可选，留空使用官方地址 {{}}", "可选，留空由该渠道类型自行决定地址"], reason: "form hints shown in page markup" },
  { file: "app/domain/channels/channel-key-hints.ts", reason: "a key hint shown in page markup" },
  { file: "app/utils/model-families.ts", reason: "the model picker's group heading shown in page markup" },
  { file: "app/domain/usage/buckets.ts", reason: "chart axis labels shown in page markup" },
  { file: "app/domain/groups/groups.server.ts", reason: "the reference's fixed description of the user group, returned as data" },
  { file: "app/domain/chats/chat-links.ts", reason: "the default chat-link name, data" },
  { file: "app/web/log-export.server.ts", reason: "CSV column headers and cell words of the log export (a page-level download)" },
  { file: "app/domain/channels/channels.server.ts", texts: ["_复制"], reason: "the suffix of a copied channel's name: data" },
  { file: "app/routes/api.channel.copy.$id.ts", texts: ["_复制"], reason: "the suffix of a copied channel's name: data" },
  // Checks of what an upstream said, not messages of ours.
  { file: "app/relay/adapters/openai-compatible/compatible-adapter.ts", texts: ["该"], reason: "a word matched in an upstream's reply" },
  // Upstream-adapter, stream and task errors: a later step (docs/decisions/045).
  // The relay's own refusals and its log lines are in the catalog.
  { file: "app/relay/adapters", reason: "upstream-adapter errors on /v1 (next step)" },
  { file: "app/relay/stream", reason: "/v1 stream errors (next step)" },
  { file: "app/relay/tasks", reason: "/mj and /suno task errors (next step)" },
];

function allowed(file: string, shape: string): boolean {
  return NOT_MESSAGES.some((entry) => (file === entry.file || file.startsWith(`${entry.file}/`)) && (!entry.texts || entry.texts.map(placeholderShape).includes(shape)));
}

const keyShapes = new Set(Object.keys(english).map(placeholderShape));

// Parsing the whole server tree takes seconds: once for every check.
const literals = cjkLiterals(ROOT, SCANNED);

describe("the English catalog", () => {
  it("has an entry for every Chinese text a page or the server can show", () => {
    const missing = literals
      .map((literal) => ({ ...literal, shape: placeholderShape(literal.text) }))
      .filter((literal) => !allowed(literal.file, literal.shape) && (literal.fixed || !keyShapes.has(literal.shape)))
      .map((literal) => `${literal.file}:${literal.line} ${literal.fixed ? "(written into the markup: use t()) " : ""}${JSON.stringify(literal.text)}`);
    expect(missing).toEqual([]);
  });

  it("holds English only: no entry's translation contains Chinese", () => {
    const chinese = Object.entries(english).filter(([, text]) => /[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]/.test(text));
    expect(chinese).toEqual([]);
  });

  it("keeps every placeholder of a key in its translation", () => {
    const names = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    const mismatched = Object.entries(english).filter(([key, text]) => names(key).join() !== [...new Set(names(text))].sort().join() && names(key).join() !== names(text).join());
    expect(mismatched).toEqual([]);
  });

  it("lists only files that exist, so the allow-list cannot hide a renamed module", () => {
    const files = new Set(literals.map((literal) => literal.file));
    const stale = NOT_MESSAGES.filter((entry) => ![...files].some((file) => file === entry.file || file.startsWith(`${entry.file}/`)));
    expect(stale).toEqual([]);
  });
});
