import { usableGroupLabels } from "~/domain/groups/groups.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

/** Public, as in the reference: the groups users may choose, name → label. */
export function loader() {
  return apiRoute(async () => {
    await bootApp();
    return apiOk(usableGroupLabels());
  });
}
