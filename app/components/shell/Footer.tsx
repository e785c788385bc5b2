import { sanitizeFooterHtml } from "~/utils/safe-html";
import { useT } from "~/components/i18n/locale-context";

export function Footer({ html, systemName, version }: { html: string; systemName: string; version: string }) {
  const t = useT();
  if (html) {
    // The footer is root-configured HTML by design (docs/product.md, The application shell: links, ICP numbers, …), rebuilt from an allowlist.
    return (
      <footer
        className="px-4 py-3 text-center text-xs text-gray-500"
        dangerouslySetInnerHTML={{ __html: sanitizeFooterHtml(html) }}
      />
    );
  }
  return (
    <footer className="px-4 py-3 text-center text-xs text-gray-500">
      {systemName} {version} · {t("由 Switchyard 驱动的自托管 AI 模型网关")}
    </footer>
  );
}
