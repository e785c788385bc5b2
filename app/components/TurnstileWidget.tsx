import { useEffect, useRef } from "react";

const SCRIPT_SRC = "https://challenges.cloudflare.com/turnstile/v0/api.js";

type TurnstileApi = { render: (el: HTMLElement) => void; reset: (el: HTMLElement) => void };

/**
 * Cloudflare's anti-bot widget inside a form: it fills the hidden field `cf-turnstile-response`
 * that the server verifies. The script is served only while the check is on. Turnstile needs
 * JavaScript: with it off the field stays empty and the server refuses (docs/decisions/017).
 *
 * `resetKey` changes after each submit: a token is good for one check, so the widget fetches a
 * fresh one for the next press (the page is not reloaded when JavaScript is on).
 */
export function TurnstileWidget({ enabled, siteKey, resetKey }: { enabled: boolean; siteKey: string; resetKey?: unknown }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    const api = (window as unknown as { turnstile?: TurnstileApi }).turnstile;
    if (!enabled || !el) return;
    if (!api) {
      // The server-rendered <script> loads it on a first visit. After client-side navigation the
      // <script> React inserted never runs, so if nothing has loaded it shortly, load it here; on
      // load it draws every .cf-turnstile box on the page.
      const timer = window.setTimeout(() => {
        if ((window as unknown as { turnstile?: TurnstileApi }).turnstile || document.querySelector('script[data-loaded-by="app"]')) return;
        const script = document.createElement("script");
        script.src = SCRIPT_SRC;
        script.async = true;
        script.dataset.loadedBy = "app";
        document.head.appendChild(script);
      }, 3000);
      return () => window.clearTimeout(timer);
    }
    if (el.childElementCount === 0) api.render(el);
    else if (resetKey !== undefined) api.reset(el);
  }, [enabled, siteKey, resetKey]);
  if (!enabled) return null;
  return (
    <>
      <div ref={box} className="cf-turnstile" data-sitekey={siteKey} />
      <script src={SCRIPT_SRC} async defer />
    </>
  );
}
