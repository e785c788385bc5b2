import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, type ApiSession } from "../support/api";
import { startAnthropicMock, type AnthropicMock } from "../mocks/anthropic-upstream";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

let root: ApiSession;
let claude: AnthropicMock;
let azure: MockUpstream;
const claudeModel = uniqueModel("claude");
const azureModel = `${uniqueModel("az")}.5`;

beforeAll(async () => {
  root = await loginRoot();
  claude = await startAnthropicMock("sk-ant-test");
  azure = await startOpenAiMock({ apiKey: "azure-key" });
  await mergeOption(root, "ModelRatio", { [claudeModel]: 1, [azureModel]: 1 });
  await mergeOption(root, "CompletionRatio", { [claudeModel]: 5, [azureModel]: 1 });
  await createChannel(root, {
    type: 14,
    key: "sk-ant-test",
    base_url: claude.url,
    models: claudeModel,
    model_mapping: JSON.stringify({ [claudeModel]: "claude-3-5-sonnet-20241022" }),
  });
  await createChannel(root, {
    type: 3,
    key: "azure-key",
    base_url: azure.url,
    models: azureModel,
    other: "2024-10-21",
  });
});
afterAll(async () => {
  await claude.close();
  await azure.close();
});

describe("Anthropic Claude through the OpenAI wire", () => {
  it("converts a chat completion both ways and bills (412 + 14×5) × 1 = 482", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: claudeModel,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
      ],
      max_tokens: 100,
    });
    expect(reply.choices[0]?.message.content).toBe("It is 4°C with rain in Oslo.");
    expect(reply.choices[0]?.finish_reason).toBe("stop");
    const sent = claude.requests.at(-1)!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(JSON.parse(sent.body)).toEqual({
      model: "claude-3-5-sonnet-20241022",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }],
    });
    expect((await quotaOf(user)).used_quota).toBe(482);
  });

  it("streams tool calls translated into OpenAI deltas", async () => {
    const { user, client } = await userWithToken(100_000);
    const stream = await client.chat.completions.create({
      model: claudeModel,
      stream: true,
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
        },
      ],
    });
    let args = "";
    let name = "";
    let finish = "";
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta?.tool_calls?.[0];
      if (call?.function?.name) name = call.function.name;
      args += call?.function?.arguments ?? "";
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    }
    expect(name).toBe("get_weather");
    expect(JSON.parse(args)).toEqual({ city: "Oslo" });
    expect(finish).toBe("tool_calls");
    // (380 + 41×5) × 1 = 585
    expect((await quotaOf(user)).used_quota).toBe(585);
  });
});

describe("Azure OpenAI", () => {
  it("calls the deployment URL with api-version and api-key", async () => {
    const { client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: azureModel,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(reply.choices[0]?.message.content).toBe("Hello there.");
    const sent = azure.requests.at(-1)!;
    expect(sent.path).toBe(
      `/openai/deployments/${azureModel.replaceAll(".", "")}/chat/completions?api-version=2024-10-21`,
    );
    expect(sent.headers["api-key"]).toBe("azure-key");
    expect(sent.headers.authorization).toBeUndefined();
  });
});
