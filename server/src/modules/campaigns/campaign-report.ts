import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { CampaignStatus } from '@shared/schemas/campaigns';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { WallClock, formatDuration } from '../reports/report-cells';
import { pdfSafe } from '../reports/report-writers';
import { timeZoneOfTenant } from '../settings/tenant-time-zone';
import { authorizeCampaigns } from './campaigns.policy';
import { loadCampaign } from './campaigns.service';

export const CAMPAIGN_STATUS_PT: Record<CampaignStatus, string> = {
  pending: 'Pendente',
  scheduled: 'Programada',
  processing: 'Em andamento',
  canceled: 'Cancelada',
  finished: 'Finalizada',
};
const CONTACT_STATUS_PT: Record<string, string> = {
  pending: 'Pendente',
  sending: 'Enviando',
  delivered: 'Entregue',
  failed: 'Falhou',
};

const BATCH = 1000;
const MARGIN = 36;
const ROW = 14;
const COLUMNS = [
  { label: 'Contato', weight: 1.6 },
  { label: 'Número', weight: 1.1 },
  { label: 'Situação', weight: 0.8 },
  { label: 'Msg', weight: 0.35 },
  { label: 'Enviada em', weight: 1 },
  { label: 'Motivo', weight: 2.4 },
];

interface ReportRow {
  id: number;
  name: string;
  number: string | null;
  status: string;
  messageIndex: number | null;
  sentAt: Date | null;
  error: string | null;
}

/**
 * GET /campaigns/report/{campaignId}: the campaign's PDF (pdfkit, A4): totals (contacts,
 * delivered, failed, pending), timing (scheduled start, start of sending, end, duration, rate
 * per minute) and a table of every contact with its outcome and reason, read by keyset in
 * batches of 1000 as the PDF is written. Times are the tenant's wall clock.
 */
export async function campaignReport(
  deps: Pick<AppDeps, 'dataSource' | 'clock'>,
  auth: AuthContext,
  campaignId: number,
): Promise<{ fileName: string; body: Readable }> {
  authorizeCampaigns(auth);
  const db = deps.dataSource;
  const campaign = await loadCampaign(db, auth.tenantId, campaignId);
  const clock = new WallClock(await timeZoneOfTenant(db, auth.tenantId));
  const counts = campaign.counts ?? { contacts: 0, pending: 0, sending: 0, delivered: 0, failed: 0 };
  const [timing] = (await db.query(
    `SELECT min("sentAt") AS "firstSent", max("sentAt") AS "lastSent" FROM campaign_contacts WHERE "campaignId" = $1 AND "tenantId" = $2`,
    [campaignId, auth.tenantId],
  )) as { firstSent: Date | null; lastSent: Date | null }[];
  const began = campaign.startedAt ? new Date(campaign.startedAt) : timing.firstSent ? new Date(timing.firstSent) : null;
  const ended = campaign.finishedAt
    ? new Date(campaign.finishedAt)
    : campaign.canceledAt
      ? new Date(campaign.canceledAt)
      : timing.lastSent
        ? new Date(timing.lastSent)
        : null;
  const seconds = began && ended ? Math.max(0, (ended.getTime() - began.getTime()) / 1000) : null;
  const processed = counts.delivered + counts.failed;
  const rate = seconds && seconds > 0 ? ((processed / seconds) * 60).toFixed(1).replace('.', ',') : null;

  const pdf = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `Relatório da campanha ${campaign.name}` } });
  const width = pdf.page.width - 2 * MARGIN;
  const sum = COLUMNS.reduce((a, c) => a + c.weight, 0);
  const widths = COLUMNS.map((c) => (c.weight / sum) * width);
  let y = 0;
  const fit = (text: string, max: number): string => {
    const safe = pdfSafe(text);
    if (pdf.widthOfString(safe) <= max) return safe;
    let cut = safe;
    while (cut.length > 0 && pdf.widthOfString(`${cut}…`) > max) cut = cut.slice(0, -1);
    return `${cut}…`;
  };
  const drawRow = (cells: string[], header: boolean) => {
    if (y > pdf.page.height - MARGIN - ROW) {
      pdf.addPage();
      y = MARGIN;
      if (!header) drawRow(COLUMNS.map((c) => c.label), true);
    }
    if (header) pdf.rect(MARGIN, y - 2, width, ROW).fill('#e9ecef').fillColor('#000000');
    pdf.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      pdf.text(fit(cell, widths[i] - 4), x + 2, y + 1, { lineBreak: false });
      x += widths[i];
    });
    y += ROW;
  };
  const line = (label: string, value: string) => pdf.text(pdfSafe(`${label}: ${value}`), { width });
  const dash = (d: Date | null) => (d ? clock.dateTime(d) : '-');

  void (async () => {
    pdf.font('Helvetica-Bold').fontSize(16).text(pdfSafe(`Relatório da campanha: ${campaign.name}`), MARGIN, MARGIN, { width });
    pdf.moveDown(0.3).font('Helvetica').fontSize(9).text(pdfSafe(`Gerado em ${clock.dateTime(deps.clock.now())}`));
    pdf.moveDown(0.5).font('Helvetica-Bold').fontSize(11).text('Totais');
    pdf.font('Helvetica').fontSize(10);
    line('Situação da campanha', CAMPAIGN_STATUS_PT[campaign.status]);
    line('Conexão', campaign.channelName ?? '-');
    line('Contatos', String(counts.contacts));
    line('Entregues', String(counts.delivered));
    line('Falhas', String(counts.failed));
    line('Pendentes', String(counts.pending + counts.sending));
    pdf.moveDown(0.5).font('Helvetica-Bold').fontSize(11).text('Tempos');
    pdf.font('Helvetica').fontSize(10);
    line('Início programado', clock.dateTime(new Date(campaign.start)));
    line('Início do envio', dash(began));
    line('Fim', dash(ended));
    line('Duração', seconds === null ? '-' : formatDuration(seconds));
    line('Taxa', rate === null ? '-' : `${rate} mensagens por minuto`);
    line('Intervalo configurado', `${campaign.delay} segundos`);
    pdf.moveDown(1);
    y = pdf.y;
    drawRow(COLUMNS.map((c) => c.label), true);
    let after = 0;
    for (;;) {
      const rows = (await db.query(
        `SELECT cc.id, c.name, c.number, cc.status, cc."messageIndex", cc."sentAt", cc.error
           FROM campaign_contacts cc JOIN contacts c ON c.id = cc."contactId"
          WHERE cc."campaignId" = $1 AND cc."tenantId" = $2 AND cc.id > $3
          ORDER BY cc.id LIMIT $4`,
        [campaignId, auth.tenantId, after, BATCH],
      )) as ReportRow[];
      for (const r of rows) {
        drawRow(
          [
            r.name,
            r.number ?? '',
            CONTACT_STATUS_PT[r.status] ?? r.status,
            r.messageIndex === null ? '' : String(Number(r.messageIndex) + 1),
            r.sentAt ? clock.dateTime(new Date(r.sentAt)) : '',
            r.error ?? '',
          ],
          false,
        );
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1].id;
    }
    pdf.end();
  })().catch((err: unknown) => pdf.destroy(err as Error));
  const safeName = campaign.name.replace(/[^\p{L}\p{N} _-]/gu, '').trim().slice(0, 60) || 'campanha';
  return { fileName: `campanha-${campaign.id}-${safeName}.pdf`, body: pdf as unknown as Readable };
}
