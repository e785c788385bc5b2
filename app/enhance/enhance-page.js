// @ts-check
/**
 * Page-level chores done once on load (docs/decisions/032, 043), none of them needed for the
 * page to work:
 *
 *   html[data-tz]           the server's zone for this page; the browser's is sent as a cookie
 *   ?index in the address   dropped (an index route's form answered with a page)
 *   [data-telegram-bot]     Telegram's login widget, loaded here (it needs script anyway)
 */
(() => {
  const doc = document;
  const html = doc.documentElement;

  /** The browser's zone goes to the server as a cookie, read from the next page on. */
  function sendTimeZone() {
    const shown = html.dataset.tz;
    const cookieName = html.dataset.tzCookie;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!cookieName || !zone || zone === shown) return;
    const cookie = `${cookieName}=${encodeURIComponent(zone)}`;
    // Told already: the server did not take it (a zone it does not know), so do not repeat.
    if (doc.cookie.split("; ").includes(cookie)) return;
    doc.cookie = `${cookie}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
  }

  /**
   * An index route's forms post to `?index`; after an answer that is a page rather than a
   * redirect the address bar keeps it. A reload or a copied address should ask for the page.
   */
  function dropIndexMarker() {
    const params = new URLSearchParams(location.search);
    if (!params.has("index")) return;
    params.delete("index");
    const search = params.toString();
    history.replaceState(history.state, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
  }

  /** Telegram's widget script draws its button in place of the slot; its callback posts a form. */
  function telegramWidgets() {
    for (const slot of /** @type {NodeListOf<HTMLElement>} */ (doc.querySelectorAll("[data-telegram-bot]"))) {
      const w = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window));
      w.switchyardTelegramAuth = (/** @type {Record<string, unknown>} */ user) => {
        const form = doc.createElement("form");
        form.method = "post";
        form.action = slot.dataset.action ?? "";
        const fields = { ...JSON.parse(slot.dataset.fields ?? "{}"), ...user };
        for (const [name, value] of Object.entries(fields)) {
          if (value === undefined) continue;
          const input = doc.createElement("input");
          input.type = "hidden";
          input.name = name;
          input.value = String(value);
          form.appendChild(input);
        }
        doc.body.appendChild(form);
        form.submit();
      };
      const script = doc.createElement("script");
      script.async = true;
      script.src = "https://telegram.org/js/telegram-widget.js?22";
      script.setAttribute("data-telegram-login", slot.dataset.telegramBot ?? "");
      script.setAttribute("data-size", "large");
      script.setAttribute("data-request-access", "write");
      script.setAttribute("data-onauth", "switchyardTelegramAuth(user)");
      slot.replaceChildren(script);
    }
  }

  sendTimeZone();
  dropIndexMarker();
  telegramWidgets();
})();
