import { FormGroup, InputGroup } from '@blueprintjs/core';
import { get, useController, useFormState, useWatch, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  renderTemplate,
  renderTemplateButtons,
  templatePlaceholders,
  type TemplateComponent,
  type TemplateHeaderMediaFormat,
  type TemplateVariableValues,
} from '@shared/schemas/templates';
import { fieldMessage } from '../../app/forms/field-text';
import { TextField } from '../../app/forms/form-fields';
import './templates.css';

type Part = 'header' | 'body' | 'buttons';
const LABELS: Record<Part, string> = {
  header: 'chatTools.template.header',
  body: 'chatTools.template.body',
  buttons: 'chatTools.template.button',
};
const MEDIA_LABELS: Record<TemplateHeaderMediaFormat, string> = {
  IMAGE: 'chatTools.template.headerImage',
  VIDEO: 'chatTools.template.headerVideo',
  DOCUMENT: 'chatTools.template.headerDocument',
};

/** The form paths of a template's variable inputs (`<name>.header.0` ...), for mapping a server's field errors. */
export function templateVariablePaths(name: string, components: readonly TemplateComponent[]): string[] {
  const counts = templatePlaceholders(components);
  const paths = (part: Part, count: number) => Array.from({ length: count }, (_, i) => `${name}.${part}.${i}`);
  return [
    ...paths('header', counts.header),
    ...paths('body', counts.body),
    ...paths('buttons', counts.buttons.length),
    ...(counts.headerMedia ? [`${name}.headerMedia`, `${name}.headerMedia.link`, `${name}.headerMedia.filename`] : []),
  ];
}

/**
 * The link of a media header. Its message is the link's own (empty, not https) or, from the
 * server, the whole media part's (`<name>.headerMedia`: missing for this template).
 */
function HeaderMediaLinkField<T extends FieldValues>({
  control,
  name,
  label,
  helperText,
  testId,
}: {
  control: Control<T, unknown, any>;
  name: string;
  label: string;
  helperText: string;
  testId: string;
}) {
  const { field, fieldState } = useController({ control, name: `${name}.headerMedia.link` as FieldPath<T> });
  const { errors } = useFormState({ control, name: `${name}.headerMedia` as FieldPath<T> });
  const partError = get(errors, `${name}.headerMedia`) as { message?: string } | undefined;
  const error = fieldMessage(label, fieldState.error?.message ?? partError?.message);
  const id = `field-${testId}`;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      labelInfo="*"
      intent={error ? 'danger' : 'none'}
      helperText={
        error ? (
          <span role="alert" data-testid={`${testId}-error`}>
            {error}
          </span>
        ) : (
          helperText
        )
      }
      className="app-form-field"
    >
      <InputGroup
        id={id}
        name={field.name}
        type="url"
        value={(field.value as string | undefined) ?? ''}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        inputRef={field.ref}
        placeholder="https://"
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
    </FormGroup>
  );
}

/**
 * The inputs of a WABA template's variables (the text header's, the body's and each URL
 * button's; the link, and a document's file name, of an image, video or document header), bound
 * to a form field holding `{header, body, buttons, headerMedia}`, and the preview of what the
 * customer reads (header, body, footer, then the buttons with their links). Shared by the
 * composer's template dialog, the campaign form and the bulk-send template screens. With
 * `bodyFromLines` the body has no inputs (each bulk destination's line fills it; the preview
 * keeps its {{n}}).
 */
export function TemplateVariableFields<T extends FieldValues>({
  control,
  name,
  components,
  testIdPrefix,
  bodyFromLines = false,
  helperText,
}: {
  control: Control<T, unknown, any>;
  name: FieldPath<T>;
  components: readonly TemplateComponent[];
  /**
   * Inputs are `<prefix>-<part>-<i>` (`template-body-0`), the media header's `<prefix>-header-media`
   * (and `<prefix>-header-filename`), the preview `<prefix>-preview`.
   */
  testIdPrefix: string;
  bodyFromLines?: boolean;
  /** Shown under the first input. */
  helperText?: string;
}) {
  const { t } = useTranslation();
  const variables = (useWatch({ control, name }) ?? {}) as Partial<TemplateVariableValues>;
  const counts = templatePlaceholders(components);
  const parts: [Part, number][] = [
    ['header', counts.header],
    ['body', bodyFromLines ? 0 : counts.body],
    ['buttons', counts.buttons.length],
  ];
  const inputs = parts.flatMap(([part, count]) => Array.from({ length: count }, (_, i) => ({ part, i })));
  const buttons = renderTemplateButtons(components, variables);
  const media = counts.headerMedia;
  return (
    <div className="template-variable-fields" data-testid={`${testIdPrefix}-variables`}>
      {media && (
        <HeaderMediaLinkField
          control={control}
          name={name}
          label={t(MEDIA_LABELS[media])}
          helperText={t('chatTools.template.headerMediaHelp')}
          testId={`${testIdPrefix}-header-media`}
        />
      )}
      {media === 'DOCUMENT' && (
        <TextField
          control={control}
          name={`${name}.headerMedia.filename` as FieldPath<T>}
          label={t('chatTools.template.headerFilename')}
          maxLength={240}
          testId={`${testIdPrefix}-header-filename`}
        />
      )}
      {inputs.map(({ part, i }, index) => (
        <TextField
          key={`${part}-${i}`}
          control={control}
          name={`${name}.${part}.${i}` as FieldPath<T>}
          label={t(LABELS[part], { n: i + 1 })}
          required
          helperText={index === 0 ? helperText : undefined}
          testId={`${testIdPrefix}-${part}-${i}`}
        />
      ))}
      <FormGroup label={t('chatTools.template.preview')}>
        <pre className="template-preview" data-testid={`${testIdPrefix}-preview`}>
          {renderTemplate(components, variables)}
        </pre>
        {buttons.length > 0 ? (
          <ul className="template-preview-buttons" data-testid={`${testIdPrefix}-preview-buttons`}>
            {buttons.map((b, i) => (
              <li key={i}>
                {b.text}
                {b.url ? ` · ${b.url}` : ''}
              </li>
            ))}
          </ul>
        ) : null}
      </FormGroup>
    </div>
  );
}
