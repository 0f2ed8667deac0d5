import {
  Alert,
  Button,
  ButtonGroup,
  Callout,
  FormGroup,
  H5,
  InputGroup,
  NonIdealState,
  Spinner,
  Switch,
  Tag,
} from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import {
  Background,
  Controls,
  ReactFlow,
  applyNodeChanges,
  type Connection,
  type Node,
  type NodeChange,
  type NodeTypes,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { chatFlowFileName } from '@shared/chatflow-file-name';
import {
  CreateChatFlowSchema,
  newFlowDefinition,
  validateFlowGraph,
  type ChatFlow,
  type FlowDefinition,
} from '@shared/schemas/chatflow';
import { parseRecordId } from '@shared/schemas/record-id';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useSearchParams } from 'react-router-dom';
import {
  useCreateChatFlowMutation,
  useGetChatFlowQuery,
  useTestChatFlowMutation,
  useUpdateChatFlowMutation,
} from '../../api/chatflow.api';
import { describeError } from '../../api/error-mapper';
import { saveBlobAs } from '../../api/file-download';
import { showToast } from '../../app/feedback/toaster';
import { builderPath } from './chatflow-paths';
import { flowExportFile, issuesOfFailure, type FlowFileIssue } from './flow-file';
import { addStep, connectSteps, flowToEdges, flowToNodes, moveStep, type StepNode } from './flow-graph';
import { canRedo, canUndo, flowHistoryReducer, startHistory } from './flow-history';
import { FlowImportButton } from './flow-import-button';
import { FlowIssuesDialog } from './flow-issues-dialog';
import { useFlowOptions } from './flow-options';
import { SettingsPanel } from './settings-panel';
import { StepNodeView } from './step-node';
import { StepPanel } from './step-panel';
import './chatflow.css';

const NODE_TYPES: NodeTypes = { step: StepNodeView as NodeTypes[string] };

/** /chat-flow/builder[?id=]: loads the flow to edit (or starts a new one). */
export function ChatFlowBuilderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const rawId = params.get('id');
  const id = rawId === null ? null : (parseRecordId(rawId) ?? -1);
  // A new flow's first save puts its id in the address: the editor keeps going (its undo history
  // included) instead of reloading what it just stored.
  const [createdHere, setCreatedHere] = useState<number | null>(null);
  const adopted = id !== null && id === createdHere;
  const query = useGetChatFlowQuery(id && id > 0 && !adopted ? id : skipToken, { refetchOnMountOrArgChange: true });
  if (id === -1 || query.isError) {
    return <NonIdealState icon="warning-sign" title={t('chatFlows.builder.notFound')} data-testid="chatflow-builder-missing" />;
  }
  if (id !== null && !adopted && !query.data) return <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />;
  return (
    <Builder
      key={adopted ? 'new' : (id ?? 'new')}
      initial={id !== null && !adopted ? (query.data ?? null) : null}
      onCreated={setCreatedHere}
    />
  );
}

interface Meta {
  name: string;
  description: string;
  testNumber: string;
  active: boolean;
}

/** The side panel's subject; an edge click selects its step and opens its condition. */
type Selection = { kind: 'step'; stepId: string; conditionId?: string } | { kind: 'settings' } | null;

const snapshot = (meta: Meta, flow: FlowDefinition) => JSON.stringify({ meta, flow });

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The visual editor: steps as nodes, conditions that lead to a step as edges (drag from a step's
 * right handle to another step to add one), the selected step's panel or the flow's settings,
 * undo/redo (buttons and Ctrl+Z / Ctrl+Y outside text fields), the problems validateFlowGraph
 * finds (activation is refused while there are any), save, export and import of JSON, and the
 * engine's test run against the flow's test number.
 */
function Builder({ initial, onCreated }: { initial: ChatFlow | null; onCreated(id: number): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [history, dispatch] = useReducer(flowHistoryReducer, initial?.flow ?? newFlowDefinition(), startHistory);
  const flow = history.present;
  const [meta, setMeta] = useState<Meta>({
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    testNumber: initial?.testNumber ?? '',
    active: initial?.active ?? false,
  });
  const [savedId, setSavedId] = useState<number | null>(initial?.id ?? null);
  const [saved, setSaved] = useState(() => (initial ? snapshot(meta, flow) : ''));
  const [selection, setSelection] = useState<Selection>(null);
  const [issues, setIssues] = useState<{ title: string; issues: FlowFileIssue[] } | null>(null);
  const [testOutcome, setTestOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [create, creating] = useCreateChatFlowMutation();
  const [update, updating] = useUpdateChatFlowMutation();
  const [runTest, testing] = useTestChatFlowMutation();
  const options = useFlowOptions(flow, savedId);
  const problems = useMemo(() => validateFlowGraph(flow), [flow]);
  const dirty = snapshot(meta, flow) !== saved;
  const edit = useCallback((next: FlowDefinition) => dispatch({ type: 'edit', flow: next }), []);

  const selectedStepId = selection?.kind === 'step' ? selection.stepId : null;
  const selectedStep = flow.steps.find((s) => s.id === selectedStepId) ?? null;
  const [nodes, setNodes] = useState<StepNode[]>(() => flowToNodes(flow, selectedStepId));
  // The canvas is redrawn from the definition after every edit and undo; drags move the local nodes until dropped.
  useEffect(() => setNodes(flowToNodes(flow, selectedStepId)), [flow, selectedStepId]);
  const edges = useMemo(() => flowToEdges(flow), [flow]);

  // Leaving with unsaved changes asks first (another screen of the app, or closing the tab).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || isTyping(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        dispatch({ type: 'undo' });
      } else if (key === 'y' || (key === 'z' && event.shiftKey)) {
        event.preventDefault();
        dispatch({ type: 'redo' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  /** Saves name, description, test number, state and definition; answers the stored id, or null when refused. */
  const save = async (): Promise<number | null> => {
    const parsed = CreateChatFlowSchema.safeParse({ ...meta, flow });
    if (!parsed.success) {
      setIssues({
        title: t('chatFlows.builder.cannotSave'),
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || 'fluxo', message: issue.message })),
      });
      return null;
    }
    if (parsed.data.active && problems.length > 0) {
      setIssues({
        title: t('chatFlows.builder.cannotActivate'),
        issues: problems.map((p) => ({ path: p.stepId ? `etapa ${p.stepId}` : 'fluxo', message: p.message })),
      });
      return null;
    }
    const result = savedId ? await update({ id: savedId, body: parsed.data }) : await create(parsed.data);
    if ('error' in result && result.error) {
      setIssues({
        title: t('chatFlows.builder.cannotSave'),
        issues: issuesOfFailure(result.error, describeError(result.error, t)),
      });
      return null;
    }
    const stored = result.data!;
    setSaved(snapshot(meta, flow));
    showToast(t('chatFlows.builder.saved'), 'success');
    if (!savedId) {
      setSavedId(stored.id);
      onCreated(stored.id);
      navigate(builderPath(stored.id), { replace: true });
    }
    return stored.id;
  };

  const toggleActive = (active: boolean) => {
    if (active && problems.length > 0) {
      setIssues({
        title: t('chatFlows.builder.cannotActivate'),
        issues: problems.map((p) => ({ path: p.stepId ? `etapa ${p.stepId}` : 'fluxo', message: p.message })),
      });
      return;
    }
    setMeta((m) => ({ ...m, active }));
  };

  const test = async () => {
    setTestOutcome(null);
    if (!meta.testNumber.trim()) {
      setTestOutcome({ ok: false, text: t('chatFlows.builder.testNumberMissing') });
      return;
    }
    const id = dirty || !savedId ? await save() : savedId;
    if (!id) return;
    const result = await runTest(id);
    if ('error' in result && result.error) {
      const status = (result.error as { status?: unknown }).status;
      setTestOutcome({
        ok: false,
        text: status === 404 || status === 405 ? t('chatFlows.builder.testUnavailable') : describeError(result.error, t),
      });
      return;
    }
    setTestOutcome({
      ok: true,
      text: t('chatFlows.builder.testStarted', { number: meta.testNumber, ticketId: result.data.ticketId }),
    });
  };

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => setNodes((current) => applyNodeChanges(changes, current as Node[]) as StepNode[]),
    [],
  );
  const onNodeDragStop = useCallback(
    (_event: unknown, _node: Node, dragged: Node[]) => {
      let next = flow;
      for (const node of dragged) next = moveStep(next, node.id, node.position);
      edit(next);
    },
    [flow, edit],
  );
  const onConnect = useCallback(
    (connection: Connection) => {
      if (connection.source && connection.target && connection.source !== connection.target)
        edit(connectSteps(flow, connection.source, connection.target));
    },
    [flow, edit],
  );

  return (
    <div className="page chatflow-builder" data-testid="page-chatFlowBuilder">
      <header className="chatflow-toolbar">
        <Button
          icon="arrow-left"
          variant="minimal"
          text={t('chatFlows.builder.back')}
          onClick={() => navigate('/chat-flow')}
          data-testid="builder-back"
        />
        <FormGroup label={t('crud.name')} labelInfo="*" inline className="chatflow-meta">
          <InputGroup
            value={meta.name}
            onChange={(e) => setMeta({ ...meta, name: e.currentTarget.value })}
            data-testid="builder-name"
          />
        </FormGroup>
        <FormGroup label={t('chatFlows.description')} inline className="chatflow-meta">
          <InputGroup
            value={meta.description}
            onChange={(e) => setMeta({ ...meta, description: e.currentTarget.value })}
            data-testid="builder-description"
          />
        </FormGroup>
        <FormGroup label={t('chatFlows.builder.testNumber')} inline className="chatflow-meta chatflow-meta-narrow">
          <InputGroup
            value={meta.testNumber}
            placeholder="5511999999999"
            onChange={(e) => setMeta({ ...meta, testNumber: e.currentTarget.value })}
            data-testid="builder-test-number"
          />
        </FormGroup>
        <Switch
          checked={meta.active}
          label={meta.active ? t('crud.activeState') : t('crud.inactiveState')}
          onChange={(e) => toggleActive(e.currentTarget.checked)}
          data-testid="builder-active"
        />
        {dirty ? (
          <Tag minimal intent="warning" data-testid="builder-dirty">
            {t('chatFlows.builder.unsaved')}
          </Tag>
        ) : null}
      </header>
      <div className="chatflow-actions">
        <ButtonGroup>
          <Button
            icon="undo"
            text={t('chatFlows.builder.undo')}
            disabled={!canUndo(history)}
            onClick={() => dispatch({ type: 'undo' })}
            data-testid="builder-undo"
          />
          <Button
            icon="redo"
            text={t('chatFlows.builder.redo')}
            disabled={!canRedo(history)}
            onClick={() => dispatch({ type: 'redo' })}
            data-testid="builder-redo"
          />
        </ButtonGroup>
        <Button
          icon="add"
          text={t('chatFlows.builder.addStep')}
          onClick={() => {
            const added = addStep(flow);
            edit(added.flow);
            setSelection({ kind: 'step', stepId: added.stepId });
          }}
          data-testid="builder-add-step"
        />
        <Button
          icon="cog"
          text={t('chatFlows.settings.title')}
          onClick={() => setSelection({ kind: 'settings' })}
          data-testid="builder-settings"
        />
        <FlowImportButton
          testId="builder-import"
          onIssues={(found) => setIssues({ title: t('chatFlows.importRefused'), issues: found })}
          onFile={(file) => {
            edit(file.flow);
            setMeta((m) => ({ ...m, name: m.name || file.name, description: m.description || file.description }));
            setSelection(null);
            showToast(t('chatFlows.builder.importedHere'), 'success');
          }}
        />
        <Button
          icon="export"
          text={t('chatFlows.export')}
          onClick={() => {
            const file = flowExportFile(meta.name.trim() || 'fluxo', meta.description.trim(), flow);
            saveBlobAs(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), chatFlowFileName(file.name));
          }}
          data-testid="builder-export"
        />
        <Button
          icon="play"
          text={t('chatFlows.builder.test')}
          loading={testing.isLoading}
          onClick={() => void test()}
          data-testid="builder-test"
        />
        <Button
          intent="primary"
          icon="floppy-disk"
          text={t('crud.save')}
          loading={creating.isLoading || updating.isLoading}
          onClick={() => void save()}
          data-testid="builder-save"
        />
      </div>
      {testOutcome ? (
        <Callout
          intent={testOutcome.ok ? 'success' : 'danger'}
          compact
          className="chatflow-test-outcome"
          data-testid="builder-test-outcome"
        >
          {testOutcome.text}
        </Callout>
      ) : null}
      <div className="chatflow-body">
        <div className="chatflow-canvas" data-testid="flow-canvas">
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onNodeDragStop={onNodeDragStop}
            onConnect={onConnect}
            onNodeClick={(_event, node) => setSelection({ kind: 'step', stepId: node.id })}
            onEdgeClick={(_event, edge) =>
              setSelection({
                kind: 'step',
                stepId: edge.source,
                conditionId: (edge.data as { conditionId?: string } | undefined)?.conditionId,
              })
            }
            onPaneClick={() => setSelection(null)}
            deleteKeyCode={null}
            fitView
            fitViewOptions={{ maxZoom: 1 }}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </div>
        <aside className="chatflow-side">
          {selection?.kind === 'settings' ? (
            <SettingsPanel flow={flow} options={options} onChange={edit} onClose={() => setSelection(null)} />
          ) : selectedStep ? (
            <StepPanel
              flow={flow}
              step={selectedStep}
              options={options}
              openConditionId={selection?.kind === 'step' ? selection.conditionId : undefined}
              onChange={edit}
              onClose={() => setSelection(null)}
            />
          ) : (
            <p className="chatflow-hint">{t('chatFlows.builder.hint')}</p>
          )}
          <div className="chatflow-problems" data-testid="builder-problems">
            <H5>{t('chatFlows.builder.problems')}</H5>
            {problems.length === 0 ? (
              <Callout intent="success" compact icon="tick" data-testid="builder-no-problems">
                {t('chatFlows.builder.noProblems')}
              </Callout>
            ) : (
              <ul>
                {problems.map((problem, index) => (
                  <li key={index} data-testid="builder-problem">
                    <Button
                      variant="minimal"
                      intent="warning"
                      icon="warning-sign"
                      text={problem.message}
                      disabled={!problem.stepId}
                      onClick={() => problem.stepId && setSelection({ kind: 'step', stepId: problem.stepId })}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </aside>
      </div>
      <FlowIssuesDialog title={issues?.title ?? ''} issues={issues?.issues ?? null} onClose={() => setIssues(null)} />
      <Alert
        isOpen={blocker.state === 'blocked'}
        intent="warning"
        icon="warning-sign"
        confirmButtonText={t('chatFlows.builder.leave')}
        cancelButtonText={t('common.cancel')}
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      >
        <p data-testid="builder-leave-text">{t('chatFlows.builder.leaveConfirm')}</p>
      </Alert>
    </div>
  );
}
