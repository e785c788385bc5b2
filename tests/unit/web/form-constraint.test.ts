import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loginSchema, registerSchema } from "~/domain/auth/forms";
import { tokenConsoleSchema } from "~/domain/tokens/token-console-form";
import { changePasswordSchema } from "~/domain/users/forms";
import { editUserConsoleSchema } from "~/domain/users/admin-console-form";
import { constraintProps } from "~/web/form-constraint";
import { formConstraint } from "~/web/form-constraint.server";

/** What the browser makes of a field's constraint: the validity flags it would refuse a value with. */
function refuses(constraint: ReturnType<typeof formConstraint>[string], value: string): boolean {
  if (constraint.required && value === "") return true;
  if (value === "") return false;
  if (constraint.minLength !== undefined && value.length < constraint.minLength) return true;
  if (constraint.maxLength !== undefined && value.length > constraint.maxLength) return true;
  const n = Number(value);
  if (constraint.min !== undefined && n < constraint.min) return true;
  if (constraint.max !== undefined && n > constraint.max) return true;
  if (constraint.step === 1 && !Number.isInteger(n)) return true;
  if (constraint.pattern !== undefined && !new RegExp(`^(?:${constraint.pattern})$`, "v").test(value)) return true;
  return false;
}

describe("HTML constraints derived from the server's zod schemas", () => {
  it("register: the browser refuses a missing or too-short password and a too-long username before posting", () => {
    const c = formConstraint(registerSchema(false));
    expect(c.username).toEqual({
      required: true,
      minLength: 1,
      maxLength: 12,
      messages: { valueMissing: "请输入用户名" },
    });
    expect(c.password).toEqual({
      required: true,
      minLength: 8,
      maxLength: 20,
      messages: { valueMissing: "请输入密码", tooShort: "密码长度不得小于 8 位！" },
    });
    expect(c.password2).toEqual({ required: true, messages: { valueMissing: "两次输入的密码不一致" } });
    expect(refuses(c.password!, "abc")).toBe(true);
    expect(refuses(c.password!, "password123")).toBe(false);
    expect(refuses(c.username!, "a".repeat(13))).toBe(true);
    // Optional fields are never required: an empty one posts.
    expect(c.email?.required).toBe(false);
    expect(c.aff_code).toEqual({ required: false, maxLength: 32 });
  });

  it("login asks for both fields", () => {
    const c = formConstraint(loginSchema);
    expect(c.username).toEqual({ required: true, minLength: 1, messages: { valueMissing: "请输入用户名和密码！" } });
    expect(c.password).toEqual({ required: true, minLength: 1, messages: { valueMissing: "请输入用户名和密码！" } });
    expect(c.redirectTo?.required).toBe(false);
  });

  it("token: the name is required and capped, numbers are whole and in range, defaulted fields are optional", () => {
    const c = formConstraint(tokenConsoleSchema);
    // 30 bytes are at most 30 characters: the byte rule itself stays the server's.
    expect(c.name).toEqual({ required: true, minLength: 1, maxLength: 30, messages: { valueMissing: "请输入名称" } });
    expect(c.remain_quota).toMatchObject({ required: false, min: 0, step: 1 });
    expect(c.count).toMatchObject({ required: false, min: 1, max: 100, step: 1 });
    // Per-minute limits: 0 (no limit) up to a billion, whole numbers, empty allowed (means 0).
    for (const limit of [c.rpm_limit, c.tpm_limit]) {
      expect(limit).toMatchObject({ required: false, min: 0, max: 1_000_000_000, step: 1 });
      expect(refuses(limit!, "-1")).toBe(true);
      expect(refuses(limit!, "1000000001")).toBe(true);
      expect(refuses(limit!, "2.5")).toBe(true);
      expect(refuses(limit!, "0")).toBe(false);
    }
    expect(refuses(c.count!, "0")).toBe(true);
    expect(refuses(c.count!, "101")).toBe(true);
    expect(refuses(c.count!, "1.5")).toBe(true);
    expect(refuses(c.count!, "")).toBe(false);
    // Transformed checkboxes and the optional expiry (checked by a refinement) are never required.
    expect(c.unlimited_quota?.required).toBe(false);
    expect(c.expired_at?.required).toBe(false);
    expect(c.model_limits).toEqual({ required: false, multiple: true });
  });

  it("a refined object keeps its fields' constraints (password change; an edit whose password may stay blank)", () => {
    expect(formConstraint(changePasswordSchema).password).toMatchObject({
      required: true,
      minLength: 8,
      maxLength: 20,
      messages: { tooShort: "密码长度不得小于 8 位！" },
    });
    const edit = formConstraint(editUserConsoleSchema);
    expect(edit.password).toMatchObject({ required: false, minLength: 8, maxLength: 20 });
    expect(edit.quota).toMatchObject({ required: false, min: 0, step: 1 });
  });

  it("a regex becomes a pattern that means what zod means: a match anywhere in the value", () => {
    const c = formConstraint(
      z.object({ email: z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/), code: z.string().regex(/\d{6}/) }),
    );
    expect(refuses(c.email!, "a@b.cn")).toBe(false);
    expect(refuses(c.email!, "a@b")).toBe(true);
    expect(refuses(c.code!, "code 123456")).toBe(false);
    expect(refuses(c.code!, "12345")).toBe(true);
  });

  it("is plain JSON a loader can send, and a plain form's props leave off what is not a constraint", () => {
    const c = formConstraint(registerSchema(false));
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
    expect(constraintProps(c, "email")).toEqual({});
    expect(constraintProps(c, "password")).toEqual({
      required: true,
      minLength: 8,
      maxLength: 20,
      "data-validity-messages": JSON.stringify({ valueMissing: "请输入密码", tooShort: "密码长度不得小于 8 位！" }),
    });
    expect(constraintProps(c, "missing")).toEqual({});
  });

  it("each constraint carries the server's own message for breaking it, never zod's generic English", () => {
    const c = formConstraint(tokenConsoleSchema);
    expect(c.count?.messages).toEqual({ rangeUnderflow: "数量至少为 1", rangeOverflow: "数量不能超过 100" });
    expect(c.remain_quota?.messages).toEqual({ rangeUnderflow: "额度不能为负数" });
    const plain = formConstraint(z.object({ code: z.string().min(6), n: z.coerce.number().int().min(0) }));
    expect(plain.code).toEqual({ required: true, minLength: 6 });
    expect(plain.n).toEqual({ required: true, min: 0, step: 1 });
  });
});
