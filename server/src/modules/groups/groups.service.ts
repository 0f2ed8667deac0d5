import ExcelJS from 'exceljs';
import type { GroupDto, GroupExportQuery, GroupParticipantDto, GroupSyncAnswer } from '@shared/schemas/groups';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { csvField } from '../contacts/contact-export.service';
import { callGroups, loadGroupChannel } from './group-channel';
import { groupsByIds, listGroups, participantsOf, presentGroup, storeGroups } from './group-store';
import { authorizeGroupRow, authorizeGroups } from './groups.policy';

export const GROUP_EXPORT_COLUMNS = ['Grupo', 'ID do grupo', 'Número', 'ID do participante', 'Administrador'] as const;

export interface GroupExportFile {
  fileName: string;
  contentType: string;
  body: Buffer | string;
}

/** Sync, listing and export of a channel's groups (GET/POST /groups …). */
export class GroupsService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'channels'>) {}

  /** GET /groups?whatsappId=: the groups stored for the channel (the last sync and group events). */
  async list(auth: AuthContext, whatsappId: number): Promise<GroupDto[]> {
    authorizeGroups(auth);
    const channel = await this.deps.channels.load(auth.tenantId, whatsappId);
    return (await listGroups(this.deps.dataSource, auth.tenantId, channel.id)).map(presentGroup);
  }

  /**
   * POST /groups/sync: every group the phone takes part in, with its members, from the provider
   * (Baileys `groupFetchAllParticipating`); groups no longer listed are kept as left.
   */
  async sync(auth: AuthContext, whatsappId: number): Promise<GroupSyncAnswer> {
    authorizeGroups(auth);
    const { channel, groups } = await loadGroupChannel(this.deps, auth.tenantId, whatsappId);
    const found = await callGroups(() => groups.list());
    await storeGroups(this.deps, channel, found, { complete: true });
    const items = (await listGroups(this.deps.dataSource, auth.tenantId, channel.id)).map(presentGroup);
    return { groups: found.length, participants: found.reduce((n, g) => n + g.participants.length, 0), items };
  }

  /** GET /groups/{groupId}/participants: the stored members of one group. */
  async participants(auth: AuthContext, groupId: number): Promise<GroupParticipantDto[]> {
    const [row] = (await this.deps.dataSource.query(`SELECT id, "tenantId" FROM wa_groups WHERE id = $1`, [groupId])) as {
      id: number;
      tenantId: number;
    }[];
    authorizeGroupRow(auth, row);
    return (await participantsOf(this.deps.dataSource, auth.tenantId, [groupId])).map(({ jid, number, admin }) => ({ jid, number, admin }));
  }

  /** GET /groups/participants/export: the members of the chosen groups as CSV or XLSX (one row per member and group). */
  async exportParticipants(auth: AuthContext, query: GroupExportQuery): Promise<GroupExportFile> {
    authorizeGroups(auth);
    const channel = await this.deps.channels.load(auth.tenantId, query.whatsappId);
    const ids = [...new Set(query.groupIds)];
    const groups = await groupsByIds(this.deps.dataSource, auth.tenantId, channel.id, ids);
    if (groups.length !== ids.length) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'groupIds', message: 'há grupos que não são desta conexão' }] });
    }
    const byId = new Map(groups.map((g) => [g.id, g]));
    const members = await participantsOf(this.deps.dataSource, auth.tenantId, ids);
    const rows = members.map((m) => {
      const g = byId.get(m.groupId)!;
      return [g.subject, g.jid, m.number ?? '', m.jid, m.admin ? 'sim' : 'não'];
    });
    const stamp = new Date().toISOString().slice(0, 10);
    if (query.format === 'csv') {
      const BOM = '\uFEFF';
      const body = `${BOM}${[GROUP_EXPORT_COLUMNS as readonly string[], ...rows].map((r) => r.map(csvField).join(';')).join('\r\n')}\r\n`;
      return { fileName: `participantes-grupos-${stamp}.csv`, contentType: 'text/csv; charset=utf-8', body };
    }
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Participantes');
    sheet.addRow([...GROUP_EXPORT_COLUMNS]);
    for (const r of rows) sheet.addRow(r);
    const body = Buffer.from(await workbook.xlsx.writeBuffer());
    return {
      fileName: `participantes-grupos-${stamp}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body,
    };
  }
}
