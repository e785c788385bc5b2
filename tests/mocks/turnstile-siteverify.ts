import { createServer } from "node:http";

/**
 * A loopback stand-in for Cloudflare's Turnstile siteverify endpoint: form-encoded POST of
 * secret, response and remoteip; JSON answer `{success, "error-codes": [...]}`. Like Cloudflare,
 * it accepts each issued token once.
 */
export type TurnstileMock = {
  url: string;
  secret: string;
  /** Issues a token the mock will accept once. */
  issueToken: () => string;
  calls: { secret: string; response: string; remoteip: string }[];
  /** When set, every check answers this HTTP status (an outage). */
  failWith?: number;
  close: () => Promise<void>;
};

export async function startTurnstileMock(secret = "turnstile-secret-for-tests"): Promise<TurnstileMock> {
  const live = new Set<string>();
  const used = new Set<string>();
  let counter = 0;
  const mock: TurnstileMock = {
    url: "",
    secret,
    calls: [],
    issueToken: () => {
      const token = `tok-${Date.now()}-${counter++}`;
      live.add(token);
      return token;
    },
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const form = new URLSearchParams(body);
      const call = {
        secret: form.get("secret") ?? "",
        response: form.get("response") ?? "",
        remoteip: form.get("remoteip") ?? "",
      };
      mock.calls.push(call);
      if (mock.failWith) {
        res.writeHead(mock.failWith, { "Content-Type": "text/plain" });
        return res.end("unavailable");
      }
      const errors: string[] = [];
      if (call.secret !== secret) errors.push("invalid-input-secret");
      if (!call.response) errors.push("missing-input-response");
      else if (used.has(call.response)) errors.push("timeout-or-duplicate");
      else if (!live.has(call.response)) errors.push("invalid-input-response");
      const success = errors.length === 0;
      if (success) {
        live.delete(call.response);
        used.add(call.response);
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify(
          success
            ? {
                success,
                challenge_ts: new Date().toISOString(),
                hostname: "localhost",
                "error-codes": [],
                action: "",
                cdata: "",
              }
            : { success, "error-codes": errors },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/turnstile/v0/siteverify`;
  mock.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return mock;
}
