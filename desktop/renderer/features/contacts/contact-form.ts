import { CreateContactSchema, ExtraInfoSchema, type ContactDto } from '@shared/schemas/contacts';
import type { ContactWriteBody } from '../../api/contacts.api';
import { birthdayToInput, readBirthday } from './birthday-entry';
import { contactNumberToInput, formatTaxId } from './contact-display';

/**
 * The contact form as data (spec section 3): what the dialog edits, how a stored contact fills
 * it, which field is wrong and why (the server's own zod schema, run in the browser so both
 * sides accept the same input), and the body each save sends. Pure, so it is tested without
 * a browser.
 */

export const CONTACT_TEXT_FIELDS = [
  'name',
  'number',
  'email',
  'cpfCnpj',
  'birthday',
  'firstName',
  'lastName',
  'businessName',
  'messengerId',
  'instagramId',
  'hubWhatsappId',
  'telegramId',
] as const;
export type ContactTextField = (typeof CONTACT_TEXT_FIELDS)[number];

export interface ExtraInfoRow {
  /** Local identity of the row while it is edited (React key); never sent. */
  key: string;
  name: string;
  value: string;
}

export interface ContactFormValues extends Record<ContactTextField, string> {
  kanbanId: number | null;
  tags: number[];
  wallets: number[];
  extraInfo: ExtraInfoRow[];
  blockContact: boolean;
  blockChatbot: boolean;
}

/** A field's problem as an i18n key and its values, so the pure code needs no translator. */
export interface FieldProblem {
  messageKey: string;
  values?: Record<string, string | number>;
}

export type FieldProblems = Record<string, FieldProblem>;

export interface SaveOptions {
  /** Super or admin: wallets are sent; for other profiles they are left as they are. */
  canEditWallets: boolean;
}

let rowSequence = 0;
export const newExtraInfoRow = (name = '', value = ''): ExtraInfoRow => ({ key: `row-${(rowSequence += 1)}`, name, value });

export function emptyContactForm(): ContactFormValues {
  return {
    name: '',
    number: '',
    email: '',
    cpfCnpj: '',
    birthday: '',
    firstName: '',
    lastName: '',
    businessName: '',
    messengerId: '',
    instagramId: '',
    hubWhatsappId: '',
    telegramId: '',
    kanbanId: null,
    tags: [],
    wallets: [],
    extraInfo: [],
    blockContact: false,
    blockChatbot: false,
  };
}

/** A stored contact as the form shows it: punctuated CPF/CNPJ, dd/mm/aaaa, "+" numbers. */
export function contactToForm(contact: ContactDto): ContactFormValues {
  return {
    name: contact.name,
    number: contactNumberToInput(contact.number),
    email: contact.email ?? '',
    cpfCnpj: formatTaxId(contact.cpfCnpj),
    birthday: birthdayToInput(contact.birthday),
    firstName: contact.firstName ?? '',
    lastName: contact.lastName ?? '',
    businessName: contact.businessName ?? '',
    messengerId: contact.messengerId ?? '',
    instagramId: contact.instagramId ?? '',
    hubWhatsappId: contact.hubWhatsappId ?? '',
    telegramId: contact.telegramId ?? '',
    kanbanId: contact.kanbanId,
    tags: contact.tags.map((tag) => tag.id),
    wallets: contact.wallets.map((wallet) => wallet.id),
    extraInfo: contact.extraInfo.map((info) => newExtraInfoRow(info.name, info.value)),
    blockContact: contact.blockContact,
    blockChatbot: contact.blockChatbot,
  };
}

/** Rows with a name or a value are sent; fully blank rows are an unfinished click on "add". */
const filledRows = (rows: ExtraInfoRow[]) =>
  rows
    .map((row, index) => ({ index, name: row.name.trim(), value: row.value.trim() }))
    .filter((row) => row.name !== '' || row.value !== '');

const extraInfoOf = (values: ContactFormValues) => filledRows(values.extraInfo).map(({ name, value }) => ({ name, value }));

/** The value a text field is sent as: trimmed, the birthday as ISO; empty is null. */
function textValue(values: ContactFormValues, field: ContactTextField): string | null {
  const text = values[field].trim();
  if (text === '') return null;
  if (field === 'birthday') {
    const reading = readBirthday(text);
    // An unreadable date is sent as typed: validation stops it first, the server would too.
    return reading.kind === 'date' ? reading.iso : text;
  }
  return text;
}

const MAX_EXTRA_INFO = 50;
const MAX_EXTRA_NAME = 100;
const MAX_EXTRA_VALUE = 1000;

/**
 * Every problem of the form, by field path ('number', 'extraInfo.2.name' with the row's index
 * in the form). The main fields go through the server's CreateContactSchema; the additional
 * info rows are checked here so a problem names the row the person sees.
 */
export function validateContactForm(values: ContactFormValues): FieldProblems {
  const problems: FieldProblems = {};
  const candidate: Record<string, unknown> = {};
  for (const field of CONTACT_TEXT_FIELDS) {
    const value = field === 'birthday' ? values.birthday.trim() : values[field];
    if (value.trim() !== '' || field === 'name') candidate[field] = value;
  }
  if (values.kanbanId !== null) candidate.kanbanId = values.kanbanId;
  candidate.tags = values.tags;
  candidate.wallets = values.wallets;

  if (values.birthday.trim() !== '' && readBirthday(values.birthday).kind === 'invalid') {
    problems.birthday = { messageKey: 'contacts.validation.birthdayInvalid' };
  }

  const parsed = CreateContactSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      const field = String(issue.path[0] ?? '');
      if (!path || problems[path]) continue;
      problems[path] = describeIssue(field, issue);
    }
  }

  const filled = filledRows(values.extraInfo);
  if (filled.length > MAX_EXTRA_INFO)
    problems.extraInfo = { messageKey: 'contacts.validation.tooMany', values: { max: MAX_EXTRA_INFO } };
  for (const row of filled) {
    if (row.name === '') problems[`extraInfo.${row.index}.name`] = { messageKey: 'contacts.validation.required' };
    else if (row.name.length > MAX_EXTRA_NAME)
      problems[`extraInfo.${row.index}.name`] = { messageKey: 'contacts.validation.tooLong', values: { max: MAX_EXTRA_NAME } };
    if (row.value.length > MAX_EXTRA_VALUE)
      problems[`extraInfo.${row.index}.value`] = { messageKey: 'contacts.validation.tooLong', values: { max: MAX_EXTRA_VALUE } };
  }
  // The rows as a whole must pass the server's schema too (it is the one that decides).
  if (
    Object.keys(problems).every((path) => !path.startsWith('extraInfo')) &&
    !ExtraInfoSchema.safeParse(extraInfoOf(values)).success
  ) {
    problems.extraInfo = { messageKey: 'contacts.validation.invalid' };
  }
  return problems;
}

interface SchemaIssue {
  code: string;
  message: string;
  maximum?: number | bigint;
  origin?: string;
}

function describeIssue(field: string, issue: SchemaIssue): FieldProblem {
  if (issue.code === 'too_big') {
    const max = Number(issue.maximum);
    return issue.origin === 'array'
      ? { messageKey: 'contacts.validation.tooMany', values: { max } }
      : { messageKey: 'contacts.validation.tooLong', values: { max } };
  }
  switch (field) {
    case 'name':
      return { messageKey: 'contacts.validation.required' };
    case 'number':
      // The superRefine of CreateContactSchema: neither a number nor a channel id.
      return issue.code === 'custom' && /obrigat/i.test(issue.message)
        ? { messageKey: 'contacts.validation.numberRequired' }
        : { messageKey: 'contacts.validation.numberInvalid' };
    case 'email':
      return { messageKey: 'contacts.validation.emailInvalid' };
    case 'cpfCnpj':
      return { messageKey: 'contacts.validation.cpfCnpjInvalid' };
    case 'birthday':
      return { messageKey: 'contacts.validation.birthdayInvalid' };
    default:
      return { messageKey: 'contacts.validation.invalid' };
  }
}

/** POST /contacts: the filled fields only. */
export function toCreateBody(values: ContactFormValues, options: SaveOptions): ContactWriteBody {
  const body: ContactWriteBody = { name: values.name.trim() };
  for (const field of CONTACT_TEXT_FIELDS) {
    if (field === 'name') continue;
    const value = textValue(values, field);
    if (value !== null) body[field] = value;
  }
  if (values.kanbanId !== null) body.kanbanId = values.kanbanId;
  if (values.tags.length > 0) body.tags = [...values.tags];
  if (options.canEditWallets && values.wallets.length > 0) body.wallets = [...values.wallets];
  const extraInfo = extraInfoOf(values);
  if (extraInfo.length > 0) body.extraInfo = extraInfo;
  if (values.blockContact) body.blockContact = true;
  if (values.blockChatbot) body.blockChatbot = true;
  return body;
}

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');

/**
 * PUT /contacts/{id}: only what changed, so an untouched field (a number stored before the
 * normalisation rules, wallets a user may not change) is never rewritten. Emptied fields are
 * sent as null (cleared). An empty body means there is nothing to save.
 */
export function toUpdateBody(initial: ContactFormValues, values: ContactFormValues, options: SaveOptions): ContactWriteBody {
  const body: ContactWriteBody = {};
  for (const field of CONTACT_TEXT_FIELDS) {
    if (values[field].trim() === initial[field].trim()) continue;
    const value = textValue(values, field);
    if (field === 'name') body.name = value ?? '';
    else body[field] = value;
  }
  if (values.kanbanId !== initial.kanbanId) body.kanbanId = values.kanbanId;
  if (!sameIds(values.tags, initial.tags)) body.tags = [...values.tags];
  if (options.canEditWallets && !sameIds(values.wallets, initial.wallets)) body.wallets = [...values.wallets];
  const extraInfo = extraInfoOf(values);
  if (JSON.stringify(extraInfo) !== JSON.stringify(extraInfoOf(initial))) body.extraInfo = extraInfo;
  if (values.blockContact !== initial.blockContact) body.blockContact = values.blockContact;
  if (values.blockChatbot !== initial.blockChatbot) body.blockChatbot = values.blockChatbot;
  return body;
}

/**
 * A field path the server named (`fields[].path`) as the form knows it: the server counts the
 * additional info rows it received (blank rows are not sent), the form counts the rows it shows.
 */
export function formPathOfServerPath(path: string, values: ContactFormValues): string {
  const match = /^extraInfo\.(\d+)(\..*)?$/.exec(path);
  if (!match) return path;
  const row = filledRows(values.extraInfo)[Number(match[1])];
  return row ? `extraInfo.${row.index}${match[2] ?? ''}` : 'extraInfo';
}
