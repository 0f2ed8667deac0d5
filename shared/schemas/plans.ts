import { z } from 'zod';

/** GET /plans/listpublic answer item: what the sign-up page shows of an active plan, nothing more. */
export interface PublicPlan {
  id: number;
  name: string;
  value: number;
  maxUsers: number;
  maxConnections: number;
  trial: boolean;
  trialDays: number;
}

/** GET /plans/list item (the super administrator's plans screen): a public plan plus its state. */
export interface PlanDto extends PublicPlan {
  active: boolean;
  /** Tenants on this plan (a plan with tenants cannot be deleted, only deactivated). */
  tenantCount: number;
  createdAt: string;
  updatedAt: string;
}

export const PLAN_NAME_MAX = 100;
export const PLAN_VALUE_MAX = 9_999_999_999.99;
/** A limit of a plan or a tenant: at least one user or connection, at most a generous ceiling. */
export const PLAN_LIMIT_MAX = 100_000;
export const PLAN_TRIAL_DAYS_MAX = 3650;

const BODY_ERROR = { error: 'O corpo da requisição deve ser um objeto JSON' };

export const planName = z
  .string({ error: (issue) => (issue.input === undefined ? 'Nome é obrigatório' : 'Nome deve ser um texto') })
  .trim()
  .min(1, { error: 'Nome é obrigatório' })
  .max(PLAN_NAME_MAX, { error: `no máximo ${PLAN_NAME_MAX} caracteres` });

/** Whole numbers between min and max; a form's text input is accepted as a numeric string. */
export const limitNumber = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} deve ser um número` })
    .int({ error: `${label} deve ser um número inteiro` })
    .min(min, { error: `${label} deve ser no mínimo ${min}` })
    .max(max, { error: `${label} deve ser no máximo ${max}` });

const planValue = z.coerce
  .number({ error: 'Valor deve ser um número' })
  .min(0, { error: 'Valor deve ser no mínimo 0' })
  .max(PLAN_VALUE_MAX, { error: 'Valor grande demais' });

const planFields = {
  name: planName,
  value: planValue,
  maxUsers: limitNumber('Usuários', 1, PLAN_LIMIT_MAX),
  maxConnections: limitNumber('Conexões', 1, PLAN_LIMIT_MAX),
  trial: z.boolean({ error: 'deve ser verdadeiro ou falso' }),
  trialDays: limitNumber('Dias de teste', 0, PLAN_TRIAL_DAYS_MAX),
  active: z.boolean({ error: 'deve ser verdadeiro ou falso' }),
};

/** A trial needs a length: trial on with 0 days would end the day it starts. */
const trialNeedsDays = (v: { trial?: boolean; trialDays?: number }) => !(v.trial === true && v.trialDays === 0);
const TRIAL_DAYS_ERROR = { error: 'Informe os dias de teste (no mínimo 1) quando o teste estiver ativo', path: ['trialDays'] };

/** POST /plans body. */
export const CreatePlanSchema = z
  .object({ ...planFields, trial: planFields.trial.default(false), trialDays: planFields.trialDays.default(0), active: planFields.active.default(true) }, BODY_ERROR)
  .refine(trialNeedsDays, TRIAL_DAYS_ERROR);
export type CreatePlanInput = z.output<typeof CreatePlanSchema>;
export type CreatePlanForm = z.input<typeof CreatePlanSchema>;

/** PUT /plans/{id} body: any subset of the fields (the screen sends them all). */
export const UpdatePlanSchema = z
  .object(
    {
      name: planFields.name.optional(),
      value: planFields.value.optional(),
      maxUsers: planFields.maxUsers.optional(),
      maxConnections: planFields.maxConnections.optional(),
      trial: planFields.trial.optional(),
      trialDays: planFields.trialDays.optional(),
      active: planFields.active.optional(),
    },
    BODY_ERROR,
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'informe ao menos um campo para alterar' })
  .refine(trialNeedsDays, TRIAL_DAYS_ERROR);
export type UpdatePlanInput = z.output<typeof UpdatePlanSchema>;
