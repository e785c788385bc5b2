import { sql } from "kysely";
import { sendMail } from "~/domain/email/mailer.server";
import { effectiveServerAddress, effectiveSystemName, options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import { renderQuota } from "~/utils/format";
import { mailLocale } from "~/domain/users/language.server";
import { USER_STATUS_ENABLED } from "~/domain/users/roles";
import type { Locale } from "~/i18n/locale";
import { t } from "~/i18n/translate";
import { escapeHtml } from "~/domain/email/escape-html";

/**
 * The low-balance reminder (decision 029): one mail per crossing of QuotaRemindThreshold. A
 * periodic sweep rather than a check in the settlement path: the relay's hot path stays as it
 * is, and a crossing is seen within one tick. A user is armed while the balance is at or above
 * the threshold; the sweep that finds an armed user below it disarms them (one statement, so
 * two nodes never both mail) and sends the mail. A user who never had the threshold (a new
 * account with no quota) is never armed, so never mailed. The mail is in the language the user
 * last read the console in.
 */
const MAILS_PER_SWEEP = 100;

export type ReminderSweep = { armed: number; reminded: number; mailed: number };

export async function sweepQuotaReminders(): Promise<ReminderSweep> {
  const threshold = options.int("QuotaRemindThreshold");
  if (threshold <= 0) return { armed: 0, reminded: 0, mailed: 0 };
  const db = await getDb();
  const armed = await db
    .updateTable("users")
    .set({ quota_remind_armed: true })
    .where("quota_remind_armed", "=", false)
    .where("quota", ">=", threshold)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  const { rows: due } = await sql<{ id: number; email: string; quota: number; status: number; language: string }>`
    update users set quota_remind_armed = false
    where id in (
      select id from users where quota_remind_armed and quota < ${threshold} and deleted_at is null
      order by id limit ${MAILS_PER_SWEEP} for update skip locked
    )
    returning id, email, quota, status, language
  `.execute(db);
  let mailed = 0;
  for (const user of due) {
    if (!user.email || user.status !== USER_STATUS_ENABLED) continue;
    // One failed mail (SMTP down) neither stops the others nor re-arms: the next crossing mails again.
    const result = await sendMail(reminderMail(user.email, user.quota, mailLocale(user.language))).catch(() => ({
      ok: false,
    }));
    if (result.ok) mailed += 1;
  }
  return { armed: Number(armed.numUpdatedRows), reminded: due.length, mailed };
}

function reminderMail(to: string, quota: number, locale: Locale) {
  const left = renderQuota(quota, options.bool("DisplayInCurrencyEnabled"), options.float("QuotaPerUnit"));
  const link = `${effectiveServerAddress().replace(/\/+$/, "")}/topup`;
  const site = effectiveSystemName();
  return {
    to,
    subject: t(locale, "{{site}} 额度提醒：您的额度即将用尽", { site }),
    text: t(locale, "您的额度即将用尽，当前剩余额度为 {{left}}，为了不影响您的使用，请及时充值。\n充值链接：{{link}}", {
      left,
      link,
    }),
    html: t(
      locale,
      '<p>您的额度即将用尽，当前剩余额度为 {{left}}，为了不影响您的使用，请及时充值。</p><p>充值链接：<a href="{{link}}">{{link}}</a></p>',
      {
        left: escapeHtml(left),
        link: escapeHtml(link),
      },
    ),
  };
}
