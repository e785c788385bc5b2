import type { LoaderFunctionArgs } from "@remix-run/node";
import { allCatalogModels } from "~/domain/channels/catalog";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** The reference's OpenAI-style model objects for every model the catalogue knows. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(
      allCatalogModels().map((id) => ({
        id,
        object: "model",
        created: 1626777600,
        owned_by: "switchyard",
        permission: [],
        root: id,
        parent: null,
      })),
    );
  });
}
