import { getOptionValue } from "~/domain/options/store.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** The raw operator text (the reference's wire shape: data is a string). */
export function loader() {
  return apiRoute(async () => {
    await whenBooted();
    return apiOk(getOptionValue("About") ?? "");
  });
}
