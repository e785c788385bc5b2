import { execFileSync } from "node:child_process";
import { startServer } from "../../tests/support/server";
// Page weights of the main console pages on a fresh embedded server, signed in as root.
const server = await startServer({ kind: "pglite" });
try {
  const login = await fetch(`${server.baseUrl}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "root", password: "123456" }),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  const out = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "bench/page-weight.ts",
      server.baseUrl,
      cookie,
      "/",
      "/login",
      "/token",
      "/token/add",
      "/channel",
      "/channel/add",
      "/playground",
      "/log",
    ],
    { encoding: "utf8" },
  );
  console.log(out);
} finally {
  await server.stop();
}
