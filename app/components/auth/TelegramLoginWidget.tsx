import { useEffect, useRef } from "react";

type Props = {
  botName: string;
  /** Where the signed fields are posted (same origin). */
  action: string;
  /** Extra hidden fields of that form (the settings card's intent). */
  fields?: Record<string, string>;
};

type TelegramUser = Record<string, string | number | undefined>;

/**
 * Telegram's login widget. It is Telegram's script, so it needs JavaScript (without it nothing is
 * shown, which is fine: the other methods remain). Its `data-onauth` callback posts the signed
 * fields as a plain same-origin form, so the server's cross-site guard covers it (decision 018).
 * The script is added after hydration: a script tag rendered by React would not run on a
 * client-side navigation to the page.
 */
export function TelegramLoginWidget({ botName, action, fields = {} }: Props) {
  const slot = useRef<HTMLDivElement>(null);
  const fieldsKey = JSON.stringify(fields);
  useEffect(() => {
    const host = slot.current;
    if (!host) return;
    const extra = JSON.parse(fieldsKey) as Record<string, string>;
    const callbackName = "switchyardTelegramAuth";
    (window as unknown as Record<string, unknown>)[callbackName] = (user: TelegramUser) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = action;
      for (const [name, value] of Object.entries({ ...extra, ...user })) {
        if (value === undefined) continue;
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = String(value);
        form.appendChild(input);
      }
      document.body.appendChild(form);
      form.submit();
    };
    const script = document.createElement("script");
    script.async = true;
    script.src = "https://telegram.org/js/telegram-widget.js?22";
    script.setAttribute("data-telegram-login", botName);
    script.setAttribute("data-size", "large");
    script.setAttribute("data-request-access", "write");
    script.setAttribute("data-onauth", `${callbackName}(user)`);
    host.replaceChildren(script);
    return () => host.replaceChildren();
  }, [botName, action, fieldsKey]);
  return <div ref={slot} data-testid="telegram-login" />;
}
