import enhanceUrl from "~/enhance/enhance.js?url";

/**
 * The scripts at the end of <body>: only the small enhancement script. No page hydrates; the
 * server-rendered HTML and its forms are the page (docs/decisions/032). A page that needs more
 * (the playground's chat) loads its own plain script from its route.
 */
export function PageScripts() {
  return <script src={enhanceUrl} defer />;
}
