/** Any path no other route claims: the spec's not-found page, with a real 404 status. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
