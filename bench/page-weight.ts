/**
 * Client JavaScript a console page makes the browser load, gzipped: every module script and
 * modulepreload of the server-rendered HTML. Usage: tsx bench/page-weight.ts <baseUrl> <cookie> <path>...
 */
import { gzipSync } from "node:zlib";

const [baseUrl = "http://127.0.0.1:3000", cookie = "", ...paths] = process.argv.slice(2);

async function weigh(path: string) {
  const html = await (await fetch(baseUrl + path, { headers: { Cookie: cookie } })).text();
  const sources = new Set<string>();
  for (const match of html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g))
    sources.add(match[1]!);
  // The entry module imports are inlined in a <script type="module">import "…"</script>.
  for (const match of html.matchAll(/import\s*(?:[^"']*from\s*)?["']([^"']+\.js)["']/g)) sources.add(match[1]!);
  let raw = 0;
  let gz = 0;
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, baseUrl))).arrayBuffer());
    raw += body.length;
    gz += gzipSync(body).length;
  }
  console.log(
    `${path}: ${sources.size} scripts, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzipped`,
  );
}

for (const path of paths) await weigh(path);
