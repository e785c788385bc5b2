import { generateKeyPair, exportPKCS8, jwtVerify, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Channel } from "../../../db/schema";
import { ChannelConfigError, type AdapterContext } from "~/relay/adapters/types";
import { accessToken, clearAccessTokens, signAssertion } from "~/relay/adapters/vertex/access-token.server";
import { parseServiceAccount, vertexRegion } from "~/relay/adapters/vertex/service-account";
import { vertexAdapter, vertexClaudeBody, vertexClaudeModel, vertexUrl } from "~/relay/adapters/vertex/vertex-adapter";
import { startVertexMock, type VertexMock } from "../../mocks/vertex-upstream";

let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let pem: string;
let mock: VertexMock;
const clientEmail = "gateway@demo-project.iam.gserviceaccount.com";

beforeAll(async () => {
  keys = await generateKeyPair("RS256", { extractable: true });
  pem = await exportPKCS8(keys.privateKey);
  mock = await startVertexMock({ publicKey: keys.publicKey, clientEmail, projectId: "demo-project" });
});
afterAll(() => mock.close());

const serviceAccount = (tokenUri: string, email = clientEmail) =>
  JSON.stringify({
    type: "service_account",
    project_id: "demo-project",
    private_key_id: "k1",
    private_key: pem,
    client_email: email,
    token_uri: tokenUri,
  });

function ctx(fields: Omit<Partial<AdapterContext>, "channel"> & { channel?: Partial<Channel> } = {}): AdapterContext {
  return {
    mode: "chat",
    path: "/v1/chat/completions",
    body: { model: "v", messages: [{ role: "user", content: "hi" }], max_tokens: 64 },
    upstreamModel: "gemini-1.5-pro",
    requestModel: "v",
    stream: false,
    key: serviceAccount(mock.tokenUri),
    ...fields,
    channel: { id: 41, type: 41, base_url: "", other: "", ...fields.channel } as Channel,
  };
}

describe("Vertex AI configuration", () => {
  it("reads the service account; a key that is not one is a channel misconfiguration", () => {
    expect(parseServiceAccount(serviceAccount("https://oauth2.googleapis.com/token"))).toMatchObject({
      clientEmail,
      projectId: "demo-project",
      privateKeyId: "k1",
      tokenUri: "https://oauth2.googleapis.com/token",
    });
    expect(() => parseServiceAccount("sk-not-json")).toThrow(ChannelConfigError);
    expect(() => parseServiceAccount(JSON.stringify({ client_email: "a@b" }))).toThrow(/private_key、project_id/);
  });

  it("takes the region per model from JSON `other`, else its default, or a plain region; refuses anything else", () => {
    const other = JSON.stringify({ default: "us-central1", "claude-3-5-sonnet@20240620": "europe-west1" });
    expect(vertexRegion(other, "claude-3-5-sonnet@20240620")).toBe("europe-west1");
    expect(vertexRegion(other, "gemini-1.5-pro")).toBe("us-central1");
    expect(vertexUrl(ctx({ upstreamModel: "claude-3-5-sonnet-20240620", channel: { other } }), "p")).toContain(
      "/locations/europe-west1/",
    );
    expect(vertexRegion("asia-northeast1", "x")).toBe("asia-northeast1");
    expect(vertexRegion("", "x")).toBe("us-central1");
    expect(() => vertexRegion("evil.com#", "x")).toThrow(ChannelConfigError);
    expect(() => vertexRegion("{not json", "x")).toThrow(ChannelConfigError);
  });

  it("builds the publisher URLs for Gemini and Claude models", () => {
    expect(vertexUrl(ctx(), "demo-project")).toBe(
      "https://us-central1-aiplatform.googleapis.com/v1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-1.5-pro:generateContent",
    );
    expect(vertexUrl(ctx({ stream: true, channel: { other: "europe-west4" } }), "p")).toBe(
      "https://europe-west4-aiplatform.googleapis.com/v1/projects/p/locations/europe-west4/publishers/google/models/gemini-1.5-pro:streamGenerateContent?alt=sse",
    );
    expect(
      vertexUrl(
        ctx({
          upstreamModel: "claude-3-5-sonnet-20240620",
          stream: true,
          channel: { base_url: "http://127.0.0.1:9/" },
        }),
        "p",
      ),
    ).toBe(
      "http://127.0.0.1:9/v1/projects/p/locations/us-central1/publishers/anthropic/models/claude-3-5-sonnet@20240620:streamRawPredict",
    );
    expect(vertexUrl(ctx({ upstreamModel: "claude-3-haiku@20240307", channel: { other: "global" } }), "p")).toBe(
      "https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/anthropic/models/claude-3-haiku@20240307:rawPredict",
    );
    expect(vertexClaudeModel("claude-3-opus-20240229")).toBe("claude-3-opus@20240229");
  });

  it("sends Claude the Anthropic body without model, with anthropic_version vertex-2023-10-16 (and stream for streamRawPredict)", () => {
    const body = {
      model: "v",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      max_tokens: 64,
      stream: true,
    };
    expect(vertexClaudeBody(body, "claude-3-5-sonnet@20240620", true)).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 64,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      stream: true,
    });
    expect(vertexClaudeBody({ ...body, stream: false }, "c", false)).not.toHaveProperty("stream");
  });
});

describe("service-account tokens", () => {
  it("signs an RS256 JWT with the account as issuer, the token URI as audience and the cloud-platform scope", async () => {
    const account = parseServiceAccount(serviceAccount("https://oauth2.googleapis.com/token"));
    const jwt = await signAssertion(account);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: "RS256", typ: "JWT", kid: "k1" });
    const { payload } = await jwtVerify(jwt, keys.publicKey, {
      issuer: clientEmail,
      audience: "https://oauth2.googleapis.com/token",
    });
    expect(payload.scope).toBe("https://www.googleapis.com/auth/cloud-platform");
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it("exchanges once for concurrent requests and serves the cached token until near expiry", async () => {
    clearAccessTokens();
    const account = parseServiceAccount(serviceAccount(mock.tokenUri));
    const before = mock.exchanges;
    const tokens = await Promise.all(Array.from({ length: 5 }, () => accessToken(account)));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).toMatch(/^ya29\./);
    expect(await accessToken(account)).toBe(tokens[0]);
    expect(mock.exchanges - before).toBe(1);
  });

  it("a JWT signed by another key is refused by the token endpoint, and the failure is not cached", async () => {
    clearAccessTokens();
    const other = await generateKeyPair("RS256", { extractable: true });
    const forged = {
      ...parseServiceAccount(serviceAccount(mock.tokenUri, "forger@demo-project.iam.gserviceaccount.com")),
      privateKey: await exportPKCS8(other.privateKey),
      clientEmail,
    };
    // A refused assertion is the channel's bad credential: the next channel is tried.
    await expect(accessToken(forged)).rejects.toThrow(ChannelConfigError);
    await expect(accessToken(forged)).rejects.toThrow(/Invalid JWT Signature/);
    expect(mock.refused.at(-1)).toMatch(/signature/i);
    const good = parseServiceAccount(serviceAccount(mock.tokenUri));
    await expect(accessToken(good)).resolves.toMatch(/^ya29\./);
  });

  it("the token endpoint is reached through the SSRF guard: a link-local token_uri is refused", async () => {
    clearAccessTokens();
    await expect(accessToken(parseServiceAccount(serviceAccount("http://169.254.169.254/token")))).rejects.toThrow();
  });

  it("buildRequest puts the minted token in Authorization and nothing of the key in the URL", async () => {
    const built = await vertexAdapter.buildRequest(ctx({ channel: { base_url: mock.url } }));
    expect(built.headers.Authorization).toMatch(/^Bearer ya29\./);
    expect(built.url).toBe(
      `${mock.url}/v1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-1.5-pro:generateContent`,
    );
    expect(JSON.parse(String(built.body))).toEqual({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: { maxOutputTokens: 64 },
    });
  });
});

describe("Vertex embeddings", () => {
  it("go to :predict with one instance per input; statistics.token_count is billed", async () => {
    const built = await vertexAdapter.buildRequest(
      ctx({
        mode: "embeddings",
        path: "/v1/embeddings",
        upstreamModel: "text-embedding-004",
        body: { model: "e", input: ["a", "b"], dimensions: 8 },
        channel: { base_url: mock.url },
      }),
    );
    expect(built.url).toBe(
      `${mock.url}/v1/projects/demo-project/locations/us-central1/publishers/google/models/text-embedding-004:predict`,
    );
    expect(JSON.parse(String(built.body))).toEqual({
      instances: [{ content: "a" }, { content: "b" }],
      parameters: { outputDimensionality: 8 },
    });
    const reply = {
      predictions: [
        { embeddings: { values: [0.1, 0.2], statistics: { token_count: 3, truncated: false } } },
        { embeddings: { values: [0.3, 0.4], statistics: { token_count: 4 } } },
      ],
    };
    const converted = vertexAdapter.convertResponse(
      ctx({ mode: "embeddings", requestModel: "e" }),
      Buffer.from(JSON.stringify(reply)),
    );
    expect(converted.usage).toEqual({ prompt_tokens: 7, completion_tokens: 0 });
    expect(JSON.parse(String(converted.body))).toEqual({
      object: "list",
      data: [
        { object: "embedding", index: 0, embedding: [0.1, 0.2] },
        { object: "embedding", index: 1, embedding: [0.3, 0.4] },
      ],
      model: "e",
      usage: { prompt_tokens: 7, total_tokens: 7 },
    });
    const bad = vertexAdapter.convertResponse(
      ctx({ mode: "embeddings" }),
      Buffer.from(
        JSON.stringify({ predictions: [{ embeddings: { values: [], statistics: { token_count: "lots" } } }] }),
      ),
    );
    expect(bad.usage).toBeUndefined();
    expect(bad.usageNote?.usage_warning).toContain("token_count");
  });
});
