import { describe, expect, it } from "vitest";
import { FORBIDDEN_UPSTREAM_MESSAGE, isForbiddenUpstreamIp, upstreamUrlRefusal } from "~/utils/upstream-address";

// Pure checks of the guard: no address here is ever connected to.
describe("upstream address guard", () => {
  it("refuses link-local and cloud-metadata addresses in every textual form", () => {
    for (const ip of [
      "169.254.169.254",
      "169.254.0.1",
      "169.254.255.255",
      "169.254.0.23",
      "fe80::1",
      "fe80::a9fe:a9fe",
      "febf:ffff::1",
      "[fe80::1]",
      "fd00:ec2::254",
      "fd00:0ec2:0000:0000:0000:0000:0000:0254",
      "100.100.100.200",
      "::ffff:169.254.169.254",
      "::ffff:a9fe:a9fe",
      "0:0:0:0:0:ffff:a9fe:a9fe",
      "::169.254.169.254",
      "64:ff9b::169.254.169.254",
      "::ffff:100.100.100.200",
    ])
      expect(isForbiddenUpstreamIp(ip), ip).toBe(true);
  });

  it("allows loopback, private ranges, public addresses and names", () => {
    for (const ip of [
      "127.0.0.1",
      "::1",
      "10.0.0.5",
      "172.16.3.4",
      "192.168.1.20",
      "100.64.0.1",
      "fd00::1",
      "fd00:ec2::253",
      "fc00::1",
      "8.8.8.8",
      "2606:4700::1111",
      "::ffff:127.0.0.1",
      "::ffff:192.168.1.1",
      "::",
      "0.0.0.0",
      "localhost",
      "api.openai.com",
    ]) {
      expect(isForbiddenUpstreamIp(ip), ip).toBe(false);
    }
  });

  it("reads the host of a URL as the URL parser does (decimal, hex and IPv6 forms of 169.254.169.254)", () => {
    for (const url of [
      "http://169.254.169.254",
      "http://169.254.169.254/latest/meta-data/",
      "https://169.254.169.254:443/v1",
      "http://169.254.169.254./",
      "http://2852039166/",
      "http://0xA9FEA9FE/",
      "http://0251.0376.0251.0376/",
      "http://169.254.43518/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fe80::1]:8080",
      "http://[fd00:ec2::254]/",
      "http://metadata.google.internal/computeMetadata/v1",
      "http://METADATA.GOOGLE.INTERNAL./",
    ]) {
      const refusal = upstreamUrlRefusal(url);
      expect(refusal, url).toBeDefined();
      expect(refusal!.startsWith(FORBIDDEN_UPSTREAM_MESSAGE), url).toBe(true);
    }
    for (const url of [
      "http://127.0.0.1:11434",
      "http://localhost:11434",
      "http://[::1]:8000",
      "http://192.168.1.10:8000/v1",
      "https://api.openai.com",
      "https://example.openai.azure.com",
      "not a url",
    ]) {
      expect(upstreamUrlRefusal(url), url).toBeUndefined();
    }
  });

  // A zone id (%eth0) names the interface a link-local address is reached through: it has no
  // other use, so an address carrying one is refused whatever its scope. The URL parser cannot
  // read one at all, which once made the save check call it "not a URL" and let it through.
  it("refuses every IPv6 address with a zone id, bare or in a URL, whatever its scope", () => {
    for (const ip of [
      "fe80::1%eth0",
      "fe80::1%25eth0",
      "[fe80::1%eth0]",
      "FE80::A9FE:A9FE%en0",
      "fd00::1%eth0",
      "::1%lo",
      "2606:4700::1111%1",
      "::ffff:127.0.0.1%lo",
    ]) {
      expect(isForbiddenUpstreamIp(ip), ip).toBe(true);
    }
    for (const url of [
      "http://[fe80::1%25eth0]",
      "http://[fe80::1%25eth0]:8080/v1",
      "http://[fe80::1%eth0]/",
      "HTTPS://[FE80::1%25EN0]",
      "http://[fd00::1%25eth0]",
      "http://[::1%25lo]:11434",
      "https://[2606:4700::1111%251]/v1",
      "http://user@[fe80::1%25eth0]/",
      "http://[fe80::1%25eth0",
    ]) {
      const refusal = upstreamUrlRefusal(url);
      expect(refusal, url).toBeDefined();
      expect(refusal, url).toContain("区域标识");
    }
    // A percent sign elsewhere in the URL is not a zone id.
    expect(upstreamUrlRefusal("http://[::1]:8000/v1?q=%25")).toBeUndefined();
    expect(upstreamUrlRefusal("http://127.0.0.1:8000/a%25b")).toBeUndefined();
  });
});
