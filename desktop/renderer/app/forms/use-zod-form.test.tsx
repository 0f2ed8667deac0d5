import { checkPeriod } from '@shared/schemas/period';
import { REPORT_FILTER_SCHEMAS } from '@shared/schemas/reports';
import { CreateTagSchema } from '@shared/schemas/tags';
import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createFormControl, type Control, type FieldValues } from 'react-hook-form';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { z } from 'zod';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { fieldMessage, typedCalendarDay } from './field-text';
import { DateField, FormErrorSummary, MultiSelectField, TextField } from './form-fields';
import { showServerFailure } from './server-errors';
import { zodFormOptions } from './use-zod-form';

/**
 * The form pattern with react-hook-form's real engine (a form control built from the same
 * options useZodForm passes to useForm) and the shared schemas the server validates with; the
 * fields are rendered to markup with the control's state after a submit.
 */

const ticketsSchema = REPORT_FILTER_SCHEMAS['atendimentos-por-parametros'].superRefine(checkPeriod);
type TicketFilters = { startDate: string; endDate: string; queuesIds: number[] };
const QUEUES = [
  { value: 3, label: 'Suporte' },
  { value: 4, label: 'Vendas' },
];

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('pt-br', [initReactI18next]);
});

const render = (element: ReactElement) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);

function TicketFiltersForm({ control }: { control: Control<TicketFilters, unknown, any> }) {
  return (
    <form>
      <DateField control={control} name="startDate" label="Data inicial" required testId="start" />
      <DateField control={control} name="endDate" label="Data final" required testId="end" />
      <MultiSelectField control={control} name="queuesIds" label="Filas" required options={QUEUES} placeholder="Selecione" emptyText="-" testId="queues" />
      <FormErrorSummary control={control} />
    </form>
  );
}

/** The form control useZodForm would build (useForm runs createFormControl with the same options). */
const formOf = <T extends FieldValues>(schema: z.ZodType<unknown, unknown>, defaults: T) =>
  createFormControl<T, unknown, unknown>(zodFormOptions<T, unknown>(schema, defaults));

async function submit<T extends FieldValues>(form: ReturnType<typeof formOf<T>>) {
  const valid = vi.fn();
  const invalid = vi.fn();
  await form.handleSubmit(valid, invalid)();
  return { valid, invalid };
}

/** The text of the element carrying `data-testid`, or null. */
const textOf = (html: string, testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

/** The text of the form's summary callout (Blueprint wraps it in a few elements), or null. */
const summaryOf = (html: string) => {
  const callout = /data-testid="form-summary"[^>]*>([\s\S]*)$/.exec(html)?.[1];
  return callout ? callout.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() : null;
};

describe('useZodForm with a shared schema', () => {
  it('refuses an invalid submit with the schema’s own messages, shown under each field, and the form’s summary', async () => {
    const form = formOf<TicketFilters>(ticketsSchema, { startDate: '31/02/2024', endDate: '', queuesIds: [] });
    expect(summaryOf(render(<TicketFiltersForm control={form.control} />))).toBeNull();

    const { valid, invalid } = await submit(form);
    expect(valid).not.toHaveBeenCalled();
    expect(invalid).toHaveBeenCalledOnce();
    expect(form.getFieldState('startDate').error?.message).toBe('Data inválida');
    expect(form.getFieldState('endDate').error?.message).toBe('Data final é obrigatório');
    expect(form.getFieldState('queuesIds').error?.message).toBe('Selecione ao menos uma fila');

    const html = render(<TicketFiltersForm control={form.control} />);
    expect(textOf(html, 'start-error')).toBe('Data inválida');
    expect(textOf(html, 'end-error')).toBe('Data final é obrigatório');
    expect(textOf(html, 'queues-error')).toBe('Selecione ao menos uma fila');
    expect(summaryOf(html)).toBe('Ops! Verifique os erros...');
    expect(html).toMatch(/data-testid="start"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*data-testid="start"/);
  });

  it('hands the schema’s output to the submit handler: days as yyyy-MM-dd, ids as numbers', async () => {
    const form = formOf<TicketFilters>(ticketsSchema, { startDate: '01/03/2024', endDate: '2024-03-31', queuesIds: [3, 4] });
    const { valid, invalid } = await submit(form);
    expect(invalid).not.toHaveBeenCalled();
    expect(valid.mock.calls[0][0]).toEqual({ startDate: '2024-03-01', endDate: '2024-03-31', queuesIds: [3, 4] });
    expect(summaryOf(render(<TicketFiltersForm control={form.control} />))).toBeNull();
  });

  it('checks the period as the server does: the end may not come before the start', async () => {
    const form = formOf<TicketFilters>(ticketsSchema, { startDate: '10/03/2024', endDate: '09/03/2024', queuesIds: [3] });
    await submit(form);
    expect(form.getFieldState('endDate').error?.message).toBe('A data final deve ser igual ou posterior à data inicial');
    expect(form.getFieldState('startDate').error).toBeUndefined();
  });

  it('reads a fragment message with the field’s name, and shows a refusal of the server on its field and as the summary', async () => {
    type TagValues = { name: string };
    const form = formOf<TagValues>(CreateTagSchema, { name: '   ' });
    await submit(form);
    expect(form.getFieldState('name').error?.message).toBe('é obrigatório');
    const Tag = ({ control }: { control: Control<TagValues, unknown, any> }) => (
      <>
        <TextField control={control} name="name" label="Nome" testId="name" />
        <FormErrorSummary control={control} />
      </>
    );
    expect(textOf(render(<Tag control={form.control} />), 'name-error')).toBe('Nome é obrigatório');

    form.clearErrors();
    const refusal = { status: 409, data: { error: 'ERR_TAG_EXISTS', message: 'Já existe', fields: [{ path: 'name', message: 'x' }] } };
    const failure = showServerFailure(form.setError, refusal, (key, options) => options?.defaultValue ?? key, ['name']);
    const html = render(<Tag control={form.control} />);
    expect(textOf(html, 'name-error')).toBe(failure.message);
    expect(summaryOf(html)).toBe(failure.message);
  });
});

describe('form texts', () => {
  it('joins a fragment to the label and leaves a sentence alone', () => {
    expect(fieldMessage('Nome', 'é obrigatório')).toBe('Nome é obrigatório');
    expect(fieldMessage('Nome', 'no máximo 100 caracteres')).toBe('Nome: no máximo 100 caracteres');
    expect(fieldMessage('Data inicial', 'Data inválida')).toBe('Data inválida');
    expect(fieldMessage('Data inicial', undefined)).toBeUndefined();
  });

  it('types the slashes of dd/MM/yyyy and spells out eight pasted digits', () => {
    expect(typedCalendarDay('0', '01')).toBe('01/');
    expect(typedCalendarDay('01/0', '01/02')).toBe('01/02/');
    expect(typedCalendarDay('01/', '01//')).toBe('01/');
    expect(typedCalendarDay('01/02/202', '01/02/2024')).toBe('01/02/2024');
    expect(typedCalendarDay('', '31122024')).toBe('31/12/2024');
    // Deleting, or the other accepted spelling, stays as typed.
    expect(typedCalendarDay('01/', '01')).toBe('01');
    expect(typedCalendarDay('2024-0', '2024-03')).toBe('2024-03');
  });
});
