import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Remix posts an index route's forms to `?index` (that is how it tells `/token`'s index action
 * from a layout's), and after an action that answers with data instead of a redirect the address
 * bar keeps `/token?index`. Once rendered, the marker is dropped from the address bar with
 * history.replaceState: the router's own location is left alone (no navigation, no reload of the
 * loaders, the action's answer stays on screen), and a reload or a copied address then asks for
 * the plain page. Without JavaScript the browser shows the address it posted to; nothing to do.
 */
export function CleanIndexParam() {
  const location = useLocation();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has("index")) return;
    params.delete("index");
    const search = params.toString();
    window.history.replaceState(window.history.state, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
  }, [location]);
  return null;
}
