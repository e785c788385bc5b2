import { expect as baseExpect, test as base, type Browser } from "@playwright/test";
import { english as catalog } from "../../app/i18n/en";
import { translateText } from "../../app/i18n/translate";
import { startConsoleServer, type ConsoleServer } from "./console-server";

/**
 * The flows are written as a Chinese reader sees the console: they find a field by 用户名 and
 * expect 兑换成功！. A project whose browser asks for English (`locale: "en-US"`) runs the same
 * flows against the English pages: every page text a test looks for — a locator's label, role
 * name, text or placeholder, an option label, an expected text or title — is read through the
 * app's own English catalog first (exact entries, and messages with values read back from their
 * template, as the server does). What a test types or picks by value is data and stays as it is.
 */
// Chinese characters and the full-width punctuation of Chinese text (：，（）).
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

let english = false;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A settings card's button, 保存 and its title joined as the pages join them ("Save Notice"). */
function savingButton(value: string): string | undefined {
  const rest = value.startsWith("保存") ? value.slice("保存".length) : "";
  const title = rest && !Object.hasOwn(catalog, value) ? translateText("en", rest) : "";
  if (!title || CJK.test(title)) return undefined;
  return (catalog["{{verb}}{{title}}"] ?? "{{verb}} {{title}}")
    .replace("{{verb}}", translateText("en", "保存"))
    .replace("{{title}}", title);
}

/**
 * Page text in the reader's language. A label the pages also show in the singular (令牌 as
 * "Tokens" in a menu, "Token" over one field: the catalog's `_single` entries) may be either, so
 * such a name becomes a pattern for both.
 */
function textInLanguage(value: string, exact = false, wordStart = false): string | RegExp {
  if (!english || !CJK.test(value)) return value;
  const plain = savingButton(value) ?? translateText("en", value);
  const single = catalog[`${value}_single`];
  if (exact) return single ? new RegExp(`^(?:${escapeRegExp(plain)}|${escapeRegExp(single)})$`) : plain;
  const either = single ? `(?:${escapeRegExp(plain)}|${escapeRegExp(single)})` : escapeRegExp(plain);
  if (plain === value && !single) return value;
  if (!wordStart && !single) return plain;
  // An accessible name (a label, a role's name) is matched from the start of a word and in its
  // case: "Name" must not find "Username" or "Model name" (名称 is no part of 用户名). A label
  // around its select reads on into the options ("Granularity Hour Day"): no end is required.
  // Text content runs cells together ("SunoGenerate music"): matched as Playwright does, any part.
  return wordStart ? new RegExp(`(?<![\\w])${either}`) : new RegExp(either, "i");
}

function inLanguage(value: unknown, exact = false, wordStart = false): unknown {
  if (!english) return value;
  if (typeof value === "string") return textInLanguage(value, exact, wordStart);
  if (Array.isArray(value)) return value.map((item) => inLanguage(item, exact, wordStart));
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const options = { ...(value as Record<string, unknown>) };
    const whole = options.exact === true;
    if (typeof options.name === "string") options.name = textInLanguage(options.name, whole, true);
    for (const key of ["hasText", "hasNotText"])
      if (typeof options[key] === "string") options[key] = textInLanguage(options[key] as string, whole);
    // An option is chosen by its whole label.
    if (typeof options.label === "string")
      options.label = english && CJK.test(options.label) ? translateText("en", options.label) : options.label;
    return options;
  }
  return value;
}

/** A finder's arguments: the text (or role) first, then options that may hold a name and `exact`. */
function findArguments(method: string, args: unknown[]): unknown[] {
  const options = args[1];
  const exact = !!options && typeof options === "object" && (options as { exact?: unknown }).exact === true;
  return [inLanguage(args[0], exact, method === "getByLabel"), inLanguage(options), ...args.slice(2)];
}

/** Methods whose arguments name page text. */
const FINDERS = new Set([
  "getByLabel",
  "getByRole",
  "getByText",
  "getByPlaceholder",
  "getByTitle",
  "getByAltText",
  "filter",
  "locator",
]);

/**
 * What the wrapper reads through: pages, frames and locators, which find page text, and the
 * browser and contexts, which make pages. Known by shape: the bundle's class names are minified.
 */
function isWrappable(value: unknown): value is object {
  if (!value || typeof value !== "object" || value instanceof Promise) return false;
  const { getByRole, newPage } = value as { getByRole?: unknown; newPage?: unknown };
  return typeof getByRole === "function" || typeof newPage === "function";
}

/** One wrapper per object, so that a page reached twice (page.context().pages()) is the same page. */
const wrappers = new WeakMap<object, object>();
const made = new WeakSet<object>();

/**
 * A result, wrapped where it is something that finds page text or makes pages — also inside a
 * promise (newContext, newPage, waitForEvent("popup")) or a list (locator.all(), pages()): a tab
 * a test opens reads English as its first page does.
 */
function wrapResult(value: unknown): unknown {
  if (value instanceof Promise) return value.then(wrapResult);
  if (Array.isArray(value)) return value.some(isWrappable) ? value.map(wrapResult) : value;
  return isWrappable(value) ? wrap(value) : value;
}

function wrap<T extends object>(target: T): T {
  if (made.has(target)) return target;
  const known = wrappers.get(target);
  if (known) return known as T;
  const proxy = new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let given = args;
        if (typeof property === "string" && FINDERS.has(property)) given = findArguments(property, args);
        // selectOption({ label }) names page text; a bare string may be a value: left alone.
        if (property === "selectOption") given = [inLanguage(args[0]), ...args.slice(1)];
        return wrapResult((value as (...a: unknown[]) => unknown).apply(object, given));
      };
    },
  });
  wrappers.set(target, proxy);
  made.add(proxy);
  return proxy;
}

/** An expected text, as the English page writes it (matched as the matcher matches). */
function expectedInLanguage(value: unknown): unknown {
  if (!english) return value;
  if (typeof value === "string") return CJK.test(value) ? translateText("en", value) : value;
  if (Array.isArray(value)) return value.map(expectedInLanguage);
  return value;
}

/** Matchers whose expected value is page text. */
const TEXT_MATCHERS = new Set([
  "toHaveText",
  "toContainText",
  "toHaveTitle",
  "toHaveAccessibleName",
  "toHaveAccessibleDescription",
]);

function wrapMatchers<T extends object>(matchers: T): T {
  return new Proxy(matchers, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (property === "not" && value && typeof value === "object") return wrapMatchers(value);
      if (typeof value !== "function" || typeof property !== "string") return value;
      if (TEXT_MATCHERS.has(property))
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => unknown).apply(object, [expectedInLanguage(args[0]), ...args.slice(1)]);
      if (property === "toHaveAttribute")
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => unknown).apply(object, [
            args[0],
            expectedInLanguage(args[1]),
            ...args.slice(2),
          ]);
      return value;
    },
  });
}

export const expect = new Proxy(baseExpect, {
  apply(target, thisArg, args: Parameters<typeof baseExpect>) {
    return wrapMatchers(Reflect.apply(target, thisArg, args) as object);
  },
}) as typeof baseExpect;

/**
 * While an English test runs, the contexts and pages the worker's browser makes come wrapped:
 * the test's own `context` and `page` (Playwright makes them with browser.newContext()) and
 * those a test makes itself, a second tab or a reader in another time zone. Returns the undoing.
 */
function wrapWhatItMakes(browser: Browser): () => void {
  const own = browser as unknown as Record<string, unknown>;
  for (const method of ["newContext", "newPage"] as const) {
    const make = browser[method] as (...args: unknown[]) => unknown;
    own[method] = (...args: unknown[]) => wrapResult(make.apply(browser, args));
  }
  return () => {
    delete own.newContext;
    delete own.newPage;
  };
}

export const test = base.extend<
  { language: void; readAsWritten: boolean },
  { consoleServer: ConsoleServer; ownServer: boolean }
>({
  // A file that must find the console as a fresh operator does, untouched by other flows,
  // says so: a distinct worker option gives it a worker, and so a server, of its own.
  ownServer: [false, { scope: "worker", option: true }],
  consoleServer: [
    // Asks for `ownServer` so that the server is plainly the worker's: a file that wants its own
    // is a worker of its own.
    async ({ ownServer }, use) => {
      void ownServer;
      const server = await startConsoleServer();
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 150_000 },
  ],
  baseURL: async ({ consoleServer }, use) => use(consoleServer.url),
  // A test that checks the languages themselves reads the pages as they are, whatever its locale.
  readAsWritten: [false, { option: true }],
  // Set up before the test's other fixtures (it is automatic), and for every test: also one that
  // makes its pages from `browser` and has no `page`. The browser is changed for the test's time
  // only: the worker's browser is shared by every file the worker runs.
  language: [
    async ({ browser, readAsWritten }, use, testInfo) => {
      english = !readAsWritten && (testInfo.project.use.locale ?? "").startsWith("en");
      const undo = english ? wrapWhatItMakes(browser) : () => {};
      await use();
      undo();
      english = false;
    },
    { auto: true },
  ],
});

/** Whether this test reads the console in English (for the few checks that must say which). */
export function readsEnglish(): boolean {
  return english;
}

/**
 * A text as the page writes it in the reader's language, for a test that compares what it read
 * itself (a control's validationMessage, a value from page.evaluate) with what it expects.
 */
export function written(text: string): string {
  return expectedInLanguage(text) as string;
}

/**
 * A pattern for a message of the catalog as the reader's language writes it, for a test that
 * looks for part of a message: `said("渠道 {{name}} 测试成功，耗时 {{seconds}} 秒", { name })`
 * matches it with that name and any time. A value left out matches anything. Messages the
 * enhancement scripts finish in the browser hold `{name}` instead (已复制：{text}): a value given
 * for such a name fills it too; one not given stays as written, as the page may show it so.
 */
export function said(key: string, values: Record<string, string | number> = {}): RegExp {
  if (english && !Object.hasOwn(catalog, key)) throw new Error(`not in the English catalog: ${key}`);
  const text = english ? catalog[key]! : key;
  const source = text
    .split(/(\{\{\s*\w+\s*\}\}|\{\w+\})/)
    .map((part) => {
      const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1];
      if (name) return name in values ? escapeRegExp(String(values[name])) : "[\\s\\S]+?";
      const scriptName = /^\{(\w+)\}$/.exec(part)?.[1];
      if (scriptName && scriptName in values) return escapeRegExp(String(values[scriptName]));
      return escapeRegExp(part);
    })
    .join("");
  return new RegExp(source);
}
