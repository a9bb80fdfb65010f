import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

type Matched = { openapi?: { expressRoute?: string } };
type Layer = { route?: { path?: unknown } };

/**
 * The areas' routers, each mounted at `/`, would be walked in turn by every request (each testing its routes'
 * paths). Once the validator has matched the operation, only the routers that declare its path (and any router
 * with middleware of its own) can answer it: this hands the request to those, in the areas' order. A request
 * without a matched operation (outside openapi.yaml), or one no router declares by its exact template, walks them
 * all, as before.
 */
export function routeByOperation(routers: Router[]): RequestHandler {
  const always = (r: Router) => (r.stack as Layer[]).some((l) => !l.route);
  const declares = (r: Router, path: string) => (r.stack as Layer[]).some((l) => l.route?.path === path);
  const byPath = new Map<string, Router[]>();
  const forPath = (path: string) => {
    let list = byPath.get(path);
    if (!list) {
      list = routers.filter((r) => declares(r, path)).length ? routers.filter((r) => always(r) || declares(r, path)) : routers;
      byPath.set(path, list);
    }
    return list;
  };
  return (req, res, next) => {
    const path = (req as unknown as Matched).openapi?.expressRoute;
    runInTurn(path === undefined ? routers : forPath(path), req, res, next);
  };
}

/** The routers one after another, as Express runs middleware: an error, or the last one's `next()`, goes on to `done`. */
function runInTurn(routers: readonly Router[], req: Request, res: Response, done: NextFunction): void {
  let i = 0;
  const step = (err?: unknown): void => {
    if ((err !== undefined && err !== null) || i >= routers.length) return done(err as Error | undefined);
    routers[i++]!(req, res, step);
  };
  step();
}
