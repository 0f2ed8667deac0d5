import { Button, Card, H5, Tag } from '@blueprintjs/core';
import {
  ChannelBirthdaySchema,
  ChannelFarewellSchema,
  type ChannelBirthdayInput,
  type ChannelFarewellInput,
} from '@shared/schemas/birthdays';
import type { ChannelDto } from '@shared/schemas/channels';
import { useTranslation } from 'react-i18next';
import { useUpdateChannelBirthdayMutation, useUpdateChannelFarewellMutation } from '../../api/birthdays.api';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, SelectField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { MessageEditor } from './message-editor';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

function ChannelHeader({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  return (
    <div className="auto-message-card-header">
      <H5>{channel.name}</H5>
      <Tag minimal>{channel.type}</Tag>
      {channel.isDefault ? (
        <Tag minimal intent="primary">
          {t('automaticMessages.defaultChannel')}
        </Tag>
      ) : null}
    </div>
  );
}

interface BirthdayValues {
  birthdayMessage: string;
  /** '' = no hour; else '0'..'23'. */
  birthdayHour: string;
}

/** One channel's birthday message and the whole hour it goes out (tenant's time zone). */
export function BirthdayChannelForm({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const form = useZodForm<BirthdayValues, ChannelBirthdayInput>(ChannelBirthdaySchema, {
    birthdayMessage: channel.birthdayMessage ?? '',
    birthdayHour: channel.birthdayHour === null ? '' : String(channel.birthdayHour),
  });
  const [save, saving] = useUpdateChannelBirthdayMutation();
  const testId = `birthday-channel-${channel.id}`;
  const submit = form.handleSubmit(async (body) => {
    try {
      await save({ id: channel.id, body }).unwrap();
      showToast(t('automaticMessages.birthdaySaved', { channel: channel.name }), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, ['birthdayMessage', 'birthdayHour']);
    }
  });
  return (
    <Card compact data-testid={testId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <ChannelHeader channel={channel} />
        <MessageEditor
          form={form}
          name="birthdayMessage"
          label={t('automaticMessages.birthdayMessage')}
          testId={`${testId}-message`}
        />
        <div className="auto-message-row">
          <SelectField
            control={form.control}
            name="birthdayHour"
            label={t('automaticMessages.birthdayHour')}
            options={[
              { value: '', label: t('automaticMessages.noHour') },
              ...HOURS.map((hour) => ({ value: String(hour), label: `${String(hour).padStart(2, '0')}:00` })),
            ]}
            testId={`${testId}-hour`}
          />
          <Button
            type="submit"
            intent="primary"
            icon="floppy-disk"
            text={t('automaticMessages.save')}
            loading={saving.isLoading}
            data-testid={`${testId}-save`}
          />
        </div>
        <FormErrorSummary control={form.control} testId={`${testId}-summary`} />
      </form>
    </Card>
  );
}

/** One channel's farewell message, sent when a ticket of the channel is resolved. */
export function FarewellChannelForm({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const form = useZodForm<{ farewellMessage: string }, ChannelFarewellInput>(ChannelFarewellSchema, {
    farewellMessage: channel.farewellMessage ?? '',
  });
  const [save, saving] = useUpdateChannelFarewellMutation();
  const testId = `farewell-channel-${channel.id}`;
  const submit = form.handleSubmit(async (body) => {
    try {
      await save({ id: channel.id, body }).unwrap();
      showToast(t('automaticMessages.farewellSaved', { channel: channel.name }), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, ['farewellMessage']);
    }
  });
  return (
    <Card compact data-testid={testId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <ChannelHeader channel={channel} />
        <MessageEditor
          form={form}
          name="farewellMessage"
          label={t('automaticMessages.farewellMessage')}
          testId={`${testId}-message`}
        />
        <div className="auto-message-row">
          <Button
            type="submit"
            intent="primary"
            icon="floppy-disk"
            text={t('automaticMessages.save')}
            loading={saving.isLoading}
            data-testid={`${testId}-save`}
          />
        </div>
        <FormErrorSummary control={form.control} testId={`${testId}-summary`} />
      </form>
    </Card>
  );
}
