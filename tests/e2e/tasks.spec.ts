import { type APIRequestContext } from "@playwright/test";
import { expect, said, test } from "./fixtures";
import { startMjProxy, type MjProxyMock } from "../mocks/mj-proxy";
import { startSunoApi, type SunoApiMock } from "../mocks/suno-api";
import { apiLogin, mergeOption, setOption, uniqueName } from "./helpers";

let proxy: MjProxyMock;
let suno: SunoApiMock;
test.beforeAll(async () => {
  proxy = await startMjProxy({ secret: "e2e-mj-secret", stepMs: 100 });
  suno = await startSunoApi({ key: "e2e-suno-key", stepMs: 100 });
});
test.afterAll(async () => {
  await proxy.close();
  await suno.close();
});

/** As root: a channel of `type` for `models`; then a fresh user with quota and a token; returns the key (the context is left signed in as that user). */
async function userWithChannel(
  request: APIRequestContext,
  channel: { type: number; base_url: string; key: string; models: string },
) {
  await apiLogin(request, "root", "123456");
  // The actions' fixed prices, set here: another file may have replaced the default price list.
  await mergeOption(request, "ModelPrice", { mj_imagine: 0.1, suno_music: 0.1, suno_lyrics: 0.01 });
  const created = await request.post("/api/channel/", {
    headers: { "New-Api-User": "1" },
    data: { name: uniqueName("task"), group: "default", ...channel },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);
  await setOption(request, "QuotaForNewUser", "5000000");
  const username = uniqueName("tu");
  await request.post("/api/user/register", { data: { username, password: "password123", password2: "password123" } });
  await setOption(request, "QuotaForNewUser", "0");
  const userId = await apiLogin(request, username, "password123");
  const asUser = { "New-Api-User": String(userId) };
  await request.post("/api/token/", {
    headers: asUser,
    data: { name: "tasks", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });
  const tokenId = ((await (await request.get("/api/token/", { headers: asUser })).json()) as { data: { id: number }[] })
    .data[0]!.id;
  const key = (
    (await (await request.get(`/api/token/${tokenId}/key`, { headers: asUser })).json()) as { data: { key: string } }
  ).data.key;
  return { username, key };
}

test.describe("drawing and task logs @nojs", () => {
  test("/midjourney lists a user's drawings with progress, image and failure reason; admins see the banner and filter by channel", async ({
    page,
    baseURL,
  }) => {
    const request = page.request;
    await apiLogin(request, "root", "123456");
    const options = (
      (await (await request.get("/api/option/", { headers: { "New-Api-User": "1" } })).json()) as {
        data: { key: string; value: string }[];
      }
    ).data;
    const previousAddress = options.find((o) => o.key === "ServerAddress")?.value ?? "";
    // Image links point at this server's image proxy.
    await setOption(request, "ServerAddress", baseURL!);
    try {
      const { key } = await userWithChannel(request, {
        type: 2,
        base_url: proxy.url,
        key: "e2e-mj-secret",
        models: "mj_imagine",
      });
      const ids: string[] = [];
      for (const prompt of ["a red fox in snow", "this one will fail"]) {
        const reply = await request.post("/mj/submit/imagine", { headers: { "mj-api-secret": key }, data: { prompt } });
        ids.push(((await reply.json()) as { result: string }).result);
      }
      await expect
        .poll(
          async () => {
            const fetched = await Promise.all(
              ids.map(
                async (id) =>
                  (
                    (await (
                      await request.get(`/mj/task/${id}/fetch`, { headers: { Authorization: `Bearer ${key}` } })
                    ).json()) as { progress: string }
                  ).progress,
              ),
            );
            return fetched.join(",");
          },
          { timeout: 15_000 },
        )
        .toBe("100%,100%");

      await page.goto("/midjourney");
      const rows = page.getByTestId("mj-row");
      await expect(rows).toHaveCount(2);
      const fox = rows.filter({ hasText: "a red fox in snow" });
      await expect(fox.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
      await expect(fox).toContainText("a red fox in snow (en)");
      await fox.getByText("查看图片").click();
      const image = fox.getByRole("img");
      await expect(image).toBeVisible();
      await expect(image).toHaveAttribute("src", `${baseURL}/mj/image/${ids[0]}`);
      // The image really loads through the gateway.
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth > 0 || img.complete))
        .toBe(true);
      const failed = rows.filter({ hasText: "this one will fail" });
      await expect(failed).toContainText("Banned prompt detected by Discord");
      await expect(page.getByTestId("mj-notify-banner")).toHaveCount(0);
      await expect(page.getByLabel("渠道 ID")).toHaveCount(0);

      // The admin: every user's drawings, the callback banner, the channel filter.
      await page.context().clearCookies();
      await apiLogin(request, "root", "123456");
      await page.goto("/midjourney");
      await expect(page.getByTestId("mj-notify-banner")).toContainText(
        said("当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。"),
      );
      await page.getByLabel("任务 ID").fill(ids[1]!);
      await page.getByRole("button", { name: "查询" }).click();
      await expect(page.getByTestId("mj-row")).toHaveCount(1);
      await expect(page.getByTestId("mj-row")).toContainText("失败");
      await expect(page.getByRole("columnheader", { name: "提交结果" })).toBeVisible();
    } finally {
      await apiLogin(request, "root", "123456");
      await setOption(request, "ServerAddress", previousAddress);
    }
  });

  test("/task lists a user's Suno tasks with progress, status and the full record", async ({ page }) => {
    const request = page.request;
    const { key } = await userWithChannel(request, {
      type: 36,
      base_url: suno.url,
      key: "e2e-suno-key",
      models: "suno_music,suno_lyrics",
    });
    const music = (
      (await (
        await request.post("/suno/submit/music", {
          headers: { Authorization: `Bearer ${key}` },
          data: { gpt_description_prompt: "calm piano" },
        })
      ).json()) as { data: string }
    ).data;
    const lyrics = (
      (await (
        await request.post("/suno/submit/lyrics", {
          headers: { Authorization: `Bearer ${key}` },
          data: { prompt: "please fail" },
        })
      ).json()) as { data: string }
    ).data;
    await expect
      .poll(
        async () => {
          const reply = (await (
            await request.post("/suno/fetch", {
              headers: { Authorization: `Bearer ${key}` },
              data: { ids: [music, lyrics] },
            })
          ).json()) as { data: { progress: string }[] };
          return reply.data.map((t) => t.progress).join(",");
        },
        { timeout: 15_000 },
      )
      .toBe("100%,100%");
    await page.goto("/task");
    const rows = page.getByTestId("task-row");
    await expect(rows).toHaveCount(2);
    const song = rows.filter({ hasText: "生成音乐" });
    await expect(song).toContainText("成功");
    await expect(song.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    const record = song.getByTestId("task-record");
    await expect(record).toBeHidden();
    await song.getByText(music, { exact: true }).click();
    await expect(record).toBeVisible();
    await expect(record).toContainText("audio_url");
    const failed = rows.filter({ hasText: "生成歌词" });
    await expect(failed).toContainText("失败");
    await expect(failed).toContainText("Unable to generate: content moderation");
  });
});
