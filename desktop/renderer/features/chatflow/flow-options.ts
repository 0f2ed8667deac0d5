import type { FlowDefinition } from '@shared/schemas/chatflow';
import { useMemo } from 'react';
import { useListChatFlowsQuery } from '../../api/chatflow.api';
import { useListKanbansQuery } from '../../api/kanban.api';
import { useListTagsQuery } from '../../api/tags.api';
import { useGetAttendanceChannelsQuery, useGetAttendanceQueuesQuery, useGetAttendanceUsersQuery } from '../../api/tickets.api';
import type { ChoiceOption } from '../../app/forms/form-fields';
import { useAppSelector } from '../../app/store-hooks';

/** The records a flow may name, as select options (ids as text, as the form fields hold them). */
export interface FlowOptions {
  steps: ChoiceOption<string>[];
  queues: ChoiceOption<string>[];
  users: ChoiceOption<string>[];
  channels: ChoiceOption<string>[];
  tags: ChoiceOption<string>[];
  kanbans: ChoiceOption<string>[];
  flows: ChoiceOption<string>[];
}

const option = (row: { id: number; name: string }): ChoiceOption<string> => ({ value: String(row.id), label: row.name });

/** Read from the endpoints the other screens use; `currentFlowId` is left out of "start another flow". */
export function useFlowOptions(flow: FlowDefinition, currentFlowId: number | null): FlowOptions {
  const me = useAppSelector((s) => s.session);
  const queues = useGetAttendanceQueuesQuery();
  const users = useGetAttendanceUsersQuery();
  const channels = useGetAttendanceChannelsQuery();
  const tags = useListTagsQuery();
  const kanbans = useListKanbansQuery();
  const flows = useListChatFlowsQuery();
  return useMemo(
    () => ({
      steps: flow.steps.map((s) => ({ value: s.id, label: s.name })),
      queues: (queues.data ?? []).map(option),
      users: [...(me.userId ? [{ id: me.userId, name: me.username ?? String(me.userId) }] : []), ...(users.data ?? [])].map(
        option,
      ),
      channels: (channels.data ?? []).map(option),
      tags: (tags.data ?? []).map(option),
      kanbans: (kanbans.data ?? []).map(option),
      flows: (flows.data ?? []).filter((f) => f.id !== currentFlowId).map(option),
    }),
    [
      flow.steps,
      queues.data,
      users.data,
      channels.data,
      tags.data,
      kanbans.data,
      flows.data,
      me.userId,
      me.username,
      currentFlowId,
    ],
  );
}
