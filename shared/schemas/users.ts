import { z } from 'zod';
import { PROFILES, type Profile } from '../profiles';
import { emailSchema, passwordPolicySchema } from './auth';
import type { Presence } from './internal-chat';
import { RECORD_ID_MAX, recordId, recordIdSchema } from './record-id';

/** Users calls of spec section 7: request bodies (zod, shared with the React client) and answers. */

/** Upper bound of a stored filter, so a client cannot park megabytes in users.configs. */
export const USER_FILTERS_MAX_CHARS = 8192;

const idList = z.array(z.union([z.int(), z.string().max(64)])).max(500);

/**
 * The attendance filter the ticket screen keeps per user (spec section 3, "Attendance filter").
 * Known fields are type-checked; unknown ones are kept, because older clients store extras.
 */
export const AttendanceFilterSchema = z
  .looseObject(
    {
      searchParam: z.string().max(200).optional(),
      pageNumber: z.union([z.int().min(1), z.string().max(10)]).optional(),
      status: z.array(z.string().max(20)).max(10).optional(),
      showAll: z.boolean().optional(),
      count: z
        .union([z.int(), z.string().max(10)])
        .nullable()
        .optional(),
      queuesIds: idList.optional(),
      whatsappIds: idList.optional(),
      /** One user id, several as '1,2' or a list (the console saves a list). */
      selectedUser: z
        .union([z.int(), z.string().max(64), idList])
        .nullable()
        .optional(),
      /** Contact tags and kanban columns (GET /tickets filters beyond the spec's). */
      tags: idList.optional(),
      kanbanIds: idList.optional(),
      withUnreadMessages: z.boolean().optional(),
      isNotAssignedUser: z.boolean().optional(),
      includeNotQueueDefined: z.boolean().optional(),
    },
    { error: 'deve ser um objeto' },
  )
  .refine((f) => JSON.stringify(f).length <= USER_FILTERS_MAX_CHARS, { error: `no máximo ${USER_FILTERS_MAX_CHARS} caracteres` });

export type AttendanceFilter = z.infer<typeof AttendanceFilterSchema>;

/** PUT /users/{id}/configs body: merged into the stored configs (absent keys are kept). */
export const UpdateUserConfigsSchema = z
  .object({
    filtrosAtendimento: AttendanceFilterSchema.optional(),
    isDark: z.boolean({ error: 'deve ser verdadeiro ou falso' }).optional(),
  })
  .refine((b) => b.filtrosAtendimento !== undefined || b.isDark !== undefined, {
    error: 'informe filtrosAtendimento e/ou isDark',
  });

export type UpdateUserConfigsInput = z.infer<typeof UpdateUserConfigsSchema>;

/** PUT /usersIsOnline/{id} body. */
export const UpdateUserOnlineSchema = z.object({
  isOnline: z.boolean({ error: 'deve ser verdadeiro ou falso' }),
});

export type UpdateUserOnlineInput = z.infer<typeof UpdateUserOnlineSchema>;

export interface UserConfigs {
  filtrosAtendimento: AttendanceFilter | null;
  isDark: boolean;
}

/**
 * GET /users/{id} answer (also the answer of both PUTs above). `whatsappAllowed` and
 * `blockWavoip` repeat `allowedConnections` and `blockVoice` under the names the login
 * response and the browser storage use (spec section 3).
 */
export interface UserProfile {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  tenantId: number;
  queues: number[];
  allowedConnections: number[];
  whatsappAllowed: number[];
  blockVoice: boolean;
  blockWavoip: boolean;
  isOnline: boolean;
  /** 'online', 'away' (idle: every connected app of the user idle for a while) or 'offline'; `isOnline` is false only when offline. */
  presence: Presence;
  lastOnline: string | null;
  configs: UserConfigs;
}

/**
 * Payload of SOCKET_EVENTS.userUpdate. Config changes go to that user only; creation and
 * administrative changes go to the tenant's admins and supervisors (and to the user concerned).
 */
export interface UserUpdatePayload {
  action: 'create' | 'update';
  user: UserProfile;
}

/**
 * Payload of SOCKET_EVENTS.userStatus (sent to the user's tenant) when the user's presence
 * changes. `isOnline` is `presence !== 'offline'` (kept for the anchor's clients); `lastOnline`
 * comes with PUT /usersIsOnline only.
 */
export interface UserStatusPayload {
  userId: number;
  isOnline: boolean;
  presence: Presence;
  lastOnline?: string | null;
}

/**
 * Socket `user:presence` (client to server): the app's idle state (issue #18). A client sends
 * 'away' once the user has been idle PRESENCE_AWAY_AFTER_SECONDS (shared/limits.ts) and 'online'
 * at the next click, mouse move or key press. The user is online while any of their connected
 * apps is, away when all of them are, offline when none is connected.
 */
export const UserPresenceSchema = z.strictObject({
  presence: z.enum(['online', 'away'], { error: "deve ser 'online' ou 'away'" }),
});
export type UserPresenceInput = z.infer<typeof UserPresenceSchema>;

/* ---------------------------------------------------------------------------------------------
 * Users administration (spec section 7, "Users"): list, create, update, delete, internal-chat
 * list, and the user-tenant links. Texts are Portuguese because forms show them as they are.
 * ------------------------------------------------------------------------------------------- */

export const USER_PAGE_SIZE_DEFAULT = 20;
export const USER_PAGE_SIZE_MAX = 100;
export const USER_NAME_MAX = 120;
export const USER_EMAIL_MAX = 254;
/** Upper bound of queues / allowedConnections sent at once (a tenant never has this many). */
export const USER_IDS_MAX = 500;
export const USER_SEARCH_MAX = 200;

const BODY_ERROR = { error: 'O corpo da requisição deve ser um objeto JSON' };

const userName = z
  .string({ error: (issue) => (issue.input === undefined ? 'Nome é obrigatório' : 'Nome deve ser um texto') })
  .trim()
  .min(1, { error: 'Nome é obrigatório' })
  .max(USER_NAME_MAX, { error: `no máximo ${USER_NAME_MAX} caracteres` });

const userEmail = emailSchema.max(USER_EMAIL_MAX, { error: `no máximo ${USER_EMAIL_MAX} caracteres` });

const userProfile = z.enum(PROFILES, { error: `deve ser um de: ${PROFILES.join(', ')}` });

/** Ids of the caller's queues / channels; repeated ids are kept once, in the order sent. */
const idArray = (label: string) =>
  z
    .array(
      recordIdSchema(`${label}: cada item deve ser um id entre 1 e ${RECORD_ID_MAX}`),
      {
        error: `${label} deve ser uma lista de ids`,
      },
    )
    .max(USER_IDS_MAX, { error: `no máximo ${USER_IDS_MAX} itens` })
    .transform((ids) => [...new Set(ids)]);

const blockVoice = z.boolean({ error: 'deve ser verdadeiro ou falso' });

/** POST /users body. `superadmin` passes validation; only the platform super administrator may assign it. */
export const CreateUserSchema = z.object(
  {
    name: userName,
    email: userEmail,
    password: passwordPolicySchema,
    profile: userProfile,
    queues: idArray('queues').optional(),
    allowedConnections: idArray('allowedConnections').optional(),
    blockVoice: blockVoice.optional(),
  },
  BODY_ERROR,
);
export type CreateUserInput = z.output<typeof CreateUserSchema>;

/** PUT /users/{id} body: any of the POST fields; absent ones are kept. */
export const UpdateUserSchema = z
  .object(
    {
      name: userName.optional(),
      email: userEmail.optional(),
      password: passwordPolicySchema.optional(),
      profile: userProfile.optional(),
      queues: idArray('queues').optional(),
      allowedConnections: idArray('allowedConnections').optional(),
      blockVoice: blockVoice.optional(),
    },
    BODY_ERROR,
  )
  .refine((b) => Object.values(b).some((v) => v !== undefined), { error: 'informe ao menos um campo para alterar' });
export type UpdateUserInput = z.output<typeof UpdateUserSchema>;

/** The fields a user other than an administrator may change on their own row. */
export const SELF_EDITABLE_USER_FIELDS = ['name', 'password'] as const satisfies readonly (keyof UpdateUserInput)[];

const positiveIntParam = (max = RECORD_ID_MAX) =>
  z.coerce
    .number({ error: 'deve ser um número inteiro positivo' })
    .int({ error: 'deve ser um número inteiro positivo' })
    .min(1, { error: 'deve ser um número inteiro positivo' })
    .max(max, { error: `deve ser no máximo ${max}` });

const pageSizeParam = z.coerce
  .number({ error: `deve ser um número entre 1 e ${USER_PAGE_SIZE_MAX}` })
  .int({ error: `deve ser um número entre 1 e ${USER_PAGE_SIZE_MAX}` })
  .min(1, { error: `deve ser um número entre 1 e ${USER_PAGE_SIZE_MAX}` })
  .max(USER_PAGE_SIZE_MAX, { error: `deve ser um número entre 1 e ${USER_PAGE_SIZE_MAX}` })
  .default(USER_PAGE_SIZE_DEFAULT);

const searchParam = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(USER_SEARCH_MAX, { error: `no máximo ${USER_SEARCH_MAX} caracteres` })
  .optional();

/** GET /users query: name or e-mail contains searchParam (case-insensitive); pages in name order. */
export const UserListQuerySchema = z.object({
  searchParam,
  pageNumber: positiveIntParam(100_000).default(1),
  pageSize: pageSizeParam,
});
export type UserListQuery = z.output<typeof UserListQuerySchema>;

/** GET /users answer. */
export interface UserListResponse {
  users: UserProfile[];
  /** Users of the tenant matching searchParam (all pages). */
  count: number;
  hasMore: boolean;
}

/** GET /users/chat-privado query. */
export const ChatUsersQuerySchema = z.object({ searchParam });
export type ChatUsersQuery = z.output<typeof ChatUsersQuerySchema>;

/** One entry of GET /users/chat-privado: what the internal chat shows of a colleague. */
export interface ChatUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  isOnline: boolean;
  presence: Presence;
  lastOnline: string | null;
}

/** GET /userTenants query. */
export const UserTenantListQuerySchema = z.object({
  userId: recordId.optional(),
  /** Only the platform super administrator may name another tenant; admins always get their own. */
  tenantId: recordId.optional(),
  pageNumber: positiveIntParam(100_000).default(1),
  pageSize: pageSizeParam,
});
export type UserTenantListQuery = z.output<typeof UserTenantListQuerySchema>;

const bodyId = (label: string) => recordIdSchema(`${label} deve ser um id entre 1 e ${RECORD_ID_MAX}`, `${label} é obrigatório`);

/** POST /userTenants body: links an existing user to another tenant. */
export const CreateUserTenantSchema = z.object({ userId: bodyId('userId'), tenantId: bodyId('tenantId') }, BODY_ERROR);
export type CreateUserTenantInput = z.output<typeof CreateUserTenantSchema>;

/** PUT /userTenants/{id} body: moves the link to another tenant. */
export const UpdateUserTenantSchema = z.object({ tenantId: bodyId('tenantId') }, BODY_ERROR);
export type UpdateUserTenantInput = z.output<typeof UpdateUserTenantSchema>;

/** DELETE /userTenants/{id} body: the link's tenant, as a guard against deleting the wrong link. */
export const DeleteUserTenantSchema = z.object({ tenantId: bodyId('tenantId') }, BODY_ERROR);
export type DeleteUserTenantInput = z.output<typeof DeleteUserTenantSchema>;

/** One user-tenant link. `home` is the link to the user's own tenant (users.tenantId). */
export interface UserTenantDto {
  id: number;
  userId: number;
  tenantId: number;
  home: boolean;
  createdAt: string;
  user: { id: number; name: string; email: string; profile: Profile };
  tenant: { id: number; name: string };
}

/** GET /userTenants answer. */
export interface UserTenantListResponse {
  userTenants: UserTenantDto[];
  count: number;
  hasMore: boolean;
}

/** Payload of SOCKET_EVENTS.userDelete (to the whole tenant: internal-chat lists drop the user). */
export interface UserDeletePayload {
  action: 'delete';
  id: number;
}

/** Who asked for a desktop purge: the user themself, or a supervisor or administrator of the tenant. */
export type DesktopPurgeReason = 'self' | 'admin';

/**
 * Payload of SOCKET_EVENTS.desktopPurge (to that user only): the user's desktop consoles wipe
 * their local cache, unsent offline actions included, and take a new snapshot (issue #15).
 */
export interface DesktopPurgePayload {
  userId: number;
  reason: DesktopPurgeReason;
}

/** POST /users/{id}/desktop-purge answer: the seq of the recorded desktop:purge event. */
export interface DesktopPurgeResponse {
  purged: true;
  seq: number;
}
