import ipaddr from "ipaddr.js";

/**
 * A token's IP allow-list: one address or CIDR range per line (IPv4 or IPv6). Parsed once per
 * token into ranges, so the relay's per-request check is a few comparisons.
 */
export type AllowRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function parseAllowList(text: string): { ranges: AllowRange[]; invalid: string[] } {
  const ranges: AllowRange[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\r\n,]+/)) {
    const line = raw.trim();
    if (!line) continue;
    try {
      if (line.includes("/")) ranges.push(ipaddr.parseCIDR(line));
      else {
        const addr = ipaddr.parse(line);
        ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
      }
    } catch {
      invalid.push(line);
    }
  }
  return { ranges, invalid };
}

/** Normalised text to store: one entry per line, blanks dropped. */
export function normaliseAllowList(text: string): string {
  return text
    .split(/[\r\n,]+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

export function isIpAllowed(ranges: AllowRange[], ip: string): boolean {
  if (ranges.length === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  return ranges.some(([range, bits]) => {
    const candidate =
      addr.kind() === range.kind()
        ? addr
        : addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
          ? (addr as ipaddr.IPv6).toIPv4Address()
          : addr;
    return candidate.kind() === range.kind() && candidate.match([range, bits] as never);
  });
}
