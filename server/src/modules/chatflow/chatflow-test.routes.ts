import Router from '@koa/router';
import { ChatFlowTestSchema } from '@shared/schemas/chatflow';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { ChatflowTestService } from './chatflow-test.service';
import { chatflowEngineOf } from './chatflow-wiring';

/**
 * POST /chat-flow/:chatFlowId/test (issue #14): runs a flow for its test number (or the number
 * given) on the tenant's default channel. The /chat-flow CRUD routes belong to the builder's
 * module; this file also wires the chatflow engine (inbound hook, jobs, sweep) into the app.
 */
export function chatflowTestRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const engine = chatflowEngineOf(deps);
  const tests = new ChatflowTestService(deps, engine);

  router.post('/chat-flow/:chatFlowId/test', auth, validate(ChatFlowTestSchema), async (ctx: AppContext) => {
    ctx.body = await tests.run(authOf(ctx), intParam(ctx, 'chatFlowId'), ctx.input);
  });
  return router;
}
