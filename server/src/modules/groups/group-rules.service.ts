import type {
  GroupBanCreateInput,
  GroupMessageCreateInput,
  GroupRuleDto,
  GroupTextKind,
  GroupWordCreateInput,
} from '@shared/schemas/groups';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { loadGroupChannel } from './group-channel';
import { groupsByIds } from './group-store';
import { authorizeGroupRow, authorizeGroups } from './groups.policy';

interface RuleRow {
  id: number;
  tenantId: number;
  channelId: number;
  channelName: string;
  groupId: number | null;
  groupSubject: string | null;
  text: string;
  action: 'warn' | 'remove' | null;
  userId: number | null;
  userName: string | null;
  createdAt: Date;
}

const present = (r: RuleRow): GroupRuleDto => ({
  id: r.id,
  whatsappId: r.channelId,
  whatsappName: r.channelName,
  groupId: r.groupId,
  groupSubject: r.groupSubject,
  text: r.text,
  action: r.action,
  userId: r.userId,
  userName: r.userName,
  createdAt: new Date(r.createdAt).toISOString(),
});

/** Bans live in group_bans (number); words, greetings and farewells in group_texts (kind, text). */
const SOURCES = {
  ban: {
    table: 'group_bans',
    select: `r.number AS text, NULL::text AS action`,
    kindFilter: '',
  },
  word: { table: 'group_texts', select: `r.text, r.action`, kindFilter: `AND r.kind = 'word'` },
  greeting: { table: 'group_texts', select: `r.text, r.action`, kindFilter: `AND r.kind = 'greeting'` },
  farewell: { table: 'group_texts', select: `r.text, r.action`, kindFilter: `AND r.kind = 'farewell'` },
} as const;
export type GroupRuleKind = keyof typeof SOURCES;

/**
 * The group rules of /grupo/banlist, wordlist, saudacao and despedida: each belongs to a
 * channel and to a group (or, without one, to every group of the channel). Applied to the
 * channel's group events by group-moderation.ts.
 */
export class GroupRulesService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'channels'>) {}

  async list(auth: AuthContext, kind: GroupRuleKind, whatsappId?: number): Promise<GroupRuleDto[]> {
    authorizeGroups(auth);
    if (whatsappId !== undefined) await this.deps.channels.load(auth.tenantId, whatsappId);
    const src = SOURCES[kind];
    const rows: RuleRow[] = await this.deps.dataSource.query(
      `SELECT r.id, r."tenantId", r."channelId", c.name AS "channelName", r."groupId", g.subject AS "groupSubject", ${src.select},
              r."userId", u.name AS "userName", r."createdAt"
         FROM ${src.table} r
         JOIN channels c ON c.id = r."channelId"
         LEFT JOIN wa_groups g ON g.id = r."groupId"
         LEFT JOIN users u ON u.id = r."userId"
        WHERE r."tenantId" = $1 ${src.kindFilter} ${whatsappId !== undefined ? 'AND r."channelId" = $2' : ''}
        ORDER BY r."createdAt" DESC, r.id DESC
        LIMIT 5000`,
      whatsappId !== undefined ? [auth.tenantId, whatsappId] : [auth.tenantId],
    );
    return rows.map(present);
  }

  /** The groups a new rule is for: the chosen ones (each must be the channel's), or null for every group. */
  private async targets(auth: AuthContext, whatsappId: number, groupIds: number[]): Promise<(number | null)[]> {
    const { channel } = await loadGroupChannel(this.deps, auth.tenantId, whatsappId);
    if (groupIds.length === 0) return [null];
    const found = await groupsByIds(this.deps.dataSource, auth.tenantId, channel.id, [...new Set(groupIds)]);
    if (found.length !== new Set(groupIds).size) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'groupIds', message: 'há grupos que não são desta conexão (sincronize os grupos e escolha de novo)' }],
      });
    }
    return found.map((g) => g.id);
  }

  async createBan(auth: AuthContext, input: GroupBanCreateInput): Promise<GroupRuleDto[]> {
    authorizeGroups(auth);
    const targets = await this.targets(auth, input.whatsappId, input.groupIds);
    const ids: number[] = [];
    for (const groupId of targets) {
      const rows: { id: number }[] = await this.deps.dataSource.query(
        `INSERT INTO group_bans ("tenantId", "channelId", "groupId", number, "userId") VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("channelId", COALESCE("groupId", 0), number) DO UPDATE SET number = EXCLUDED.number
         RETURNING id`,
        [auth.tenantId, input.whatsappId, groupId, input.number, auth.userId],
      );
      ids.push(rows[0].id);
    }
    return (await this.list(auth, 'ban', input.whatsappId)).filter((r) => ids.includes(r.id));
  }

  async createText(
    auth: AuthContext,
    kind: GroupTextKind,
    input: GroupWordCreateInput | GroupMessageCreateInput,
  ): Promise<GroupRuleDto[]> {
    authorizeGroups(auth);
    const targets = await this.targets(auth, input.whatsappId, input.groupIds);
    const action = kind === 'word' ? ((input as GroupWordCreateInput).action ?? 'warn') : null;
    // Forbidden words are stored lowercase (spec section 5); the schema already lowered them.
    const text = kind === 'word' ? input.text.toLowerCase() : input.text;
    const ids: number[] = [];
    for (const groupId of targets) {
      const rows: { id: number }[] = await this.deps.dataSource.query(
        `INSERT INTO group_texts ("tenantId", "channelId", "groupId", kind, text, action, "userId") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [auth.tenantId, input.whatsappId, groupId, kind, text, action, auth.userId],
      );
      ids.push(rows[0].id);
    }
    return (await this.list(auth, kind, input.whatsappId)).filter((r) => ids.includes(r.id));
  }

  async remove(auth: AuthContext, kind: GroupRuleKind, id: number): Promise<void> {
    const src = SOURCES[kind];
    const [row] = (await this.deps.dataSource.query(`SELECT r.id, r."tenantId" FROM ${src.table} r WHERE r.id = $1 ${src.kindFilter}`, [
      id,
    ])) as { id: number; tenantId: number }[];
    authorizeGroupRow(auth, row);
    await this.deps.dataSource.query(`DELETE FROM ${src.table} WHERE id = $1 AND "tenantId" = $2`, [id, auth.tenantId]);
  }
}
