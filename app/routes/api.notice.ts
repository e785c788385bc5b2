import { getOptionValue } from "~/domain/options/store.server";
import { apiOk, apiRoute } from "~/utils/api.server";
import { bootApp } from "~/utils/boot.server";

/** The raw operator text (the reference's wire shape: data is a string). */
export function loader() {
  return apiRoute(async () => {
    await bootApp();
    return apiOk(getOptionValue("Notice") ?? "");
  });
}
