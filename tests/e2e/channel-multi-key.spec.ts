import { expect, test } from "./fixtures";
import { signIn, uniqueName } from "./helpers";

const KEYS = ["sk-e2e-multi-aaaa-1111", "sk-e2e-multi-bbbb-2222", "sk-e2e-multi-cccc-3333"];

// Tagged @nojs: the same flow runs again with JavaScript off, where every button is a plain post.
test.describe("multi-key channels @nojs", () => {
  test("create one channel of three keys, see their hints only, disable one key", async ({ page }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    const name = uniqueName("mk");
    await page.goto("/channel/add");
    await page.getByLabel("名称").fill(name);
    await page.getByLabel("密钥", { exact: true }).fill(KEYS.join("\n"));
    await page.getByLabel("密钥模式").selectOption({ label: "单渠道多密钥（每行一个密钥）" });
    await page.getByLabel("多密钥使用方式").selectOption({ label: "轮询" });
    await page.getByLabel("每个密钥最大并发数").fill("2");
    await page.getByLabel("每个密钥每分钟请求数（RPM）").fill("30");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/channel$/);
    await expect(page.getByText("渠道创建成功！")).toBeVisible();
    const row = page.getByTestId(`channel-row-${name}`);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("multi-key")).toHaveText("多密钥 3/3");

    await row.getByRole("link", { name: "编辑" }).click();
    await expect(page.getByRole("heading", { name: "更新渠道信息" })).toBeVisible();
    await expect(page.getByLabel("多密钥使用方式")).toHaveValue("polling");
    await expect(page.getByLabel("每个密钥最大并发数")).toHaveValue("2");
    await expect(page.getByLabel("每个密钥每分钟请求数（RPM）")).toHaveValue("30");
    const table = page.getByTestId("channel-key-table");
    await expect(table.locator("tbody tr")).toHaveCount(3);
    await expect(page.getByTestId("channel-key-0")).toContainText("sk-…1111");
    await expect(page.getByTestId("channel-key-2")).toContainText("sk-…3333");
    // Nowhere in the page, its embedded data included.
    const html = await page.content();
    for (const key of KEYS) expect(html).not.toContain(key);

    await page.getByTestId("channel-key-1").getByRole("button", { name: "禁用" }).click();
    await expect(page.getByText("密钥 #1 已禁用")).toBeVisible();
    await expect(page.getByTestId("channel-key-1")).toContainText("手动禁用");
    await expect(page.getByTestId("channel-key-1").getByRole("button", { name: "启用" })).toBeVisible();
    await expect(page.getByTestId("channel-key-0")).toContainText("已启用");

    await page.goto("/channel");
    await expect(page.getByTestId(`channel-row-${name}`).getByTestId("multi-key")).toHaveText("多密钥 2/3");
    await expect(page.getByTestId(`channel-row-${name}`)).toContainText("已启用");
  });
});
