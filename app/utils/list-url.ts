/**
 * Where an index route's action sends the browser back to: the list at `path` with the filters and
 * page the request carried, minus Remix's `index` marker (forms of an index route post to
 * `?index`; redirecting there would leave it in the address bar, with or without JavaScript).
 */
export function listPageUrl(request: Request, path: string): string {
  const params = new URL(request.url).searchParams;
  params.delete("index");
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
