import { REPORT_IDS, REPORT_SELECTION_MESSAGES, reportQuerySchema, type ReportId } from '@shared/schemas/reports';
import { describe, expect, it } from 'vitest';
import { reportFilterParams } from '../../api/reports.api';
import { filterFieldsOf, reportFormDefaults, reportFormSchema, REPORT_ORDER, requiredFieldsOf } from './report-catalog';

/**
 * The report forms are built from the shared filter schemas: every filter the server reads gets
 * a field, the required ones are marked, a new form fails exactly where the server would, and
 * the query the screen sends is read back by the server's own query schema as the same filters.
 */

/** The filters of each report as the contract (shared/schemas/reports.ts) lists them, besides the period. */
const CONTRACT: Record<ReportId, string[]> = {
  'estatisticas-atendimentos-usuarios': ['queuesIds', 'usersIds'],
  'atendimentos-por-parametros': ['queuesIds', 'usersIds', 'tagsIds', 'status', 'channelsIds', 'demandsIds', 'ratings', 'isActiveDemand'],
  'lista-contatos': ['queuesIds', 'walletsIds', 'tagsIds', 'search'],
  'contatos-por-etiquetas': ['tagsIds'],
  'contatos-por-estado': ['states'],
  'contatos-por-kanban': ['kanbanIds'],
  'contatos-por-carteira': ['walletsIds'],
};

const MARCH_15 = new Date(2024, 2, 15, 10, 0);

const issuesOf = (id: ReportId, values: unknown) => {
  const result = reportFormSchema(id).safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('report catalog', () => {
  it('lists the seven reports once, in the order of the routes', () => {
    expect([...REPORT_ORDER].sort()).toEqual([...REPORT_IDS].sort());
  });

  it('gives every filter of each report’s schema a field', () => {
    for (const id of REPORT_IDS) expect(new Set(filterFieldsOf(id)), id).toEqual(new Set(CONTRACT[id]));
  });

  it('marks the queues of the ticket reports and the selection of the wallet, state, tag and kanban reports as required', () => {
    expect(requiredFieldsOf('estatisticas-atendimentos-usuarios')).toEqual(['queuesIds']);
    expect(requiredFieldsOf('atendimentos-por-parametros')).toEqual(['queuesIds']);
    expect(requiredFieldsOf('lista-contatos')).toEqual([]);
    expect(requiredFieldsOf('contatos-por-etiquetas')).toEqual(['tagsIds']);
    expect(requiredFieldsOf('contatos-por-estado')).toEqual(['states']);
    expect(requiredFieldsOf('contatos-por-kanban')).toEqual(['kanbanIds']);
    expect(requiredFieldsOf('contatos-por-carteira')).toEqual(['walletsIds']);
  });

  it('starts each form on this month so far, failing only on the choices the report requires, with the server’s messages', () => {
    const defaults = reportFormDefaults('lista-contatos', MARCH_15);
    expect(defaults).toEqual({ startDate: '01/03/2024', endDate: '15/03/2024', queuesIds: [], walletsIds: [], tagsIds: [], search: '' });
    expect(issuesOf('lista-contatos', defaults)).toEqual({});
    expect(issuesOf('atendimentos-por-parametros', reportFormDefaults('atendimentos-por-parametros', MARCH_15))).toEqual({
      queuesIds: 'Selecione ao menos uma fila',
    });
    for (const [id, selection] of Object.entries(REPORT_SELECTION_MESSAGES) as [ReportId, { field: string; message: string }][]) {
      expect(issuesOf(id, reportFormDefaults(id, MARCH_15)), id).toEqual({ [selection.field]: selection.message });
    }
  });

  it('answers a wrong or missing day and a reversed period as the spec writes them', () => {
    const base = reportFormDefaults('contatos-por-estado', MARCH_15);
    expect(issuesOf('contatos-por-estado', { ...base, states: ['SP'], startDate: '30/02/2024', endDate: '' })).toEqual({
      startDate: 'Data inválida',
      endDate: 'Data final é obrigatório',
    });
    expect(issuesOf('contatos-por-estado', { ...base, states: ['SP'], startDate: '16/03/2024' })).toEqual({
      endDate: 'A data final deve ser igual ou posterior à data inicial',
    });
  });

  it('sends filters the server’s query schema reads back as the same filters', () => {
    const typed = {
      ...reportFormDefaults('atendimentos-por-parametros', MARCH_15),
      queuesIds: [3, 7],
      status: ['open', 'closed'],
      ratings: [0, 5],
      isActiveDemand: 'true',
    };
    const parsed = reportFormSchema('atendimentos-por-parametros').parse(typed);
    const params = reportFilterParams(parsed);
    expect(params).toEqual({
      startDate: '2024-03-01',
      endDate: '2024-03-15',
      queuesIds: '3,7',
      status: 'open,closed',
      ratings: '0,5',
      isActiveDemand: 'true',
    });
    const server = reportQuerySchema('atendimentos-por-parametros').parse({ ...params, pageNumber: '2', pageSize: '25' });
    // An empty list means "every", as an absent one does on the server.
    const chosen = Object.fromEntries(Object.entries(parsed).filter(([, v]) => !(Array.isArray(v) && v.length === 0)));
    expect(server).toEqual({ ...chosen, pageNumber: 2, pageSize: 25 });
  });
});
