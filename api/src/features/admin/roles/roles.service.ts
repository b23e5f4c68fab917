import type { Role, RoleInput } from '@radar/contracts';
import type { Db } from '../../../db/client.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/clock.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import { createRolesRepo, toRole, type RoleValues } from './roles.repo.js';

/** What the router hands over: roleInput after parsing (defaults applied). */
export type ParsedRoleInput = Required<Pick<RoleInput, 'name'>> & { description?: string | null; permissions: string[] };

/**
 * Role rules. The built-in roles (Admin, Moderator, User) can be neither deleted nor renamed: the server enforces
 * permissions by those names and the impersonation tool offers them, so renaming "Moderator" would silently strip
 * every moderator of their rights. Their description and permission list stay editable.
 */
export function createRolesService(deps: { db: Db; clock: Clock }) {
  const repo = createRolesRepo(deps.db);

  function values(input: ParsedRoleInput): RoleValues {
    const permissions = [...new Set(input.permissions)];
    return { name: input.name, description: input.description ? input.description : null, permissions };
  }

  async function assertNameFree(name: string, exceptId?: number): Promise<void> {
    const existing = await repo.findByName(name);
    if (existing && existing.id !== exceptId) throw new ConflictError(`A role named ${existing.name} already exists`);
  }

  async function guardUnique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      // Two admins creating the same name at once: the unique index decides, the loser gets the same 409.
      if (isUniqueViolation(err)) throw new ConflictError(`A role named ${name} already exists`);
      throw err;
    }
  }

  return {
    async list(): Promise<Role[]> {
      return (await repo.list()).map(toRole);
    },

    async create(input: ParsedRoleInput): Promise<Role> {
      await assertNameFree(input.name);
      const row = await guardUnique(input.name, () => repo.insert(values(input), deps.clock.now()));
      return toRole(row);
    },

    async update(id: number, input: ParsedRoleInput): Promise<Role> {
      const current = await repo.find(id);
      if (!current) throw new NotFoundError(`Role ${id} not found`);
      if (current.isBuiltIn && current.name !== input.name) {
        throw new ConflictError(`The built-in ${current.name} role cannot be renamed`);
      }
      await assertNameFree(input.name, id);
      const row = await guardUnique(input.name, () => repo.update(id, values(input), deps.clock.now()));
      if (!row) throw new NotFoundError(`Role ${id} not found`);
      return toRole(row);
    },

    /** Assignments of the role go with it (ON DELETE CASCADE on user_roles.role_id). */
    async remove(id: number): Promise<Role> {
      const current = await repo.find(id);
      if (!current) throw new NotFoundError(`Role ${id} not found`);
      if (current.isBuiltIn) throw new ConflictError(`The built-in ${current.name} role cannot be deleted`);
      if (!(await repo.remove(id))) throw new NotFoundError(`Role ${id} not found`);
      return toRole(current);
    },
  };
}
