import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { jwtVerify, type CryptoKey, type KeyObject } from "jose";
import { readBody } from "./http-helpers";
import { answerGemini, googleError } from "./google-replies";
import { writeFragmented } from "./fragmented-writer";
import type { RecordedRequest } from "./openai-upstream";

/**
 * A loopback Vertex AI with its own OAuth token endpoint (`POST /token`). The endpoint VERIFIES
 * the service account's JWT assertion (RS256 signature against the test keypair's public key,
 * issuer, audience = this token URI, scope, lifetime) before it mints a token; the model
 * endpoints accept only tokens it minted. Gemini models answer in Gemini's format, Claude models
 * (rawPredict / streamRawPredict) in Anthropic's, and the body must carry vertex-2023-10-16.
 */
export type VertexMock = {
  url: string;
  tokenUri: string;
  requests: RecordedRequest[];
  /** Assertions the token endpoint accepted. */
  exchanges: number;
  /** Assertions it refused, with why. */
  refused: string[];
  fault?: { status: number; message: string; code: string };
  close: () => Promise<void>;
};

const anthropicFixture = (name: string) =>
  readFileSync(new URL(`../fixtures/upstream/anthropic/${name}`, import.meta.url), "utf8");

export async function startVertexMock(opts: {
  publicKey: CryptoKey | KeyObject;
  clientEmail: string;
  projectId: string;
}): Promise<VertexMock> {
  const mock: VertexMock = {
    url: "",
    tokenUri: "",
    requests: [],
    exchanges: 0,
    refused: [],
    close: async () => undefined,
  };
  const minted = new Set<string>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? "/", "http://mock");
      if (req.method === "POST" && url.pathname === "/token") {
        const form = new URLSearchParams(body);
        try {
          if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") throw new Error("grant_type");
          const { payload, protectedHeader } = await jwtVerify(form.get("assertion") ?? "", opts.publicKey, {
            issuer: opts.clientEmail,
            audience: mock.tokenUri,
            algorithms: ["RS256"],
            maxTokenAge: "1h",
          });
          if (protectedHeader.typ !== "JWT") throw new Error("typ");
          if (payload.scope !== "https://www.googleapis.com/auth/cloud-platform") throw new Error("scope");
          if (typeof payload.exp !== "number" || typeof payload.iat !== "number" || payload.exp - payload.iat > 3600)
            throw new Error("lifetime");
        } catch (error) {
          mock.refused.push((error as Error).message);
          res.writeHead(400, { "Content-Type": "application/json" });
          return void res.end(JSON.stringify({ error: "invalid_grant", error_description: "Invalid JWT Signature." }));
        }
        mock.exchanges++;
        const token = `ya29.${randomBytes(16).toString("hex")}`;
        minted.add(token);
        res.writeHead(200, { "Content-Type": "application/json" });
        return void res.end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: "Bearer" }));
      }
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!token || !minted.has(token))
        return googleError(res, 401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
      if (mock.fault) return googleError(res, mock.fault.status, mock.fault.message, mock.fault.code);
      const route =
        /^\/v1\/projects\/([^/]+)\/locations\/([a-z0-9-]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(
          url.pathname,
        );
      if (req.method !== "POST" || !route) return googleError(res, 404, "not found", "NOT_FOUND");
      const [, project, , publisher, , method] = route;
      if (project !== opts.projectId)
        return googleError(res, 403, `Permission denied on project ${project}`, "PERMISSION_DENIED");
      if (publisher === "google" && method === "predict") {
        // Text embeddings: one prediction per instance, with its token count.
        const { instances } = JSON.parse(body) as { instances?: { content?: string }[] };
        res.writeHead(200, { "Content-Type": "application/json" });
        const predictions = (instances ?? []).map((instance, i) => ({
          embeddings: { values: [i, 0.5, -0.5], statistics: { token_count: 3 + i, truncated: false } },
        }));
        return void res.end(JSON.stringify({ predictions, metadata: { billableCharacterCount: 2 } }));
      }
      if (publisher === "google") return answerGemini(res, method!, url.searchParams, body);
      const request = JSON.parse(body) as {
        anthropic_version?: string;
        model?: string;
        stream?: boolean;
        tools?: unknown[];
      };
      if (request.anthropic_version !== "vertex-2023-10-16" || "model" in request)
        return googleError(
          res,
          400,
          "anthropic_version must be vertex-2023-10-16 and model absent",
          "INVALID_ARGUMENT",
        );
      if (method === "streamRawPredict") {
        if (request.stream !== true)
          return googleError(res, 400, "streamRawPredict needs stream: true", "INVALID_ARGUMENT");
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        return writeFragmented(res, anthropicFixture(request.tools ? "stream-tool-use.sse" : "stream-text.sse"));
      }
      if (method !== "rawPredict") return googleError(res, 404, `unknown method ${method}`, "NOT_FOUND");
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(anthropicFixture(request.tools ? "message-tool-use.json" : "message-text.json"));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.tokenUri = `${mock.url}/token`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}
