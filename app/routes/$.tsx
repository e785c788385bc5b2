/** Any path no other route claims: the product's not-found page, with a real 404 status. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
