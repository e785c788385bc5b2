import { buildPublicStatus } from "~/domain/site/status.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader() {
  return apiRoute(async () => {
    await whenBooted();
    return apiOk(buildPublicStatus());
  });
}
