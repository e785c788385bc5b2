/**
 * What the wallet page's online top-up card and history receive (plain data; shared by the
 * server helpers in this folder and the components in app/components/wallet).
 */
export type OnlineTopUpConfig = {
  enabled: boolean;
  /** The smallest amount one may ask for, in the unit the input takes. */
  minAmount: number;
  displayInCurrency: boolean;
  quotaPerUnit: number;
};

export type OnlineTopUpMethod = "zfb" | "wx";

/** What the card's two steps answer: the confirmation (amount and payable yuan), then the gateway form. */
export type OnlineTopUpResult =
  | { step: "error"; message: string; amount?: string }
  | { step: "confirm"; amount: number; method: OnlineTopUpMethod; money: string; quota: number }
  | { step: "gateway"; amount: number; money: string; tradeNo: string; url: string; fields: [string, string][] };

export type TopUpHistoryRow = {
  id: number;
  trade_no: string;
  amount: number;
  quota: number;
  money: number;
  payment_method: string;
  status: string;
  create_time: number;
  paid_time: number;
};

export type TopUpHistoryPage = {
  items: TopUpHistoryRow[];
  total: number;
  page: number;
  size: number;
  displayInCurrency: boolean;
  quotaPerUnit: number;
};
