import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEpayGateway, type GatewayOrder, type MockEpayGateway } from "../mocks/epay-gateway";
import { baseUrl, loginRoot, newAdmin, newUser, request, type ApiSession } from "../support/api";

/**
 * Online top-up through Epay (decision 021) against a loopback gateway that checks the
 * merchant's signed form and signs its notifies the way Epay does. The payment options are set
 * on the shared server for this file and put back afterwards.
 */
const PID = "1001";
const KEY = `k${randomBytes(12).toString("hex")}`;
const QUOTA_PER_DOLLAR = 500000;
const PAYMENT_OPTIONS = [
  "ServerAddress",
  "PayAddress",
  "EpayId",
  "EpayKey",
  "CustomCallbackAddress",
  "Price",
  "MinTopUp",
  "TopupGroupRatio",
  "GroupRatio",
] as const;

let gateway: MockEpayGateway;
let root: ApiSession;
const saved = new Map<string, string>();

async function setOption(key: string, value: string) {
  const r = await root.call("PUT", "/api/option/", { key, value });
  if (!r.json?.success) throw new Error(`option ${key}=${value}: ${JSON.stringify(r.json)}`);
}

async function quotaOf(user: ApiSession): Promise<number> {
  const r = await user.call("GET", "/api/user/self");
  return r.json.data.quota as number;
}

async function topUpLogs(user: ApiSession) {
  const r = await user.call("GET", "/api/log/self?type=1&p=1&page_size=100");
  return r.json.data.items as { content: string; quota: number; type: number }[];
}

/** /api/user/pay, then the browser's post of the signed form to the gateway: the gateway's order. */
async function placeOrder(
  user: ApiSession,
  amount: number,
  method: "zfb" | "wx" = "zfb",
): Promise<{ order: GatewayOrder; data: Record<string, string> }> {
  const pay = await user.call("POST", "/api/user/pay", { amount, payment_method: method });
  expect(pay.json, JSON.stringify(pay.json)).toMatchObject({ message: "success" });
  const before = gateway.orders.length;
  const res = await fetch(pay.json.url, {
    method: "POST",
    body: new URLSearchParams(pay.json.data),
    signal: AbortSignal.timeout(10_000),
  });
  const page = await res.text();
  expect(page, gateway.refusals.at(-1)).toContain("易支付收银台");
  expect(gateway.orders.length).toBe(before + 1);
  return { order: gateway.orders.at(-1)!, data: pay.json.data };
}

/** The cashier's pay button: the gateway notifies the server and redirects the payer to return_url. */
async function payAtGateway(order: GatewayOrder): Promise<{ reply: string; location: string }> {
  const res = await fetch(`${gateway.url}/pay`, {
    method: "POST",
    body: new URLSearchParams({ trade_no: order.tradeNo }),
    redirect: "manual",
    signal: AbortSignal.timeout(20_000),
  });
  return { reply: gateway.deliveries.at(-1)!.body, location: res.headers.get("location") ?? "" };
}

beforeAll(async () => {
  root = await loginRoot();
  const listed = await root.call("GET", "/api/option/");
  for (const { key, value } of listed.json.data as { key: string; value: string }[])
    if ((PAYMENT_OPTIONS as readonly string[]).includes(key)) saved.set(key, value);
  gateway = await startEpayGateway();
  gateway.addMerchant(PID, KEY);
  await setOption("ServerAddress", baseUrl());
  await setOption("PayAddress", gateway.url);
  await setOption("EpayId", PID);
  await setOption("EpayKey", KEY);
  await setOption("CustomCallbackAddress", "");
  await setOption("Price", "7.3");
  await setOption("MinTopUp", "1");
  await setOption("TopupGroupRatio", JSON.stringify({ default: 1, vip: 1.5, svip: 0.8 }));
});

afterAll(async () => {
  for (const key of PAYMENT_OPTIONS) if (saved.has(key)) await setOption(key, saved.get(key)!);
  await setOption("EpayKey", "");
  await gateway?.close();
});

describe("Epay: the order and the signed form", () => {
  it("status says online top-up is on only while PayAddress, EpayId and EpayKey are all set", async () => {
    expect((await request("GET", "/api/status")).json.data.enable_online_topup).toBe(true);
    await setOption("EpayKey", "");
    try {
      expect((await request("GET", "/api/status")).json.data.enable_online_topup).toBe(false);
      const user = await newUser();
      const pay = await user.call("POST", "/api/user/pay", { amount: 10, payment_method: "zfb" });
      expect(pay.json).toEqual({ message: "error", data: "当前管理员未配置支付信息" });
    } finally {
      await setOption("EpayKey", KEY);
    }
  });

  it("answers the reference's shape: a signed form for PayAddress/submit.php, notify and return on the server address, no success key", async () => {
    const user = await newUser();
    const pay = await user.call("POST", "/api/user/pay", { amount: 10, payment_method: "wx" });
    expect(pay.status).toBe(200);
    expect(Object.keys(pay.json).sort()).toEqual(["data", "message", "url"]);
    expect(pay.json.url).toBe(`${gateway.url}/submit.php`);
    const data = pay.json.data as Record<string, string>;
    expect(data).toMatchObject({
      pid: PID,
      type: "wxpay",
      name: "TUC10",
      money: "73.00",
      device: "pc",
      sign_type: "MD5",
      notify_url: `${baseUrl()}/api/user/epay/notify`,
      return_url: `${baseUrl()}/topup`,
    });
    expect(data.out_trade_no).toMatch(new RegExp(`^USR${user.userId}NO[0-9a-f]{10}\\d{10}$`));
    expect(data.sign).toMatch(/^[0-9a-f]{32}$/);
    // The gateway accepts it: it checks the signature with the merchant key.
    const res = await fetch(pay.json.url, { method: "POST", body: new URLSearchParams(data) });
    expect(await res.text()).toContain("易支付收银台");
    // A form changed on its way (a cheaper money) is refused by the gateway.
    const tampered = await fetch(pay.json.url, {
      method: "POST",
      body: new URLSearchParams({ ...data, money: "0.01" }),
    });
    expect(await tampered.text()).toContain("签名校验失败");
  });

  it("each order gets its own trade number", async () => {
    const user = await newUser();
    const numbers = await Promise.all(
      Array.from(
        { length: 10 },
        async () =>
          (await user.call("POST", "/api/user/pay", { amount: 1, payment_method: "zfb" })).json.data
            .out_trade_no as string,
      ),
    );
    expect(new Set(numbers).size).toBe(10);
  });

  it("uses CustomCallbackAddress for the notify when set, without a trailing slash", async () => {
    await setOption("CustomCallbackAddress", `${baseUrl()}/`);
    try {
      const user = await newUser();
      const pay = await user.call("POST", "/api/user/pay", { amount: 1, payment_method: "zfb" });
      expect(pay.json.data.notify_url).toBe(`${baseUrl()}/api/user/epay/notify`);
    } finally {
      await setOption("CustomCallbackAddress", "");
    }
  });

  it("computes the payable sum as amount × Price × the group's TopupGroupRatio, to the fen", async () => {
    const user = await newUser();
    expect((await user.call("POST", "/api/user/amount", { amount: 10 })).json).toEqual({
      message: "success",
      data: "73.00",
    });
    expect((await user.call("POST", "/api/user/amount", { amount: 3 })).json.data).toBe("21.90");
    const edit = await root.call("PUT", "/api/user/", { id: user.userId, group: "vip" });
    expect(edit.json.success, JSON.stringify(edit.json)).toBe(true);
    expect((await user.call("POST", "/api/user/amount", { amount: 10 })).json.data).toBe("109.50");
    const pay = await user.call("POST", "/api/user/pay", { amount: 10, payment_method: "zfb" });
    expect(pay.json.data.money).toBe("109.50");
    await root.call("PUT", "/api/user/", { id: user.userId, group: "svip" });
    expect((await user.call("POST", "/api/user/amount", { amount: 1 })).json.data).toBe("5.84");
    // A group without a ratio pays the plain price.
    await setOption("GroupRatio", JSON.stringify({ default: 1, vip: 1, svip: 1, gold: 2 }));
    await root.call("PUT", "/api/user/", { id: user.userId, group: "gold" });
    expect((await user.call("POST", "/api/user/amount", { amount: 10 })).json.data).toBe("73.00");
  });

  it("enforces MinTopUp for the quote and the order, in the reference's words, and creates no order", async () => {
    await setOption("MinTopUp", "5");
    try {
      const user = await newUser();
      expect((await user.call("POST", "/api/user/amount", { amount: 4 })).json).toEqual({
        message: "error",
        data: "充值数量不能小于 5",
      });
      const before = gateway.orders.length;
      expect((await user.call("POST", "/api/user/pay", { amount: 4, payment_method: "zfb" })).json).toEqual({
        message: "error",
        data: "充值数量不能小于 5",
      });
      expect((await user.call("POST", "/api/user/pay", { amount: -10, payment_method: "zfb" })).json.data).toBe(
        "充值数量不能小于 5",
      );
      expect((await user.call("POST", "/api/user/amount", { amount: 5 })).json.data).toBe("36.50");
      expect(gateway.orders.length).toBe(before);
      const page = await fetch(`${baseUrl()}/topup`, { headers: { Cookie: user.cookie } }).then((r) => r.text());
      expect(page).toContain("暂无充值记录");
    } finally {
      await setOption("MinTopUp", "1");
    }
  });

  it("refuses a sum under one fen", async () => {
    // MinTopUp is at least 1 (its bound): a price of 0.001 yuan makes the smallest order 0.1 fen.
    await setOption("Price", "0.001");
    try {
      const user = await newUser();
      expect((await user.call("POST", "/api/user/amount", { amount: 1 })).json).toEqual({
        message: "error",
        data: "充值金额过低",
      });
      expect((await user.call("POST", "/api/user/pay", { amount: 1, payment_method: "zfb" })).json.data).toBe(
        "充值金额过低",
      );
    } finally {
      await setOption("Price", "7.3");
    }
  });

  it("refuses bodies without the right types with a 400, and never a 5xx for absurd amounts", async () => {
    const user = await newUser();
    for (const body of [{ amount: "10" }, { amount: 1.5 }, {}, { amount: 1e300 }]) {
      const r = await user.call("POST", "/api/user/amount", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.success).toBe(false);
    }
    expect((await user.call("POST", "/api/user/pay", { amount: 10, payment_method: "paypal" })).status).toBe(400);
    expect((await user.call("POST", "/api/user/pay", { amount: 10 })).status).toBe(400);
    const huge = await user.call("POST", "/api/user/pay", { amount: Number.MAX_SAFE_INTEGER, payment_method: "zfb" });
    expect(huge.json).toEqual({ message: "error", data: "充值数量过大" });
  });
});

describe("Epay: the wallet's console form", () => {
  async function postWallet(user: ApiSession, form: Record<string, string>) {
    const res = await fetch(`${baseUrl()}/topup`, {
      method: "POST",
      headers: { Cookie: user.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
      redirect: "manual",
    });
    return { status: res.status, html: await res.text() };
  }

  it("quotes, then answers a plain HTML form to the gateway with the signed fields the gateway accepts", async () => {
    const user = await newUser();
    const quote = await postWallet(user, { intent: "topup-quote", amount: "10", payment_method: "wx" });
    expect(quote.status).toBe(200);
    expect(quote.html).toContain("确定要充值吗");
    expect(quote.html).toMatch(/实付金额：(<!-- -->)?73\.00(<!-- -->)?元/);
    const pay = await postWallet(user, { intent: "topup-pay", amount: "10", payment_method: "wx" });
    expect(pay.status).toBe(200);
    const form = /<form method="post" action="([^"]*\/submit\.php)"[^>]*>(.*?)<\/form>/s.exec(pay.html);
    expect(form?.[1]).toBe(`${gateway.url}/submit.php`);
    const fields = new URLSearchParams(
      [...form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1]!,
        m[2]!.replace(/&amp;/g, "&"),
      ]),
    );
    expect(fields.get("type")).toBe("wxpay");
    expect(fields.get("money")).toBe("73.00");
    const cashier = await fetch(form![1]!, { method: "POST", body: fields }).then((r) => r.text());
    expect(cashier, gateway.refusals.at(-1)).toContain("易支付收银台");
  });

  it("words refusals as the product does: the minimum as 充值数量不能小于{min}, other amount errors as 错误：{detail}", async () => {
    const user = await newUser();
    await setOption("MinTopUp", "5");
    try {
      const below = await postWallet(user, { intent: "topup-quote", amount: "3", payment_method: "zfb" });
      expect(below.status).toBe(400);
      expect(below.html).toContain("充值数量不能小于5");
      const pay = await postWallet(user, { intent: "topup-pay", amount: "3", payment_method: "zfb" });
      expect(pay.html).toContain("充值数量不能小于5");
    } finally {
      await setOption("MinTopUp", "1");
    }
    await setOption("Price", "0.001");
    try {
      // Under 1 is raised to 1 (docs/product.md, Wallet); 1 × 0.001 yuan is under a fen.
      const low = await postWallet(user, { intent: "topup-quote", amount: "0", payment_method: "zfb" });
      expect(low.html).toContain("错误：充值金额过低");
    } finally {
      await setOption("Price", "7.3");
    }
    const garbage = await postWallet(user, { intent: "topup-quote", amount: "ten", payment_method: "zfb" });
    expect(garbage.status).toBe(400);
    expect(garbage.html).toContain("充值数量必须是整数");
  });
});

describe("Epay: the notify credits once", () => {
  it("a payment through the gateway credits the order's quota once, logs a top-up and sends the payer back to /topup", async () => {
    const user = await newUser();
    const before = await quotaOf(user);
    const { order } = await placeOrder(user, 10);
    const { reply, location } = await payAtGateway(order);
    expect(reply).toBe("success");
    expect(location.startsWith(`${baseUrl()}/topup?`)).toBe(true);
    expect(await quotaOf(user)).toBe(before + 10 * QUOTA_PER_DOLLAR);
    const logs = await topUpLogs(user);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: 1, quota: 10 * QUOTA_PER_DOLLAR });
    expect(logs[0]!.content).toBe("使用在线充值成功，充值金额: $10.000000，支付金额：73.00");
    // Admins see it in the log as a top-up.
    const admin = await root.call("GET", `/api/log/?type=1&username=${user.username}&p=1`);
    expect(admin.json.data.items).toHaveLength(1);
    // The wallet's history shows the order as paid.
    const page = await fetch(`${baseUrl()}/topup`, { headers: { Cookie: user.cookie } }).then((r) => r.text());
    expect(page).toContain(order.outTradeNo);
    expect(page).toContain("成功");
    expect(page).toContain("¥73.00");

    // The gateway retries (or someone replays the notify): acknowledged, nothing more.
    expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("success");
    expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("success");
    expect(await quotaOf(user)).toBe(before + 10 * QUOTA_PER_DOLLAR);
    expect(await topUpLogs(user)).toHaveLength(1);
  });

  it("50 concurrent identical notifies credit once", async () => {
    const user = await newUser();
    const before = await quotaOf(user);
    const { order } = await placeOrder(user, 3, "wx");
    const params = gateway.notifyParams(order);
    const replies = await Promise.all(Array.from({ length: 50 }, () => gateway.deliver(order, params)));
    expect(new Set(replies)).toEqual(new Set(["success"]));
    expect(await quotaOf(user)).toBe(before + 3 * QUOTA_PER_DOLLAR);
    expect(await topUpLogs(user)).toHaveLength(1);
  });

  it("refuses forged, foreign, under-paid and unknown-order notifies with fail and credits nothing; the genuine one still credits", async () => {
    const user = await newUser();
    const before = await quotaOf(user);
    const { order } = await placeOrder(user, 10);
    const forged = gateway.notifyParams(order, {}, "not-the-merchant-key");
    expect(await gateway.deliver(order, forged)).toBe("fail");
    // A signature for other values: the money changed after signing.
    expect(await gateway.deliver(order, { ...gateway.notifyParams(order), money: "730.00" })).toBe("fail");
    expect(await gateway.deliver(order, { ...gateway.notifyParams(order), sign: "" })).toBe("fail");
    // Signed with the right key, but for another merchant id.
    expect(await gateway.deliver(order, gateway.notifyParams(order, { pid: "9999" }))).toBe("fail");
    // Signed properly, but less than the order was paid.
    expect(await gateway.deliver(order, gateway.notifyParams(order, { money: "0.01" }))).toBe("fail");
    expect(await gateway.deliver(order, gateway.notifyParams(order, { money: "72.99" }))).toBe("fail");
    expect(await gateway.deliver(order, gateway.notifyParams(order, { money: "seventy" }))).toBe("fail");
    // Signed properly, for a trade number this server never issued.
    expect(
      await gateway.deliver(
        order,
        gateway.notifyParams(order, { out_trade_no: `USR${user.userId}NOffffffffff1700000000` }),
      ),
    ).toBe("fail");
    // A parameter given twice is ambiguous about what was signed.
    const twice = new URL(order.notifyUrl);
    for (const [k, v] of Object.entries(gateway.notifyParams(order))) twice.searchParams.set(k, v);
    twice.searchParams.append("money", "0.01");
    expect(await fetch(twice).then((r) => r.text())).toBe("fail");
    // A signed notify of an unpaid trade is acknowledged and credits nothing.
    expect(await gateway.deliver(order, gateway.notifyParams(order, { trade_status: "WAIT_BUYER_PAY" }))).toBe(
      "success",
    );
    expect(await quotaOf(user)).toBe(before);
    expect(await topUpLogs(user)).toHaveLength(0);

    expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("success");
    expect(await quotaOf(user)).toBe(before + 10 * QUOTA_PER_DOLLAR);
  });

  it("answers fail (so the gateway retries) while online top-up is not configured", async () => {
    const user = await newUser();
    const before = await quotaOf(user);
    const { order } = await placeOrder(user, 2);
    await setOption("EpayKey", "");
    try {
      expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("fail");
      expect(await quotaOf(user)).toBe(before);
    } finally {
      await setOption("EpayKey", KEY);
    }
    expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("success");
    expect(await quotaOf(user)).toBe(before + 2 * QUOTA_PER_DOLLAR);
  });

  it("an order placed in quota units credits exactly the units paid for", async () => {
    await setOption("MinTopUp", "1");
    const display = (await root.call("GET", "/api/option/")).json.data.find(
      (o: { key: string }) => o.key === "DisplayInCurrencyEnabled",
    ).value as string;
    await setOption("DisplayInCurrencyEnabled", "false");
    try {
      const user = await newUser();
      const before = await quotaOf(user);
      expect((await user.call("POST", "/api/user/amount", { amount: 400000 })).json.data).toBe(
        "充值数量不能小于 500000",
      );
      const { order, data } = await placeOrder(user, 750000);
      expect(data.money).toBe("10.95");
      expect(await payAtGateway(order).then((r) => r.reply)).toBe("success");
      expect(await quotaOf(user)).toBe(before + 750000);
    } finally {
      await setOption("DisplayInCurrencyEnabled", display);
    }
  });
});

describe("Epay: who may call", () => {
  it("amount and pay: visitors are refused; users, admins and root are served", async () => {
    for (const path of ["/api/user/amount", "/api/user/pay"]) {
      const visitor = await request("POST", path, { amount: 10, payment_method: "zfb" });
      expect(visitor.status).toBe(401);
      expect(visitor.json.success).toBe(false);
    }
    for (const session of [await newUser(), await newAdmin(), root]) {
      expect((await session.call("POST", "/api/user/amount", { amount: 10 })).json, session.username).toEqual({
        message: "success",
        data: "73.00",
      });
      expect(
        (await session.call("POST", "/api/user/pay", { amount: 1, payment_method: "zfb" })).json.message,
        session.username,
      ).toBe("success");
    }
  });

  it("notify needs no session but a signature: a visitor's unsigned call gets fail, a signed one works without any cookie", async () => {
    const visitor = await request("GET", "/api/user/epay/notify?out_trade_no=x&money=1&trade_status=TRADE_SUCCESS");
    expect(visitor.status).toBe(200);
    expect(visitor.json).toBe("fail");
    const user = await newUser();
    const { order } = await placeOrder(user, 1);
    // The delivery carries no cookie and no New-Api-User header.
    expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("success");
  });
});
