import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isNewYearSeason, visibleMenuItems, type MenuContext } from "~/components/shell/menu";

const base: MenuContext = { role: 1, enableDataExport: true, enableDrawing: true, enableTask: true, hasChatLink: true };
const labels = (c: MenuContext) => visibleMenuItems(c).map((i) => i.label);
const routeFiles = readdirSync(fileURLToPath(new URL("../../../app/routes", import.meta.url)));

describe("side menu", () => {
  it("hides admin entries from ordinary users and shows them to admins", () => {
    expect(labels(base)).not.toContain("渠道");
    expect(labels(base)).not.toContain("用户管理");
    expect(labels({ ...base, role: 10 })).toContain("渠道");
    expect(labels(base)).not.toContain("兑换码");
    expect(labels(base)).toContain("钱包");
    expect(labels({ ...base, role: 10 })).toContain("兑换码");
    expect(labels({ ...base, role: 10 })).toContain("用户管理");
  });

  it("offers only pages that exist: every entry has a route module", () => {
    const items = visibleMenuItems({ ...base, role: 100 });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const name = item.to.slice(1);
      // /token is token._index.tsx or token.tsx (Remix flat routes).
      expect(
        routeFiles.some((file) => file === `${name}.tsx` || file.startsWith(`${name}._index.`)),
        item.to,
      ).toBe(true);
    }
  });

  it("offers 聊天 only when a chat link is configured", () => {
    expect(labels(base)).toContain("聊天");
    expect(labels({ ...base, hasChatLink: false })).not.toContain("聊天");
  });

  it("keeps the menu order of the application shell", () => {
    expect(labels({ ...base, role: 100 })).toEqual([
      "操练场",
      "模型价格",
      "渠道",
      "聊天",
      "令牌",
      "兑换码",
      "钱包",
      "用户管理",
      "日志",
      "数据看板",
      "绘图",
      "异步任务",
      "设置",
    ]);
  });

  it("offers the dashboard only while data export is enabled", () => {
    expect(labels(base)).toContain("数据看板");
    expect(labels({ ...base, enableDataExport: false })).not.toContain("数据看板");
  });

  it("offers 绘图 and 异步任务 only while drawing and tasks are enabled", () => {
    expect(labels(base)).toEqual(expect.arrayContaining(["绘图", "异步任务"]));
    expect(labels({ ...base, enableDrawing: false })).not.toContain("绘图");
    expect(labels({ ...base, enableDrawing: false })).toContain("异步任务");
    expect(labels({ ...base, role: 100, enableTask: false })).not.toContain("异步任务");
  });

  it("shows the New Year item on Jan 1 and Feb 9-24 only", () => {
    expect(isNewYearSeason(new Date(2027, 0, 1))).toBe(true);
    expect(isNewYearSeason(new Date(2027, 0, 2))).toBe(false);
    expect(isNewYearSeason(new Date(2027, 1, 9))).toBe(true);
    expect(isNewYearSeason(new Date(2027, 1, 24))).toBe(true);
    expect(isNewYearSeason(new Date(2027, 1, 25))).toBe(false);
  });
});
