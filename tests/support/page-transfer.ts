import type { Page } from "playwright-core";

/** One response as the DevTools protocol saw it: its resource type and the bytes it took on the wire. */
export type Transferred = { url: string; type: string; bytes: number };

export type TransferMeter = {
  /** Everything finished so far; JS is what Chromium typed "Script" (module scripts and modulepreloads alike). */
  totals: () => { jsBytes: number; totalBytes: number; resources: Transferred[] };
};

/**
 * Counts what a page's loads cost over the network, cold: the browser cache is off for this page
 * (the HTTP cache would otherwise serve assets a previous page of the same context fetched). The
 * figure is each response's `encodedDataLength` at `Network.loadingFinished`: headers plus the body
 * as sent, i.e. gzipped where the server compressed it — what a slow link actually carries.
 * Call before navigating.
 */
export async function meterTransfer(page: Page): Promise<TransferMeter> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const seen = new Map<string, { url: string; type: string }>();
  const finished: Transferred[] = [];
  cdp.on("Network.responseReceived", (event) =>
    seen.set(event.requestId, { url: event.response.url, type: event.type }),
  );
  cdp.on("Network.loadingFinished", (event) => {
    const response = seen.get(event.requestId);
    finished.push({
      url: response?.url ?? "(unknown)",
      type: response?.type ?? "Other",
      bytes: event.encodedDataLength,
    });
  });
  return {
    totals: () => ({
      jsBytes: finished.filter((r) => r.type === "Script").reduce((sum, r) => sum + r.bytes, 0),
      totalBytes: finished.reduce((sum, r) => sum + r.bytes, 0),
      resources: [...finished],
    }),
  };
}

/** A fixed-width text table, for figures read in CI output or a terminal. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);
