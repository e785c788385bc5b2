import { ROLE_ADMIN } from "~/domain/users/roles";

/** What the side menu depends on: the signed-in user's role and the enable_* switches. */
export type MenuContext = {
  role: number;
  enableDataExport: boolean;
  enableDrawing: boolean;
  enableTask: boolean;
  hasChatLink: boolean;
};

export type MenuItem = { to: string; label: string };

type MenuEntry = MenuItem & { visible?: (c: MenuContext) => boolean };

const isAdmin = (c: MenuContext) => c.role >= ROLE_ADMIN;

// Order and conditions follow the product's application shell, with only the pages that exist: a
// link to a page that does not work yet is not offered (a unit test ties every entry here to a
// route file). 绘图 and 异步任务 show while DrawingEnabled and TaskEnabled are on (docs/product.md:
// "while enabled"), for admins as for users.
const ENTRIES: MenuEntry[] = [
  { to: "/playground", label: "操练场" },
  { to: "/pricing", label: "模型价格" },
  { to: "/channel", label: "渠道", visible: isAdmin },
  { to: "/chat", label: "聊天", visible: (c) => c.hasChatLink },
  { to: "/token", label: "令牌" },
  { to: "/redemption", label: "兑换码", visible: isAdmin },
  { to: "/topup", label: "钱包" },
  { to: "/user", label: "用户管理", visible: isAdmin },
  { to: "/log", label: "日志" },
  { to: "/detail", label: "数据看板", visible: (c) => c.enableDataExport },
  { to: "/midjourney", label: "绘图", visible: (c) => c.enableDrawing },
  { to: "/task", label: "异步任务", visible: (c) => c.enableTask },
  { to: "/setting", label: "设置" },
];

export function visibleMenuItems(context: MenuContext): MenuItem[] {
  return ENTRIES.filter((e) => !e.visible || e.visible(context)).map(({ to, label }) => ({ to, label }));
}

/** The product's New Year item: shown on January 1st and from February 9th to 24th. */
export function isNewYearSeason(now: Date): boolean {
  const month = now.getMonth() + 1;
  const day = now.getDate();
  return (month === 1 && day === 1) || (month === 2 && day >= 9 && day <= 24);
}
