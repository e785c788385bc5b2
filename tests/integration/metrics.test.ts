import { describe, expect, inject, it } from "vitest";
import { readFileSync } from "node:fs";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { parsePrometheus, sumOf } from "../support/prometheus";
import { startServer } from "../support/server";
import { call, channelAndKey, signIn, stoppedAfterAll } from "../support/standalone";

/** GET /metrics: what an operator's Prometheus scrapes. */
const kind = inject("dbKind");
const baseUrl = inject("baseUrl");
const started = stoppedAfterAll();
const SCRAPE_TOKEN = "scrape-token-for-tests";

describe("/metrics", () => {
  it("is off without METRICS_TOKEN", async () => {
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(404);
  });

  it("answers only the scrape token, and counts, times and bills relay calls with bounded labels", async () => {
    const upstream = await startOpenAiMock();
    started.upstreams.push(upstream);
    const server = await startServer({ kind, env: { METRICS_TOKEN: SCRAPE_TOKEN }, worker: false });
    started.servers.push(server);
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);

    const node = await signIn(server.baseUrl);
    const key = await channelAndKey(node, upstream.url);
    const channelId =
      (await call(server.baseUrl, "/api/channel/", { headers: node.auth })).json.data.items?.[0]?.id ??
      (await call(server.baseUrl, "/api/channel/", { headers: node.auth })).json.data[0].id;
    const chat = (model: string, stream = false) =>
      fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model, stream, max_tokens: 50, messages: [{ role: "user", content: "hi" }] }),
      });
    for (let i = 0; i < 3; i += 1) expect((await chat("gpt-4o-mini")).status).toBe(200);
    const streamed = await chat("gpt-4o-mini", true);
    expect(streamed.status).toBe(200);
    await streamed.text();
    // A model nobody routes: refused, and its made-up name never becomes a series.
    const refused = await chat("model-invented-by-a-client-12345");
    expect(refused.status).not.toBe(200);
    // An upstream that fails: counted against its channel.
    upstream.fault = { kind: "status", status: 500, body: { error: { message: "boom", type: "server_error" } } };
    const failed = await chat("gpt-4o-mini");
    expect(failed.status).toBe(500);
    upstream.fault = undefined;
    await new Promise((r) => setTimeout(r, 300));

    const scrape = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` } });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toContain("text/plain");
    const text = await scrape.text();
    expect(text).not.toContain("model-invented-by-a-client");
    const samples = parsePrometheus(text);
    const served = { surface: "chat", model: "gpt-4o-mini", channel: String(channelId), code: "200" };
    expect(sumOf(samples, "switchyard_relay_requests_total", served)).toBe(4);
    expect(sumOf(samples, "switchyard_relay_requests_total", { ...served, code: "500" })).toBe(1);
    expect(sumOf(samples, "switchyard_upstream_errors_total", { channel: String(channelId) })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      sumOf(samples, "switchyard_relay_requests_total", { surface: "chat", model: "", code: String(refused.status) }),
    ).toBe(1);
    expect(sumOf(samples, "switchyard_relay_duration_seconds_count", { surface: "chat", stream: "false" })).toBe(5);
    expect(sumOf(samples, "switchyard_relay_duration_seconds_count", { surface: "chat", stream: "true" })).toBe(1);
    expect(sumOf(samples, "switchyard_relay_ttfb_seconds_count", { surface: "chat" })).toBe(6);

    // What was billed is what the usage log says.
    const logs = (await call(server.baseUrl, "/api/log/self?type=2", { headers: node.auth })).json.data.items as {
      quota: number;
      prompt_tokens: number;
      completion_tokens: number;
    }[];
    expect(logs).toHaveLength(4);
    expect(sumOf(samples, "switchyard_quota_consumed_total")).toBe(logs.reduce((s, l) => s + l.quota, 0));
    expect(sumOf(samples, "switchyard_tokens_total", { direction: "prompt" })).toBe(
      logs.reduce((s, l) => s + l.prompt_tokens, 0),
    );
    expect(sumOf(samples, "switchyard_tokens_total", { direction: "completion" })).toBe(
      logs.reduce((s, l) => s + l.completion_tokens, 0),
    );
    // The process metrics come with them, and the billing gauges.
    expect(samples.some((s) => s.name === "process_cpu_user_seconds_total")).toBe(true);
    expect(samples.some((s) => s.name === "switchyard_settlements_queued")).toBe(true);

    // The Grafana dashboard in the repo asks only for series this scrape has.
    const dashboard = JSON.parse(readFileSync("docs/grafana/switchyard-dashboard.json", "utf8")) as {
      panels: { targets: { expr: string }[] }[];
    };
    const asked = new Set(
      dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap((target) => target.expr.match(/\b(?:switchyard|process)_[a-z_]+\b/g) ?? []),
      ),
    );
    expect(asked.size).toBeGreaterThan(8);
    const exposed = new Set(samples.map((s) => s.name));
    expect([...asked].filter((name) => !exposed.has(name))).toEqual([]);
    expect(sumOf(samples, "switchyard_limit_refusals_total")).toBe(0);

    // A call refused by its token's limit is counted by limit.
    const token = (
      (await call(server.baseUrl, "/api/token/", { headers: node.auth })).json.data as Record<string, unknown>[]
    )[0]!;
    expect(
      (
        await call(server.baseUrl, "/api/token/", {
          method: "PUT",
          headers: node.auth,
          body: { ...token, rpm_limit: 1 },
        })
      ).json.success,
    ).toBe(true);
    // Counting starts with the limit: one call fits this minute, the next is refused.
    expect((await chat("gpt-4o-mini")).status).toBe(200);
    expect((await chat("gpt-4o-mini")).status).toBe(429);
    const after = parsePrometheus(
      await (await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` } })).text(),
    );
    expect(sumOf(after, "switchyard_limit_refusals_total", { limit: "token_rpm" })).toBe(1);
    expect(sumOf(after, "switchyard_limit_refusals_total")).toBe(1);
  }, 90_000);
});
