import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { z } from "zod";
import { FlashBanner } from "~/components/FlashBanner";
import { browserCheckedFormProps } from "~/components/form-props";
import { useMessage, useT } from "~/components/i18n/locale-context";
import {
  MAX_REDEMPTION_COUNT,
  MAX_REDEMPTION_NAME_LENGTH,
  MAX_REDEMPTION_QUOTA,
} from "~/domain/redemptions/redemption-constants";
import type { redemptionConsoleSchema } from "~/domain/redemptions/redemption-form";
import { QUOTA_PRESET_DOLLARS } from "~/domain/tokens/token-constants";
import { compactNumber } from "~/utils/format";
import type { FormConstraint } from "~/web/form-constraint";

type Props = {
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, unknown>;
  displayInCurrency: boolean;
  quotaPerUnit: number;
  /** The schema's HTML constraints, computed by the loader. */
  constraint: FormConstraint;
};

function Err({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

/**
 * The product's redemption drawer as a page. The quota presets are the token form's (conform
 * "update" intents: with JS they fill the field, without JS the server re-renders it filled).
 */
export function RedemptionForm(props: Props) {
  const [form, fields] = useForm<z.input<typeof redemptionConsoleSchema>, z.output<typeof redemptionConsoleSchema>>({
    lastResult: props.lastResult,
    defaultValue: props.defaultValue as never,
    constraint: props.constraint,
  });
  const t = useT();
  const message = useMessage();
  return (
    <Form
      method="post"
      {...browserCheckedFormProps(form, props.constraint, message)}
      className="card flex max-w-2xl flex-col gap-4"
    >
      <h1 className="text-xl font-bold">{t(props.mode === "create" ? "创建新的兑换码" : "更新兑换码信息")}</h1>
      {form.errors?.map((e) => (
        <FlashBanner key={e} type="error" message={e} />
      ))}
      <div>
        <label className="label" htmlFor={fields.name.id}>
          {t("名称")}
        </label>
        {/* required comes from the schema; the ranges here and below are the domain's (the schema leaves them to it). */}
        <input
          {...getInputProps(fields.name, { type: "text" })}
          className="input"
          placeholder={t("请输入名称")}
          maxLength={MAX_REDEMPTION_NAME_LENGTH}
        />
        <Err errors={fields.name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.quota.id}>
          {t("额度")}
        </label>
        <input
          {...getInputProps(fields.quota, { type: "number" })}
          className="input"
          min={1}
          max={MAX_REDEMPTION_QUOTA}
        />
        <Err errors={fields.quota.errors} />
        <div className="mt-1 flex flex-wrap gap-1">
          {QUOTA_PRESET_DOLLARS.map((dollars) => (
            <button
              key={dollars}
              {...form.update.getButtonProps({ name: fields.quota.name, value: String(dollars * props.quotaPerUnit) })}
              className="btn-secondary"
            >
              {props.displayInCurrency ? `${dollars}$` : compactNumber(dollars * props.quotaPerUnit)}
            </button>
          ))}
        </div>
      </div>
      {props.mode === "create" ? (
        <div>
          <label className="label" htmlFor={fields.count.id}>
            {t("生成数量")}
          </label>
          <input
            {...getInputProps(fields.count, { type: "number" })}
            className="input"
            min={1}
            max={MAX_REDEMPTION_COUNT}
          />
          <Err errors={fields.count.errors} />
        </div>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          {t("提交")}
        </button>
        <Link to="/redemption" className="btn-secondary">
          {t("取消")}
        </Link>
      </div>
    </Form>
  );
}
