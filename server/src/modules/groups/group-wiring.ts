import type { AppDeps } from '../../deps';
import { GROUP_RULES_HOOK_ORDER, GroupModeration } from './group-moderation';
import { storeGroups } from './group-store';

const wired = new WeakMap<AppDeps, GroupModeration>();

/**
 * Wires the group rules to a server's inbound pipeline, once per app (like chatflow-wiring.ts):
 * the `group-rules` inbound hook (forbidden words, order GROUP_RULES_HOOK_ORDER) and the group
 * hook (providers' group events: groups stored, bans, greetings, farewells).
 */
export function groupModerationOf(deps: AppDeps): GroupModeration {
  const existing = wired.get(deps);
  if (existing) return existing;
  const moderation = new GroupModeration(deps);
  wired.set(deps, moderation);
  deps.channels.inbound.useHook({ name: 'group-rules', order: GROUP_RULES_HOOK_ORDER, run: (event) => moderation.onMessage(event) });
  deps.channels.inbound.useGroupHook('group-rules', async (event) => {
    if (event.kind === 'groups') await storeGroups(deps, { id: event.channelId, tenantId: event.tenantId }, event.groups);
    else await moderation.onParticipants(event);
  });
  return moderation;
}
