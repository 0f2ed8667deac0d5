import { Button, FormGroup } from '@blueprintjs/core';
import { MESSAGE_VARIABLES, messageVariableToken, type MessageVariable } from '@shared/message-variables';
import { useTranslation } from 'react-i18next';

/**
 * The message variables of spec section 2 ({{name}}, {{greeting}}...), each with what it becomes
 * when the message is sent; clicking one types it at the cursor of the message field.
 */
export function MessageVariablesHelp({ onInsert }: { onInsert(variable: MessageVariable): void }) {
  const { t } = useTranslation();
  return (
    <FormGroup label={t('quickMessages.variablesTitle')} helperText={t('quickMessages.variablesHelp')}>
      <div className="message-variables" data-testid="message-variables">
        {MESSAGE_VARIABLES.map((variable) => (
          <Button
            key={variable}
            size="small"
            variant="outlined"
            onClick={() => onInsert(variable)}
            title={t(`quickMessages.variables.${variable}`)}
            aria-label={t('quickMessages.insertVariable', {
              token: messageVariableToken(variable),
              meaning: t(`quickMessages.variables.${variable}`),
            })}
            data-testid={`variable-${variable}`}
          >
            <code>{messageVariableToken(variable)}</code>
            <span className="message-variable-meaning">{t(`quickMessages.variables.${variable}`)}</span>
          </Button>
        ))}
      </div>
    </FormGroup>
  );
}
