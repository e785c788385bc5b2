import { buildPublicStatus } from "~/domain/site/status.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

export function loader() {
  return apiRoute(async () => {
    await bootApp();
    return apiOk(buildPublicStatus());
  });
}
