import type { useForm } from "@conform-to/react";
import type { z } from "zod";
import type { channelConsoleSchema } from "~/domain/channels/channel-console-form";

/** What the channel form posts, and the fields conform gives its parts. */
export type ChannelFormInput = z.input<typeof channelConsoleSchema>;
export type ChannelFormFields = ReturnType<typeof useForm<ChannelFormInput>>[1];

export function Err({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

/** A helper is a real post: the server applies it and re-renders the form (decision 032). */
export function HelperButton({ intent, children }: { intent: string; children: React.ReactNode }) {
  return (
    <button type="submit" name="intent" value={intent} formNoValidate className="btn-secondary">
      {children}
    </button>
  );
}
