import { useT } from "~/components/i18n/locale-context";
import { Pagination } from "~/components/Pagination";
import { StatusTag } from "~/components/StatusTag";
import { useTimeZone } from "~/components/useTimeZone";
import { renderQuota } from "~/utils/format";
import { formatTimestamp } from "~/utils/time-zone";
import type { TopUpHistoryPage } from "~/web/wallet/online-topup-view";

const METHOD_LABEL: Record<string, string> = { alipay: "支付宝", wxpay: "微信" };

/** The user's own online top-up orders, newest first, paged by query string. */
export function TopUpHistory({ history }: { history: TopUpHistoryPage }) {
  const timeZone = useTimeZone();
  const t = useT();
  return (
    <section className="card flex flex-col gap-2" aria-labelledby="topup-history-title">
      <h2 id="topup-history-title" className="text-lg font-semibold">
        {t("充值记录")}
      </h2>
      {history.items.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-300">{t("暂无充值记录")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="topup-history">
            <thead>
              <tr className="border-b border-gray-200 dark:border-gray-700">
                <th className="p-2">{t("订单号")}</th>
                <th className="p-2">{t("充值额度")}</th>
                <th className="p-2">{t("支付金额")}</th>
                <th className="p-2">{t("支付方式")}</th>
                <th className="p-2">{t("状态")}</th>
                <th className="p-2">{t("创建时间")}</th>
                <th className="p-2">{t("到账时间")}</th>
              </tr>
            </thead>
            <tbody>
              {history.items.map((row) => (
                <tr key={row.id} className="border-b border-gray-100 dark:border-gray-700" data-trade-no={row.trade_no}>
                  <td className="p-2 font-mono">{row.trade_no}</td>
                  <td className="p-2">{renderQuota(row.quota, history.displayInCurrency, history.quotaPerUnit)}</td>
                  <td className="p-2">{`¥${row.money.toFixed(2)}`}</td>
                  <td className="p-2">
                    {METHOD_LABEL[row.payment_method] ? t(METHOD_LABEL[row.payment_method]!) : row.payment_method}
                  </td>
                  <td className="p-2">
                    {row.status === "success" ? (
                      <StatusTag tone="green">{t("成功")}</StatusTag>
                    ) : (
                      <StatusTag tone="yellow">{t("待支付")}</StatusTag>
                    )}
                  </td>
                  <td className="whitespace-nowrap p-2">{formatTimestamp(row.create_time, timeZone)}</td>
                  <td className="whitespace-nowrap p-2">{formatTimestamp(row.paid_time, timeZone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={history.page} size={history.size} total={history.total} />
    </section>
  );
}
