import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { guardedHttp } from "~/utils/guarded-http.server";
import { ForbiddenUpstreamAddressError } from "~/utils/upstream-address";

// The client sign-in providers and the WeChat server are called through.
describe("guarded HTTP client", () => {
  it("refuses link-local and metadata addresses before connecting, and non-http schemes", async () => {
    for (const url of [
      "http://169.254.169.254/api/wechat/user?code=1",
      "http://[::ffff:169.254.169.254]/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
    ]) {
      await expect(guardedHttp(url, { timeoutMs: 1000 }), url).rejects.toBeInstanceOf(ForbiddenUpstreamAddressError);
    }
    await expect(guardedHttp("file:///etc/passwd", { timeoutMs: 1000 })).rejects.toThrow("不支持的协议");
  });

  it("does not follow redirects, caps the reply, and gives up at its deadline", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/redirect") return void res.writeHead(302, { Location: "http://169.254.169.254/" }).end();
      if (req.url === "/big") return void res.end("x".repeat(5000));
      if (req.url === "/hang") return; // never answers
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      const redirect = await guardedHttp(`http://127.0.0.1:${port}/redirect`, { timeoutMs: 2000 });
      expect(redirect.status).toBe(302);
      await expect(guardedHttp(`http://127.0.0.1:${port}/big`, { timeoutMs: 2000, maxBytes: 1000 })).rejects.toThrow(
        "回复过大",
      );
      const started = Date.now();
      await expect(guardedHttp(`http://127.0.0.1:${port}/hang`, { timeoutMs: 300 })).rejects.toThrow("超时");
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await guardedHttp(`http://localhost:${port}/`, { timeoutMs: 2000 })).body).toBe("ok");
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
