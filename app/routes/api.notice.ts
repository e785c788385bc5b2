import { getOptionValue } from "~/domain/options/store.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

/** The raw operator text (the reference's wire shape: data is a string). */
export function loader() {
  return apiRoute(async () => {
    await bootApp();
    return apiOk(getOptionValue("Notice") ?? "");
  });
}
