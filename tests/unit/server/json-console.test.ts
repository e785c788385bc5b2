import { describe, expect, it } from "vitest";
import { maskSecrets, structuredLine } from "../../../server/json-console";

describe("LOG_FORMAT=json lines", () => {
  it("a relay line about one request carries its id apart from the message", () => {
    expect(structuredLine(["[relay] 20261127051500a1b2c3000042 channel #3 request failed: ECONNREFUSED"])).toEqual({
      component: "relay",
      request_id: "20261127051500a1b2c3000042",
      msg: "channel #3 request failed: ECONNREFUSED",
    });
  });
  it("other lines keep their component; a line without one is all message", () => {
    expect(structuredLine(["[billing] wrote %d settlements", 3])).toEqual({
      component: "billing",
      msg: "wrote 3 settlements",
    });
    expect(structuredLine(["[relay] realtime settlement on channel #2 failed"])).toEqual({
      component: "relay",
      msg: "realtime settlement on channel #2 failed",
    });
    expect(structuredLine(["plain words", { a: 1 }])).toEqual({ msg: "plain words { a: 1 }" });
  });
  it("an Error argument becomes err with its type, message and stack", () => {
    const line = structuredLine(["[db] query failed", new TypeError("bad")]);
    expect(line.msg).toBe("query failed");
    expect(line.err).toMatchObject({ type: "TypeError", message: "bad" });
    expect(line.err?.stack).toContain("TypeError: bad");
  });
  it("keys and credential headers never reach the line", () => {
    const key = "sk-AbCdEfGhIjKlMnOpQrStUvWx0123456789";
    expect(maskSecrets(`Incorrect API key provided: ${key}.`)).toBe("Incorrect API key provided: sk-***.");
    expect(maskSecrets("headers { authorization: 'Bearer abc', cookie: 'session=xyz' }")).not.toMatch(/abc|xyz/);
    const line = structuredLine(["[relay] upstream said", new Error(`bad key ${key}`)]);
    expect(JSON.stringify(line)).not.toContain(key);
  });
});
