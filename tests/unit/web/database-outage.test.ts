import type { ServerBuild } from "@remix-run/node";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { answerDatabaseOutages } from "~/web/database-outage.server";

function refusedConnection(): pg.DatabaseError {
  const error = new pg.DatabaseError('database "app" is not currently accepting connections', 0, "error");
  error.code = "55000";
  error.severity = "FATAL";
  return error;
}

/** A build of one route whose loader and action run `run`. */
function buildOf(run: () => unknown): ServerBuild {
  const route = {
    id: "routes/x",
    parentId: "root",
    path: "x",
    index: undefined,
    caseSensitive: undefined,
    module: { default: () => null, loader: run, action: run },
  };
  return { routes: { "routes/x": route } } as unknown as ServerBuild;
}

const throwing = (value: unknown) => () => {
  throw value;
};

async function thrownBy(build: ServerBuild, url: string, kind: "loader" | "action"): Promise<unknown> {
  const handler = build.routes["routes/x"]!.module[kind]!;
  try {
    await handler({ request: new Request(url), params: {}, context: {} });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("database outages answered by every loader and action", () => {
  it("a page's loader or action meeting a refused connection throws a 503 the error boundary shows", async () => {
    const build = answerDatabaseOutages(buildOf(throwing(refusedConnection())));
    for (const kind of ["loader", "action"] as const) {
      const thrown = await thrownBy(build, "http://x/token", kind);
      expect(thrown).toBeInstanceOf(Response);
      const res = thrown as Response;
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      expect(await res.text()).toBe("数据库暂时不可用");
    }
  });

  it("under /api the 503 is the envelope", async () => {
    const build = answerDatabaseOutages(buildOf(() => Promise.reject(refusedConnection())));
    const res = (await thrownBy(build, "http://x/api/user/epay/notify", "loader")) as Response;
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ success: false, message: "数据库暂时不可用，请稍后重试" });
  });

  it("anything else passes through untouched: results, redirects, and errors that are not an outage", async () => {
    expect(
      await answerDatabaseOutages(buildOf(() => ({ ok: 1 }))).routes["routes/x"]!.module.loader!({
        request: new Request("http://x/"),
        params: {},
        context: {},
      }),
    ).toEqual({ ok: 1 });
    const redirect = new Response(null, { status: 302, headers: { Location: "/login" } });
    expect(await thrownBy(answerDatabaseOutages(buildOf(throwing(redirect))), "http://x/token", "loader")).toBe(
      redirect,
    );
    const bad = Object.assign(new Error("duplicate key value"), { code: "23505", severity: "ERROR" });
    expect(await thrownBy(answerDatabaseOutages(buildOf(throwing(bad))), "http://x/token", "action")).toBe(bad);
  });

  it("one wrapped build per build, so Remix sees the same one on every request", () => {
    const build = buildOf(() => undefined);
    expect(answerDatabaseOutages(build)).toBe(answerDatabaseOutages(build));
  });
});
