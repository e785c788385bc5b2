import { useT } from "~/components/i18n/locale-context";
import { renderQuota } from "~/utils/format";

export function BalanceCard({
  quota,
  usedQuota,
  requestCount,
  displayInCurrency,
  quotaPerUnit,
}: {
  quota: number;
  usedQuota: number;
  requestCount: number;
  displayInCurrency: boolean;
  quotaPerUnit: number;
}) {
  const t = useT();
  return (
    <div className="card grid grid-cols-1 gap-3 sm:grid-cols-3">
      <div>
        <div className="text-sm text-gray-500">{t("当前余额")}</div>
        <div className="text-2xl font-bold" data-testid="wallet-balance">
          {renderQuota(quota, displayInCurrency, quotaPerUnit)}
        </div>
      </div>
      <div>
        <div className="text-sm text-gray-500">{t("历史消耗")}</div>
        <div className="text-lg" data-testid="wallet-used">
          {renderQuota(usedQuota, displayInCurrency, quotaPerUnit)}
        </div>
      </div>
      <div>
        <div className="text-sm text-gray-500">{t("请求次数")}</div>
        <div className="text-lg">{requestCount}</div>
      </div>
    </div>
  );
}
