import type { ReportId } from '@shared/schemas/reports';
import {
  contactListReport,
  contactsByKanbanReport,
  contactsByStateReport,
  contactsByTagReport,
  contactsByWalletReport,
} from './contact-reports';
import type { ReportDefinition } from './report-definition';
import { ticketsByParametersReport } from './tickets-by-parameters.report';
import { userStatisticsReport } from './user-statistics.report';

/**
 * Every report, one definition each (columns, filters by the shared schema, SQL). The routes,
 * the table and the three exports read this map only, so a report is changed in one place:
 * estatisticas-atendimentos-usuarios can move to the recorded metrics by replacing its
 * definition here.
 */
export const REPORTS: { [Id in ReportId]: ReportDefinition<Id> } = {
  'estatisticas-atendimentos-usuarios': userStatisticsReport,
  'atendimentos-por-parametros': ticketsByParametersReport,
  'lista-contatos': contactListReport,
  'contatos-por-etiquetas': contactsByTagReport,
  'contatos-por-estado': contactsByStateReport,
  'contatos-por-kanban': contactsByKanbanReport,
  'contatos-por-carteira': contactsByWalletReport,
};

export const reportDefinition = <Id extends ReportId>(id: Id): ReportDefinition<Id> => REPORTS[id];
