import { ChatFlowExportSchema, type ChatFlowExport, type FlowDefinition } from '@shared/schemas/chatflow';

export interface FlowFileIssue {
  /** Where in the file ("flow.steps.1.name"; "arquivo" for the file as a whole). */
  path: string;
  message: string;
}

export type FlowFileReading = { ok: true; file: ChatFlowExport } | { ok: false; issues: FlowFileIssue[] };

/** The largest file the builder reads (a flow at its limits is far smaller). */
export const FLOW_FILE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Reads an exported flow (JSON) with the same schema the server's POST /chat-flow/import uses,
 * so the builder shows each problem with its path before anything is sent.
 */
export function readFlowFile(text: string): FlowFileReading {
  if (text.length > FLOW_FILE_MAX_BYTES)
    return { ok: false, issues: [{ path: 'arquivo', message: 'arquivo grande demais (máximo 2 MB)' }] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, issues: [{ path: 'arquivo', message: 'o arquivo não é um JSON válido' }] };
  }
  const parsed = ChatFlowExportSchema.safeParse(json);
  if (parsed.success) return { ok: true, file: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || 'arquivo', message: issue.message })),
  };
}

/** The export file of the flow being edited (the same shape GET /chat-flow/:id/export answers). */
export function flowExportFile(name: string, description: string, flow: FlowDefinition): ChatFlowExport {
  return { kind: 'chatflow', name, description, flow };
}

/** The fields (or problems) of a refused call, as issues; the message alone when it named none. */
export function issuesOfFailure(error: unknown, fallback: string): FlowFileIssue[] {
  const data = (
    error as {
      data?: {
        fields?: { path: string; message: string }[];
        problems?: { stepId?: string; message: string }[];
        message?: string;
      };
    }
  )?.data;
  if (data?.problems?.length)
    return data.problems.map((p) => ({ path: p.stepId ? `etapa ${p.stepId}` : 'fluxo', message: p.message }));
  if (data?.fields?.length) return data.fields.map((f) => ({ path: f.path, message: f.message }));
  return [{ path: 'fluxo', message: data?.message ?? fallback }];
}
