import type {
  ContactDto,
  ContactImportDto,
  ContactImportErrorDto,
  ContactImportSummaryDto,
  ContactTagDto,
  ContactWalletDto,
  ExtraInfo,
} from '@shared/schemas/contacts';

/** A contact as read by CONTACT_SELECT (contact-list.query.ts): tags and wallets already aggregated. */
export interface ContactRow {
  id: number;
  tenantId: number;
  name: string;
  number: string | null;
  email: string | null;
  cpfCnpj: string | null;
  birthday: string | null;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  messengerId: string | null;
  instagramId: string | null;
  hubWhatsappId: string | null;
  telegramId: string | null;
  profilePicUrl: string | null;
  isGroup: boolean;
  kanbanId: number | null;
  extraInfo: ExtraInfo | null;
  blockContact: boolean;
  blockChatbot: boolean;
  tags: ContactTagDto[] | null;
  wallets: ContactWalletDto[] | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/** The one shape a contact leaves the server in (never the tenant id). */
export function presentContact(row: ContactRow): ContactDto {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    cpfCnpj: row.cpfCnpj,
    birthday: row.birthday,
    firstName: row.firstName,
    lastName: row.lastName,
    businessName: row.businessName,
    messengerId: row.messengerId,
    instagramId: row.instagramId,
    hubWhatsappId: row.hubWhatsappId,
    telegramId: row.telegramId,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    kanbanId: row.kanbanId,
    extraInfo: row.extraInfo ?? [],
    blockContact: row.blockContact,
    blockChatbot: row.blockChatbot,
    tags: row.tags ?? [],
    wallets: row.wallets ?? [],
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export interface ContactImportRow {
  id: string;
  tenantId: number;
  userId: number | null;
  status: ContactImportDto['status'];
  fileName: string;
  filePath: string;
  dateFormat: ContactImportDto['dateFormat'];
  total: number;
  processed: number;
  created: number;
  updated: number;
  duplicates: number;
  rejected: number;
  percent: number;
  attempts: number;
  failureReason: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  finishedAt: Date | string | null;
}

/** Import state without the server's file path. */
export function presentContactImportSummary(row: ContactImportRow): ContactImportSummaryDto {
  return {
    id: row.id,
    status: row.status,
    fileName: row.fileName,
    dateFormat: row.dateFormat,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    duplicates: row.duplicates,
    rejected: row.rejected,
    percent: row.percent,
    failureReason: row.failureReason,
    createdAt: iso(row.createdAt),
    finishedAt: row.finishedAt ? iso(row.finishedAt) : null,
  };
}

export function presentContactImport(row: ContactImportRow, errors: ContactImportErrorDto[]): ContactImportDto {
  return { ...presentContactImportSummary(row), errors };
}
