import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
  Menu,
  MenuItem,
  Spinner,
  TextArea,
} from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INTERACTIVE_BUTTON_MAX, INTERACTIVE_TEXT_MAX } from '@shared/limits';
import { useListContactsQuery, type ContactDto } from '../../api/contacts.api';
import { describeError } from '../../api/error-mapper';
import {
  useForwardMessagesMutation,
  useSendButtonsMutation,
  useSendMentionMutation,
} from '../../api/messages.api';
import { showToast } from '../../app/feedback/toaster';
import {
  contactSearchReady,
  EMOJIS,
  INTERACTIVE_BUTTONS_MAX_COUNT,
  interactivePayload,
  validateForward,
  validateInteractive,
} from './composer-rules';

export const newClientId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `c-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** The server's refusal, with the first field message of a validation error (e.g. the forward limit). */
function describeRefusal(error: unknown, t: ReturnType<typeof useTranslation>['t']): string {
  const data = (error as { data?: { error?: string; fields?: { message?: string }[] } } | undefined)?.data;
  const field = data?.error === 'ERR_VALIDATION' ? data.fields?.[0]?.message : undefined;
  return field ?? describeError(error, t);
}

// ---------------------------------------------------------------------------------------------

export function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const { t } = useTranslation();
  return (
    <div className="emoji-picker" role="listbox" aria-label={t('chatTools.emoji')} data-testid="emoji-picker">
      {EMOJIS.map((emoji) => (
        <button
          key={emoji}
          type="button"
          className="emoji-picker-item"
          role="option"
          aria-selected={false}
          onClick={() => onPick(emoji)}
        >
          {emoji}
        </button>
      ))}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

export function ButtonsDialog({
  ticketId,
  initialText,
  onClose,
  onSent,
}: {
  ticketId: number;
  initialText: string;
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const [body, setBody] = useState(initialText.slice(0, 200));
  const [titles, setTitles] = useState<string[]>(['']);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [send, { isLoading }] = useSendButtonsMutation();
  const check = validateInteractive(body, titles);
  // The limits show as soon as they are crossed; "required" only after a first try.
  const show = (key: string | null) => (key && (touched || !key.endsWith('Required')) ? key : null);

  const submit = async () => {
    setTouched(true);
    if (!check.valid) return;
    const result = await send({ ticketId, clientId: newClientId(), ...interactivePayload(body, titles) });
    if ('error' in result) setServerError(describeRefusal(result.error, t));
    else {
      onSent();
      onClose();
    }
  };
  const bodyError = show(check.body);
  return (
    <Dialog isOpen onClose={onClose} title={t('chatTools.buttons.title')}>
      <DialogBody>
        <FormGroup
          label={t('chatTools.buttons.text')}
          labelFor="buttons-text"
          intent={bodyError ? 'danger' : 'none'}
          helperText={
            <span data-testid="buttons-text-error">
              {bodyError ? t(bodyError) : `${body.trim().length}/${INTERACTIVE_TEXT_MAX}`}
            </span>
          }
        >
          <TextArea
            id="buttons-text"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            fill
            rows={2}
            data-testid="buttons-text"
          />
        </FormGroup>
        {titles.map((title, i) => {
          const error = show(check.buttons[i]);
          return (
            <FormGroup
              key={i}
              label={t('chatTools.buttons.button', { n: i + 1 })}
              labelFor={`buttons-title-${i}`}
              intent={error ? 'danger' : 'none'}
              helperText={
                <span data-testid={`buttons-title-error-${i}`}>
                  {error ? t(error) : `${title.trim().length}/${INTERACTIVE_BUTTON_MAX}`}
                </span>
              }
            >
              <InputGroup
                id={`buttons-title-${i}`}
                value={title}
                intent={error ? 'danger' : 'none'}
                onChange={(e) => {
                  const value = e.target.value;
                  setTitles((list) => list.map((x, j) => (j === i ? value : x)));
                }}
                data-testid={`buttons-title-${i}`}
                rightElement={
                  titles.length > 1 ? (
                    <Button
                      icon="cross"
                      variant="minimal"
                      aria-label={t('chatTools.buttons.remove')}
                      onClick={() => setTitles((list) => list.filter((_, j) => j !== i))}
                    />
                  ) : undefined
                }
              />
            </FormGroup>
          );
        })}
        {titles.length < INTERACTIVE_BUTTONS_MAX_COUNT && (
          <Button icon="add" variant="minimal" onClick={() => setTitles((list) => [...list, ''])} data-testid="buttons-add">
            {t('chatTools.buttons.add')}
          </Button>
        )}
        {serverError && (
          <Callout intent="danger" compact data-testid="buttons-server-error">
            {serverError}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('chatTools.cancel')}</Button>
            <Button
              intent="primary"
              loading={isLoading}
              disabled={touched && !check.valid}
              onClick={() => void submit()}
              data-testid="buttons-submit"
            >
              {t('chatTools.buttons.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------

/** Contact search from 2 letters (spec section 9), one contact chosen. */
function ContactPicker({ selected, onSelect }: { selected: ContactDto | null; onSelect: (contact: ContactDto) => void }) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(term.trim()), 300);
    return () => clearTimeout(timer);
  }, [term]);
  const ready = contactSearchReady(debounced);
  const { data, isFetching } = useListContactsQuery({ searchParam: debounced, pageNumber: 1, pageSize: 10 }, { skip: !ready });
  return (
    <div className="contact-picker">
      <InputGroup
        leftIcon="search"
        placeholder={t('chatTools.forward.search')}
        aria-label={t('chatTools.forward.search')}
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        rightElement={isFetching ? <Spinner size={16} /> : undefined}
        data-testid="contact-picker-search"
        autoFocus
      />
      {!contactSearchReady(term) ? (
        <div className="bp6-text-muted contact-picker-hint" data-testid="contact-picker-hint">
          {t('chatTools.forward.searchHint')}
        </div>
      ) : ready && data && data.contacts.length === 0 ? (
        <div className="bp6-text-muted contact-picker-hint">{t('chatTools.forward.noContacts')}</div>
      ) : (
        <Menu className="contact-picker-list" data-testid="contact-picker-list">
          {(ready ? (data?.contacts ?? []) : []).map((c) => (
            <MenuItem
              key={c.id}
              text={c.name}
              label={c.number ?? ''}
              active={selected?.id === c.id}
              icon={selected?.id === c.id ? 'tick' : 'person'}
              onClick={() => onSelect(c)}
              data-testid="contact-picker-option"
            />
          ))}
        </Menu>
      )}
    </div>
  );
}

export function ForwardDialog({
  messageIds,
  onClose,
  onForwarded,
}: {
  messageIds: number[];
  onClose: () => void;
  onForwarded: () => void;
}) {
  const { t } = useTranslation();
  const [contact, setContact] = useState<ContactDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [forward, { isLoading }] = useForwardMessagesMutation();
  const submit = async () => {
    const refusal = validateForward(messageIds, contact?.id ?? null);
    if (refusal) {
      setError(t(refusal));
      return;
    }
    const result = await forward({ messages: messageIds, contactId: contact!.id });
    if ('error' in result) setError(describeRefusal(result.error, t));
    else {
      showToast(t('chatTools.forward.done'), 'success');
      onForwarded();
      onClose();
    }
  };
  return (
    <Dialog isOpen onClose={onClose} title={t('chatTools.forward.title')}>
      <DialogBody>
        <p className="bp6-text-muted">{t('chatTools.forward.selected', { count: messageIds.length })}</p>
        <ContactPicker
          selected={contact}
          onSelect={(c) => {
            setContact(c);
            setError(null);
          }}
        />
        {error && (
          <Callout intent="danger" compact data-testid="forward-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('chatTools.cancel')}</Button>
            <Button
              intent="primary"
              loading={isLoading}
              disabled={!contact}
              onClick={() => void submit()}
              data-testid="forward-submit"
            >
              {t('chatTools.forward.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------

export function ContactCardDialog({
  onClose,
  onSend,
}: {
  onClose: () => void;
  onSend: (contact: ContactDto) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [contact, setContact] = useState<ContactDto | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog isOpen onClose={onClose} title={t('chatTools.contactCard.title')}>
      <DialogBody>
        <ContactPicker selected={contact} onSelect={setContact} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('chatTools.cancel')}</Button>
            <Button
              intent="primary"
              loading={busy}
              disabled={!contact}
              data-testid="contact-card-submit"
              onClick={async () => {
                if (!contact) return;
                setBusy(true);
                const ok = await onSend(contact);
                setBusy(false);
                if (ok) onClose();
              }}
            >
              {t('chatTools.contactCard.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------

export function MentionDialog({
  ticketId,
  body,
  onClose,
  onSent,
}: {
  ticketId: number;
  body: string;
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const [numbers, setNumbers] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [mention, { isLoading }] = useSendMentionMutation();
  const submit = async () => {
    if (!body.trim()) {
      setError(t('chatTools.mention.bodyRequired'));
      return;
    }
    const list = numbers
      .split(/[,;\s]+/)
      .map((n) => n.replace(/\D/g, ''))
      .filter(Boolean);
    if (list.some((n) => n.length < 5 || n.length > 20)) {
      setError(t('chatTools.mention.invalid'));
      return;
    }
    const result = await mention({ ticketId, body, mentions: list });
    if ('error' in result) setError(describeRefusal(result.error, t));
    else {
      onSent();
      onClose();
    }
  };
  return (
    <Dialog isOpen onClose={onClose} title={t('chatTools.mention.title')}>
      <DialogBody>
        <p className="mention-preview">{body}</p>
        <FormGroup
          label={t('chatTools.mention.numbers')}
          labelFor="mention-numbers"
          helperText={t('chatTools.mention.numbersHelp')}
        >
          <InputGroup
            id="mention-numbers"
            value={numbers}
            onChange={(e) => setNumbers(e.target.value)}
            data-testid="mention-numbers"
          />
        </FormGroup>
        {error && (
          <Callout intent="danger" compact data-testid="mention-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('chatTools.cancel')}</Button>
            <Button intent="primary" loading={isLoading} onClick={() => void submit()} data-testid="mention-submit">
              {t('chatTools.mention.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
