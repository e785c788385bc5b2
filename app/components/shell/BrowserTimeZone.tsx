import { useEffect } from "react";
import { isTimeZone, TIME_ZONE_COOKIE } from "~/utils/time-zone";

/**
 * Tells the server the browser's time zone (a cookie), so pages from the next one on show and
 * read times in it. This page stays as rendered: re-rendering it in another zone would change
 * text under the reader and the zone a form's time was typed in. Without JavaScript nothing is
 * sent and the server's zone is used throughout.
 */
export function BrowserTimeZone({ shown }: { shown: string }) {
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!isTimeZone(zone) || zone === shown) return;
    const cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`;
    // Told already: the server did not take it (a zone it does not know), so do not repeat.
    if (document.cookie.split("; ").includes(cookie)) return;
    document.cookie = `${cookie}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
  }, [shown]);
  return null;
}
