import { describe, expect, it } from "vitest";
import { informativeReplyHeaders, requestHeadersToForward } from "~/relay/wire-headers";

describe("informativeReplyHeaders", () => {
  it("passes ids, timings, rate limits and backoff hints, and nothing else", () => {
    const passed = informativeReplyHeaders({
      "x-request-id": "req_1",
      "request-id": "req_ant",
      "openai-processing-ms": "12",
      "x-ratelimit-remaining-tokens": "900",
      "anthropic-ratelimit-requests-remaining": "4",
      "retry-after": "1",
      "retry-after-ms": "250",
      "apim-request-id": "azure-1",
      "x-ms-region": "East US",
      "set-cookie": ["a=b"],
      connection: "keep-alive",
      "transfer-encoding": "chunked",
      "content-length": "10",
      "openai-organization": "org-channel",
      "x-should-retry": "false",
      server: "cloudflare",
    });
    expect(passed).toEqual({
      "x-request-id": "req_1",
      "request-id": "req_ant",
      "openai-processing-ms": "12",
      "x-ratelimit-remaining-tokens": "900",
      "anthropic-ratelimit-requests-remaining": "4",
      "retry-after": "1",
      "retry-after-ms": "250",
      "apim-request-id": "azure-1",
      "x-ms-region": "East US",
    });
  });

  it("drops values that are huge or carry control characters", () => {
    const passed = informativeReplyHeaders({
      "x-request-id": "a".repeat(257),
      "retry-after": "1\r\nSet-Cookie: x=y",
      "x-ratelimit-limit-requests": "5\u0000",
      "openai-processing-ms": "é",
    });
    expect(passed).toEqual({});
  });

  it("passes a bounded number of headers", () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-ratelimit-h${i}`, "1"]));
    expect(Object.keys(informativeReplyHeaders(many))).toHaveLength(32);
  });
});

describe("requestHeadersToForward", () => {
  it("forwards OpenAI-Beta and Idempotency-Key, never the caller's account or credentials", () => {
    const forwarded = requestHeadersToForward({
      "openai-beta": "assistants=v2",
      "idempotency-key": "k-1",
      "openai-organization": "org-caller",
      "openai-project": "proj-caller",
      authorization: "Bearer sk-caller",
      cookie: "session=1",
    });
    expect(forwarded).toEqual({ "openai-beta": "assistants=v2", "idempotency-key": "k-1" });
  });

  it("is undefined when there is nothing to forward, and skips unsafe values", () => {
    expect(requestHeadersToForward({ "content-type": "application/json" })).toBeUndefined();
    expect(requestHeadersToForward({ "idempotency-key": "x".repeat(300) })).toBeUndefined();
  });
});
