import { createHash, randomInt } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { escapeHtml, readBody } from "./http-helpers";

/**
 * A loopback 易支付 (Epay) gateway speaking the standard merchant protocol, with its
 * own signing code (not the app's, so a fault there cannot agree with itself):
 * - `GET|POST /submit.php` with the merchant's signed form: checks the merchant id, the
 *   signature (sorted raw `k=v&…` + key, lowercase MD5) and the fields, then shows a cashier
 *   page with a `pay` button — or an error page, as a real gateway does;
 * - `POST /pay` (the cashier's button): the order is paid; the gateway sends its notify — a GET
 *   to `notify_url` with pid, trade_no, out_trade_no, type, name, money, trade_status, sign,
 *   sign_type — records the merchant's plain-text reply, and sends the browser to `return_url`
 *   with the same parameters.
 * Tests can also build any notify (forged, replayed, under-paid) with `notifyParams` and send
 * it with `deliver`.
 */
export type GatewayOrder = {
  tradeNo: string;
  pid: string;
  type: string;
  outTradeNo: string;
  name: string;
  money: string;
  notifyUrl: string;
  returnUrl: string;
  paid: boolean;
};

export type NotifyDelivery = { url: string; status: number; body: string };

export type MockEpayGateway = {
  url: string;
  /** Orders accepted by submit.php, newest last. */
  orders: GatewayOrder[];
  /** Every notify this gateway sent and the merchant's reply. */
  deliveries: NotifyDelivery[];
  /** Form submissions refused (bad signature, unknown merchant, missing fields), with the reason. */
  refusals: string[];
  addMerchant: (pid: string, key: string) => void;
  /** The notify parameters for an order, signed with the merchant key unless `signWith` says otherwise. */
  notifyParams: (order: GatewayOrder, overrides?: Record<string, string>, signWith?: string) => Record<string, string>;
  /** Sends a notify (GET with query parameters) to the order's notify_url; resolves to the reply body. */
  deliver: (order: GatewayOrder, params: Record<string, string>) => Promise<string>;
  close: () => Promise<void>;
};

export function epayMockSign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createHash("md5")
    .update(text + key, "utf8")
    .digest("hex");
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const REQUIRED = ["pid", "type", "out_trade_no", "notify_url", "name", "money", "sign"] as const;

export async function startEpayGateway(): Promise<MockEpayGateway> {
  const merchants = new Map<string, string>();
  const orders: GatewayOrder[] = [];
  const deliveries: NotifyDelivery[] = [];
  const refusals: string[] = [];
  let sequence = 0;

  const notifyParams = (order: GatewayOrder, overrides: Record<string, string> = {}, signWith?: string) => {
    const params: Record<string, string> = {
      pid: order.pid,
      trade_no: order.tradeNo,
      out_trade_no: order.outTradeNo,
      type: order.type,
      name: order.name,
      money: order.money,
      trade_status: "TRADE_SUCCESS",
      ...overrides,
    };
    return { ...params, sign: epayMockSign(params, signWith ?? merchants.get(order.pid) ?? ""), sign_type: "MD5" };
  };

  const deliver = async (order: GatewayOrder, params: Record<string, string>) => {
    const target = new URL(order.notifyUrl);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    const res = await fetch(target, { signal: AbortSignal.timeout(20_000) });
    const body = await res.text();
    deliveries.push({ url: target.toString(), status: res.status, body });
    return body;
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", ...headers });
    res.end(body);
  };

  const submit = (res: ServerResponse, form: URLSearchParams) => {
    const params = Object.fromEntries(form.entries());
    const missing = REQUIRED.filter((k) => !params[k]);
    const refuse = (reason: string) => {
      refusals.push(reason);
      send(res, 200, page("支付失败", `<p id="error">${escapeHtml(reason)}</p>`));
    };
    if (missing.length) return refuse(`缺少参数：${missing.join(",")}`);
    const key = merchants.get(params.pid!);
    if (key === undefined) return refuse("商户不存在");
    if ((params.sign_type ?? "MD5") !== "MD5" || params.sign !== epayMockSign(params, key))
      return refuse("签名校验失败");
    if (!/^\d+(\.\d{1,2})?$/.test(params.money!) || Number(params.money) <= 0) return refuse("金额不合法");
    if (!["alipay", "wxpay"].includes(params.type!)) return refuse("支付方式不存在");
    const order: GatewayOrder = {
      tradeNo: `2025${String(Date.now()).slice(-8)}${String(++sequence).padStart(4, "0")}${randomInt(10)}`,
      pid: params.pid!,
      type: params.type!,
      outTradeNo: params.out_trade_no!,
      name: params.name!,
      money: params.money!,
      notifyUrl: params.notify_url!,
      returnUrl: params.return_url ?? "",
      paid: false,
    };
    orders.push(order);
    send(
      res,
      200,
      page(
        "易支付收银台",
        `<p>商品名称：<span id="name">${escapeHtml(order.name)}</span></p>
<p>订单金额：<span id="money">${escapeHtml(order.money)}</span> 元</p>
<p>商户订单号：<span id="out-trade-no">${escapeHtml(order.outTradeNo)}</span></p>
<form method="post" action="/pay"><input type="hidden" name="trade_no" value="${escapeHtml(order.tradeNo)}"><button type="submit">pay</button></form>`,
      ),
    );
  };

  const pay = async (res: ServerResponse, form: URLSearchParams) => {
    const order = orders.find((o) => o.tradeNo === form.get("trade_no"));
    if (!order) return send(res, 404, page("支付失败", "<p>订单不存在</p>"));
    order.paid = true;
    const params = notifyParams(order);
    // The gateway notifies first, then sends the payer back; the return must not be what credits.
    await deliver(order, params).catch((error: unknown) =>
      deliveries.push({ url: order.notifyUrl, status: 0, body: String(error) }),
    );
    if (!order.returnUrl) return send(res, 200, page("支付成功", "<p>支付成功</p>"));
    const back = new URL(order.returnUrl);
    for (const [k, v] of Object.entries(params)) back.searchParams.set(k, v);
    res.writeHead(302, { Location: back.toString() });
    res.end();
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://gateway.local");
      const body = req.method === "POST" ? await readBody(req) : "";
      const form = req.method === "POST" ? new URLSearchParams(body) : url.searchParams;
      if (url.pathname === "/submit.php") return submit(res, form);
      if (url.pathname === "/pay" && req.method === "POST") return pay(res, form);
      send(res, 404, page("Not Found", ""));
    })().catch((error: unknown) => send(res, 500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    orders,
    deliveries,
    refusals,
    addMerchant: (pid, key) => void merchants.set(pid, key),
    notifyParams,
    deliver,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
