import { describe, expect, inject, it } from "vitest";
import { createServer, type Server } from "node:http";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { startServer } from "../support/server";
import { channelAndKey, eventually, signIn, stoppedAfterAll } from "../support/standalone";

/**
 * OpenTelemetry: a relay call's spans reach a loopback OTLP/HTTP collector (the JSON encoding the
 * exporter sends), as one trace: the call, and under it admission, the upstream attempt and the
 * settlement, with model, channel, token id and status, and never the key.
 */
const kind = inject("dbKind");
const started = stoppedAfterAll();

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number };
};

async function startCollector(): Promise<{ url: string; spans: OtlpSpan[]; bodies: string[]; server: Server }> {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        bodies.push(body);
        const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const resource of parsed.resourceSpans)
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    spans,
    bodies,
    server,
  };
}

const attribute = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.boolValue);
};

describe("traces", () => {
  it("a relay call is one trace with admission, the upstream attempt and the settlement under it", async () => {
    const collector = await startCollector();
    const upstream = await startOpenAiMock();
    started.upstreams.push(upstream);
    const server = await startServer({
      kind,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: "200",
        OTEL_SERVICE_NAME: "switchyard-test",
      },
      worker: false,
    });
    started.servers.push(server);
    try {
      const node = await signIn(server.baseUrl);
      const key = await channelAndKey(node, upstream.url);
      const reply = await fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", max_tokens: 20, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(reply.status).toBe(200);
      await reply.text();
      const requestId = reply.headers.get("x-oneapi-request-id");
      const root = () => collector.spans.find((s) => attribute(s, "switchyard.request_id") === requestId);
      expect(
        await eventually(
          () => root() !== undefined && collector.spans.filter((s) => s.traceId === root()!.traceId).length >= 4,
          10_000,
        ),
      ).toBe(true);

      const call = root()!;
      expect(call.name).toBe("relay chat");
      expect(call.parentSpanId ?? "").toBe("");
      expect(attribute(call, "switchyard.model")).toBe("gpt-4o-mini");
      expect(attribute(call, "http.response.status_code")).toBe(200);
      expect(Number(attribute(call, "switchyard.channel_id"))).toBeGreaterThan(0);
      expect(Number(attribute(call, "switchyard.token_id"))).toBeGreaterThan(0);
      const children = collector.spans
        .filter((s) => s.traceId === call.traceId && s.parentSpanId === call.spanId)
        .map((s) => s.name);
      expect(children).toEqual(expect.arrayContaining(["admission", "upstream attempt", "settlement"]));
      expect(collector.bodies.join("")).toContain("switchyard-test");
      for (const body of collector.bodies) expect(body).not.toContain(key.slice(3));
    } finally {
      collector.server.close();
    }
  }, 60_000);
});
