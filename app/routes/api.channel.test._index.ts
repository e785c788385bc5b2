import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { readTestAllProgress, startTestAll } from "~/relay/channel-test-all.server";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { enqueueJob } from "../../jobs/enqueue";

/** Starts testing every channel in the background; `?progress=1` reads how far it got. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (new URL(request.url).searchParams.get("progress")) return apiOk(await readTestAllProgress());
    const started = await startTestAll(() => enqueueJob("channels.test-all"));
    if (!started.ok) return apiFail(started.message);
    return apiOk(undefined, "已成功开始测试所有通道，请刷新页面查看结果。");
  });
}
