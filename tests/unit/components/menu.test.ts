import { describe, expect, it } from "vitest";
import { isNewYearSeason, visibleMenuItems, type MenuContext } from "~/components/shell/menu";

const base: MenuContext = { role: 1, enableDataExport: true, enableDrawing: true, enableTask: true, hasChatLink: false };
const labels = (c: MenuContext) => visibleMenuItems(c).map((i) => i.label);

describe("side menu", () => {
  it("hides admin entries from ordinary users and shows them to admins", () => {
    expect(labels(base)).not.toContain("渠道");
    expect(labels(base)).not.toContain("用户管理");
    expect(labels(base)).not.toContain("兑换码");
    expect(labels({ ...base, role: 10 })).toEqual(expect.arrayContaining(["渠道", "用户管理", "兑换码"]));
  });

  it("follows the enable switches for dashboard, drawing, tasks and chat", () => {
    const off = labels({ ...base, enableDataExport: false, enableDrawing: false, enableTask: false });
    expect(off).not.toContain("数据看板");
    expect(off).not.toContain("绘图");
    expect(off).not.toContain("异步任务");
    expect(off).not.toContain("聊天");
    expect(labels({ ...base, hasChatLink: true })).toContain("聊天");
  });

  it("keeps the spec's order", () => {
    expect(labels({ ...base, role: 100, hasChatLink: true })).toEqual([
      "操练场", "模型价格", "渠道", "聊天", "令牌", "兑换码", "钱包", "用户管理", "日志", "数据看板", "绘图", "异步任务", "设置",
    ]);
  });

  it("shows the New Year item on Jan 1 and Feb 9-24 only", () => {
    expect(isNewYearSeason(new Date(2027, 0, 1))).toBe(true);
    expect(isNewYearSeason(new Date(2027, 0, 2))).toBe(false);
    expect(isNewYearSeason(new Date(2027, 1, 9))).toBe(true);
    expect(isNewYearSeason(new Date(2027, 1, 24))).toBe(true);
    expect(isNewYearSeason(new Date(2027, 1, 25))).toBe(false);
  });
});
