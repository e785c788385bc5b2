import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on loopback (the `smtp-server` library) that keeps every message it
 * receives, parsed, so tests read the mail the gateway sent as a mailbox would.
 */
export type TestSmtp = {
  port: number;
  messages: ParsedMail[];
  /** Logins the server accepted (user names), in order. */
  logins: string[];
  /** The next message to this address (waits for it), removed from `messages`. */
  nextMailTo: (address: string, timeoutMs?: number) => Promise<ParsedMail>;
  close: () => Promise<void>;
};

export const SMTP_USER = "mailer@switchyard.test";
export const SMTP_PASSWORD = "smtp-secret-password";

function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((t) => t.value.map((v) => (v.address ?? "").toLowerCase()));
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    // Plain loopback: no certificate to trust, so no STARTTLS; AUTH without TLS is allowed here only.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
        logins.push(auth.username);
        return callback(null, { user: auth.username });
      }
      callback(new Error("Invalid username or password"));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    messages,
    logins,
    nextMailTo: async (to, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = messages.findIndex((m) => recipients(m).includes(to.toLowerCase()));
        if (index >= 0) return messages.splice(index, 1)[0]!;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a verification mail (its text part). */
export function codeIn(mail: ParsedMail): string {
  // The code in either language of the mail: 验证码为：123456 / code is: 123456.
  const match = /(?:验证码为：|code is: )(\d{6})/.exec(mail.text ?? "");
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1]!;
}

/** The reset link of a password-reset mail. */
export function resetLinkIn(mail: ParsedMail): URL {
  const match = /(https?:\/\/\S+\/user\/reset\?\S+)/.exec(mail.text ?? "");
  if (!match) throw new Error(`no reset link in mail: ${mail.text}`);
  return new URL(match[1]!);
}
