import {
  FlowDefinitionSchema,
  validateFlowGraph,
  type ChatFlowTestInput,
  type ChatFlowTestResult,
} from '@shared/schemas/chatflow';
import { normalizeContactNumber } from '@shared/validation/contact-number';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { writeBotStart } from '../tickets/ticket-bot';
import { applyTicketChange, emitTicket, lockTicket, selectTicket } from '../tickets/ticket-writes';
import { upsertActiveTicket } from '../tickets/ticket-upsert';
import type { ChatflowEngine } from './chatflow-engine';
import { authorizeChatflowTest } from './chatflow.policy';

/**
 * The flow test (POST /chat-flow/:chatFlowId/test): the flow runs for real, against the test
 * contact on the tenant's default channel (it must be connected), so what the customer would
 * see is what the tester's phone receives. The contact and its ticket are found or created; a
 * ticket an agent holds is taken back for the test (logged). Inactive flows can be tested (that
 * is the point of a test), but not one whose graph has problems.
 */
export class ChatflowTestService {
  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'logger'>,
    private readonly engine: ChatflowEngine,
  ) {}

  async run(auth: AuthContext, chatFlowId: number, input: ChatFlowTestInput): Promise<ChatFlowTestResult> {
    const [row] = (await this.deps.dataSource.query(
      `SELECT id, "tenantId", "testNumber", flow FROM chat_flows WHERE id = $1 AND "tenantId" = $2`,
      [chatFlowId, auth.tenantId],
    )) as { id: number; tenantId: number; testNumber: string; flow: unknown }[];
    const flow = authorizeChatflowTest(auth, row);
    const parsed = FlowDefinitionSchema.safeParse(flow.flow);
    const problems = parsed.success ? validateFlowGraph(parsed.data) : [];
    if (!parsed.success || problems.length > 0) {
      throw new AppError('ERR_VALIDATION', {
        fields: parsed.success
          ? problems.map((p) => ({ path: `flow.${p.stepId ?? 'settings'}`, message: p.message }))
          : [{ path: 'flow', message: 'fluxo armazenado inválido' }],
      });
    }
    const raw = (input.number ?? flow.testNumber ?? '').replace(/\D/g, '');
    if (!raw) throw new AppError('ERR_CHATFLOW_NO_TEST_NUMBER');
    const number = normalizeContactNumber(`+${raw}`) ?? raw;

    const [channel] = (await this.deps.dataSource.query(
      `SELECT id, type, status FROM channels WHERE "tenantId" = $1 AND "isDefault"`,
      [auth.tenantId],
    )) as { id: number; type: string; status: string }[];
    if (!channel) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    if (channel.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');

    const now = this.deps.clock.now();
    const result = await this.deps.events.transaction(async (tx, emit) => {
      const [contact] = (await tx.query(
        `INSERT INTO contacts ("tenantId", name, number) VALUES ($1, $2, $2)
         ON CONFLICT ("tenantId", number) WHERE number IS NOT NULL DO UPDATE SET "updatedAt" = contacts."updatedAt"
         RETURNING id, "isGroup"`,
        [auth.tenantId, number],
      )) as { id: number; isGroup: boolean }[];
      if (contact.isGroup) {
        throw new AppError('ERR_VALIDATION', { fields: [{ path: 'number', message: 'o número de teste é de um grupo' }] });
      }
      const { ticket, created } = await upsertActiveTicket(tx, {
        tenantId: auth.tenantId,
        contactId: contact.id,
        channelId: channel.id,
        channelType: channel.type,
        queueId: null,
        status: 'pending',
        actorUserId: auth.userId,
      });
      await lockTicket(tx, auth.tenantId, ticket.id);
      const current = (await selectTicket(tx, ticket.id))!;
      if (created) await emitTicket(emit, 'create', current);
      await writeBotStart(tx, current, { id: flow.id, startStepId: parsed.data!.startStepId }, now);
      await applyTicketChange(
        tx,
        emit,
        current,
        { chatFlowId: flow.id, botActive: true, userId: null, status: 'pending' },
        { type: 'chatbotTest', userId: auth.userId, data: { chatFlowId: flow.id, fromUserId: current.userId } },
      );
      return { ticketId: ticket.id, contactId: contact.id };
    });
    const started = await this.engine.runDue(result.ticketId, now);
    return { ...result, channelId: channel.id, started };
  }
}
