import { usableGroupLabels } from "~/domain/groups/groups.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** Public, as in the reference: the groups users may choose, name → label. */
export function loader() {
  return apiRoute(async () => {
    await whenBooted();
    return apiOk(usableGroupLabels());
  });
}
