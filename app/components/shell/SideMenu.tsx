import { useLocation } from "@remix-run/react";
import type { MenuItem } from "./menu";
import { useT } from "~/components/i18n/locale-context";

/** Plain links: every console page is its own document (docs/decisions/032). */
function Links({ items }: { items: MenuItem[] }) {
  const { pathname } = useLocation();
  const t = useT();
  const isActive = (to: string) => pathname === to || (to !== "/" && pathname.startsWith(`${to}/`));
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((item) => (
        <li key={item.to}>
          <a
            href={item.to}
            aria-current={isActive(item.to) ? "page" : undefined}
            className={`block rounded px-3 py-1.5 text-sm ${isActive(item.to) ? "bg-blue-50 text-blue-700 dark:bg-gray-700 dark:text-white" : "hover:bg-gray-100 dark:hover:bg-gray-800"}`}
          >
            {t(item.label)}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * Wide screens get a fixed sidebar; under 600 px the same links fold into a <details> menu,
 * which opens and closes without JavaScript.
 */
export function SideMenu({ items, collapsed }: { items: MenuItem[]; collapsed: boolean }) {
  const t = useT();
  return (
    <>
      <details className="border-b border-gray-200 px-3 py-2 sm:hidden dark:border-gray-700" data-testid="mobile-menu">
        <summary className="cursor-pointer text-sm font-medium">{t("菜单")}</summary>
        <nav aria-label={t("菜单")} className="mt-2">
          <Links items={items} />
        </nav>
      </details>
      <aside
        className={`hidden shrink-0 border-r border-gray-200 p-2 sm:block dark:border-gray-700 ${collapsed ? "w-36" : "w-48"}`}
      >
        <nav aria-label={t("侧边菜单")} data-testid="side-menu">
          <Links items={items} />
        </nav>
      </aside>
    </>
  );
}
