type Props = {
  botName: string;
  /** Where the signed fields are posted (same origin). */
  action: string;
  /** Extra hidden fields of that form (the settings card's intent). */
  fields?: Record<string, string>;
};

/**
 * Telegram's login widget. It is Telegram's script, so it needs JavaScript (without it nothing is
 * shown, which is fine: the other methods remain). The enhancement script loads it into this
 * slot; its `data-onauth` callback posts the signed fields as a plain same-origin form, so the
 * server's cross-site guard covers it (decision 018).
 */
export function TelegramLoginWidget({ botName, action, fields = {} }: Props) {
  return (
    <div
      data-testid="telegram-login"
      data-telegram-bot={botName}
      data-action={action}
      data-fields={JSON.stringify(fields)}
    />
  );
}
