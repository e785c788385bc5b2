import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import nodemailer from "nodemailer";
import { options } from "~/domain/options/store.server";
import { isForbiddenUpstreamIp } from "~/utils/upstream-address";
import type { Result } from "~/utils/result";

/**
 * Outgoing mail through the operator's SMTP server (options SMTPServer, SMTPPort, SMTPAccount,
 * SMTPFrom, SMTPToken, SMTPSSLEnabled). A transport per message: an option change applies to the
 * next mail on every node, and nothing holds a connection between the rare sends.
 */

// Every phase is bounded: a silent server must not hold a sign-up request open.
const DNS_TIMEOUT_MS = 5_000;
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_IDLE_TIMEOUT_MS = 20_000;
const WHOLE_SEND_TIMEOUT_MS = 45_000;

export const SMTP_NOT_CONFIGURED_MESSAGE = "管理员未配置 SMTP 邮件服务器，无法发送邮件";
export const SMTP_SEND_FAILED_MESSAGE = "邮件发送失败，请稍后重试或联系管理员";

export type Mail = { to: string; subject: string; html: string; text: string };

export function isSmtpConfigured(): boolean {
  return options.string("SMTPServer").trim() !== "";
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)),
  );
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The address to connect to. The host is operator-supplied and the connection carries the SMTP
 * password, so it gets the upstream SSRF rule (link-local and cloud metadata refused, loopback
 * and private ranges allowed); the checked address is the one connected to, so a name cannot
 * resolve differently between the check and the connection.
 */
async function resolveSmtpHost(host: string): Promise<string> {
  if (isIP(host)) {
    if (isForbiddenUpstreamIp(host)) throw new Error(`SMTP server address refused: ${host}`);
    return host;
  }
  const addresses = await withTimeout(lookup(host, { all: true }), DNS_TIMEOUT_MS, `DNS lookup of ${host}`);
  const forbidden = addresses.find((a) => isForbiddenUpstreamIp(a.address));
  if (forbidden) throw new Error(`SMTP server address refused: ${host} → ${forbidden.address}`);
  const first = addresses[0];
  if (!first) throw new Error(`SMTP server ${host} resolves to no address`);
  return first.address;
}

/** Sends one message; failures are logged with their cause and answered with a message fit for a visitor. */
export async function sendMail(mail: Mail): Promise<Result> {
  if (!isSmtpConfigured()) return { ok: false, message: SMTP_NOT_CONFIGURED_MESSAGE };
  const host = options.string("SMTPServer").trim();
  const port = options.int("SMTPPort");
  const account = options.string("SMTPAccount").trim();
  const from = options.string("SMTPFrom").trim() || account;
  const systemName = options.string("SystemName").trim();
  let transport: ReturnType<typeof nodemailer.createTransport> | undefined;
  try {
    const address = await resolveSmtpHost(host);
    transport = nodemailer.createTransport({
      host: address,
      port,
      // Port 465 is implicit TLS whatever the switch says; otherwise STARTTLS when offered.
      secure: options.bool("SMTPSSLEnabled") || port === 465,
      auth: account ? { user: account, pass: options.string("SMTPToken") } : undefined,
      // The certificate is checked against the name the operator wrote, not the address.
      tls: isIP(host) ? undefined : { servername: host },
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_IDLE_TIMEOUT_MS,
      dnsTimeout: DNS_TIMEOUT_MS,
    });
    await withTimeout(
      transport.sendMail({
        from: systemName ? { name: systemName, address: from } : from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
      }),
      WHOLE_SEND_TIMEOUT_MS,
      "SMTP send",
    );
    return { ok: true };
  } catch (error) {
    console.error(`[mail] sending to ${mail.to} via ${host}:${port} failed:`, (error as Error).message);
    return { ok: false, message: SMTP_SEND_FAILED_MESSAGE };
  } finally {
    transport?.close();
  }
}
