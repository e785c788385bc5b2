import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, said, test } from "./fixtures";
import { signIn, uniqueName } from "./helpers";

/**
 * The channel page's schedule panel and the progress of 更新所有余额 (decision 029): progress
 * persisted in the database, so a reload shows it without JavaScript, and with JavaScript the
 * page follows it by itself until the run is done.
 */
let billing: Server;
let billingUrl = "";

test.beforeAll(async () => {
  // An OpenAI-style billing API that answers slowly, so the run is seen going.
  billing = createServer((req, res) => {
    setTimeout(() => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(req.url?.includes("/subscription") ? { hard_limit_usd: 100 } : { total_usage: 1234 }));
    }, 700);
  });
  await new Promise<void>((resolve) => billing.listen(0, "127.0.0.1", () => resolve()));
  billingUrl = `http://127.0.0.1:${(billing.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => billing.close(resolve));
});

test.describe("channel schedules @nojs", () => {
  test("the schedule panel lists each schedule's last and next run; 更新所有余额 shows its progress until done", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    const names = [uniqueName("bal"), uniqueName("bal")];
    for (const name of names) {
      const created = await page.request.post("/api/channel/", {
        headers: { "New-Api-User": "1" },
        data: { type: 1, name, key: "sk-x", base_url: billingUrl, models: "gpt-4o-mini", group: "default" },
      });
      expect((await created.json()).success).toBe(true);
    }

    await page.goto("/channel");
    const panel = page.getByTestId("schedule-panel");
    await panel.getByText("定时任务").click();
    await expect(panel.getByTestId("schedule-channels.auto-test")).toContainText("自动测试所有通道");
    // Off by default (no CHANNEL_TEST_FREQUENCY, option 0), as in the reference.
    await expect(panel.getByTestId("schedule-channels.auto-test")).toContainText("未启用");
    await expect(panel.getByTestId("schedule-logs.retention")).toContainText("未启用");
    // Housekeeping runs on its own timer: it has a next run.
    await expect(panel.getByTestId("schedule-quota.recover-stopped-nodes")).toContainText(
      /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
    );

    await page.getByRole("button", { name: "更新所有余额" }).click();
    await expect(page.getByText(said("已开始更新所有通道余额，请刷新页面查看进度。"))).toBeVisible();
    const progress = page.getByTestId("balance-progress");
    await expect(progress).toContainText(said("正在更新所有通道余额：{{done}} / {{total}}"));
    if (javaScriptEnabled) {
      // No reload: the page follows the run by itself.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await expect(progress).toContainText(said("上次更新所有通道余额：共 {{total}} 个，成功 {{updated}} 个"), {
        timeout: 20_000,
      });
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    } else {
      await expect(async () => {
        await page.reload();
        await expect(progress).toContainText(said("上次更新所有通道余额：共 {{total}} 个，成功 {{updated}} 个"), {
          timeout: 500,
        });
      }).toPass({ timeout: 20_000 });
    }
    for (const name of names) await expect(page.getByTestId(`channel-row-${name}`)).toContainText("$87.66");
  });
});
