import { type APIRequestContext } from "@playwright/test";
import { expect, readsEnglish, test } from "./fixtures";
import { startEpayGateway, type MockEpayGateway } from "../mocks/epay-gateway";
import { registerUser, signIn } from "./helpers";

/**
 * Online top-up through a loopback Epay gateway, end to end: root configures payment
 * through the options API, a user pays 10 yuan from the wallet — amount, confirmation, the signed
 * form, the gateway's cashier page, back to /topup — and the balance rises once, also when the
 * gateway sends its notify again. Every option changed is put back at the end.
 */
const PID = "2002";
const KEY = "e2e-epay-merchant-key";
const OPTIONS = ["ServerAddress", "PayAddress", "EpayId", "CustomCallbackAddress", "Price", "MinTopUp"] as const;

let gateway: MockEpayGateway;
test.beforeAll(async () => {
  gateway = await startEpayGateway();
  gateway.addMerchant(PID, KEY);
});
test.afterAll(async () => gateway.close());

/** Root's option writes through a separate API context, and a function that puts the old values back. */
async function configurePayment(
  request: APIRequestContext,
  baseURL: string,
  values: Partial<Record<(typeof OPTIONS)[number], string>> = {},
) {
  const login = await request.post("/api/user/login", { data: { username: "root", password: "123456" } });
  const id = String(((await login.json()) as { data: { id: number } }).data.id);
  const listed = (await (await request.get("/api/option/", { headers: { "New-Api-User": id } })).json()) as {
    data: { key: string; value: string }[];
  };
  const saved = new Map(
    listed.data.filter((o) => (OPTIONS as readonly string[]).includes(o.key)).map((o) => [o.key, o.value]),
  );
  const set = async (key: string, value: string) => {
    const res = await request.put("/api/option/", { data: { key, value }, headers: { "New-Api-User": id } });
    expect(((await res.json()) as { success: boolean }).success, `${key}=${value}`).toBe(true);
  };
  const wanted = {
    ServerAddress: baseURL,
    PayAddress: gateway.url,
    EpayId: PID,
    CustomCallbackAddress: "",
    Price: "1",
    MinTopUp: "1",
    ...values,
  };
  for (const [key, value] of Object.entries(wanted)) await set(key, value);
  await set("EpayKey", KEY);
  return async () => {
    await set("EpayKey", "");
    for (const [key, value] of saved) await set(key, value);
  };
}

test.describe("wallet: online top-up @nojs", () => {
  test("a user pays 10 yuan through the gateway: confirmation, cashier, back to the wallet; the balance rises once and the history shows the order paid", async ({
    page,
    request,
    baseURL,
  }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    await page.goto("/topup");
    await expect(page.getByText("管理员未开启在线充值！")).toBeVisible();

    const restore = await configurePayment(request, baseURL!);
    try {
      await page.goto("/topup");
      await expect(page.getByTestId("wallet-balance")).toHaveText("$0.00");
      await page.getByLabel(readsEnglish() ? /Top-up amount/ : /充值数量/).fill("10");
      await page.getByRole("button", { name: "支付宝" }).click();

      const confirm = page.getByRole("dialog", { name: "确定要充值吗" });
      await expect(confirm.getByTestId("topup-confirm-amount")).toHaveText("充值数量：10");
      await expect(confirm.getByTestId("topup-confirm-money")).toHaveText("实付金额：10.00元");
      await confirm.getByRole("button", { name: "确定" }).click();

      const created = page.getByRole("dialog", { name: "订单已创建" });
      const tradeNo = (await created.getByTestId("topup-trade-no").textContent())!;
      await created.getByRole("button", { name: "前往支付" }).click();

      // The gateway's cashier (another origin): it accepted the signed form.
      await expect(page.getByRole("heading", { name: "易支付收银台" })).toBeVisible();
      await expect(page.locator("#money")).toHaveText("10.00");
      await expect(page.locator("#out-trade-no")).toHaveText(tradeNo);
      await page.getByRole("button", { name: "pay" }).click();

      await expect(page).toHaveURL(/\/topup\?/);
      await expect(page.getByTestId("wallet-balance")).toHaveText("$10.00");
      const row = page.locator(`tr[data-trade-no="${tradeNo}"]`);
      await expect(row).toContainText("成功");
      await expect(row).toContainText("¥10.00");
      await expect(row).toContainText("支付宝");

      // The gateway delivers its notify again: acknowledged, nothing more credited.
      const order = gateway.orders.find((o) => o.outTradeNo === tradeNo)!;
      expect(gateway.deliveries.at(-1)?.body).toBe("success");
      expect(await gateway.deliver(order, gateway.notifyParams(order))).toBe("success");
      await page.goto("/topup");
      await expect(page.getByTestId("wallet-balance")).toHaveText("$10.00");
      await expect(page.locator("tr[data-trade-no]")).toHaveCount(1);
    } finally {
      await restore();
    }
  });

  test("an amount under the minimum top-up is refused in the product's words and creates no order", async ({
    page,
    request,
    baseURL,
  }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    const restore = await configurePayment(request, baseURL!, { MinTopUp: "5" });
    try {
      await page.goto("/topup");
      await page.getByLabel(readsEnglish() ? /Top-up amount/ : /充值数量/).fill("3");
      await page.getByRole("button", { name: "微信" }).click();
      await expect(page.getByText("充值数量不能小于5")).toBeVisible();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(page.getByText("暂无充值记录")).toBeVisible();
    } finally {
      await restore();
    }
  });
});
