import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { requestLocale } from "~/i18n/locale";
import { requireUser } from "~/web/guards.server";
import { logCsvResponse } from "~/web/log-export.server";
import { pageLogFilter } from "~/web/log-filters.server";
import { requestTimeZone } from "~/utils/time-zone.server";

/**
 * GET /log/export.csv?<the /log form's fields>: the filtered log as a CSV download, streamed.
 * A plain link (the session cookie is the credential), so it works without JavaScript; a user
 * gets their own rows only, an admin everyone's with the admin filters.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const isAdmin = user.role >= ROLE_ADMIN;
  const { filter } = pageLogFilter(request, isAdmin ? "all" : { userId: user.id }, { defaultRange: false });
  return logCsvResponse(filter, isAdmin, requestTimeZone(request), requestLocale(request));
}
