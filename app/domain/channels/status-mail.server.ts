import { sendMail } from "~/domain/email/mailer.server";
import { effectiveSystemName } from "~/domain/options/store.server";
import { ROLE_ROOT } from "~/domain/users/roles";
import { getDb } from "~/utils/db.server";

/**
 * Root's mail about channels a test run disabled or re-enabled (the reference mails root on
 * each). One mail per run listing every change, at most MAX_LISTED lines, so a run over many
 * broken channels sends one message, not hundreds. A mail that cannot go (no SMTP, no address,
 * server down) is logged and dropped: the run's work is done either way.
 */
export type ChannelStatusChange = { id: number; name: string; enabled: boolean; reason: string };

const MAX_LISTED = 50;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function describeChange(change: ChannelStatusChange): string {
  return change.enabled ? `通道「${change.name}」（#${change.id}）已被启用` : `通道「${change.name}」（#${change.id}）已被禁用，原因：${change.reason}`;
}

export async function mailRootAboutChannels(changes: readonly ChannelStatusChange[]): Promise<boolean> {
  if (changes.length === 0) return false;
  try {
    const db = await getDb();
    const root = await db.selectFrom("users").select("email").where("role", "=", ROLE_ROOT).where("deleted_at", "is", null).orderBy("id").executeTakeFirst();
    if (!root?.email) return false;
    const disabled = changes.filter((c) => !c.enabled).length;
    const enabled = changes.length - disabled;
    const lines = changes.slice(0, MAX_LISTED).map(describeChange);
    if (changes.length > MAX_LISTED) lines.push(`另有 ${changes.length - MAX_LISTED} 个通道的状态变化未列出，请在渠道页查看。`);
    const name = effectiveSystemName();
    const result = await sendMail({
      to: root.email,
      subject: `${name} 通道状态变更：禁用 ${disabled} 个，启用 ${enabled} 个`,
      text: lines.join("\n"),
      html: `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`,
    });
    return result.ok;
  } catch (error) {
    console.error("[channels] mailing root about status changes failed:", (error as Error).message);
    return false;
  }
}
