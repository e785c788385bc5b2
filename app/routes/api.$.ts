import { apiFail } from "~/web/api.server";

/** Unknown /api paths answer in the API's envelope, not with the console's HTML page. */
function notFound() {
  return apiFail("接口不存在", 404);
}

export const loader = notFound;
export const action = notFound;
