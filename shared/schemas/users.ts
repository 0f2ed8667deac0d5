import { z } from 'zod';
import type { Profile } from '../profiles';

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
      selectedUser: z
        .union([z.int(), z.string().max(64)])
        .nullable()
        .optional(),
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
  lastOnline: string | null;
  configs: UserConfigs;
}

/** Payload of SOCKET_EVENTS.userUpdate (sent to that user only). */
export interface UserUpdatePayload {
  action: 'update';
  user: UserProfile;
}

/** Payload of SOCKET_EVENTS.userStatus (sent to the user's tenant). */
export interface UserStatusPayload {
  userId: number;
  isOnline: boolean;
  lastOnline: string | null;
}
