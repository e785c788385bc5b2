import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { apiLogin, mergeOption, uniqueName } from "./helpers";

let upstream: MockUpstream;
let model: string;

/** A channel answering one priced model of its own, so every reply here comes from this mock. */
test.beforeAll(async ({ browser, consoleServer }) => {
  upstream = await startOpenAiMock();
  model = uniqueName("pg");
  const context = await browser.newContext({ baseURL: consoleServer.url });
  await apiLogin(context.request, "root", "123456");
  const channel = await context.request.post("/api/channel/", {
    headers: { "New-Api-User": "1" },
    data: { type: 1, name: uniqueName("pgch"), key: "sk-x", base_url: upstream.url, models: model, group: "default" },
  });
  expect(((await channel.json()) as { success: boolean }).success).toBe(true);
  await mergeOption(context.request, "ModelPrice", { [model]: 0.001 });
  await context.close();
});
test.afterAll(async () => upstream.close());
test.afterEach(() => {
  upstream.fault = undefined;
});

/** The playground as root, with the test's model chosen; with script, once the script has the form. */
async function openPlayground(page: Page, javaScriptEnabled: boolean) {
  await apiLogin(page.request, "root", "123456");
  await page.goto("/playground");
  if (javaScriptEnabled) await page.locator("form[data-playground][data-ready]").waitFor({ state: "attached" });
  await page.getByLabel("模型").selectOption(model);
}

async function ask(page: Page, text: string) {
  await page.getByLabel("消息").fill(text);
  await page.getByRole("button", { name: "发送" }).click();
}

const assistant = (page: Page) => page.locator('[data-role="assistant"]');
/** What the mock upstream was last asked for in a chat. */
const lastChatRequest = () =>
  JSON.parse(upstream.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!.body) as {
    stream?: boolean;
    messages: { role: string; content: string }[];
  };

test.describe("playground @nojs", () => {
  test("asks a model and shows the reply, keeps the conversation for the next turn; clear context empties the chat", async ({
    page,
    javaScriptEnabled,
  }) => {
    await openPlayground(page, javaScriptEnabled);
    await ask(page, "Say hi");
    // With script the reply is the streamed one; without, the server's whole reply.
    const first = javaScriptEnabled ? "Hi there." : "Hello there.";
    await expect(assistant(page).last()).toHaveText(first);
    await expect(assistant(page).last()).toHaveAttribute("data-state", "complete");
    await expect(page.locator('[data-role="user"]').last()).toHaveText("Say hi");
    expect(lastChatRequest().stream).toBe(javaScriptEnabled);

    // The second turn goes to the same model with the first one before it.
    await expect(page.getByLabel("模型")).toHaveValue(model);
    await ask(page, "And again");
    await expect(assistant(page)).toHaveCount(2);
    // With script the second reply's bubble appears before its request leaves: wait for the reply.
    await expect(assistant(page).last()).toHaveAttribute("data-state", "complete");
    await expect(page.locator('[data-role="user"]')).toHaveText(["Say hi", "And again"]);
    expect(lastChatRequest().messages.slice(1)).toEqual([
      { role: "user", content: "Say hi" },
      { role: "assistant", content: first },
      { role: "user", content: "And again" },
    ]);

    await page.getByRole("button", { name: "清除上下文" }).click();
    await expect(assistant(page)).toHaveCount(0);
    await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  });

  test("an upstream's refusal is shown in the page in its own words", async ({ page, javaScriptEnabled }) => {
    await openPlayground(page, javaScriptEnabled);
    upstream.fault = {
      kind: "status",
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 8 tokens",
          type: "invalid_request_error",
          param: null,
          code: "context_length_exceeded",
        },
      },
    };
    await ask(page, "Say hi");
    await expect(page.locator("#pg-error")).toContainText("This model's maximum context length is 8 tokens");
    await expect(page.locator('[data-role="user"]').last()).toHaveText("Say hi");
    if (javaScriptEnabled) await expect(assistant(page).last()).toHaveAttribute("data-state", "error");
  });
});

test.describe("playground with script", () => {
  test("streams the reply into the page piece by piece, without leaving it", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await openPlayground(page, true);
    // A page load would lose this: the reply must arrive in the page that asked.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    upstream.fault = { kind: "slow-stream", gapMs: 1500 };
    await ask(page, "Say hi");
    const reply = assistant(page).last();
    // First only the first piece, still streaming; then the whole reply.
    await expect(reply).toHaveText("Hi");
    await expect(reply).toHaveAttribute("data-state", "incomplete");
    await expect(page.getByRole("button", { name: "停止" })).toBeVisible();
    await expect(reply).toHaveText("Hi there.");
    await expect(reply).toHaveAttribute("data-state", "complete");
    await expect(page.getByRole("button", { name: "停止" })).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect(page.getByLabel("消息")).toHaveValue("");
    expect(errors).toEqual([]);
  });

  test("stop ends a streaming reply where it is and the call upstream with it", async ({ page }) => {
    await openPlayground(page, true);
    upstream.fault = { kind: "slow-stream", gapMs: 1500 };
    const abortedBefore = upstream.aborted;
    await ask(page, "Say hi");
    const reply = assistant(page).last();
    await expect(reply).toHaveText("Hi");
    await page.getByRole("button", { name: "停止" }).click();
    await expect(reply).toHaveAttribute("data-state", "complete");
    await expect(page.getByRole("button", { name: "停止" })).toBeHidden();
    await expect(page.getByRole("button", { name: "发送" })).toBeEnabled();
    await expect.poll(() => upstream.aborted).toBeGreaterThan(abortedBefore);
    // Past the time the next piece would have come, the reply is still what it was when stopped.
    await page.waitForTimeout(1800);
    await expect(reply).toHaveText("Hi");

    // The stopped reply is part of the conversation the next turn carries.
    upstream.fault = undefined;
    await ask(page, "Go on");
    await expect(assistant(page).last()).toHaveText("Hi there.");
    expect(lastChatRequest().messages.slice(-2)).toEqual([
      { role: "assistant", content: "Hi" },
      { role: "user", content: "Go on" },
    ]);
  });

  test("an empty message is refused in the page without a call", async ({ page }) => {
    await openPlayground(page, true);
    const calls = upstream.requests.length;
    await page.getByRole("button", { name: "发送" }).click();
    await expect(page.locator("#pg-error")).toHaveText("请输入消息");
    expect(upstream.requests.length).toBe(calls);
  });
});
