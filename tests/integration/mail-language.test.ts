import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SMTP_PASSWORD, SMTP_USER, startTestSmtp, type TestSmtp } from "../mocks/smtp-server";
import { uniqueName } from "../support/api";
import { startServer, type StartedServer } from "../support/server";
import { call, signIn, type Node } from "../support/standalone";

/**
 * Mails sent while answering a request are written in that reader's language, subject and body;
 * on a server of this file's own, whose SMTP settings would disturb the shared one.
 */
const kind = inject("dbKind");
let server: StartedServer;
let smtp: TestSmtp;
let root: Node;
let base: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer({ kind });
  base = server.baseUrl;
  root = await signIn(base);
  for (const [key, value] of [
    ["SMTPServer", "127.0.0.1"],
    ["SMTPPort", String(smtp.port)],
    ["SMTPAccount", SMTP_USER],
    ["SMTPToken", SMTP_PASSWORD],
    ["SMTPFrom", "noreply@switchyard.test"],
    ["SystemName", "Yard"],
    ["ServerAddress", base],
    ["EmailVerificationEnabled", "true"],
  ])
    expect(
      (await call(base, "/api/option/", { method: "PUT", headers: root.auth, body: { key, value } })).json,
    ).toMatchObject({ success: true });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const mailbox = () => `${uniqueName("l")}@example.com`;

describe("mails in the reader's language", () => {
  it("a verification code asked for in English comes in English, and the answer too", async () => {
    const email = mailbox();
    const res = await call(base, `/api/verification?email=${encodeURIComponent(email)}`, {
      headers: { "Accept-Language": "en-GB,en;q=0.9" },
    });
    expect(res.json).toEqual({ success: true, message: "Verification code sent, please check your mailbox!" });
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe("Yard email verification");
    expect(mail.text).toMatch(
      /^Hello, you are verifying your email address for Yard\.\nYour verification code is: \d{6}\nThe code is valid for \d+ minutes/,
    );
    expect(mail.html).toMatch(/Your verification code is: <strong>\d{6}<\/strong>/);
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("without a preference the mail keeps the product's Chinese", async () => {
    const email = mailbox();
    expect((await call(base, `/api/verification?email=${encodeURIComponent(email)}`)).json).toMatchObject({
      success: true,
      message: "验证码发送成功，请检查你的邮箱！",
    });
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe("Yard 邮箱验证");
    expect(mail.text).toMatch(
      /^您好，您正在进行 Yard 邮箱验证。\n您的验证码为：\d{6}\n验证码 \d+ 分钟内有效，如果不是本人操作，请忽略本邮件。$/,
    );
  });

  it("a password reset asked for with the lang cookie comes in English", async () => {
    const email = mailbox();
    await call(base, `/api/verification?email=${encodeURIComponent(email)}`);
    const code = /验证码为：(\d{6})/.exec((await smtp.nextMailTo(email)).text ?? "")![1];
    const username = uniqueName("l");
    const body = { username, password: "password123", password2: "password123", email, verification_code: code };
    expect((await call(base, "/api/user/register", { method: "POST", body })).json).toMatchObject({ success: true });
    const res = await call(base, `/api/reset_password?email=${encodeURIComponent(email)}`, {
      headers: { Cookie: "lang=en", "Accept-Language": "zh-CN" },
    });
    expect(res.json).toMatchObject({ success: true, message: "Reset mail sent, please check your mailbox!" });
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe("Yard password reset");
    expect(mail.text).toContain("Open the link below in your browser to finish:");
    expect(mail.html).toMatch(/Click <a href="http[^"]+\/user\/reset\?[^"]+">here<\/a>/);
  });
});
