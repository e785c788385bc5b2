import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/** The balance endpoints of the providers that have one: channel type → how to read the remaining credit. */
export type BalanceGet = (url: string, headers: Record<string, string>) => Promise<unknown>;
type BalanceReader = (base: string, key: string, get: BalanceGet) => Promise<number>;

export class BalanceReadError extends Error {}

/** Larger than any real account; a bigger or non-finite value is a broken (or hostile) reply. */
const MAX_BALANCE = 1e12;

/** An amount as a provider sends it (number or decimal string): finite and of sane size, else refused. */
export function readAmount(value: unknown, field: string): number {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n) || Math.abs(n) > MAX_BALANCE) throw new BalanceReadError(`上游返回的余额无效（${field}）`);
  return Math.round(n * 1e6) / 1e6;
}

const field = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), value);
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** OpenAI and compatible resellers: hard limit minus this month's usage (cents), USD. */
const openAiBilling: BalanceReader = async (base, key, get) => {
  const subscription = await get(`${base}/v1/dashboard/billing/subscription`, bearer(key));
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
  const end = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  const usage = await get(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, bearer(key));
  return readAmount(
    readAmount(field(subscription, "hard_limit_usd") ?? 0, "hard_limit_usd") -
      readAmount(field(usage, "total_usage") ?? 0, "total_usage") / 100,
    "balance",
  );
};

/** `/dashboard/billing/credit_grants` of the resellers that kept it (API2GPT: total_remaining, AIGC2D: total_available). */
const creditGrants =
  (amountField: string): BalanceReader =>
  async (base, key, get) =>
    readAmount(field(await get(`${base}/dashboard/billing/credit_grants`, bearer(key)), amountField), amountField);

export const BALANCE_PROVIDERS: ReadonlyMap<number, BalanceReader> = new Map<number, BalanceReader>([
  [CHANNEL_TYPE.openai, openAiBilling],
  [CHANNEL_TYPE.custom, openAiBilling],
  // AIProxy reports points on its own site, whatever the relay base URL.
  [
    CHANNEL_TYPE.aiProxy,
    async (_base, key, get) =>
      readAmount(
        field(await get("https://aiproxy.io/api/report/getUserOverview", { "Api-Key": key }), "data", "totalPoints"),
        "data.totalPoints",
      ),
  ],
  [CHANNEL_TYPE.api2gpt, creditGrants("total_remaining")],
  [CHANNEL_TYPE.aigc2d, creditGrants("total_available")],
  [
    CHANNEL_TYPE.openRouter,
    async (base, key, get) => {
      const reply = await get(`${base}/v1/credits`, bearer(key));
      return readAmount(
        readAmount(field(reply, "data", "total_credits"), "total_credits") -
          readAmount(field(reply, "data", "total_usage"), "total_usage"),
        "balance",
      );
    },
  ],
  [
    CHANNEL_TYPE.moonshot,
    async (base, key, get) =>
      readAmount(
        field(await get(`${base}/v1/users/me/balance`, bearer(key)), "data", "available_balance"),
        "data.available_balance",
      ),
  ],
  [
    CHANNEL_TYPE.siliconCloud,
    async (base, key, get) =>
      readAmount(field(await get(`${base}/v1/user/info`, bearer(key)), "data", "totalBalance"), "data.totalBalance"),
  ],
  [
    CHANNEL_TYPE.deepSeek,
    async (base, key, get) => {
      const infos = field(await get(`${base}/user/balance`, bearer(key)), "balance_infos");
      const list = Array.isArray(infos) ? (infos as { currency?: unknown; total_balance?: unknown }[]) : [];
      const chosen = list.find((i) => i?.currency === "CNY") ?? list[0];
      return readAmount(chosen?.total_balance, "balance_infos.total_balance");
    },
  ],
]);
