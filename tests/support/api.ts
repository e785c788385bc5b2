import { inject } from "vitest";

/** A signed-in caller of the /api surface, as the console's fetches are: cookie + New-Api-User. */
export type ApiSession = {
  userId: number;
  username: string;
  cookie: string;
  call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; json: any; headers: Headers }>;
};

export function baseUrl(): string {
  return inject("baseUrl");
}

/**
 * A distinct client address per call (the server trusts X-Forwarded-For in tests) so sign-in rate
 * limits do not collide. Random over 10.0.0.0/8: every test file has its own module state, so a
 * per-file counter made files repeat each other's addresses — and inherit a limit another test
 * had used up on purpose.
 */
export function fakeIp(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

export function uniqueName(prefix = "u"): string {
  return `${prefix}${Math.random().toString(36).slice(2, 9)}`.slice(0, 12);
}

/** One call to the shared test server, or to the server at `base` (one a test started itself). */
export async function request(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  base = baseUrl(),
) {
  const res = await fetch(base + path, {
    method,
    headers: {
      "X-Forwarded-For": fakeIp(),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export async function login(username: string, password: string): Promise<ApiSession> {
  const res = await fetch(baseUrl() + "/api/user/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": fakeIp() },
    body: JSON.stringify({ username, password }),
  });
  const json: any = await res.json();
  if (!json.success) throw new Error(`login failed for ${username}: ${json.message}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const userId = json.data.id as number;
  return {
    userId,
    username,
    cookie,
    call: (method, path, body, headers = {}) =>
      request(method, path, body, { Cookie: cookie, "New-Api-User": String(userId), ...headers }),
  };
}

export const ROOT_PASSWORD = "123456";

export function loginRoot(): Promise<ApiSession> {
  return login("root", ROOT_PASSWORD);
}

/** Registers a fresh ordinary user through the public endpoint and signs in. */
export async function newUser(password = "password123"): Promise<ApiSession> {
  const username = uniqueName();
  const res = await request("POST", "/api/user/register", { username, password, password2: password });
  if (!res.json?.success) throw new Error(`register failed: ${JSON.stringify(res.json)}`);
  return login(username, password);
}

/** A fresh user promoted to admin (role 10) by root. */
export async function newAdmin(): Promise<ApiSession> {
  const user = await newUser();
  const root = await loginRoot();
  const res = await root.call("POST", "/api/user/manage", { id: user.userId, action: "promote" });
  if (!res.json?.success) throw new Error(`promote failed: ${JSON.stringify(res.json)}`);
  return user;
}

/**
 * Charges are written to the database behind the relay's reply; the server answers any page or
 * /api request only after those it already delivered are written. Tests that read PostgreSQL
 * directly after a call pass through here first.
 */
export async function billingWritten(): Promise<void> {
  await request("GET", "/api/status");
}
