import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idSchema } from "~/utils/edge-input";
import { tokenFieldsSchema, tokenUpdateFieldsSchema } from "~/domain/tokens/token-form";
import { createTokens, listTokens, setTokenStatus, updateToken } from "~/domain/tokens/tokens.server";
import { toTokenApiJson } from "~/domain/tokens/token-wire.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { readPage } from "~/utils/pagination";

// The reference's console sends model_limits as a comma list and numbers as numbers.
const createBody = tokenFieldsSchema.extend({ count: z.coerce.number().int().min(1).max(100).default(1) });
const updateBody = tokenUpdateFieldsSchema.extend({ id: idSchema });
const statusBody = z.object({ id: idSchema, status: z.coerce.number().int() });

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const { page, size } = readPage(new URL(request.url), "size");
    const { items, total } = await listTokens(user.id, page, size);
    return apiOk(items.map(toTokenApiJson), "", { total, page, page_size: size });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    if (request.method === "POST") {
      const input = await readJson(request, createBody);
      const result = await createTokens(user, input, input.count);
      // The reference returns no data on create: the key is fetched from the list afterwards.
      return result.ok ? apiOk() : apiFail(result.message);
    }
    if (request.method === "PUT") {
      if (new URL(request.url).searchParams.get("status_only")) {
        const input = await readJson(request, statusBody);
        const result = await setTokenStatus(user.id, input.id, input.status);
        return result.ok ? apiOk(toTokenApiJson(result.value)) : apiFail(result.message);
      }
      const input = await readJson(request, updateBody);
      const result = await updateToken(user, input.id, input);
      return result.ok ? apiOk(toTokenApiJson(result.value)) : apiFail(result.message);
    }
    return apiFail("方法不允许", 405);
  });
}
