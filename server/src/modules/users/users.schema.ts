/** Request bodies and queries of the users routes; declared in shared/ so the React client validates the same way. */
export {
  ChatUsersQuerySchema,
  CreateUserSchema,
  CreateUserTenantSchema,
  DeleteUserTenantSchema,
  UpdateUserConfigsSchema,
  UpdateUserOnlineSchema,
  UpdateUserSchema,
  UpdateUserTenantSchema,
  UserListQuerySchema,
  UserTenantListQuerySchema,
} from '@shared/schemas/users';
export type {
  ChatUsersQuery,
  CreateUserInput,
  CreateUserTenantInput,
  DeleteUserTenantInput,
  UpdateUserConfigsInput,
  UpdateUserInput,
  UpdateUserOnlineInput,
  UpdateUserTenantInput,
  UserListQuery,
  UserTenantListQuery,
} from '@shared/schemas/users';
