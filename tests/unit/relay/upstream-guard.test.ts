import type { LookupAddress, LookupOptions } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * Names resolved by the upstream client go through this stand-in resolver: `metadata.test`
 * resolves to a link-local address, `upstream.test` to loopback. The link-local answer is
 * fe80::1 with no interface: were the guard to let it through, connecting would fail inside
 * this machine (EINVAL), so no packet can leave it whatever the code does.
 */
vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const table: Record<string, LookupAddress> = {
    "metadata.test": { address: "fe80::1", family: 6 },
    "upstream.test": { address: "127.0.0.1", family: 4 },
  };
  const lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const found = table[hostname];
    if (!found)
      return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
    if (options.all) callback(null, [found]);
    else callback(null, found.address, found.family);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const { readAll, sendUpstream } = await import("~/relay/upstream-client.server");
const { ForbiddenUpstreamAddressError, FORBIDDEN_UPSTREAM_MESSAGE } = await import("~/utils/upstream-address");

let server: Server;
let port = 0;
let served = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    served += 1;
    req.resume();
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (url: string) =>
  sendUpstream(url, { method: "GET", headers: { Authorization: "Bearer sk-channel-key" }, connectTimeoutMs: 2000 });

describe("the upstream client refuses link-local and metadata addresses at call time", () => {
  it("refuses a URL whose host is a link-local IP, before connecting", async () => {
    await expect(get("http://[fe80::1]:9/v1/models")).rejects.toBeInstanceOf(ForbiddenUpstreamAddressError);
    await expect(get("http://[fe80::1]:9/v1/models")).rejects.toThrow(FORBIDDEN_UPSTREAM_MESSAGE);
  });

  it("refuses a hostname once it resolves to a link-local address", async () => {
    const before = served;
    await expect(get(`http://metadata.test:${port}/v1/models`)).rejects.toThrow(
      `${FORBIDDEN_UPSTREAM_MESSAGE}：metadata.test → fe80::1`,
    );
    expect(served).toBe(before);
  });

  it("resolves every other name through the same guarded resolver (the check is really on the path)", async () => {
    const res = await get(`http://upstream.test:${port}/v1/models`);
    expect(res.statusCode).toBe(200);
    expect((await readAll(res)).toString()).toBe("ok");
    await expect(get(`http://unknown.test:${port}/`)).rejects.toThrow(/ENOTFOUND unknown\.test/);
  });
});
