import { buildPublicStatus } from "~/domain/site/status.server";
import { apiOk, apiRoute } from "~/utils/api.server";
import { bootApp } from "~/utils/boot.server";

export function loader() {
  return apiRoute(async () => {
    await bootApp();
    return apiOk(buildPublicStatus());
  });
}
