import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { escapeHtml, readBody } from "./http-helpers";

/**
 * A loopback stand-in for GitHub's OAuth web flow, speaking its real protocol:
 * - `GET /login/oauth/authorize?client_id&state[&redirect_uri]`: the consent page, a form asking
 *   which GitHub user signs in (`&login=` approves at once, as GitHub does for an app the user
 *   already authorized); approving redirects to the app's registered callback with `code` and `state`;
 * - `POST /login/oauth/access_token` (JSON or form body: client_id, client_secret, code): a token
 *   as JSON with `Accept: application/json`, form-encoded otherwise; a bad code or bad credentials
 *   come back with 200 and an `error` field, as on GitHub; a code is single-use and lives 10 minutes;
 * - `GET /user` with `Authorization: Bearer <token>`: the account `{login, id, name, email, …}`.
 */
export type GitHubAccount = { id: number; login: string; name: string | null; email: string | null };
export type RecordedCall = { method: string; path: string; headers: IncomingMessage["headers"]; body: string };

export type MockGitHub = {
  url: string;
  calls: RecordedCall[];
  registerApp: (clientId: string, secret: string, callbackUrl: string) => void;
  /** The account with this login (made on first use, with the next numeric id). */
  account: (login: string, profile?: Partial<Omit<GitHubAccount, "login">>) => GitHubAccount;
  /** Approves `login` for an app and returns the callback URL GitHub would redirect to. */
  authorize: (clientId: string, state: string, login: string) => string;
  close: () => Promise<void>;
};

/** The app the e2e server's mock registers (tests/support/e2e-server.ts). */
export const E2E_GITHUB_APP = { clientId: "e2e-github-client", secret: "e2e-github-secret" };

const CODE_LIFETIME_MS = 10 * 60 * 1000;

export async function startGitHubMock(): Promise<MockGitHub> {
  const apps = new Map<string, { secret: string; callbackUrl: string }>();
  const accounts = new Map<string, GitHubAccount>();
  const codes = new Map<string, { clientId: string; login: string; expiresAt: number }>();
  const tokens = new Map<string, string>();
  let nextId = 583231;
  const calls: RecordedCall[] = [];

  const account = (login: string, profile: Partial<Omit<GitHubAccount, "login">> = {}) => {
    let found = accounts.get(login);
    if (!found) {
      found = {
        id: profile.id ?? nextId++,
        login,
        name: profile.name === undefined ? `Name of ${login}` : profile.name,
        email: profile.email ?? null,
      };
      accounts.set(login, found);
    }
    return found;
  };

  const callbackFor = (clientId: string, state: string, login: string, redirectUri?: string) => {
    const app = apps.get(clientId);
    if (!app) throw new Error(`unknown client ${clientId}`);
    account(login);
    const code = randomBytes(10).toString("hex");
    codes.set(code, { clientId, login, expiresAt: Date.now() + CODE_LIFETIME_MS });
    // GitHub accepts a redirect_uri only under the registered callback.
    const target = new URL(redirectUri && redirectUri.startsWith(app.callbackUrl) ? redirectUri : app.callbackUrl);
    target.searchParams.set("code", code);
    target.searchParams.set("state", state);
    return target.toString();
  };

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { "Content-Type": type, ...headers });
    res.end(body);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://mock");
      const body = await readBody(req);
      calls.push({ method: req.method ?? "", path: url.pathname + url.search, headers: req.headers, body });
      if (url.pathname === "/login/oauth/authorize") {
        const fields = req.method === "POST" ? new URLSearchParams(body) : url.searchParams;
        const clientId = fields.get("client_id") ?? "";
        const state = fields.get("state") ?? "";
        const redirectUri = fields.get("redirect_uri") ?? undefined;
        if (!apps.has(clientId))
          return send(res, 404, "text/html", "<h1>404 — This is not the web page you are looking for</h1>");
        const login = fields.get("login");
        if (login)
          return send(res, 302, "text/html", "", { Location: callbackFor(clientId, state, login, redirectUri) });
        const hidden = [
          ["client_id", clientId],
          ["state", state],
          ...(redirectUri ? [["redirect_uri", redirectUri]] : []),
        ]
          .map(([n, v]) => `<input type="hidden" name="${n}" value="${escapeHtml(v!)}">`)
          .join("");
        return send(
          res,
          200,
          "text/html; charset=utf-8",
          `<!doctype html><title>Authorize application</title><h1>Authorize application</h1>
<form method="post" action="/login/oauth/authorize">${hidden}
<label for="login">Username or email address</label> <input id="login" name="login" required>
<button type="submit">Authorize</button></form>`,
        );
      }
      if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
        const isJson = (req.headers["content-type"] ?? "").includes("json");
        const fields: Record<string, string> = isJson
          ? (JSON.parse(body || "{}") as Record<string, string>)
          : Object.fromEntries(new URLSearchParams(body));
        const wantsJson = (req.headers.accept ?? "").includes("application/json");
        const reply = (value: Record<string, string>) =>
          wantsJson
            ? send(res, 200, "application/json", JSON.stringify(value))
            : send(res, 200, "application/x-www-form-urlencoded", new URLSearchParams(value).toString());
        const app = apps.get(fields.client_id ?? "");
        if (!app || app.secret !== fields.client_secret) {
          return reply({
            error: "incorrect_client_credentials",
            error_description: "The client_id and/or client_secret passed are incorrect.",
            error_uri:
              "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#incorrect-client-credentials",
          });
        }
        const grant = codes.get(fields.code ?? "");
        codes.delete(fields.code ?? "");
        if (!grant || grant.clientId !== fields.client_id || grant.expiresAt < Date.now()) {
          return reply({
            error: "bad_verification_code",
            error_description: "The code passed is incorrect or expired.",
            error_uri:
              "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code",
          });
        }
        const token = `gho_${randomBytes(18).toString("hex")}`;
        tokens.set(token, grant.login);
        return reply({ access_token: token, token_type: "bearer", scope: "read:user" });
      }
      if (url.pathname === "/user" && req.method === "GET") {
        const token = (req.headers.authorization ?? "").replace(/^(Bearer|token)\s+/i, "");
        const login = tokens.get(token);
        if (!login)
          return send(
            res,
            401,
            "application/json",
            JSON.stringify({
              message: "Bad credentials",
              documentation_url: "https://docs.github.com/rest",
              status: "401",
            }),
          );
        const a = account(login);
        return send(
          res,
          200,
          "application/json",
          JSON.stringify({
            login: a.login,
            id: a.id,
            node_id: `U_${a.id}`,
            avatar_url: "",
            type: "User",
            site_admin: false,
            name: a.name,
            company: null,
            email: a.email,
          }),
        );
      }
      send(res, 404, "application/json", JSON.stringify({ message: "Not Found" }));
    })().catch((error: unknown) => send(res, 500, "text/plain", String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    registerApp: (clientId, secret, callbackUrl) => void apps.set(clientId, { secret, callbackUrl }),
    account,
    authorize: (clientId, state, login) => callbackFor(clientId, state, login),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
