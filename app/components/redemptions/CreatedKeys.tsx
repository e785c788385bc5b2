import { Form, Link } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";
import { CopyBoxButton } from "./CopyLinesButton";

/**
 * The codes just made, shown this once (only their hashes are kept). The download posts them
 * back to /redemption/download, which answers with the .txt file: works without JavaScript.
 */
export function CreatedKeys({ name, keys }: { name: string; keys: string[] }) {
  const t = useT();
  return (
    <div className="card flex max-w-2xl flex-col gap-3" data-testid="created-keys">
      <h1 className="text-xl font-bold">{t("兑换码创建成功！")}</h1>
      <p className="rounded border border-yellow-300 bg-yellow-50 px-3 py-2 text-sm text-yellow-900 dark:border-yellow-700 dark:bg-yellow-950 dark:text-yellow-100">
        {t(
          "共 {{total}} 个兑换码。它们只在此处显示一次：系统只保存其哈希，离开本页后无法再查看，请立即复制或下载保存。",
          { total: keys.length },
        )}
      </p>
      <label className="label" htmlFor="created-keys-box">
        {t("「{{name}}」的兑换码", { name })}
      </label>
      <textarea
        id="created-keys-box"
        readOnly
        rows={Math.min(12, keys.length)}
        className="input font-mono"
        value={keys.join("\n")}
      />
      <div className="flex flex-wrap gap-2">
        <Form method="post" action="/redemption/download" reloadDocument>
          <input type="hidden" name="name" value={name} />
          {keys.map((key) => (
            <input key={key} type="hidden" name="keys" value={key} />
          ))}
          <button type="submit" className="btn-primary">
            {t("下载兑换码（{{file}}）", { file: `${name}.txt` })}
          </button>
        </Form>
        <CopyBoxButton targetId="created-keys-box" label={t("复制全部")} />
        <Link to="/redemption" className="btn-secondary">
          {t("返回兑换码列表")}
        </Link>
      </div>
    </div>
  );
}
