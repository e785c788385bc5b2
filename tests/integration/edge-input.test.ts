import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, request, type ApiSession } from "../support/api";
import { userWithToken } from "../support/relay";

/**
 * Decision 011: each kind of bad input the fuzzer found is a 400 (or 404, 413) with a clear
 * message in its surface's shape, never a 500 or a reset connection.
 */
let root: ApiSession;
let key = "";

beforeAll(async () => {
  root = await loginRoot();
  key = (await userWithToken(1_000_000)).key;
});

const relay = (body: string | Uint8Array<ArrayBuffer>, path = "/v1/chat/completions") =>
  fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body,
  });

describe("/api answers bad input with a 400 envelope", () => {
  it("an id above 2³¹−1 on an id route is a 400 naming the id, on every method", async () => {
    for (const [method, path] of [
      ["GET", "/api/token/2147483648"],
      ["DELETE", "/api/channel/2147483648"],
      ["GET", "/api/token/99999999999/key"],
      ["POST", "/api/channel/copy/1e3"],
    ] as const) {
      const res = await root.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.json).toEqual({ success: false, message: expect.stringContaining("id") });
    }
    const body = await root.call("POST", "/api/user/manage", { id: 2147483648, action: "disable" });
    expect(body.status).toBe(400);
    expect(body.json.success).toBe(false);
  });

  it("NUL in a query string or a JSON body is a 400, before any database sees it", async () => {
    const query = await root.call("GET", "/api/token/search?keyword=%00");
    expect(query.status).toBe(400);
    expect(query.json).toEqual({ success: false, message: expect.stringContaining("NUL") });
    const body = await root.call("POST", "/api/token/", { name: "a\u0000b", expired_time: -1 });
    expect(body.status).toBe(400);
    expect(body.json.message).toContain("NUL");
    expect((await root.call("GET", "/api/log/self?token_name=a%00b")).status).toBe(400);
  });

  it("a path with a broken %-escape is a 400 envelope, not a Remix URIError", async () => {
    const res = await root.call("GET", "/api/token/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(res.json.success).toBe(false);
  });

  it("a body posted to a route that never reads it still gets its answer (the connection hung)", async () => {
    const body = `{"a":${"[".repeat(150_000)}${"]".repeat(150_000)}}`;
    // Two rounds: the second reuses the kept-alive connections the first left with unread bodies.
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${baseUrl()}/api/no-such-route`, {
            method: "POST",
            headers: { Cookie: root.cookie, "Content-Type": "application/json" },
            body,
            signal: AbortSignal.timeout(5_000),
          }).then((r) => r.status),
        ),
      );
      expect(answers).toEqual(Array(6).fill(404));
    }
  });

  it("an /api body over MAX_JSON_BODY_BYTES gets its 413 envelope", async () => {
    const res = await root.call(
      "PUT",
      "/api/option/",
      JSON.stringify({ key: "Notice", value: "x".repeat(20 * 1024 * 1024) }),
    );
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ success: false, message: "请求体过大" });
  });
});

describe("what else the fuzzer found", () => {
  it("concurrent 'fix abilities' calls all succeed (two rebuilds collided on a unique key)", async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => root.call("POST", "/api/channel/fix")));
    expect(results.map((r) => [r.status, r.json.success])).toEqual(Array(4).fill([200, true]));
  });
});

describe("the console answers bad input with a 400 or 404 page", () => {
  it("a console id that is not an int4 is a 404 page, on loaders and actions", async () => {
    for (const path of ["/token/edit/abc", "/token/edit/2147483648", "/channel/edit/1e3"]) {
      expect((await request("GET", path, undefined, { Cookie: root.cookie })).status, path).toBe(404);
    }
    const post = await fetch(`${baseUrl()}/channel/edit/abc`, {
      method: "POST",
      headers: { Cookie: root.cookie, Origin: baseUrl(), "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=x",
    });
    expect(post.status).toBe(404);
    expect((await request("GET", "/token/chat?chat=0&id=abc", undefined, { Cookie: root.cookie })).status).toBe(404);
  });

  it("NUL in a console form field is a 400 page that says so", async () => {
    const res = await fetch(`${baseUrl()}/token/add`, {
      method: "POST",
      headers: { Cookie: root.cookie, Origin: baseUrl(), "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=a%00b&remain_quota=1",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("NUL");
  });

  it("a bad %-escape in a page path and a legacy ?_data= request are 400s", async () => {
    expect((await request("GET", "/token/edit/%E0%A4%A", undefined, { Cookie: root.cookie })).status).toBe(400);
    const legacy = await fetch(`${baseUrl()}/setting?_data=routes%2Fsetting`, {
      method: "POST",
      headers: { Cookie: root.cookie, Origin: baseUrl(), "Content-Type": "application/x-www-form-urlencoded" },
      body: "original_password=x&password=password123&password2=password123",
    });
    expect(legacy.status).toBe(400);
    expect(await legacy.text()).toContain("_data");
  });
});

describe("the relay answers bad input in the OpenAI shape", () => {
  it("max_tokens 1e20 is a 400 naming the field", async () => {
    const res = await relay(
      JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], max_tokens: 1e20 }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toContain("max_tokens");
  });

  it("100 000 levels of nested arrays are a 400, not a stack overflow", async () => {
    const res = await relay(`{"model":"gpt-4o-mini","messages":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("嵌套");
  });

  it("a broken %-escape in a model path is a 400", async () => {
    const res = await fetch(`${baseUrl()}/v1/models/%E0%A4%A`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("a 33 MB relay body gets a 413 in the OpenAI shape, sent before the connection closes", async () => {
    const res = await relay(new Uint8Array(33 * 1024 * 1024).fill(0x61));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("request_too_large");
  });

  it("the same without Content-Length (a chunked upload) also gets its 413", async () => {
    expect(await chunkedUpload("/v1/chat/completions", { Authorization: `Bearer ${key}` }, 34)).toBe(413);
  });
});

describe("/api bodies without a declared length are capped too", () => {
  it("a chunked /api body past MAX_JSON_BODY_BYTES gets its 413, not a reset", async () => {
    expect(
      await chunkedUpload("/api/option/", { Cookie: root.cookie, "New-Api-User": String(root.userId) }, 3, "PUT"),
    ).toBe(413);
  });
});

/**
 * Sends `megabytes` of body with chunked transfer encoding (no Content-Length) and does not end
 * the request: the answer must come once the cap is passed, not after the client finishes.
 */
function chunkedUpload(
  path: string,
  headers: Record<string, string>,
  megabytes: number,
  method = "POST",
): Promise<number> {
  const url = new URL(`${baseUrl()}${path}`);
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer while the body was still open")), 10_000);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: { ...headers, "Content-Type": "application/json" },
      },
      (res) => {
        clearTimeout(timer);
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const write = () => {
      while (sent < megabytes) {
        sent += 1;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
    };
    write();
  });
}
