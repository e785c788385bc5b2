import { sendMail } from "~/domain/email/mailer.server";
import { effectiveSystemName } from "~/domain/options/store.server";
import { mailLocale } from "~/domain/users/language.server";
import { ROLE_ROOT } from "~/domain/users/roles";
import { DEFAULT_LOCALE, type Locale } from "~/i18n/locale";
import { t } from "~/i18n/translate";
import { getDb } from "~/utils/db.server";
import { escapeHtml } from "~/domain/email/escape-html";

/**
 * Root's mail about channels a test run disabled or re-enabled (the reference mails root on
 * each). One mail per run listing every change, at most MAX_LISTED lines, so a run over many
 * broken channels sends one message, not hundreds. A mail that cannot go (no SMTP, no address,
 * server down) is logged and dropped: the run's work is done either way. Written in the
 * language root last read the console in.
 */
export type ChannelStatusChange = { id: number; name: string; enabled: boolean; reason: string };

const MAX_LISTED = 50;

export function describeChange(change: ChannelStatusChange, locale: Locale = DEFAULT_LOCALE): string {
  const values = { name: change.name, id: change.id };
  return change.enabled
    ? t(locale, "通道「{{name}}」（#{{id}}）已被启用", values)
    : t(locale, "通道「{{name}}」（#{{id}}）已被禁用，原因：{{reason}}", { ...values, reason: change.reason });
}

export async function mailRootAboutChannels(changes: readonly ChannelStatusChange[]): Promise<boolean> {
  if (changes.length === 0) return false;
  try {
    const db = await getDb();
    const root = await db
      .selectFrom("users")
      .select(["email", "language"])
      .where("role", "=", ROLE_ROOT)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirst();
    if (!root?.email) return false;
    const disabled = changes.filter((c) => !c.enabled).length;
    const enabled = changes.length - disabled;
    const locale = mailLocale(root.language);
    const lines = changes.slice(0, MAX_LISTED).map((change) => describeChange(change, locale));
    if (changes.length > MAX_LISTED)
      lines.push(
        t(locale, "另有 {{count}} 个通道的状态变化未列出，请在渠道页查看。", { count: changes.length - MAX_LISTED }),
      );
    const result = await sendMail({
      to: root.email,
      subject: t(locale, "{{site}} 通道状态变更：禁用 {{disabled}} 个，启用 {{enabled}} 个", {
        site: effectiveSystemName(),
        disabled,
        enabled,
      }),
      text: lines.join("\n"),
      html: `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`,
    });
    return result.ok;
  } catch (error) {
    console.error("[channels] mailing root about status changes failed:", (error as Error).message);
    return false;
  }
}
