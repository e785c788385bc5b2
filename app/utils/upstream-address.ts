import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import ipaddr from "ipaddr.js";

/**
 * Which addresses a channel's upstream may live at. No model provider lives on a link-local
 * address, but every cloud's instance-metadata service does, and channel calls carry the
 * channel's key: an upstream pointing there would hand the key (and the answer: instance
 * credentials) to whoever can edit a channel. Loopback and private ranges stay allowed on
 * purpose (a local Ollama or vLLM).
 *
 * Checked twice: at save on the URL as written, and at call time on the address actually
 * connected to (after DNS resolution: a hostname can resolve anywhere, and change).
 */
export const FORBIDDEN_UPSTREAM_MESSAGE =
  "代理地址不能是链路本地或云元数据地址（169.254.0.0/16、fe80::/10、fd00:ec2::254、100.100.100.200）";
export const ZONED_UPSTREAM_MESSAGE = "代理地址不能是带区域标识（%）的 IPv6 地址（如 fe80::1%eth0）";

// Cloud metadata services outside the link-local ranges: AWS's IPv6 endpoint (Nitro) and
// Alibaba Cloud's ECS endpoint.
const METADATA_ADDRESSES = [ipaddr.parse("fd00:ec2::254"), ipaddr.parse("100.100.100.200")];
// Names that resolve to the metadata service inside the cloud (refused at save; the resolved
// address is refused at call time anyway).
const METADATA_HOSTNAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
]);
// IPv6 forms that carry an IPv4 address in their last 32 bits: IPv4-mapped (::ffff:a.b.c.d),
// the deprecated IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
const EMBEDDING_PREFIXES = [ipaddr.parseCIDR("::/96"), ipaddr.parseCIDR("64:ff9b::/96")];

export class ForbiddenUpstreamAddressError extends Error {
  readonly code = "EFORBIDDENUPSTREAM";
  constructor(readonly address: string) {
    super(`${FORBIDDEN_UPSTREAM_MESSAGE}：${address}`);
  }
}

/** The IPv4 address an IPv6 address embeds, if it is one of the forms that embed one. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (!EMBEDDING_PREFIXES.some((range) => address.match(range))) return undefined;
  const bytes = address.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}

function isForbiddenParsed(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.range() === "linkLocal") return true;
  if (METADATA_ADDRESSES.some((m) => m.kind() === address.kind() && m.toString() === address.toString())) return true;
  if (address.kind() === "ipv6") {
    const inner = embeddedIPv4(address as ipaddr.IPv6);
    return inner !== undefined && inner.toString() !== "0.0.0.0" && isForbiddenParsed(inner);
  }
  return false;
}

/**
 * Whether the text is an IPv6 address with a zone id (`fe80::1%eth0`). A zone id names the
 * interface a link-local address is reached through; it has no use with any other scope, so an
 * address carrying one is refused whatever its scope rather than reasoned about.
 */
function hasZoneId(bare: string): boolean {
  const zone = bare.indexOf("%");
  return zone > 0 && ipaddr.IPv6.isValid(bare.slice(0, zone));
}

/** Whether an IP address (any textual form ipaddr.js reads) may not be an upstream. Not an IP: false. */
export function isForbiddenUpstreamIp(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "");
  if (hasZoneId(bare)) return true;
  if (!ipaddr.isValid(bare)) return false;
  return isForbiddenParsed(ipaddr.parse(bare));
}

/**
 * The bracketed IPv6 host of a URL when it carries a zone id (`[fe80::1%25eth0]`), read from the
 * text: the URL parser refuses zone ids outright, so it cannot be asked.
 */
function zonedHostOf(url: string): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i.exec(url.trim())?.[1] ?? "";
  // Up to the closing bracket, or to the end when there is none (the parser refuses both alike).
  const host = /\[([^\]]*)/.exec(authority)?.[1];
  return host !== undefined && host.includes("%") ? `[${host}]` : undefined;
}

/**
 * The save-time check of an upstream URL: the refusal message, or undefined when allowed. The
 * host is read as the URL parser reads it (so 0xA9FEA9FE or 2852039166 are 169.254.169.254).
 */
export function upstreamUrlRefusal(url: string): string | undefined {
  const zoned = zonedHostOf(url);
  if (zoned) return `${ZONED_UPSTREAM_MESSAGE}：${zoned}`;
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return undefined; // not a URL at all: the caller's format check answers that
  }
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (isForbiddenUpstreamIp(host) || METADATA_HOSTNAMES.has(host)) return `${FORBIDDEN_UPSTREAM_MESSAGE}：${hostname}`;
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for the upstream agents: resolves as node would, then refuses the connection when
 * any address the name resolves to is forbidden (any, not just the one node would pick: with
 * several, node may try them all).
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  (dns.lookup as unknown as Lookup)(hostname, options, (error, address, family) => {
    if (error) return callback(error, address, family);
    const addresses = typeof address === "string" ? [address] : address.map((a) => a.address);
    const forbidden = addresses.find(isForbiddenUpstreamIp);
    if (forbidden !== undefined)
      return callback(new ForbiddenUpstreamAddressError(`${hostname} → ${forbidden}`), address, family);
    callback(null, address, family);
  });
}
