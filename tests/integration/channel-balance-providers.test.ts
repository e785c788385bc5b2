import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, type ApiSession } from "../support/api";
import { startOllamaNativeMock } from "../mocks/ollama-native-upstream";
import { sendJson, startProviderMock, type ProviderMock } from "../mocks/provider-mock";
import { createChannel, uniqueModel } from "../support/relay";

/**
 * Balance refresh per provider (/api/channel/update_balance/:id) against each provider's balance
 * endpoint, and the upstream model list (/api/channel/fetch_models/:id) in each provider's way.
 */
let root: ApiSession;
let balances: ProviderMock;
let ollama: ProviderMock;
/** What the balance mock answers on each path; a test may swap one for a hostile reply. */
const replies: Record<string, unknown> = {
  "/v1/user/info": {
    code: 20000,
    message: "OK",
    status: true,
    data: { id: "u1", balance: "0.88", chargeBalance: "88.00", totalBalance: "88.88" },
  },
  "/user/balance": {
    is_available: true,
    balance_infos: [
      { currency: "USD", total_balance: "5.00" },
      { currency: "CNY", total_balance: "110.00", granted_balance: "10.00", topped_up_balance: "100.00" },
    ],
  },
  "/api/v1/credits": { data: { total_credits: 50, total_usage: 12.5 } },
  "/v1/users/me/balance": {
    code: 0,
    data: { available_balance: 49.58, voucher_balance: 46.58, cash_balance: 3 },
    scode: "0x0",
    status: true,
  },
};

beforeAll(async () => {
  root = await loginRoot();
  balances = await startProviderMock({
    authorized: (req) => req.headers.authorization === "Bearer bal-key",
    unauthorized: { status: 401, body: { error: { message: "bad key" } } },
    route: (req, res) =>
      req.path in replies ? sendJson(res, 200, replies[req.path]) : sendJson(res, 404, { error: "no" }),
  });
  ollama = await startOllamaNativeMock();
});
afterAll(async () => {
  await balances.close();
  await ollama.close();
});

async function refresh(type: number, baseUrl: string) {
  const id = await createChannel(root, { type, key: "bal-key", base_url: baseUrl, models: uniqueModel("bal") });
  const res = await root.call("GET", `/api/channel/update_balance/${id}`);
  return { id, json: res.json };
}

describe("balance refresh", () => {
  it.each([
    [40, "", 88.88, "/v1/user/info"],
    [43, "", 110, "/user/balance"],
    [20, "/api", 37.5, "/api/v1/credits"],
    [25, "", 49.58, "/v1/users/me/balance"],
  ])("type %i reads its provider's balance endpoint", async (type, suffix, balance, path) => {
    const { id, json } = await refresh(type, `${balances.url}${suffix}`);
    expect(json).toMatchObject({ success: true, balance });
    expect(balances.requests.at(-1)).toMatchObject({ method: "GET", path });
    expect((await root.call("GET", `/api/channel/${id}`)).json.data.balance).toBe(balance);
  });

  it("an absurd or non-numeric balance is refused, not stored", async () => {
    const saved = replies["/v1/user/info"];
    try {
      for (const hostile of ["1e400", "NaN", "12abc", 1e15, null]) {
        replies["/v1/user/info"] = { code: 20000, data: { totalBalance: hostile } };
        const { id, json } = await refresh(40, balances.url);
        expect(json).toMatchObject({
          success: false,
          message: "余额查询失败：上游返回的余额无效（data.totalBalance）",
        });
        expect((await root.call("GET", `/api/channel/${id}`)).json.data.balance).toBe(0);
      }
    } finally {
      replies["/v1/user/info"] = saved;
    }
  });

  it("a type whose provider has no balance endpoint is refused clearly, without a call", async () => {
    const before = balances.requests.length;
    const { json } = await refresh(34, balances.url);
    expect(json).toEqual({ success: false, message: "该渠道类型不支持余额查询" });
    expect(balances.requests.length).toBe(before);
  });
});

describe("fetch_models per provider", () => {
  it("Ollama lists /api/tags", async () => {
    const id = await createChannel(root, { type: 4, key: "x", base_url: ollama.url, models: uniqueModel("o") });
    expect((await root.call("GET", `/api/channel/fetch_models/${id}`)).json).toEqual({
      success: true,
      message: "",
      data: ["llama3.2:latest", "qwen2.5:7b"],
    });
    expect(ollama.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/tags" });
  });
});
