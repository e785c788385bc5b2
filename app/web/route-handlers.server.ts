import type { ServerBuild } from "@remix-run/node";

type Handler = (args: { request: Request }) => unknown;

/**
 * A copy of the build whose every loader and action is wrapped: one place instead of a try in
 * each route, so a route added later is covered without knowing. Done once per build and wrapper
 * (development loads a new build after each change).
 */
export function wrapRouteHandlers(
  build: ServerBuild,
  done: WeakMap<ServerBuild, ServerBuild>,
  wrap: (handler: Handler, isAction: boolean) => Handler,
): ServerBuild {
  const known = done.get(build);
  if (known) return known;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { loader, action } = route.module;
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        ...(loader ? { loader: wrap(loader as Handler, false) as typeof loader } : {}),
        ...(action ? { action: wrap(action as Handler, true) as typeof action } : {}),
      },
    };
  }
  const wrapped = { ...build, routes };
  done.set(build, wrapped);
  return wrapped;
}
