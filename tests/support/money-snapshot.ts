/**
 * A user's balance, usage logs and leases read in ONE statement, so all three come from the
 * same database snapshot. Reading them in separate queries lets a settlement commit between
 * the reads — the balance from before it, the logs from after — and a test that compares them
 * would see money that is not missing.
 */
export type MoneySnapshot = {
  quota: number;
  used: number;
  leased: number;
  /** Σ quota of the user's consume logs (channel tests left out). */
  logged: number;
  logs: number;
  requestIds: number;
  /** Σ amount of every lease in the deployment. */
  leaseSum: number;
};

type Queryable = { query: (text: string, values?: unknown[]) => Promise<{ rows: any[] }> };

export async function moneySnapshot(client: Queryable, username = "root"): Promise<MoneySnapshot> {
  const row = (
    await client.query(
      `with l as (
         select quota, other from logs where type = 2 and username = $1 and token_name <> '模型测试'
       )
       select u.quota, u.used_quota, u.leased,
         (select coalesce(sum(quota), 0) from l) as logged,
         (select count(*) from l) as logs,
         (select count(distinct other::jsonb->>'request_id') from l) as request_ids,
         (select coalesce(sum(amount), 0) from quota_leases) as lease_sum
       from users u where u.username = $1`,
      [username],
    )
  ).rows[0];
  return {
    quota: Number(row.quota),
    used: Number(row.used_quota),
    leased: Number(row.leased),
    logged: Number(row.logged),
    logs: Number(row.logs),
    requestIds: Number(row.request_ids),
    leaseSum: Number(row.lease_sum),
  };
}
