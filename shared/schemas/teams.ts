import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, atLeastOneField, catalogName, formBoolean, recordId } from './catalog-fields';

/** Teams (equipes), spec section 3 "Team: name, active, users": request bodies and answers. */

export const TEAM_USERS_MAX = 500;

const teamFields = {
  name: catalogName,
  active: formBoolean.optional(),
  /** Ids of users of the same tenant; the list replaces the team's members. */
  users: z
    .array(recordId, { error: 'deve ser uma lista de ids de usuários' })
    .max(TEAM_USERS_MAX, { error: `no máximo ${TEAM_USERS_MAX} usuários` })
    .transform((ids) => [...new Set(ids)])
    .optional(),
};

/** POST /teams body. */
export const CreateTeamSchema = z.object(teamFields);
/** PUT /teams/{teamId} body: any subset of the fields; `users`, when sent, replaces the members. */
export const UpdateTeamSchema = z.object(teamFields).partial().refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

export type CreateTeamInput = z.infer<typeof CreateTeamSchema>;
export type UpdateTeamInput = z.infer<typeof UpdateTeamSchema>;

export interface TeamMember {
  id: number;
  name: string;
  email: string;
  profile: string;
}

export interface Team {
  id: number;
  name: string;
  active: boolean;
  /** Members, by name. */
  users: TeamMember[];
  createdAt: string;
  updatedAt: string;
}
