import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import { ReorderSchema } from '@shared/schemas/catalog-fields';
import type { AuthContext } from '../core/auth-context';
import { authOf, type AppContext } from './context';
import { ECHOED_ROW_FIELDS, intParam, validate, type ValidateOptions } from './validate';

/** What a catalog module's service offers to its routes. */
export interface CatalogRouteService<C, U> {
  list(auth: AuthContext): Promise<unknown>;
  create(auth: AuthContext, input: C): Promise<unknown>;
  update(auth: AuthContext, id: number, input: U): Promise<unknown>;
  remove(auth: AuthContext, id: number): Promise<unknown>;
  reorder?(auth: AuthContext, ids: number[]): Promise<unknown>;
}

/**
 * Declares the standard catalog routes, each a chain auth -> validate(zod) -> handler:
 *   GET    <path>              list          200 [dto]
 *   POST   <path>              create        201 dto
 *   PUT    <path>/reorder      reorder       200 [dto]     (positioned catalogs only)
 *   PUT    <path>/:<idParam>   update        200 dto
 *   DELETE <path>/:<idParam>   delete        204
 * `reorder` is declared before `/:id` so the literal segment wins.
 */
export function mountCatalogRoutes<C, U>(
  router: Router,
  auth: Middleware<any, any>,
  spec: {
    path: string;
    idParam: string;
    create: ZodType<C>;
    update: ZodType<U>;
    service: CatalogRouteService<C, U>;
    /** Extra body options of create and update; the row's read-only fields are always accepted as echoes. */
    body?: ValidateOptions;
  },
): void {
  const { path, idParam, service } = spec;
  const bodyOptions: ValidateOptions = { ...spec.body, echoed: [...ECHOED_ROW_FIELDS, ...(spec.body?.echoed ?? [])] };
  const one = `${path}/:${idParam}`;

  router.get(path, auth, async (ctx: AppContext) => {
    ctx.body = await service.list(authOf(ctx));
  });
  router.post(path, auth, validate(spec.create, 'body', bodyOptions), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await service.create(authOf(ctx), ctx.input);
  });
  if (service.reorder) {
    const reorder = service.reorder.bind(service);
    router.put(`${path}/reorder`, auth, validate(ReorderSchema), async (ctx: AppContext) => {
      ctx.body = await reorder(authOf(ctx), ctx.input.ids);
    });
  }
  router.put(one, auth, validate(spec.update, 'body', bodyOptions), async (ctx: AppContext) => {
    ctx.body = await service.update(authOf(ctx), intParam(ctx, idParam), ctx.input);
  });
  router.delete(one, auth, async (ctx: AppContext) => {
    await service.remove(authOf(ctx), intParam(ctx, idParam));
    ctx.status = 204;
  });
}
