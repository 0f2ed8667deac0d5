import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from 'typeorm';
import { FlowDefinitionSchema, type FlowDefinition, type FlowSettings, type FlowStep, type RouteTarget } from '@shared/schemas/chatflow';
import { MESSAGE_MEDIA_MAX_BYTES } from '@shared/schemas/messages';
import type { InboundEvent } from '../messaging/inbound/inbound-hooks';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import { MESSAGE_MEDIA_FOLDER, isBlockedFileName, tenantMediaRoot } from '../messages/message-media';
import { returnedRows } from '../messages/messages.query';
import { DELIVER_JOB, type DeliverJobData } from '../messages/outbound-delivery';
import { BOT_RESUME_KEY, type BotResume } from '../tickets/ticket-bot';
import { isWithinBusinessHours, weekOfTicket } from '../tenants/business-hours';
import { tenantTimeZone } from '../settings/tenant-time-zone';
import { applyTicketChange, selectTicket } from '../tickets/ticket-writes';
import { TICKET_COLUMNS, TICKET_FROM, type TicketRow } from '../tickets/tickets.presenter';
import {
  firstMatch,
  menuOptionsOf,
  normalizeText,
  renderFlowVariables,
  renderMenu,
  valueAtPath,
  variableText,
} from './chatflow-conditions';
import { CHATBOT_ORIGIN, type Effect, type Facts, type LoadedFlow, type Next, type Outcome, type Variables } from './chatflow-types';
import { applyOutcome, bufferedEmit, deferredTextIdsFor } from './chatflow-writes';
import type { StatementPart } from '../../db/statement-part';
import { preparedQuery, withPreparedStatements } from '../../db/prepared';
import { GuardedHttpError, guardedRequest } from './guarded-http';

export { CHATBOT_ORIGIN };

type EngineDeps = Pick<AppDeps, 'dataSource' | 'events' | 'jobs' | 'logger' | 'clock' | 'config'>;

/** Steps entered in one go without the customer (guards against a flow that loops through non-waiting steps). */
export const MAX_HOPS = 25;
/** Flows started in one go by startFlow interactions. */
const MAX_FLOW_JUMPS = 5;
/** A claimed half-way step (delay, start) is not due again for this long while its process runs it. */
export const RESUME_LEASE_MS = 2 * 60_000;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_BYTES = 256 * 1024;
export const AI_TIMEOUT_MS = 30_000;
const VARIABLE_MAX_CHARS = 4096;


interface RunContext {
  facts: Facts;
  now: Date;
  answer: string | null;
  effects: Effect[];
  flow: LoadedFlow;
  variables: Variables;
  jumps: number;
}

interface WriteItem {
  facts: Facts;
  flow: LoadedFlow;
  outcome: Outcome;
  now: Date;
  starting: boolean;
}

/** How long a flow read is reused without asking the database whether it changed. */
export const FLOW_FRESH_MS = 2_000;

/** Timings of the engine's own work per handled message (ms), for the benchmark. */
export interface EngineStats {
  samples: number[];
  /** Per handled message: [read facts and flow, decide (and outside calls), write]. */
  phases: [number, number, number][];
}

/**
 * The chatflow engine (issue #14): runs a tenant's flows (shared/schemas/chatflow.ts) for
 * tickets without an agent.
 *
 * Shape of a run: read everything (ticket, contact, bot state, the business hours of the ticket's
 * queue or else the tenant's, time zone) in one query, no transaction; compute the outcome, doing
 * the slow outside calls (webhook, media download, generative chat) with no transaction or lock held; then write it in one transaction that
 * locks the ticket, checks that the bot state is still the one read (its `updatedAt`, so a
 * concurrent run, an agent taking over or another process wins cleanly: the stale run writes
 * nothing), queues the bot's messages (outbound rows, status pending, origin 'chatbot', counted
 * as automated), writes the state row or routes the ticket, and announces it (ticket:update,
 * appMessage:create, ticket_logs). After the commit the messages' delivery jobs are enqueued.
 *
 * The ticket_bot_states row is the source of truth, so a restart resumes where it was. Every
 * write of the row happens under the ticket's row lock.
 */
export class ChatflowEngine {
  readonly stats: EngineStats = { samples: [], phases: [] };
  private collectStats = false;
  private readonly flowCache = new Map<string, LoadedFlow>();
  private readonly freshFlows = new Map<number, { tenantId: number; at: number; flow: LoadedFlow }>();

  constructor(private readonly deps: EngineDeps) {}

  /** Records the engine's own time per handled message (benchmarks). */
  recordStats(on: boolean): void {
    this.collectStats = on;
    if (on) {
      this.stats.samples = [];
      this.stats.phases = [];
    }
  }

  // ---------- entry points ----------

  /**
   * The inbound hook: a customer's message on a ticket. Starts the channel's flow on a new
   * ticket, or feeds the answer to the step the ticket waits in. Answers 'handled' when the bot
   * took the message (later hooks, e.g. AI, skip it).
   */
  async onInbound(event: InboundEvent): Promise<void | 'handled'> {
    const t = event.ticket;
    // Cheap exits first: most messages belong to tickets the bot has nothing to do with.
    if (t.isGroup || t.userId !== null) return;
    if (!t.botActive && !t.created) return;
    // A new ticket already routed to a queue by an opening hook (a campaign answer): no bot.
    if (t.routed && !t.botActive) return;
    if (event.inbound.type === 'reaction') return;
    const started = performance.now();
    const facts = await this.loadFacts(event.tenantId, t.id);
    if (!facts || !this.botMayRun(facts)) return;
    const now = this.deps.clock.now();
    let outcome: Outcome;
    let flow: LoadedFlow | null;
    let read: number;
    if (facts.state) {
      if (facts.state.variables[BOT_RESUME_KEY]) return 'handled'; // mid-step (a delay): the message is kept, not an answer
      flow = await this.loadFlow(facts.tenantId, facts.state.chatFlowId);
      if (!flow) return;
      read = performance.now();
      outcome = await this.answer(facts, flow, event.inbound.body ?? '', now);
    } else if (t.created && !facts.botActive && facts.channelFlowId !== null) {
      flow = await this.loadFlow(facts.tenantId, facts.channelFlowId);
      if (!flow || !flow.active) return;
      const keyword = normalizeText(flow.definition.settings.startKeyword);
      if (keyword && !normalizeText(event.inbound.body ?? '').includes(keyword)) return;
      read = performance.now();
      outcome = await this.start(facts, flow, event.inbound.body ?? '', now);
    } else return;
    const decided = performance.now();
    const written = await this.commit(facts, flow, outcome, now, { starting: !facts.state });
    if (this.collectStats) {
      const end = performance.now();
      this.stats.samples.push(end - started);
      this.stats.phases.push([read - started, decided - read, end - decided]);
    }
    return written ? 'handled' : undefined;
  }

  /**
   * Runs a ticket's half-way state that is due (a transfer to the chatbot, a test run, the end of
   * a delay). Claims it first (ticket row lock, SKIP LOCKED; due time moved RESUME_LEASE_MS
   * ahead), so two processes never run it twice. Answers whether it ran.
   */
  async runDue(ticketId: number, now = this.deps.clock.now()): Promise<boolean> {
    const [pre] = (await this.deps.dataSource.query(
      `SELECT "tenantId", "chatFlowId" FROM ticket_bot_states WHERE "ticketId" = $1 AND "dueAt" <= $2`,
      [ticketId, now],
    )) as { tenantId: number; chatFlowId: number }[];
    if (!pre) return false;
    // Read before the claim's transaction: inside it only its own connection may be used.
    const preFlow = await this.loadFlow(pre.tenantId, pre.chatFlowId);
    const claim = await this.claimDue(ticketId, now, preFlow);
    if (!claim || claim.kind !== 'resume') return claim?.kind === 'routed';
    const facts = await this.loadFacts(claim.tenantId, ticketId);
    if (!facts?.state || facts.state.version !== claim.version || !this.botMayRun(facts)) return false;
    const flow = await this.loadFlow(facts.tenantId, facts.state.chatFlowId);
    if (!flow) return false;
    const resume = facts.state.variables[BOT_RESUME_KEY] as BotResume;
    const ctx: RunContext = {
      facts,
      now,
      answer: null,
      effects: [],
      flow,
      variables: plainVariables(facts.state.variables),
      jumps: 0,
    };
    let outcome: Outcome;
    if (resume.welcome) {
      outcome = await this.startFromContext(ctx);
    } else {
      const step = stepOf(flow.definition, resume.stepId);
      outcome = step ? await this.runStep(ctx, step, resume.index, 0) : this.finish(ctx, routeTo(ctx, null, 'missingStep'));
    }
    return this.commit(facts, flow, outcome, now, { starting: false });
  }

  /**
   * The inactivity sweep: every state whose `dueAt` passed. A step waiting for an answer routes
   * to the flow's noAnswerTarget (default: close); a half-way step (delay, start) goes on.
   * Exactly once with several processes: each ticket is claimed under its row lock with SKIP
   * LOCKED and its due time read again after the lock. Answers the tickets handled.
   */
  async sweep(now = this.deps.clock.now()): Promise<number> {
    let handled = 0;
    for (let round = 0; round < 20; round++) {
      const due = (await this.deps.dataSource.query(
        `SELECT "ticketId" FROM ticket_bot_states WHERE "dueAt" <= $1 ORDER BY "dueAt", "ticketId" LIMIT 100`,
        [now],
      )) as { ticketId: number }[];
      let progressed = 0;
      for (const { ticketId } of due) {
        try {
          if (await this.runDue(ticketId, now)) progressed++;
        } catch (err) {
          this.deps.logger.error({ err, ticketId }, 'chatbot sweep: ticket failed');
        }
      }
      handled += progressed;
      // Rows held elsewhere (SKIP LOCKED) come back in the next sweep, not in a loop here.
      if (due.length < 100 || progressed === 0) break;
    }
    return handled;
  }

  /**
   * Claims a due state under the ticket's row lock (SKIP LOCKED: a ticket busy elsewhere is left
   * for the next sweep), reading its due time again after the lock. A half-way step is leased
   * (due again only after RESUME_LEASE_MS) and answered 'resume'; a step waiting for an answer
   * routes to the flow's noAnswerTarget right here (close by default): 'routed'.
   */
  private async claimDue(
    ticketId: number,
    now: Date,
    flow: LoadedFlow | null,
  ): Promise<{ kind: 'resume'; tenantId: number; version: string } | { kind: 'routed' } | null> {
    const messageIds: number[] = [];
    const claim = await this.deps.events.transaction(async (tx, emit) => {
      const [t] = (await tx.query(`SELECT id, "tenantId" FROM tickets WHERE id = $1 FOR UPDATE SKIP LOCKED`, [ticketId])) as {
        id: number;
        tenantId: number;
      }[];
      if (!t) return null;
      const [s] = (await tx.query(
        `SELECT "chatFlowId", "stepId", variables FROM ticket_bot_states WHERE "ticketId" = $1 AND "dueAt" <= $2`,
        [ticketId, now],
      )) as { chatFlowId: number; stepId: string; variables: Record<string, unknown> }[];
      if (!s) return null;
      const current = await selectTicket(tx, ticketId);
      if (!current || current.userId !== null || (current.status !== 'open' && current.status !== 'pending') || !flow || flow.id !== s.chatFlowId) {
        // Nothing left for the bot to do here (or its flow is gone): it lets go.
        await tx.query(`DELETE FROM ticket_bot_states WHERE "ticketId" = $1`, [ticketId]);
        if (current?.botActive) await applyTicketChange(tx, emit, current, { botActive: false }, { type: 'chatbotRoute', userId: null, data: { reason: 'stale' } });
        return null;
      }
      const lease = new Date(now.getTime() + RESUME_LEASE_MS);
      let resume = s.variables[BOT_RESUME_KEY] as BotResume | undefined;
      const settings = flow.definition.settings;
      const step = stepOf(flow.definition, s.stepId);
      if (!resume) {
        const target = settings.noAnswerTarget ?? { type: 'close' as const };
        if (target.type !== 'step') {
          const outcome: Outcome = { effects: [], next: routeFor(flow, step, target, 'noAnswer') };
          messageIds.push(...(await applyOutcome(this.deps.logger, tx, emit, current, flow, outcome, now, false)));
          return { kind: 'routed' as const };
        }
        resume = { stepId: target.stepId, index: 0 };
      }
      const [u] = returnedRows<{ version: string }>(
        await tx.query(
          `UPDATE ticket_bot_states SET "stepId" = $2, variables = variables || $3::jsonb, "dueAt" = $4, "updatedAt" = clock_timestamp()
            WHERE "ticketId" = $1 RETURNING "updatedAt"::text AS version`,
          [ticketId, resume.stepId, JSON.stringify({ [BOT_RESUME_KEY]: resume }), lease],
        ),
      );
      return { kind: 'resume' as const, tenantId: t.tenantId, version: u.version };
    });
    if (messageIds.length > 0) await this.afterCommit(ticketId, messageIds);
    return claim;
  }

  // ---------- reading ----------

  private botMayRun(facts: Facts): boolean {
    return (
      facts.userId === null &&
      !facts.isGroup &&
      !facts.blockChatbot &&
      (facts.status === 'pending' || facts.status === 'open')
    );
  }

  private async loadFacts(tenantId: number, ticketId: number): Promise<Facts | null> {
    const [row] = (await preparedQuery(
      this.deps.dataSource.manager,
      `SELECT t.id AS "ticketId", t."tenantId", t."contactId", t."whatsappId", t."userId", t.status, t."isGroup",
              t."botActive", t."chatFlowId", t.protocol, ch."chatFlowId" AS "channelFlowId",
              c.name, c.number, c.email, c."cpfCnpj", c."firstName", c."lastName", c."businessName", c."blockChatbot",
              tn."businessHours" AS "tenantWeek", q."businessHours" AS "queueWeek",
              (SELECT s.value FROM settings s WHERE s."tenantId" = t."tenantId" AND s.key = 'timeZone') AS "timeZone",
              b."chatFlowId" AS "stateFlowId", b."stepId", b.attempts, b.variables, b."dueAt", b."updatedAt"::text AS version
         FROM tickets t
         JOIN contacts c ON c.id = t."contactId"
         JOIN tenants tn ON tn.id = t."tenantId"
         LEFT JOIN queues q ON q.id = t."queueId" AND q."tenantId" = t."tenantId"
         LEFT JOIN channels ch ON ch.id = t."whatsappId"
         LEFT JOIN ticket_bot_states b ON b."ticketId" = t.id
        WHERE t.id = $1 AND t."tenantId" = $2`,
      [ticketId, tenantId],
    )) as Record<string, any>[];
    if (!row) return null;
    const name = String(row.name ?? '').trim();
    const words = name.split(/\s+/).filter(Boolean);
    return {
      ticketId: row.ticketId,
      tenantId: row.tenantId,
      contactId: row.contactId,
      whatsappId: row.whatsappId,
      userId: row.userId,
      status: row.status,
      isGroup: row.isGroup,
      botActive: row.botActive,
      chatFlowId: row.chatFlowId,
      protocol: row.protocol ?? '',
      channelFlowId: row.channelFlowId,
      blockChatbot: row.blockChatbot,
      contact: {
        name,
        number: row.number ?? '',
        email: row.email ?? '',
        cpf: row.cpfCnpj ?? '',
        firstName: (row.firstName ?? '').trim() || words[0] || '',
        lastName: (row.lastName ?? '').trim() || (words.length > 1 ? words[words.length - 1] : ''),
        businessName: row.businessName ?? '',
      },
      // The ticket queue's own week, else the tenant's: the absence-message hook's rule.
      businessHours: weekOfTicket(row.queueWeek, row.tenantWeek).week,
      timeZone: tenantTimeZone(row.timeZone),
      state:
        row.stateFlowId === null || row.stateFlowId === undefined
          ? null
          : {
              chatFlowId: row.stateFlowId,
              stepId: row.stepId,
              attempts: row.attempts,
              variables: row.variables ?? {},
              dueAt: row.dueAt ? new Date(row.dueAt) : null,
              version: row.version,
            },
    };
  }

  /** A flow of the tenant, parsed once per version (its updatedAt). */
  private async loadFlow(tenantId: number, flowId: number): Promise<LoadedFlow | null> {
    // A flow read within FLOW_FRESH_MS is used as it was (an edit or deactivation applies within that time).
    const fresh = this.freshFlows.get(flowId);
    if (fresh && fresh.tenantId === tenantId && Date.now() - fresh.at < FLOW_FRESH_MS) return fresh.flow;
    const loaded = await this.readFlow(tenantId, flowId);
    if (loaded) this.freshFlows.set(flowId, { tenantId, at: Date.now(), flow: loaded });
    else this.freshFlows.delete(flowId);
    if (this.freshFlows.size > 1000) this.freshFlows.clear();
    return loaded;
  }

  private async readFlow(tenantId: number, flowId: number): Promise<LoadedFlow | null> {
    const [row] = (await preparedQuery(
      this.deps.dataSource.manager,
      `SELECT id, active, "updatedAt"::text AS version FROM chat_flows WHERE id = $1 AND "tenantId" = $2`,
      [flowId, tenantId],
    )) as { id: number; active: boolean; version: string }[];
    if (!row) return null;
    const key = `${row.id}:${row.version}`;
    const cached = this.flowCache.get(key);
    if (cached) return { ...cached, active: row.active };
    const [full] = (await this.deps.dataSource.query(`SELECT flow FROM chat_flows WHERE id = $1`, [flowId])) as { flow: unknown }[];
    const parsed = FlowDefinitionSchema.safeParse(full?.flow);
    if (!parsed.success) {
      this.deps.logger.error({ flowId, issues: parsed.error.issues.slice(0, 3) }, 'chatbot: stored flow is not valid; not run');
      return null;
    }
    const loaded = { id: row.id, active: row.active, definition: parsed.data };
    if (this.flowCache.size > 500) this.flowCache.clear();
    this.flowCache.set(key, loaded);
    return loaded;
  }

  // ---------- running ----------

  private async start(facts: Facts, flow: LoadedFlow, firstMessage: string | null, now: Date): Promise<Outcome> {
    const ctx: RunContext = { facts, now, answer: firstMessage, effects: [], flow, variables: {}, jumps: 0 };
    return this.startFromContext(ctx);
  }

  /** Flow-level start rules, the welcome message, then the start step. */
  private async startFromContext(ctx: RunContext): Promise<Outcome> {
    const s = ctx.flow.definition.settings;
    if (s.outsideBusinessHoursTarget && !this.isOpen(ctx)) {
      return this.routeOrEnter(ctx, s.outsideBusinessHoursTarget, 'outsideBusinessHours', 0);
    }
    if (s.routeOnFirstInteraction) return this.routeOrEnter(ctx, s.routeOnFirstInteraction, 'firstInteraction', 0);
    if (s.welcomeMessage.trim()) ctx.effects.push({ kind: 'text', body: this.flowText(ctx, s.welcomeMessage) });
    const step = stepOf(ctx.flow.definition, ctx.flow.definition.startStepId);
    if (!step) return this.finish(ctx, routeTo(ctx, null, 'missingStep'));
    return this.runStep(ctx, step, 0, 0);
  }

  /** The customer's answer to the step the ticket waits in. */
  private async answer(facts: Facts, flow: LoadedFlow, text: string, now: Date): Promise<Outcome> {
    const state = facts.state!;
    const ctx: RunContext = {
      facts,
      now,
      answer: text,
      effects: [],
      flow,
      variables: plainVariables(state.variables),
      jumps: 0,
    };
    const step = stepOf(flow.definition, state.stepId);
    if (!step) return this.finish(ctx, routeTo(ctx, null, 'missingStep'));
    const match = firstMatch(step, this.conditionContext(ctx, step, text));
    if (match) return this.routeOrEnter(ctx, match.target, 'condition', 0, step);
    const attempts = state.attempts + 1;
    const max = step.maxAttempts ?? flow.definition.settings.maxAttempts;
    if (attempts >= max) {
      const target = flow.definition.settings.maxAttemptsTarget;
      return this.routeOrEnter(ctx, target, 'maxAttempts', 0, step);
    }
    const fallback = flow.definition.settings.fallbackMessage.trim();
    if (fallback) ctx.effects.push({ kind: 'text', body: this.flowText(ctx, fallback) });
    return this.finish(ctx, this.waitIn(ctx, step, attempts));
  }

  /** A step's interactions from `index`, then its conditions (at once when it does not wait). */
  private async runStep(ctx: RunContext, step: FlowStep, index: number, hops: number): Promise<Outcome> {
    for (let i = index; i < step.interactions.length; i++) {
      const interaction = step.interactions[i];
      switch (interaction.type) {
        case 'message':
          ctx.effects.push({ kind: 'text', body: this.flowText(ctx, interaction.text) });
          break;
        case 'flowBuilder':
          ctx.effects.push({ kind: 'text', body: renderMenu(this.flowText(ctx, interaction.text), interaction.options) });
          break;
        case 'media':
          await this.media(ctx, interaction);
          break;
        case 'generativeChat':
          await this.generativeChat(ctx, interaction);
          break;
        case 'delay': {
          // The rest of the step runs when the delay is over: the state row records where
          // (stepId, next index) and when (dueAt); a job fires then, the sweep is the safety
          // net after a restart. The pipeline and the ticket's later messages never wait.
          const dueAt = new Date(ctx.now.getTime() + interaction.seconds * 1000);
          const resume: BotResume = { stepId: step.id, index: i + 1 };
          return {
            ...this.finish(ctx, {
              type: 'wait',
              flowId: ctx.flow.id,
              stepId: step.id,
              attempts: 0,
              variables: ctx.variables,
              dueAt,
              resume,
            }),
            resumeInMs: interaction.seconds * 1000,
          };
        }
        case 'tag':
          ctx.effects.push({ kind: 'tag', tagId: interaction.tagId });
          break;
        case 'kanban':
          ctx.effects.push({ kind: 'kanban', kanbanId: interaction.kanbanId });
          break;
        case 'webhook':
          await this.webhook(ctx, interaction);
          break;
        case 'startFlow': {
          const next = ctx.jumps < MAX_FLOW_JUMPS ? await this.loadFlow(ctx.facts.tenantId, interaction.chatFlowId) : null;
          if (!next || !next.active) {
            this.deps.logger.warn({ ticketId: ctx.facts.ticketId, chatFlowId: interaction.chatFlowId }, 'chatbot: startFlow target missing or inactive; ignored');
            break;
          }
          ctx.flow = next;
          ctx.jumps++;
          return this.startFromContext(ctx);
        }
      }
    }
    if (!step.waitsForAnswer) {
      const match = firstMatch(step, this.conditionContext(ctx, step, null));
      if (match) return this.routeOrEnter(ctx, match.target, 'condition', hops, step);
    }
    return this.finish(ctx, this.waitIn(ctx, step, 0));
  }

  /** A routing target: a step is entered (its interactions run now); anything else ends the bot. */
  private async routeOrEnter(
    ctx: RunContext,
    target: RouteTarget | null,
    reason: string,
    hops: number,
    from?: FlowStep,
  ): Promise<Outcome> {
    if (target?.type === 'step') {
      const step = stepOf(ctx.flow.definition, target.stepId);
      if (!step || hops >= MAX_HOPS) {
        this.deps.logger.warn({ ticketId: ctx.facts.ticketId, stepId: target.stepId, hops }, 'chatbot: step missing or too many hops; the bot lets go');
        return this.finish(ctx, routeTo(ctx, null, 'missingStep', from));
      }
      return this.runStep(ctx, step, 0, hops + 1);
    }
    return this.finish(ctx, routeTo(ctx, target, reason, from));
  }

  private waitIn(ctx: RunContext, step: FlowStep, attempts: number): Next {
    const minutes = step.noAnswerMinutes ?? ctx.flow.definition.settings.noAnswerMinutes;
    return {
      type: 'wait',
      flowId: ctx.flow.id,
      stepId: step.id,
      attempts,
      variables: ctx.variables,
      dueAt: minutes > 0 ? new Date(ctx.now.getTime() + minutes * 60_000) : null,
    };
  }

  private finish(ctx: RunContext, next: Next): Outcome {
    return { effects: ctx.effects, next };
  }

  private isOpen(ctx: RunContext): boolean {
    return isWithinBusinessHours(ctx.facts.businessHours, ctx.now, ctx.facts.timeZone);
  }

  private conditionContext(ctx: RunContext, step: FlowStep, answer: string | null) {
    const uses = step.conditions.some((c) => c.type === 'businessHours');
    return {
      answer,
      options: menuOptionsOf(step),
      contact: ctx.facts.contact,
      variables: ctx.variables,
      open: uses ? this.isOpen(ctx) : true,
    };
  }

  /** The flow's variables now; the message variables ({{name}} ...) are filled when written. */
  /** `url`: the values are URL-encoded (a variable cannot add a path, a query or another host). */
  private flowText(ctx: RunContext, text: string, url = false): string {
    const encode = url ? encodeURIComponent : (v: string) => v;
    const c = ctx.facts.contact;
    const known: Record<string, string> = {
      name: c.name,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      phoneNumber: c.number,
      businessName: c.businessName,
      protocol: ctx.facts.protocol,
    };
    // The contact's variables now (a prompt or a URL never reaches renderForTicket); the others
    // ({{greeting}}, {{kanban}} ...) are filled when the message is written.
    return renderFlowVariables(text, { number: c.number, ticketId: ctx.facts.ticketId, variables: ctx.variables }, encode).replace(
      /\{\{\s*([A-Za-z]+)\s*\}\}/g,
      (token, name: string) => (name in known ? encode(known[name]) : token),
    );
  }

  // ---------- interactions with outside calls (no transaction held) ----------

  private http(url: string, opts: { timeoutMs: number; maxBytes: number; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }) {
    return guardedRequest({ url, allowHosts: this.deps.config.chatflowHttpAllowHosts, ...opts });
  }

  /** GET the URL; the JSON answer's fields become variables. A failure is logged and the flow goes on without them. */
  private async webhook(ctx: RunContext, interaction: Extract<FlowStep['interactions'][number], { type: 'webhook' }>): Promise<void> {
    const url = this.flowText(ctx, interaction.url, true);
    try {
      const res = await this.http(url, { timeoutMs: WEBHOOK_TIMEOUT_MS, maxBytes: WEBHOOK_MAX_BYTES, headers: { accept: 'application/json' } });
      const json = JSON.parse(res.body.toString('utf8')) as unknown;
      const entries = Object.entries(interaction.store);
      if (entries.length === 0) {
        if (json && typeof json === 'object' && !Array.isArray(json)) {
          for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
            if (/^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(key)) ctx.variables[key] = variableText(value).slice(0, VARIABLE_MAX_CHARS);
          }
        }
      } else {
        for (const [name, at] of entries) ctx.variables[name] = variableText(valueAtPath(json, at)).slice(0, VARIABLE_MAX_CHARS);
      }
    } catch (err) {
      this.deps.logger.warn(
        { ticketId: ctx.facts.ticketId, url: safeUrl(url), reason: err instanceof GuardedHttpError ? err.reason : 'json', err: (err as Error).message },
        'chatbot webhook failed; the flow goes on without its variables',
      );
    }
  }

  /** Downloads the file (guarded) to the tenant's private folder; it is sent as a media message. */
  private async media(ctx: RunContext, interaction: Extract<FlowStep['interactions'][number], { type: 'media' }>): Promise<void> {
    const url = this.flowText(ctx, interaction.url, true);
    try {
      const res = await this.http(url, { timeoutMs: WEBHOOK_TIMEOUT_MS * 3, maxBytes: MESSAGE_MEDIA_MAX_BYTES });
      const mimeType = safeMimeType((res.contentType.split(';')[0] || 'application/octet-stream').trim().toLowerCase());
      const fileName = safeDisplayName(interaction.fileName?.trim() || decodeURIComponent(new URL(url).pathname.split('/').pop() || 'arquivo'));
      if (isBlockedFileName(fileName)) throw new Error(`file type refused: ${path.extname(fileName)}`);
      const ext = path.extname(fileName).replace(/[^.A-Za-z0-9]/g, '').slice(0, 10);
      const relativePath = path.posix.join(MESSAGE_MEDIA_FOLDER, `${randomUUID()}${ext}`);
      const folder = path.join(tenantMediaRoot(this.deps.config.dataDir, ctx.facts.tenantId), MESSAGE_MEDIA_FOLDER);
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(tenantMediaRoot(this.deps.config.dataDir, ctx.facts.tenantId), relativePath), res.body);
      ctx.effects.push({
        kind: 'media',
        relativePath,
        mimeType,
        fileName,
        caption: interaction.caption ? this.flowText(ctx, interaction.caption) : '',
      });
    } catch (err) {
      this.deps.logger.warn({ ticketId: ctx.facts.ticketId, url: safeUrl(url), err: (err as Error).message }, 'chatbot media download failed; not sent');
    }
  }

  /**
   * A reply of the OpenAI-compatible chat completion endpoint set in the ticket's channel
   * (channels.integrations.generativeChat: baseUrl, apiKey, model; set in the channel form, PUT
   * /whatsapp/{id}) to the customer's last message. Turned off (`enabled: false`), not
   * configured or failing: logged, and the flow's fallback message is sent instead; nothing is
   * invented.
   */
  private async generativeChat(
    ctx: RunContext,
    interaction: Extract<FlowStep['interactions'][number], { type: 'generativeChat' }>,
  ): Promise<void> {
    try {
      const [row] = (await this.deps.dataSource.query(
        `SELECT integrations->'generativeChat' AS config FROM channels WHERE id = $1 AND "tenantId" = $2`,
        [ctx.facts.whatsappId, ctx.facts.tenantId],
      )) as { config: { enabled?: boolean; baseUrl?: string; apiKey?: string; model?: string } | null }[];
      const config = row?.config;
      if (config?.enabled === false) throw new Error('generative chat is turned off for this channel');
      if (!config?.baseUrl || !config.model) {
        throw new Error('generative chat is not configured for this channel (integrations.generativeChat: baseUrl, model)');
      }
      const res = await this.http(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        timeoutMs: AI_TIMEOUT_MS,
        maxBytes: WEBHOOK_MAX_BYTES,
        headers: {
          'content-type': 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: config.model,
          messages: [
            { role: 'system', content: this.flowText(ctx, interaction.prompt) },
            { role: 'user', content: ctx.answer ?? '' },
          ],
        }),
      });
      const json = JSON.parse(res.body.toString('utf8')) as { choices?: { message?: { content?: string } }[] };
      const reply = json.choices?.[0]?.message?.content?.trim();
      if (!reply) throw new Error('generative chat answered without a message');
      if (interaction.storeAs) ctx.variables[interaction.storeAs] = reply.slice(0, VARIABLE_MAX_CHARS);
      else ctx.effects.push({ kind: 'text', body: reply });
    } catch (err) {
      this.deps.logger.error({ ticketId: ctx.facts.ticketId, err: (err as Error).message }, 'chatbot generative chat failed; fallback sent');
      const fallback = ctx.flow.definition.settings.fallbackMessage.trim();
      if (fallback) ctx.effects.push({ kind: 'text', body: this.flowText(ctx, fallback) });
    }
  }

  // ---------- writing ----------

  /**
   * Writes an outcome if the bot state is still the one the run read. Answers whether it wrote.
   * `starting`: there was no state row (a new ticket); one must still be absent.
   */
  private async commit(facts: Facts, flow: LoadedFlow, outcome: Outcome, now: Date, opts: { starting: boolean }): Promise<boolean> {
    // One transaction per write, run concurrently with the tenant's other writes. (Group commit
    // as in the inbound pipeline was measured and dropped: a bot write is a dozen statements per
    // ticket, not one set-based statement, so a batch only serialised them on one connection.)
    const ids = await this.deps.events.transaction(async (tx0, _emit, emitMany) => {
      // Named statements: a bot write is the same dozen statements every time (db/prepared.ts).
      const tx = withPreparedStatements(tx0);
      // Events are buffered and recorded in one statement at the end: the tenant's event lock
      // (which every writer of the tenant waits for) is held for the commit only.
      const buffered = bufferedEmit();
      // Writes deferred to that statement too (the step's ticket change, log and state row).
      const deferred: StatementPart[] = [];
      const written = await this.writeOne(tx, buffered.emit, { facts, flow, outcome, now, starting: opts.starting }, deferred);
      if (written) await emitMany(facts.tenantId, buffered.pending, deferred);
      return written;
    });
    if (ids) await this.afterCommit(facts.ticketId, ids, outcome.resumeInMs, facts.whatsappId);
    return ids !== null;
  }

  /** One outcome in the caller's transaction; null when the state moved on (nothing written). */
  private async writeOne(tx: EntityManager, emit: Emit, item: WriteItem, deferred: StatementPart[]): Promise<number[] | null> {
    const { facts } = item;
    // The ticket's row lock, the row as events present it and the bot state's version: one round
    // trip. It also turns the rest of this transaction to generic plans of the named statements
    // (set_config(..., true) is SET LOCAL): the planner never chose the generic plan of the
    // texts' insert on its own (its cost estimate of an unnest over an array parameter is high),
    // so each step planned it again, 0.6-0.7 ms of the step's ~4 ms (PostgreSQL log, bind time;
    // 0.06 ms with the generic plan, the same execution time). What follows reads and writes by
    // the ticket, its queue or its tenant, where a generic plan is as good. now() is the
    // transaction's time: the updatedAt of the step's ticket change, written with the events.
    const [locked] = (await tx.query(
      `SELECT ${TICKET_COLUMNS}, (SELECT b."updatedAt"::text FROM ticket_bot_states b WHERE b."ticketId" = t.id) AS "botVersion",
              set_config('plan_cache_mode', 'force_generic_plan', true) AS "planMode", now() AS "txNow",
              ARRAY(SELECT nextval('messages_id_seq') FROM generate_series(1, $3::int))::bigint[] AS "messageIds"
         ${TICKET_FROM} WHERE t.id = $1 AND t."tenantId" = $2 FOR UPDATE OF t`,
      [facts.ticketId, facts.tenantId, deferredTextIdsFor(item.outcome)],
    )) as (TicketRow & { botVersion: string | null; planMode: string; txNow: Date; messageIds: (string | number)[] })[];
    if (!locked || locked.userId !== null || (locked.status !== 'open' && locked.status !== 'pending')) return null;
    // The columns are the ticket as it is after the lock (a change committed while this waited is
    // seen), but the state's version comes from the statement's snapshot, taken before the wait:
    // a bot turned off meanwhile shows only in botActive, so a running bot needs it still on.
    if (item.starting ? locked.botVersion !== null || locked.botActive : !locked.botActive || locked.botVersion !== facts.state?.version) return null;
    const { botVersion: _version, planMode: _mode, txNow, messageIds, ...current } = locked;
    return applyOutcome(this.deps.logger, tx, emit, current, item.flow, item.outcome, item.now, item.starting, {
      txNow,
      parts: deferred,
      messageIds: messageIds.map(Number),
    });
  }

  private async afterCommit(ticketId: number, messageIds: number[], resumeInMs?: number, channelId?: number | null): Promise<void> {
    for (const id of messageIds) {
      // With the ticket's channel when known: the delivery then needs no read to find its lane.
      const data: DeliverJobData = channelId === undefined ? { messageId: id } : { messageId: id, ticketId, channelId };
      await this.deps.jobs
        .enqueue(DELIVER_JOB, data, { jobId: `deliver:${id}:0` })
        .catch((err) => this.deps.logger.warn({ err, messageId: id }, 'could not enqueue a chatbot message; the outbound sweep sends it'));
    }
    if (resumeInMs !== undefined) {
      await this.deps.jobs
        .enqueue('chatflow.run', { ticketId }, { delay: resumeInMs, jobId: `chatbot:${ticketId}:${Date.now()}` })
        .catch((err) => this.deps.logger.warn({ err, ticketId }, 'could not schedule the chatbot delay; its sweep resumes it'));
    }
  }

}

function stepOf(flow: FlowDefinition, id: string): FlowStep | undefined {
  return flow.steps.find((s) => s.id === id);
}

function plainVariables(stored: Record<string, unknown>): Variables {
  const out: Variables = {};
  for (const [k, v] of Object.entries(stored)) if (k !== BOT_RESUME_KEY) out[k] = variableText(v);
  return out;
}

function routeTo(ctx: RunContext, target: RouteTarget | null, reason: string, from?: FlowStep): Extract<Next, { type: 'route' }> {
  return routeFor(ctx.flow, from, target, reason);
}

function routeFor(flow: LoadedFlow, from: FlowStep | undefined, target: RouteTarget | null, reason: string): Extract<Next, { type: 'route' }> {
  const s: FlowSettings = flow.definition.settings;
  return {
    type: 'route',
    target,
    reason,
    settings: {
      closeService: s.closeService,
      endMessage: s.endMessage,
      selfDistribution: from?.selfDistribution ?? s.selfDistribution,
    },
  };
}

/** The URL without its query (which may carry tokens) for logs. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid)';
  }
}
