const SCRIPT_SRC = "https://challenges.cloudflare.com/turnstile/v0/api.js";

/**
 * Cloudflare's anti-bot widget inside a form: it fills the hidden field `cf-turnstile-response`
 * that the server verifies. The script is served only while the check is on, as a plain tag in
 * the page (pages are not re-rendered in the browser, so it always runs), and it draws every
 * .cf-turnstile box it finds. Turnstile needs JavaScript: with it off the field stays empty and
 * the server refuses (docs/decisions/017). Each submit loads a new page, so each check gets a
 * fresh token.
 */
export function TurnstileWidget({ enabled, siteKey }: { enabled: boolean; siteKey: string }) {
  if (!enabled) return null;
  return (
    <>
      <div className="cf-turnstile" data-sitekey={siteKey} />
      <script src={SCRIPT_SRC} async defer />
    </>
  );
}
