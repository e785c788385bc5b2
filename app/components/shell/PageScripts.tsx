import { Scripts, ScrollRestoration, useMatches } from "@remix-run/react";
import enhanceUrl from "~/enhance/enhance.js?url";

/**
 * A route's `handle`: `hydrate: true` opts the page into the React/Remix client runtime. Every
 * other page is light: its server-rendered HTML and forms are the page (docs/decisions/032).
 */
export type PageHandle = { hydrate?: boolean };

export function wantsClientRuntime(matches: readonly { handle?: unknown }[]): boolean {
  return matches.some((match) => (match.handle as PageHandle | undefined)?.hydrate === true);
}

/**
 * The scripts at the end of <body>. Light pages get only the small enhancement script; a page
 * that opted in gets the framework too. The enhancement script is on both: its behaviours hang
 * off data attributes through document-level listeners, so they work on whatever rendered them.
 */
export function PageScripts() {
  const hydrate = wantsClientRuntime(useMatches());
  return (
    <>
      {hydrate ? (
        <>
          <ScrollRestoration />
          <Scripts />
        </>
      ) : null}
      <script src={enhanceUrl} defer />
    </>
  );
}
