import { describe, expect, it } from 'vitest';
import { newFlowDefinition } from '@shared/schemas/chatflow';
import { flowExportFile, issuesOfFailure, readFlowFile } from './flow-file';

describe('flow import file', () => {
  it('reads back what the builder exports', () => {
    const file = flowExportFile('Vendas', 'Menu', newFlowDefinition());
    expect(readFlowFile(JSON.stringify(file))).toEqual({ ok: true, file });
  });

  it('names each problem with its path', () => {
    const flow = newFlowDefinition() as any;
    flow.steps[0].name = '';
    flow.steps[0].interactions[0] = { id: 'i1', type: 'delay', seconds: 9999 };
    const reading = readFlowFile(JSON.stringify({ kind: 'chatflow', name: 'X', flow }));
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.issues.map((i) => i.path)).toEqual(['flow.steps.0.name', 'flow.steps.0.interactions.0.seconds']);
    expect(reading.issues[0].message).toContain('obrigatório');
  });

  it('refuses what is not JSON or not a flow', () => {
    expect(readFlowFile('{')).toEqual({ ok: false, issues: [{ path: 'arquivo', message: 'o arquivo não é um JSON válido' }] });
    const notFlow = readFlowFile('{"name":"x"}');
    expect(notFlow.ok === false && notFlow.issues.map((i) => i.path)).toEqual(['kind', 'flow']);
  });
});

describe('a refused save or import as issues', () => {
  it('lists the graph problems, else the fields, else the message', () => {
    const problems = {
      data: { problems: [{ code: 'UNREACHABLE_STEP', stepId: 'b', message: 'Etapa "B" não é alcançável.' }], fields: [] },
    };
    expect(issuesOfFailure(problems, 'x')).toEqual([{ path: 'etapa b', message: 'Etapa "B" não é alcançável.' }]);
    const fields = { data: { fields: [{ path: 'flow.steps.0.name', message: 'obrigatório' }] } };
    expect(issuesOfFailure(fields, 'x')).toEqual([{ path: 'flow.steps.0.name', message: 'obrigatório' }]);
    expect(issuesOfFailure({ data: { message: 'Fluxo não encontrado.' } }, 'x')).toEqual([
      { path: 'fluxo', message: 'Fluxo não encontrado.' },
    ]);
    expect(issuesOfFailure({ status: 'FETCH_ERROR' }, 'Sem conexão')).toEqual([{ path: 'fluxo', message: 'Sem conexão' }]);
  });
});
